"""What the documentation site and the README promise, checked without building the site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def setting(name: str) -> str:
    found = re.search(rf"^{name}:\s*(\S+)\s*$", MKDOCS, flags=re.MULTILINE)
    assert found is not None, f"mkdocs.yml has no {name}"
    return found.group(1)


def test_the_site_knows_its_address_so_the_404_page_works_under_a_sub_path() -> None:
    """site_url (ending in /) makes the 404 page's links absolute; repo_url links the source."""
    assert re.fullmatch(r"https://[^ ]+/", setting("site_url"))
    assert setting("repo_url").startswith("https://github.com/")


def test_the_docs_extra_can_format_signatures() -> None:
    """mkdocstrings formats separate signatures with ruff or black: the docs extra has one."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    docs = [re.split(r"[<>=\[ ]", req)[0] for req in project["optional-dependencies"]["docs"]]
    assert "mkdocstrings" in docs and ({"ruff", "black"} & set(docs))
    if "separate_signature: true" in MKDOCS:
        assert {"ruff", "black"} & set(docs)


def test_api_pages_have_no_intro_of_their_own() -> None:
    """An API page is its module's docstring: no hand-written heading or intro repeats it."""
    pages = sorted((ROOT / "docs" / "reference" / "api").glob("*.md"))
    assert len(pages) >= 12
    for page in pages:
        text = page.read_text(encoding="utf-8").strip()
        assert text.startswith(":::"), f"{page.name} has text before the ::: directive"
        assert text.count(":::") == 1
        assert f"api/{page.name}" in MKDOCS, f"{page.name} is not in the nav"


def test_every_tutorial_is_in_the_nav() -> None:
    """Every tutorial (two-hand Conquian, three-hand and double-pack Cooncan, Coo-Can) is
    reachable, and the home page's "Where to go next" links each."""
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    pages = sorted((ROOT / "docs" / "tutorial").glob("*.md"))
    assert {p.name for p in pages} >= {"index.md", "cooncan.md", "double-pack.md", "coo-can.md"}
    for page in pages:
        assert f"(tutorial/{page.name})" in index
        assert f"tutorial/{page.name}" in MKDOCS


def test_the_readme_names_the_command_explains_tableau_and_warns_about_cooncan_loops() -> None:
    """A new user learns of `conquian play`, what a tableau is, and that Cooncan loops need
    `turn_limit` (M11)."""
    assert "conquian play" in README
    assert re.search(r"\*\*tableau\*\*: the stock ran out with no winner", README)
    assert "turn_limit" in README and "Cooncan loops need" in README


def test_install_instructions_work_before_and_after_the_first_release() -> None:
    """README and the docs' home page give a git (or checkout) install and the PyPI one."""
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    for text in (README, index):
        assert "git+https://github.com/conquian/conquian" in text
        assert "pip install conquian" in text


def test_the_engine_pages_do_not_map_rules_to_private_modules() -> None:
    """The docs build drops the engines' maps of their private modules (for the readers of
    the source) from the module docstrings; the rest of the docstring stays."""
    pytest.importorskip("griffe")
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "doctest_fences", ROOT / "docs" / "_ext" / "doctest_fences.py"
    )
    assert spec is not None and spec.loader is not None
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    import conquian.offer
    import conquian.rummy

    for module in (conquian.offer, conquian.rummy):
        text = module.__doc__ or ""
        assert "Where each rule lives" in text
        shown = ext.drop_source_maps(text)
        assert "Where each rule lives" not in shown and "The modules, in the order" not in shown
        assert not re.search(r"`(say|turn|tables|melds|explain|dealing)\.\w+`", shown)
        assert shown.split("\n\n")[0] == text.split("\n\n")[0]


@pytest.mark.parametrize(
    "module", ["conquian", "conquian.game", "conquian.table", "conquian.records"]
)
def test_the_api_pages_examples_run_outside_doctest(module: str) -> None:
    """A module docstring is an API page's introduction: its examples import what they use,
    so that they run as they read, in a fresh namespace (not only under pytest's doctest,
    which lends the module's own names)."""
    import doctest
    import importlib

    doc = importlib.import_module(module).__doc__ or ""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    test = doctest.DocTestParser().get_doctest(doc, {}, module, None, 0)
    runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 0


def test_the_readme_lists_every_game_of_the_command_and_the_suites_length() -> None:
    """`conquian play --game NAME` for every game of the registry but the default, and how
    long the test suite takes."""
    from conquian import GAMES

    for name in GAMES:
        assert name == "conquian" or f"--game {name}" in README, name
    assert re.search(r"suite, which takes about a\s+minute", README)


def test_api_pages_list_the_main_names_first_and_hide_none() -> None:
    """An API page that orders its members (main names before helpers) names only names
    its module has, and every name of the module's ``__all__``: an explicit list hides
    nothing. The pages of the main names start with them."""
    import importlib

    firsts = {"game.md": "new_game", "state.md": "State", "agents.md": "play"}
    # re-exported names documented on their own page: one path a name
    elsewhere = {"coocan.md": {"CooCanRules"}, "game.md": {"shuffle"}}
    ordered = 0
    for page in sorted((ROOT / "docs" / "reference" / "api").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        found = re.search(r"^::: (\S+)$", text, re.M)
        listed = re.search(r"^\s+members: \[(.*)\]$", text, re.M)
        assert found is not None
        if listed is None:
            continue
        ordered += 1
        module = importlib.import_module(found.group(1))
        members = [m.strip() for m in listed.group(1).split(",")]
        assert len(set(members)) == len(members), page.name
        for name in members:
            assert hasattr(module, name), f"{page.name}: {name}"
        hidden = set(getattr(module, "__all__", ())) - set(members)
        assert hidden == elsewhere.get(page.name, set()), page.name
        if page.name in firsts:
            assert members[0] == firsts[page.name], page.name
    assert ordered >= 10


RULES = ROOT / "docs" / "rules"


def _anchors() -> set[str]:
    """The rule ids with a section anchor (``{#t24}``) or an anchor tag on a rules page."""
    found: set[str] = set()
    for page in RULES.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        found.update(re.findall(r"\{#([ctmke]\d+)\}", text))
        found.update(re.findall(r'<a id="([ctmke]\d+)">', text))
    return found


def test_every_rule_id_has_a_section_with_an_anchor() -> None:
    """Every rule id of the rules contract has a section and a stable link on a rules page:
    T23, T24, T27 (points, three at a table, the double stake) and M14, M15 (seven
    players, a game of one round) included. T26 belongs to the ace option's own work."""
    ids = {f"c{i}" for i in range(1, 8)} | {f"e{i}" for i in range(1, 4)}
    ids |= {f"t{i}" for i in range(1, 28) if i != 26}
    ids |= {f"m{i}" for i in range(1, 16)} | {f"k{i}" for i in range(1, 10)}
    assert ids - _anchors() == set()


def test_the_rules_index_names_every_rule_range() -> None:
    """The rules index's ranges of ids and its two-hand row are those of the contract."""
    index = (RULES / "index.md").read_text(encoding="utf-8")
    assert "T1–T27 for\nConquian" in index and "M1–M15 for Cooncan" in index
    assert "T1–T19" not in index
    two_hand = next(line for line in index.splitlines() if line.startswith("| [Conquian]("))
    assert "T1–T15, T20–T27" in two_hand


def test_law_5_is_played_not_called_inapplicable() -> None:
    """M15: law 5 (one round of deals is a game) is played (`Match(rules, rounds=1)`); the
    Cooncan pages link M15 and no longer list law 5 among laws that do not apply."""
    for name in ("three-hand.md", "double-pack.md"):
        text = " ".join((RULES / name).read_text(encoding="utf-8").split())
        assert "[M15](#m15)" in text
        for clause in re.split(r"(?<=[.;])\s", text):
            if "do not apply" in clause or "does not apply" in clause:
                assert "law 5" not in clause and "laws 3–6" not in clause, clause
