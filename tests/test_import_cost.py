"""`import conquian` loads what the core needs and no more: the network, e-mail, XML, process
and process-pool modules of the standard library are imported where they are used (a
process bot, `simulate` on processes), never by the import of the package."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = (
    "concurrent.futures",
    "email",
    "http",
    "multiprocessing",
    "socket",
    "ssl",
    "subprocess",
    "urllib.request",
    "xml",
)


def _modules_after(code: str) -> set[str]:
    """The modules loaded by a fresh interpreter that runs `code`."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_import_conquian_loads_none_of_the_heavy_modules() -> None:
    loaded = _modules_after("import conquian")
    assert _heavy(loaded) == []
    assert "conquian.render.svg" not in loaded  # pictures are drawn when asked for
    assert len(loaded) < 240  # 290 before the heavy modules were kept out


def test_the_heavy_modules_come_with_what_uses_them() -> None:
    """The check can fail: the same probe sees them once a process pool is imported."""
    loaded = _modules_after(
        "import conquian\nfrom concurrent.futures import ProcessPoolExecutor\nimport subprocess"
    )
    assert {"concurrent.futures", "subprocess"} <= set(_heavy(loaded))
    assert "conquian" in loaded and json.dumps(sorted(loaded))
