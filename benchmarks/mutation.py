"""Mutation testing of the engines and of combos.py on a seeded sample of mutants
(docs/testing.md).

A full mutation run over `src/conquian/offer/` and `src/conquian/rummy/` takes many
hours on a small machine; this script measures the engines' score on a random sample of
their mutants instead. It lists every mutant of the engines' functions (an ast walk over
each module), draws a seeded sample stratified by module (each module gets its share of the
sample in proportion to its number of mutants, at least one), and runs each sampled mutant
against its package's test selection in a fresh process, with a time limit.

The *targets* are the two engine packages, ``offer`` and ``rummy`` (the default),
``combos/core``, the combinatorics (`src/conquian/combos/core.py`), and ``combos/reasons``,
its `explain` (`src/conquian/combos/reasons.py`), each with its own test selection;
``--targets`` chooses among them (``--targets combos/core combos/reasons`` for the
combinations alone).

The mutations, applied one at a time inside function bodies (never to docstrings,
annotations, decorators or strings):

- a comparison flipped: ``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``,
  ``in`` and ``not in``, ``is`` and ``is not``;
- an arithmetic or bitwise operator swapped (``+`` and ``-``, ``*`` for ``//``, ``|``
  and ``&``, ...), in an expression or an augmented assignment;
- ``and`` and ``or`` swapped; a ``not`` or a unary minus removed;
- an int constant plus one and minus one; ``True`` and ``False`` swapped;
- ``return x`` made ``return None``;
- a statement dropped (an expression statement, an assignment, ``raise``, ``break``,
  ``continue``), an ``if`` branch dropped (its test made False) or its ``else`` dropped.

The run works in a temporary copy of the worktree (``src/``, ``tests/``, ``docs/``,
``conftest.py``, ``pyproject.toml``): for each mutant it writes the mutated module (the
module's tree printed back by ``ast.unparse``), runs
``python -m pytest -x -q -p no:cacheprovider --hypothesis-seed=0 <selection>`` there with
``HYPOTHESIS_PROFILE=dev`` and the copy's ``src`` first on ``PYTHONPATH``, and puts the
module back. A mutant is *killed* when a test fails, an *import failure* when the tests
cannot be collected (the library no longer imports), a *timeout* when the run takes more
than three times the unmutated run plus ten seconds, and *survived* when every test passes.
Before the mutants, each package's selection runs once on its modules printed back
unmutated: it must pass (a printed-back module is the same code, without its comments).

Usage (run it niced on a shared machine; it uses one process at a time)::

    python benchmarks/mutation.py --count                      # mutants per module
    python benchmarks/mutation.py --sample 200 --seed 18 --json mutation.json
    python benchmarks/mutation.py --show offer/turn.py:41   # one mutant's change
    python benchmarks/mutation.py --run offer/turn.py:41 rummy/melds.py:7
    python benchmarks/mutation.py --sample 200 --seed 18 --list  # the sample's names only
    python benchmarks/mutation.py --run rummy/view.py:2 --tests tests/encoding/test_encoding.py
    python benchmarks/mutation.py --targets combos --sample 100 --seed 18
    python benchmarks/mutation.py --run combos.py:250              # a mutant of combos.py

A mutant's name is its module (relative to ``src/conquian``) and its index in the module's
list of mutants; names are stable while the module's source does not change. Its target is
the module's package, or ``combos`` for ``combos.py``.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("offer", "rummy")  # the engines: the default targets
# "combos/core" is the combinatorics, src/conquian/combos/core.py; "combos/reasons" is its
# `explain`, kept apart
TARGETS = (*PACKAGES, "combos/core", "combos/reasons")

# The tests each package's mutants run against: the package's own tests first, the quickest
# and most relevant before the rest (`-x` stops at the first failure), then the package's
# doctests and the tests of what is built on the engines. Only the slow end-to-end files
# (agents, encoding, CLI, reliability, threads, simulation, docs) are left out.
_COMMON = [
    "tests/test_mutation_gaps.py",
    "tests/combos/test_explain.py",
    "tests/formats/test_records.py",
    "tests/test_showing.py",
    "tests/test_public_edges.py",
    "tests/test_game.py",
    "tests/test_rules.py",
    "tests/test_scoring.py",
    "tests/render/test_diagram.py",
    "tests/render/test_svg.py",
    "tests/test_determinize.py",
    "tests/properties/test_explanations.py",
]
SELECTION: dict[str, list[str]] = {
    "offer": [
        "tests/offer/test_offer.py",
        "tests/offer/test_offer_package.py",
        "tests/offer/test_offer_golden.py",
        "tests/offer/test_offer_sources.py",
        "src/conquian/offer",
        *_COMMON,
        "tests/agents/test_search.py",
        "tests/properties/test_offer_props.py",
        "tests/properties/test_offer_options.py",
    ],
    "rummy": [
        "tests/rummy/test_rummy.py",
        "tests/rummy/test_rummy_package.py",
        "tests/rummy/test_rummy_golden.py",
        "tests/rummy/test_rummy_oracle.py",
        "src/conquian/rummy",
        *_COMMON,
        "tests/properties/test_rummy_props.py",
    ],
    # combos.py's doctests, its own tests, and the other tests that call it directly: the
    # error messages of `explain`, the cooncan pre-filter against `melds_in`, the caches,
    # a combination drawn for Jupyter.
    "combos/core": [
        "src/conquian/combos/core.py",
        "tests/combos/test_combos.py",
        "tests/test_mutation_gaps.py",
        "tests/test_actions.py",
        "tests/combos/test_explain.py",
        "tests/rummy/test_rummy_package.py",
        "tests/test_collector.py",
        "tests/render/test_svg.py",
    ],
    # why a set of cards is no combination: its doctests, its tests and the messages quoting it
    "combos/reasons": [
        "src/conquian/combos/reasons.py",
        "tests/combos/test_explain.py",
        "tests/test_mutation_gaps.py",
        "tests/combos/test_combos.py",
        "tests/properties/test_explanations.py",
    ],
}

_COMPARE_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BINOP_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.BitXor: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}
_DROPPABLE = (
    ast.Expr,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.Raise,
    ast.Break,
    ast.Continue,
)


@dataclass(frozen=True)
class Mutant:
    """One change to one module: the node (by its index in `ast.walk`) and what is done."""

    module: str  # relative to src/conquian, e.g. "offer/turn.py"
    index: int  # position in the module's list of mutants
    node: int  # position of the changed node in `list(ast.walk(tree))`
    kind: str  # e.g. "compare 0", "int +1", "drop"
    line: int

    @property
    def name(self) -> str:
        return f"{self.module}:{self.index}"

    @property
    def package(self) -> str:
        """The target the mutant belongs to: its package, or the module for a module target."""
        return target_of(self.module)


def target_of(module: str) -> str:
    return module.split("/", 1)[0].removesuffix(".py")


def _is_docstring(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _skipped(tree: ast.Module) -> set[int]:
    """The ids of the nodes never mutated: annotations, decorators, docstrings, strings'
    insides, `if TYPE_CHECKING:` blocks, and everything outside a function body."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(n) for n in ast.walk(node))

    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for stmt in node.body:
                inside.update(id(n) for n in ast.walk(stmt))
            for dec in node.decorator_list:
                skip(dec)
            skip(node.returns)
            for arg in [*node.args.args, *node.args.posonlyargs, *node.args.kwonlyargs]:
                skip(arg.annotation)
            skip(node.args.vararg.annotation if node.args.vararg else None)
            skip(node.args.kwarg.annotation if node.args.kwarg else None)
        elif isinstance(node, ast.AnnAssign):
            skip(node.annotation)
        if (
            isinstance(node, ast.JoinedStr)
            or _is_docstring(node)
            or (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
        ):
            skip(node)
    skipped.update(id(n) for n in ast.walk(tree) if id(n) not in inside)
    return skipped


def _kinds(node: ast.AST) -> Iterator[str]:
    """The mutations that apply to one node (see `_apply`)."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _COMPARE_SWAP:
                yield f"compare {i}"
    elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _BINOP_SWAP:
        yield "operator"
    elif isinstance(node, ast.BoolOp):
        yield "boolean"
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        yield "unary"
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield "bool"
    elif isinstance(node, ast.Constant) and isinstance(node.value, int):
        yield "int +1"
        yield "int -1"
    if (
        isinstance(node, ast.Return)
        and node.value is not None
        and ast.unparse(node.value) != "None"
    ):
        yield "return None"
    if isinstance(node, _DROPPABLE) and not _is_docstring(node):
        yield "drop"
    if isinstance(node, ast.If):
        yield "drop if"
        if node.orelse:
            yield "drop else"


def _apply(node: ast.AST, parent: ast.AST | None, kind: str) -> None:
    """Change `node` in place (its `parent` holds it in a statement list)."""
    if kind.startswith("compare"):
        assert isinstance(node, ast.Compare)
        i = int(kind.split()[1])
        node.ops[i] = _COMPARE_SWAP[type(node.ops[i])]()
    elif kind == "operator":
        assert isinstance(node, (ast.BinOp, ast.AugAssign))
        node.op = _BINOP_SWAP[type(node.op)]()
    elif kind == "boolean":
        assert isinstance(node, ast.BoolOp)
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "unary":
        assert isinstance(node, ast.UnaryOp)
        if isinstance(node.op, ast.USub):
            node.op = ast.UAdd()  # `-x` becomes `+x`
        else:
            _replace_child(parent, node, node.operand)  # `not x` becomes `x`
    elif kind == "bool":
        assert isinstance(node, ast.Constant)
        node.value = not node.value
    elif kind in ("int +1", "int -1"):
        assert isinstance(node, ast.Constant) and isinstance(node.value, int)
        node.value = node.value + (1 if kind == "int +1" else -1)
    elif kind == "return None":
        assert isinstance(node, ast.Return)
        node.value = ast.Constant(value=None)
    elif kind == "drop":
        _replace_child(parent, node, ast.Pass())
    elif kind == "drop if":
        assert isinstance(node, ast.If)
        node.test = ast.Constant(value=False)
    elif kind == "drop else":
        assert isinstance(node, ast.If)
        node.orelse = []
    else:
        raise ValueError(f"unknown mutation {kind!r}")


def _replace_child(parent: ast.AST | None, node: ast.AST, new: ast.AST) -> None:
    """Put `new` where `parent` holds `node` (a field or an item of a list field)."""
    for field, value in ast.iter_fields(parent) if parent is not None else ():
        if value is node:
            setattr(parent, field, new)
            return
        if isinstance(value, list) and any(item is node for item in value):
            value[next(i for i, item in enumerate(value) if item is node)] = new
            return
    raise ValueError("node not found in its parent")


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    return parents


def mutants_of(module: str) -> list[Mutant]:
    """Every mutant of one module, in a fixed order (the order of `ast.walk`)."""
    tree = ast.parse((ROOT / "src" / "conquian" / module).read_text())
    skipped = _skipped(tree)
    found: list[Mutant] = []
    for position, node in enumerate(ast.walk(tree)):
        if id(node) in skipped:
            continue
        for kind in _kinds(node):
            line = getattr(node, "lineno", 0)
            found.append(Mutant(module, len(found), position, kind, line))
    return found


def mutated_source(mutant: Mutant) -> str:
    """The module's source with the mutant applied, printed back by `ast.unparse`."""
    tree = ast.parse((ROOT / "src" / "conquian" / mutant.module).read_text())
    nodes = list(ast.walk(tree))
    parents = _parents(tree)
    node = nodes[mutant.node]
    _apply(node, parents.get(id(node)), mutant.kind)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def printed_back(module: str) -> str:
    """The module unmutated, printed back the same way (the baseline's source)."""
    return ast.unparse(ast.parse((ROOT / "src" / "conquian" / module).read_text())) + "\n"


def modules_of(targets: tuple[str, ...] = PACKAGES) -> list[str]:
    """The modules of these targets, relative to src/conquian: a package's modules, or the
    target's own module (``combos.py``)."""
    found: list[str] = []
    for target in targets:
        if (ROOT / "src" / "conquian" / f"{target}.py").is_file():
            found.append(f"{target}.py")
        else:
            found.extend(
                f"{target}/{path.name}"
                for path in sorted((ROOT / "src" / "conquian" / target).glob("*.py"))
            )
    return found


def sample(size: int, seed: int, targets: tuple[str, ...] = PACKAGES) -> list[Mutant]:
    """A seeded sample stratified by module: shares in proportion to the module's mutants
    (largest remainders), at least one per module that has any."""
    per_module = {m: mutants_of(m) for m in modules_of(targets)}
    per_module = {m: ms for m, ms in per_module.items() if ms}
    total = sum(len(ms) for ms in per_module.values())
    exact = {m: size * len(ms) / total for m, ms in per_module.items()}
    shares = {m: max(1, int(x)) for m, x in exact.items()}
    by_remainder = sorted(per_module, key=lambda m: (-(exact[m] - int(exact[m])), m))
    for m in by_remainder:
        if sum(shares.values()) >= size:
            break
        shares[m] += 1
    rng = random.Random(seed)
    picked: list[Mutant] = []
    for m in sorted(per_module):
        picked.extend(
            sorted(
                rng.sample(per_module[m], min(shares[m], len(per_module[m]))),
                key=lambda mu: mu.index,
            )
        )
    return picked


def by_name(name: str) -> Mutant:
    module, _, index = name.rpartition(":")
    return mutants_of(module)[int(index)]


def show(mutant: Mutant) -> str:
    before = printed_back(mutant.module).splitlines()
    after = mutated_source(mutant).splitlines()
    diff = difflib.unified_diff(before, after, mutant.module, mutant.name, n=2, lineterm="")
    return "\n".join(diff)


class Workspace:
    """A temporary copy of the worktree in which one module at a time is replaced."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="conquian-mutation-"))
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
        for name in ("src", "tests", "docs"):
            shutil.copytree(ROOT / name, self.dir / name, ignore=ignore)
        for name in ("conftest.py", "pyproject.toml"):
            shutil.copy2(ROOT / name, self.dir / name)

    def path(self, module: str) -> Path:
        return self.dir / "src" / "conquian" / module

    def write(self, module: str, source: str) -> None:
        target = self.path(module)
        for cached in (target.parent / "__pycache__").glob(f"{target.stem}.*.pyc"):
            cached.unlink()
        target.write_text(source)

    def restore(self, module: str) -> None:
        self.write(module, (ROOT / "src" / "conquian" / module).read_text())

    def run_tests(self, package: str, timeout: float | None) -> tuple[str, float, str]:
        """Run the package's selection: the outcome, the seconds it took, the first test
        that failed (or the error) as pytest's summary names it."""
        shutil.rmtree(self.dir / ".hypothesis", ignore_errors=True)
        env = dict(os.environ, PYTHONPATH=str(self.dir / "src"), HYPOTHESIS_PROFILE="dev")
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-x",
            "-q",
            "-p",
            "no:cacheprovider",
            "--hypothesis-seed=0",
            *SELECTION[package],
        ]
        start = time.monotonic()
        try:
            done = subprocess.run(
                command, cwd=self.dir, env=env, capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            return "timeout", time.monotonic() - start, ""
        seconds = time.monotonic() - start
        first = next(
            (line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))),
            "",
        )
        if done.returncode == 0:
            return "survived", seconds, first
        if done.returncode == 1:
            return "killed", seconds, first
        if "ERROR collecting" in done.stdout or "while loading conftest" in done.stderr:
            return "import failure", seconds, first
        return f"killed (pytest exit {done.returncode})", seconds, first

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def run(mutants: list[Mutant], report: Callable[[dict[str, object]], None]) -> None:
    """Run each mutant, after checking each package's selection on printed-back modules."""
    workspace = Workspace()
    try:
        limits: dict[str, float] = {}
        for package in sorted({m.package for m in mutants}):
            modules = modules_of((package,))
            for module in modules:
                workspace.write(module, printed_back(module))
            outcome, seconds, _ = workspace.run_tests(package, timeout=None)
            for module in modules:
                workspace.restore(module)
            if outcome != "survived":
                raise SystemExit(f"the {package} selection fails on unmutated code: {outcome}")
            limits[package] = 3 * seconds + 10
            print(f"baseline {package}: {seconds:.1f} s, limit {limits[package]:.0f} s", flush=True)
        for mutant in mutants:
            workspace.write(mutant.module, mutated_source(mutant))
            outcome, seconds, first = workspace.run_tests(mutant.package, limits[mutant.package])
            workspace.restore(mutant.module)
            report(
                {
                    "name": mutant.name,
                    "kind": mutant.kind,
                    "line": mutant.line,
                    "outcome": outcome,
                    "seconds": round(seconds, 1),
                    "failed": first,
                }
            )
    finally:
        workspace.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", action="store_true", help="count the mutants per module")
    parser.add_argument("--sample", type=int, help="run a seeded sample of this many mutants")
    parser.add_argument("--seed", type=int, default=18, help="the sample's seed (default 18)")
    parser.add_argument("--show", nargs="+", metavar="NAME", help="print mutants' changes")
    parser.add_argument("--run", nargs="+", metavar="NAME", help="run chosen mutants")
    parser.add_argument("--list", action="store_true", help="with --sample: list, do not run")
    parser.add_argument("--json", type=Path, help="write the outcomes to this file")
    parser.add_argument(
        "--targets",
        nargs="+",
        choices=TARGETS,
        default=list(PACKAGES),
        help="what --count and --sample cover (default: the engines, two_hand cooncan)",
    )
    parser.add_argument(
        "--tests", nargs="+", metavar="PATH", help="run these tests instead of the selection"
    )
    args = parser.parse_args(argv)

    if args.count:
        for module in modules_of(tuple(args.targets)):
            print(f"{len(mutants_of(module)):5d}  {module}")
        return
    if args.show:
        for name in args.show:
            print(show(by_name(name)))
        return
    if args.sample:
        chosen = sample(args.sample, args.seed, tuple(args.targets))
    elif args.run:
        chosen = [by_name(name) for name in args.run]
    else:
        parser.error("give --count, --sample, --show or --run")
    if args.list:
        for mutant in chosen:
            print(f"{mutant.name:28s} line {mutant.line:4d}  {mutant.kind}")
        return

    results: list[dict[str, object]] = []

    def report(result: dict[str, object]) -> None:
        results.append(result)
        print(
            f"{result['outcome']:16s} {result['seconds']:6.1f} s  {result['name']:28s} "
            f"line {result['line']:4d}  {result['kind']}",
            flush=True,
        )
        if args.json:
            args.json.write_text(json.dumps(results, indent=1) + "\n")

    if args.tests:
        for target in TARGETS:
            SELECTION[target] = args.tests
    run(chosen, report)
    tally: dict[str, dict[str, int]] = {}
    for result in results:
        package = target_of(str(result["name"]).rpartition(":")[0])
        outcome = str(result["outcome"])
        tally.setdefault(package, {}).setdefault(outcome, 0)
        tally[package][outcome] += 1
    for package, counts in sorted(tally.items()):
        print(package, ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
