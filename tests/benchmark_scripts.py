"""The benchmark scripts of ``benchmarks/`` as modules, for their tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` loaded as the module `name`, its folder on the path as when
    it runs as a script (a script may import another: `ablate_search` imports `ladder`)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
