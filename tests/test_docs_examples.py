"""Run the Python examples of the README and the documentation.

Every fenced code block whose info string is exactly ``python`` in
``README.md`` and ``docs/**/*.md`` is a test, named by file and the line of
its opening fence (``docs/rules/conquian.md:120``). The blocks of one file run
in order in one fresh namespace, so a later block may use the names an earlier
one defined. Blocks fenced as ``pycon``, ``text``, ``console`` or with any
other info string (``python title="x"`` included) are shown, not run.

A ``text title="Output"`` block that follows a ``python`` block (with nothing
but blank lines between them) is that block's printed output: the test
checks that the code prints exactly this text (trailing spaces and blank
lines at the end aside).
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

ROOT = Path(__file__).resolve().parent.parent

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@attrs.frozen
class Block:
    """One fenced ``python`` block: the file it is in, its line and its code."""

    file: str
    line: int
    source: str
    output: str | None = None

    @property
    def id(self) -> str:
        """The test id, ``path:line`` relative to the repository root."""
        return f"{self.file}:{self.line}"


def _markdown_files() -> list[Path]:
    """README.md and every Markdown file under docs/, in a stable order."""
    files = [ROOT / "README.md"] if (ROOT / "README.md").is_file() else []
    docs = ROOT / "docs"
    if docs.is_dir():
        files.extend(sorted(docs.rglob("*.md")))
    return files


_OUTPUT = re.compile(r'^text\s+title="Output"$')


def _blocks(path: Path) -> list[Block]:
    """The fenced blocks of one file whose info string is exactly ``python``.

    Each gets the ``text title="Output"`` block that follows it, if one does.
    """
    rel = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    last_end = -1  # the line after the last python block, while only blank lines follow it
    while i < len(lines):
        m = _OPEN.match(lines[i])
        if m is None or (m["fence"][0] == "`" and "`" in m["info"]):
            if lines[i].strip():
                last_end = -1
            i += 1
            continue
        indent, fence, info = m["indent"], m["fence"], m["info"].strip()
        start = i + 1  # 1-based line number of the opening fence
        body: list[str] = []
        i += 1
        while i < len(lines):
            stripped = lines[i].strip()
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                break
            text = lines[i]
            body.append(text[len(indent) :] if text.startswith(indent) else text.lstrip())
            i += 1
        i += 1  # past the closing fence (or the end of the file)
        if info == "python":
            found.append(Block(rel, start, "\n".join(body) + "\n"))
            last_end = i
            continue
        if _OUTPUT.match(info) and last_end >= 0 and found:
            found[-1] = attrs.evolve(found[-1], output="\n".join(body))
        last_end = -1
    return found


BLOCKS: list[Block] = [b for f in _markdown_files() for b in _blocks(f)]

# Per file: the shared namespace, how many of its blocks have run, and the
# block that failed, if one did. Filled lazily so that a single test (``-k``)
# or a test on another xdist worker still runs the earlier blocks first.
_STATE: dict[str, dict[str, Any]] = {}


def _file_state(file: str) -> dict[str, Any]:
    return _STATE.setdefault(file, {"ns": {"__name__": "__main__"}, "done": 0, "failed": None})


def _tidy(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def _execute(block: Block, ns: dict[str, Any]) -> None:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block.source, block.id, "exec"), ns)
    if block.output is not None:
        assert _tidy(printed.getvalue()) == _tidy(block.output), (
            f"{block.id} printed:\n{printed.getvalue()}\nbut the page shows:\n{block.output}"
        )


# The frameworks of the optional extras: a page whose example needs one that is not
# installed is skipped (CI installs them).
_EXTRAS = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy")


def _needs_extra(error: BaseException) -> bool:
    return isinstance(error, ModuleNotFoundError) and (error.name or "").split(".")[0] in _EXTRAS


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_docs_example(block: Block) -> None:
    """The example runs after the earlier examples of its file."""
    same_file = [b for b in BLOCKS if b.file == block.file]
    index = same_file.index(block)
    state = _file_state(block.file)
    while state["done"] < index and state["failed"] is None:
        earlier = same_file[state["done"]]
        try:
            _execute(earlier, state["ns"])
        except Exception:
            state["failed"] = earlier.id
        else:
            state["done"] += 1
    if state["failed"] is not None and state["failed"] != block.id:
        pytest.skip(f"an earlier example failed: {state['failed']}")
    if state["done"] > index:
        return  # already run as an earlier block of another test
    try:
        _execute(block, state["ns"])
    except Exception as e:
        state["failed"] = block.id
        if _needs_extra(e):
            pytest.skip(f"needs an optional extra: {e}")
        raise
    state["done"] += 1


def test_blocks_are_found() -> None:
    """The collector sees the examples of the docs and their outputs (guards against a no-op)."""
    assert any(b.file.startswith("docs/") for b in BLOCKS) or not (ROOT / "docs").is_dir()
    assert any(b.output is not None for b in BLOCKS) or not (ROOT / "docs").is_dir()
