"""The card diagrams of the documentation (`conquian.render.svg` and the MkDocs hook in docs/_ext).

The renderer turns the text of a ```cards block into an HTML figure of inline
SVG; these tests parse its output as XML and check what it draws. Every
```cards block of the docs is also rendered here, so that a bad card fails
the tests as well as the docs build.
"""

from __future__ import annotations

import importlib
import itertools
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conquian import NotationError
from conquian.render import svg as card_svg

ROOT = Path(__file__).resolve().parent.parent
EXT = ROOT / "docs" / "_ext"
SVG = "{http://www.w3.org/2000/svg}"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(EXT))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(EXT))


def figure(source: str) -> ET.Element:
    """The rendered block, parsed as XML (it must be well-formed)."""
    return ET.fromstring(card_svg.render_block(source))


def svgs(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}svg"))


def card_groups(element: ET.Element) -> list[ET.Element]:
    return [g for g in element.iter(f"{SVG}g") if "card" in g.get("class", "").split()]


def fills(group: ET.Element) -> set[str]:
    return {t.get("fill", "") for t in group.iter(f"{SVG}text")}


def test_a_block_is_a_figure_with_one_labelled_svg_row_per_line() -> None:
    """Each line gives a row with its label and one <svg>; the caption is a <figcaption>."""
    root = figure("hand: 4H 5H 6H KD\ntable: 4H 5H 6H | 7C 7D 7S\noffer: 5H\ncaption: A & B")
    assert root.tag == "figure" and root.get("class") == "cards-diagram"
    labels = [d.text for d in root.iter("div") if d.get("class") == "cards-label"]
    assert labels == ["hand", "table", "offer"]
    assert len(svgs(root)) == 3
    assert root.find("figcaption") is not None and root.find("figcaption").text == "A & B"


def test_one_card_group_per_card() -> None:
    """Every card is one <g class="card">, with its name in a <title> for screen readers."""
    root = figure("hand: 4H 5H 6H KD\ntable: 4H 5H 6H | 7C 7D 7S")
    hand, table = svgs(root)
    assert len(card_groups(hand)) == 4 and len(card_groups(table)) == 6
    titles = [g.find(f"{SVG}title").text for g in card_groups(hand)]
    assert titles == ["four of hearts", "five of hearts", "six of hearts", "king of diamonds"]
    assert hand.get("role") == "img" and "king of diamonds" in hand.get("aria-label", "")


def test_the_rank_and_the_suit_symbol_are_written_on_the_card() -> None:
    """A card shows its rank and its suit symbol; ten is written 10."""
    (svg,) = svgs(figure("hand: 10S QC"))
    ten, queen = card_groups(svg)
    assert [t.text for t in ten.iter(f"{SVG}text")][:2] == ["10", "\u2660"]
    assert [t.text for t in queen.iter(f"{SVG}text")][:2] == ["Q", "\u2663"]
    assert ten.find(f"{SVG}rect").get("rx") == str(card_svg.RADIUS)  # a rounded rectangle


def test_hearts_and_diamonds_are_red_clubs_and_spades_black() -> None:
    """The red suits are drawn in red, the black suits in black."""
    (svg,) = svgs(figure("hand: 5H 5D 5C 5S"))
    hearts, diamonds, clubs, spades = card_groups(svg)
    assert fills(hearts) == fills(diamonds) == {card_svg.RED}
    assert fills(clubs) == fills(spades) == {card_svg.BLACK}
    assert "card-red" in hearts.get("class", "") and "card-red" not in clubs.get("class", "")


def test_a_joker_is_drawn_distinctly_and_a_named_joker_shows_its_card() -> None:
    """JK in a hand, JK=4D in a sequence and JK=5 in a group are jokers; the named ones say what
    they stand for."""
    (svg,) = svgs(figure("jokers: JK JK=4D JK=5"))
    plain, named, group = card_groups(svg)
    for g in (plain, named, group):
        assert "card-joker" in g.get("class", "")
        assert g.find(f"{SVG}rect").get("fill") == card_svg.JOKER_FACE
    assert [t.text for t in named.iter(f"{SVG}text")][:3] == ["JK", "4", "\u2666"]
    assert card_svg.RED in fills(named)
    assert [t.text for t in group.iter(f"{SVG}text")][:2] == ["JK", "5"]
    assert named.find(f"{SVG}title").text == "joker standing for the four of diamonds"
    assert group.find(f"{SVG}title").text == "joker standing for a five"


def test_a_shifted_joker_lies_crossways_and_is_marked() -> None:
    """JK=6H* is a joker shifted once (M9): drawn on its side, wider than tall, with a mark."""
    (svg,) = svgs(figure("sequence: JK=6H* 7H 8H 9H"))
    shifted, seven, *_ = card_groups(svg)
    assert "card-shifted" in shifted.get("class", "")
    rect = shifted.find(f"{SVG}rect")
    assert float(rect.get("width")) > float(rect.get("height"))
    assert "\u21bb" in [t.text for t in shifted.iter(f"{SVG}text")]
    assert shifted.find(f"{SVG}title").text == "shifted joker standing for the six of hearts"
    assert "card-shifted" not in seven.get("class", "")


def test_tags_highlights_backs_and_empty_rows() -> None:
    """@0 is written above its meld, +5H is highlighted, ?? is face down and - is empty."""
    root = figure("table: @0 4H 5H 6H | @1 7C 7D 7S\noffer: +5H\nstock: ?? ??\nhand: -")
    table, offer, stock, hand = svgs(root)
    tags = [t.text for t in table.iter(f"{SVG}text") if t.get("class") == "meld-tag"]
    assert tags == ["@0", "@1"]
    (five,) = card_groups(offer)
    assert "card-highlight" in five.get("class", "")
    assert five.find(f"{SVG}rect").get("stroke") == card_svg.HIGHLIGHT
    assert all("card-back" in g.get("class", "") for g in card_groups(stock))
    assert card_groups(hand) == [] and "no cards" in hand.get("aria-label", "")


def test_the_cards_of_a_row_do_not_overlap_and_fit_the_svg() -> None:
    """Cards go left to right inside the row's width; combinations are further apart."""
    (svg,) = svgs(figure("table: 4H 5H 6H | 7C 7D 7S"))
    xs = [
        float(re.match(r"translate\(([\d.]+)", g.get("transform", "")).group(1))
        for g in card_groups(svg)
    ]
    steps = [b - a for a, b in itertools.pairwise(xs)]
    assert all(s >= card_svg.WIDTH for s in steps)
    assert steps[2] > steps[0]
    assert xs[-1] + card_svg.WIDTH <= float(svg.get("width"))


@pytest.mark.parametrize("bad", ["1H", "5X", "JK=ZZ", "4H*", "hearts"])
def test_a_bad_card_raises_the_librarys_notation_error(bad: str) -> None:
    """Cards are read with conquian's own parser, so bad notation is a NotationError."""
    with pytest.raises(NotationError):
        card_svg.render_block(f"hand: 4H {bad}")


@pytest.mark.parametrize("bad", ["4H 5H 6H", "hand:", "caption: only a caption", "t: 4H | | 5H"])
def test_a_malformed_block_raises_value_error(bad: str) -> None:
    """A line without a label, a block without rows or an empty combination is refused."""
    with pytest.raises(ValueError):
        card_svg.render_block(bad)


def test_the_hook_adds_the_fence_and_fails_the_build_on_a_bad_card() -> None:
    """The MkDocs hook registers the cards fence; a bad card raises SuperFencesException."""
    superfences = pytest.importorskip("pymdownx.superfences")
    hook = _load("card_diagrams")
    config: dict[str, Any] = {
        "markdown_extensions": ["pymdownx.superfences"],
        "mdx_configs": {"pymdownx.superfences": {}},
    }
    hook.on_config(config)
    (fence,) = config["mdx_configs"]["pymdownx.superfences"]["custom_fences"]
    assert fence["name"] == "cards"
    html = fence["format"]("hand: 5H", "cards", "cards", {}, None)
    assert ET.fromstring(html).tag == "figure"
    with pytest.raises(superfences.SuperFencesException, match="1H"):
        fence["format"]("hand: 1H", "cards", "cards", {}, None)


def _doc_blocks() -> list[tuple[str, str]]:
    """Every ```cards block of the docs: (file:line, source)."""
    found = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^(\s*)```cards\s*$", line)
            if m is None:
                continue
            body = []
            for inner in lines[i + 1 :]:
                if inner.strip() == "```":
                    break
                body.append(inner[len(m.group(1)) :])
            found.append((f"{path.relative_to(ROOT).as_posix()}:{i + 1}", "\n".join(body)))
    return found


DOC_BLOCKS = _doc_blocks()


@pytest.mark.parametrize("source", [s for _, s in DOC_BLOCKS], ids=[i for i, _ in DOC_BLOCKS])
def test_every_diagram_of_the_docs_renders(source: str) -> None:
    """Each cards block of the docs parses, and renders to well-formed XML."""
    assert svgs(figure(source))


def test_the_docs_have_diagrams() -> None:
    """The collector sees the diagrams (guards against a silent no-op)."""
    assert len(DOC_BLOCKS) >= 10
