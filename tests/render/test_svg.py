"""`conquian.render.svg`: positions, views and combinations drawn as SVG (Jupyter's
`_repr_svg_`)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import ConquianRules, CooncanRules, Rules, State, cards, new_game
from conquian.combos.core import Order, build
from conquian.render.svg import diagram_of, render

SVG = "{http://www.w3.org/2000/svg}"
GAMES: tuple[Rules, ...] = (
    ConquianRules(),
    CooncanRules.three_hand(turn_limit=60),
    CooncanRules.double_pack(players=6, turn_limit=60),
)


def walk(rules: Rules, seed: int, steps: int) -> State:
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=rng.randrange(rules.players))
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


positions = st.builds(walk, st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(0, 90))


def card_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "card" in g.get("class", "").split()]


def titles(root: ET.Element) -> list[str]:
    return [g.find(f"{SVG}title").text or "" for g in card_groups(root)]  # type: ignore[union-attr]


@settings(max_examples=30)
@given(positions)
def test_a_state_renders_as_one_svg_with_every_card_in_hand_and_on_the_table(state: State) -> None:
    """The SVG parses as XML; one card is drawn per card in a hand or on the table, plus the
    card on offer, the pending cards and one back for a non-empty stock or pack."""
    root = ET.fromstring(state._repr_svg_())
    assert root.tag == f"{SVG}svg" and float(root.get("width", 0)) > 0
    in_hands = sum(len(state.hand(p)) for p in range(state.rules.players))
    on_table = sum(len(m) for m in state.table)
    extra = 0
    if isinstance(state.rules, ConquianRules):
        s: object = state
        extra += (getattr(s, "offer", None) is not None and not state.is_over) + len(
            getattr(s, "pending", ())
        )
        extra += len(getattr(s, "buried", ())) + (getattr(s, "stock_size", 0) > 0)
    else:
        extra += len(getattr(state, "stock", ())) + (getattr(state, "pack_size", 0) > 0)
    assert len(card_groups(root)) == in_hands + on_table + extra


@settings(max_examples=30)
@given(positions, st.data())
def test_a_view_draws_other_hands_face_down(state: State, data: st.DataObject) -> None:
    """In a view the other hands are backs, except the cards known to be there (C6)."""
    player = data.draw(st.integers(0, state.rules.players - 1))
    view = state.view(player)
    root = ET.fromstring(view._repr_svg_())
    backs = sum("card-back" in g.get("class", "") for g in card_groups(root))
    hidden = sum(
        view.hand_sizes[p] - len(getattr(view, "known", [()] * 9)[p])
        for p in range(state.rules.players)
        if p != player and getattr(view, "hands", None) is None  # C6: shown once over
    )
    piles = int(getattr(view, "stock_size", getattr(view, "pack_size", 0)) > 0)
    assert backs == hidden + piles


def test_a_combination_has_its_repr_svg() -> None:
    """Combination._repr_svg_ draws its cards, low to high, named for screen readers."""
    combo = build(cards("6H 4H 5H"), Order.of("spanish"), owner=1)
    assert combo is not None
    root = ET.fromstring(combo._repr_svg_())
    assert titles(root) == ["four of hearts", "five of hearts", "six of hearts"]
    assert "seat 1" in root.get("aria-label", "")


def test_render_takes_cards_and_refuses_other_things() -> None:
    """A sequence of cards is one row; anything else is a TypeError."""
    root = ET.fromstring(render(cards("10S QC")))
    assert titles(root) == ["ten of spades", "queen of clubs"]
    with pytest.raises(TypeError):
        render([1, 2])


def test_the_picture_has_the_zones_of_the_text_diagram() -> None:
    """Row labels name the hands, the table, the offer and the stock; the caption is the status."""
    state = new_game(ConquianRules(), seed=3, dealer=1)
    picture = diagram_of(state)
    labels = [row.label for row in picture.rows]
    assert labels == [
        "seat 0: 10 cards, 0 melded",
        "seat 1: 10 cards, 0 melded",
        "table",
        "offer to seat 0 (turned for seat 0, T11)",
        "stock: 19 cards face down",
    ]
    assert picture.caption == "seat 0 has the say to 3♠"
    view_rows = diagram_of(state.view(1)).rows
    assert view_rows[0].label == "seat 1 (this view): 10 cards, 0 melded"
    root = ET.fromstring(render(state))
    texts = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "row-label"]
    assert texts == labels


def test_a_wide_table_wraps() -> None:
    """No row of the table holds more than 14 cards, so a long table wraps onto more rows."""
    rng = random.Random(5)
    state = new_game(CooncanRules.double_pack(players=2, turn_limit=400), seed=5)
    while not state.is_over and sum(len(m) for m in state.table) < 30:
        acts = state.legal_actions()
        melds = [a for a in acts if str(a).startswith(("meld", "force"))]
        state = state.apply(rng.choice(melds or acts))
    rows = [r for r in diagram_of(state).rows if any(tag for tag, _ in r.melds)]
    assert len(rows) >= 2
    assert all(len(r.items) <= 14 or len(r.melds) == 1 for r in rows)
    assert sum(len(r.melds) for r in rows) == len(state.table)


@settings(max_examples=20)
@given(positions)
def test_no_row_of_cards_is_longer_than_fourteen_except_one_long_meld(state: State) -> None:
    """Hands, the stock and the buried cards wrap; the picture stays about 640 pixels wide."""
    for row in diagram_of(state).rows:
        assert len(row.items) <= 14 or (len(row.melds) == 1 and any(t for t, _ in row.melds))
