"""The command line's output shown in the docs is what the same command prints today.

The pages *Command line* (``docs/reference/cli.md``) and *Run simulations*
(``docs/how-to/simulations.md``) show the figures of ``conquian simulate`` and its JSON,
and the top-level ``--help``. Each ``console`` block whose command is one of these is run
here (through `conquian.cli.main`, at 80 columns) and compared with the page: every line
but the speed line, which depends on the machine; for ``--json``, every field but the
times, and no field missing or extra (the page formats the one line for reading).
"""

from __future__ import annotations

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from conquian.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("docs/reference/cli.md", "docs/how-to/simulations.md")
_BLOCK = re.compile(r"^```console\n(.*?)^```", re.S | re.M)
_TIMES = ("elapsed", "games_per_second")


def _shown() -> list[tuple[str, list[str], str]]:
    """(page, arguments, the output shown) for each block of a command checked here."""
    found = []
    for page in PAGES:
        for block in _BLOCK.findall((ROOT / page).read_text(encoding="utf-8")):
            first, _, shown = block.partition("\n")
            if not first.startswith("$ python -m conquian ") or "\n$ " in block:
                continue
            args = shlex.split(first.removeprefix("$ python -m conquian "))
            simulate = args[:1] == ["simulate"] and "--quiet" in args and "--games" in args
            if simulate or args == ["--help"]:
                found.append((page, args, shown))
    return found


SHOWN = _shown()


def _run(args: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    try:
        status = main(args)
    except SystemExit as e:  # --help
        status = int(e.code or 0)
    assert status == 0
    return out.getvalue()


def test_the_blocks_are_found() -> None:
    kinds = {(page, "--json" in args, args[0]) for page, args, _ in SHOWN}
    assert ("docs/reference/cli.md", True, "simulate") in kinds
    assert ("docs/reference/cli.md", False, "simulate") in kinds
    assert ("docs/how-to/simulations.md", False, "simulate") in kinds
    assert ("docs/reference/cli.md", False, "--help") in kinds


@pytest.mark.parametrize(
    ("page", "args", "shown"), SHOWN, ids=[f"{p}:{' '.join(a)}" for p, a, _ in SHOWN]
)
def test_the_page_shows_what_the_command_prints(
    page: str, args: list[str], shown: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    printed = _run(args, monkeypatch)
    if "--json" in args:
        want, got = json.loads(shown), json.loads(printed)
        assert sorted(want) == sorted(got), f"{page}: the JSON fields differ"
        for key in _TIMES:
            want.pop(key), got.pop(key)
        assert want == got
        return

    def lines(text: str) -> list[str]:
        return [ln.rstrip() for ln in text.strip().splitlines() if "speed:" not in ln]

    assert lines(shown) == lines(printed)
