"""Packaging promises: one runtime dependency, the README's commands, one version."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

import pytest

import conquian

ROOT = Path(__file__).resolve().parent.parent

QUICK_START_COMMANDS = (
    "python -m pip install . && python -m conquian demo",
    'python -m pip install -e ".[test]" && python -m pytest',
)

# A public version in PEP 440 canonical form: 1.2.3, 1.2.3rc1, 1.2.3.post1, 1.2.3.dev4.
PEP440_PUBLIC = re.compile(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?")


def _requirement_name(requirement: str) -> str:
    """The normalized project name at the start of a requirement string."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match is not None, requirement
    return re.sub(r"[-_.]+", "-", match.group()).lower()


def _pyproject() -> dict[str, object]:
    """pyproject.toml, parsed (skips the test where tomllib is missing, Python 3.10)."""
    tomllib = pytest.importorskip("tomllib")
    with (ROOT / "pyproject.toml").open("rb") as file:
        data: dict[str, object] = tomllib.load(file)
    return data


def _fenced_blocks(markdown: str) -> list[str]:
    """The bodies of the fenced code blocks of a Markdown text, in order."""
    return re.findall(r"^```[^\n]*\n(.*?)^```", markdown, flags=re.MULTILINE | re.DOTALL)


def test_runtime_dependencies_are_only_attrs() -> None:
    """pyproject.toml declares attrs, and nothing else, as a runtime dependency."""
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    assert [_requirement_name(req) for req in project["dependencies"]] == ["attrs"]


def test_installed_metadata_requires_only_attrs() -> None:
    """The installed distribution requires attrs and nothing else outside the extras."""
    try:
        requires = metadata.requires("conquian") or []
    except metadata.PackageNotFoundError:
        pytest.skip("conquian is not installed as a distribution")
    runtime = [req for req in requires if "extra ==" not in req.replace("extra==", "extra ==")]
    assert [_requirement_name(req) for req in runtime] == ["attrs"]


def test_readme_quick_start_has_the_two_commands() -> None:
    """The README's quick start code block holds the install-and-run commands verbatim."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    heading = re.search(r"^## Quick start\s*$", readme, flags=re.MULTILINE)
    assert heading is not None, "README.md has no '## Quick start' section"
    blocks = _fenced_blocks(readme[heading.end() :])
    assert blocks, "the quick start section has no code block"
    lines = [line.strip() for line in blocks[0].splitlines()]
    for command in QUICK_START_COMMANDS:
        assert command in lines


def test_version_is_pep440() -> None:
    """``conquian.__version__`` is a public PEP 440 version in canonical form."""
    assert isinstance(conquian.__version__, str)
    assert PEP440_PUBLIC.fullmatch(conquian.__version__), conquian.__version__


def test_version_has_a_single_source() -> None:
    """pyproject.toml reads the version from the ``__version__`` line of ``__init__.py``."""
    pyproject = _pyproject()
    project = pyproject["project"]
    assert isinstance(project, dict)
    assert "version" not in project
    assert "version" in project["dynamic"]
    tool = pyproject["tool"]
    assert isinstance(tool, dict)
    path = tool["hatch"]["version"]["path"]
    source = (ROOT / path).read_text(encoding="utf-8")
    declared = re.findall(r"^__version__\s*=\s*[\"']([^\"']+)[\"']", source, flags=re.MULTILINE)
    assert declared == [conquian.__version__]


def test_changelog_versions_follow_the_scheme() -> None:
    """CHANGELOG.md has an Unreleased section; released ones are dated PEP 440 versions."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](.*)$", changelog, flags=re.MULTILINE)
    assert headings, "CHANGELOG.md has no '## [...]' sections"
    assert headings[0][0] == "Unreleased"
    for version, rest in headings[1:]:
        assert PEP440_PUBLIC.fullmatch(version), version
        assert re.fullmatch(r" - \d{4}-\d{2}-\d{2}", rest), f"{version}: no ' - YYYY-MM-DD' date"


def test_version_is_not_older_than_the_changelog() -> None:
    """Released CHANGELOG.md sections run newest first, none newer than ``__version__``."""
    version = pytest.importorskip("packaging.version").Version
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = [
        version(v) for v in re.findall(r"^## \[([^\]]+)\]", changelog, flags=re.MULTILINE)[1:]
    ]
    assert released == sorted(released, reverse=True)
    if released:
        assert version(conquian.__version__) >= released[0]


def _mypyc_hook() -> dict[str, object]:
    """The wheel's mypyc build hook table of pyproject.toml."""
    tool = _pyproject()["tool"]
    assert isinstance(tool, dict)
    hook: dict[str, object] = tool["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    return hook


def test_plain_install_is_pure_python() -> None:
    """The compiled build is off unless asked for: building needs neither mypy nor a compiler."""
    pyproject = _pyproject()
    build_system = pyproject["build-system"]
    assert isinstance(build_system, dict)
    assert [_requirement_name(req) for req in build_system["requires"]] == ["hatchling"]
    hook = _mypyc_hook()
    assert hook["enable-by-default"] is False
    assert isinstance(hook["dependencies"], list)
    assert {_requirement_name(req) for req in hook["dependencies"]} >= {"hatch-mypyc", "mypy"}


def test_compiled_build_leaves_the_shim_and_the_entry_points_pure() -> None:
    """mypyc compiles modules under src/conquian only, never the shim, CLI or package entry."""
    include = _mypyc_hook()["include"]
    assert isinstance(include, list) and include
    for pattern in include:
        assert pattern.startswith("/src/conquian/"), pattern
        assert not pattern.endswith(("/_mypyc.py", "/cli.py", "/__init__.py")), pattern
        assert pattern != "/src/conquian/", "the whole package would be compiled"


def test_readme_and_release_build_the_compiled_wheel_the_same_way() -> None:
    """README's command and the release's cibuildwheel both switch the hook on by its variable."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "HATCH_BUILD_HOOKS_ENABLE=1 python -m pip install ." in readme
    tool = _pyproject()["tool"]
    assert isinstance(tool, dict)
    assert tool["cibuildwheel"]["environment"]["HATCH_BUILD_HOOKS_ENABLE"] == "1"
    release = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert "pypa/cibuildwheel@" in release
    assert "python -m build" in release  # the sdist and the pure wheel
