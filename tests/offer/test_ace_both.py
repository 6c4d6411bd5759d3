"""T26, the ace high as well: `ConquianRules(ace="both")` in the offer engine, its documents,
its action ids and at the command line.

The encyclopedia melds "three to ten cards from the sequence A 2 3 4 5 6 7 J Q K A":
the ace below the two or above the king, never both in one sequence. The
property test of ``tests/properties/test_offer_options.py`` plays random deals
with ``ace="both"`` against the oracle; these are the positions by hand.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conquian import (
    Borrow,
    ConquianRules,
    ConquianState,
    GameRecord,
    IllegalActionError,
    State,
    card,
    cards,
    new_game,
    parse_action,
)
from conquian.encoding import ActionSpace

BOTH = ConquianRules(ace="both")


def arrange(rules: ConquianRules, pone: str, dealer: str, turned: str = "") -> list[object]:
    """A deck that deals these hands (two at a time, pone first), then turns these cards."""
    p, d = cards(pone), cards(dealer)
    deck: list[object] = []
    for i in range(0, rules.hand_size, 2):
        deck += p[i : i + 2] + d[i : i + 2]
    deck += cards(turned)
    return deck + [c for c in rules.pack_cards() if c not in deck]


def dealt(rules: ConquianRules, pone: str, dealer: str, turned: str) -> ConquianState:
    state = new_game(rules, deck=arrange(rules, pone, dealer, turned), dealer=0)  # type: ignore[arg-type]
    assert isinstance(state, ConquianState)
    return state


def play(state: State, actions: str) -> ConquianState:
    for action in actions.split(","):
        state = state.apply(action.strip())
    assert isinstance(state, ConquianState)
    return state


DEALER = "AC 3C 7C 6D 7D 4H 5H 3S 2S 6C"


def test_t26_q_k_a_melds_at_the_say_k_a_2_does_not() -> None:
    """T26: with the say (T8 "say") the pone may lay down Q K A from his hand; K A 2 is refused
    naming T26; under the default rules Q K A is refused too (Hoyle 1897)."""
    state = dealt(BOTH, "QS KS AS JH QH KH KD AD 2D 5C", DEALER, "AH")
    legal = {str(a) for a in state.legal_actions()}
    assert "meld QS KS AS" in legal
    assert not any(a.startswith("meld") and "KD" in a and "2D" in a for a in legal)
    with pytest.raises(IllegalActionError, match="never both \\(T26\\)"):
        state.apply("meld KD AD 2D")
    low = dealt(ConquianRules(), "QS KS AS JH QH KH KD AD 2D 5C", DEALER, "AH")
    assert "meld QS KS AS" not in {str(a) for a in low.legal_actions()}


def test_t26_j_q_k_a_and_the_ace_borrowed_off_the_high_end() -> None:
    """T26 with T9: the ace taken makes J Q K A; borrowed off its high end it leaves J Q K and
    goes low into A 2 3 in the same turn."""
    state = dealt(BOTH, "JH QH KH 2H 3H 5C 5D 6S 4S 4C", DEALER, "AH")
    state = play(state, "take AH, meld JH QH KH AH")
    assert [str(m) for m in state.table] == ["JH QH KH AH"]
    assert Borrow(card("AH"), 0) in state.legal_actions()
    state = play(state, "borrow AH @0")
    assert [str(m) for m in state.table] == ["JH QH KH"]
    assert [str(a) for a in state.legal_actions()] == ["meld AH 2H 3H"]
    state = play(state, "meld AH 2H 3H, discard 5C")
    assert sorted(str(m) for m in state.table) == ["AH 2H 3H", "JH QH KH"]


def test_t26_the_engine_tables_add_the_ace_at_either_end() -> None:
    """T26 in the offer engine's tables: a sequence from the two to the king takes the ace
    (one card, once: the ace low in the ten-card sequence); Q K takes it above, and the ace
    has Q K among its partners; without T26 nothing follows the king."""
    from conquian.combos.core import build
    from conquian.offer.board import OWNER_BITS, key
    from conquian.offer.tables import Tables, combination, sequence_order, tables_for

    def grown(tables: Tables, meld: object) -> list[int]:
        """The masks of the melds `meld` grows into, its chains laid end to end."""
        chains = tables.all_extensions(key(meld) >> OWNER_BITS)  # type: ignore[arg-type]
        return [mask for chain in chains for mask in chain]

    order = sequence_order("spanish", None, "both")
    tables = tables_for(BOTH)
    two_to_king = build(cards("2H 3H 4H 5H 6H 7H JH QH KH"), order)
    assert two_to_king is not None
    bigger = grown(tables, two_to_king)
    assert [str(combination(m << OWNER_BITS)) for m in bigger] == ["AH 2H 3H 4H 5H 6H 7H JH QH KH"]
    jqk = build(cards("JH QH KH"), order)
    assert jqk is not None
    assert "JH QH KH AH" in [str(combination(m << OWNER_BITS)) for m in grown(tables, jqk)]
    assert tables.two_partners(card("AH").index, 1 << card("QH").index | 1 << card("KH").index)
    low = tables_for(ConquianRules())
    assert not low.two_partners(card("AH").index, 1 << card("QH").index | 1 << card("KH").index)
    held = key(jqk) >> OWNER_BITS
    assert held | 1 << card("AH").index not in grown(low, jqk)


def test_t26_documents_write_ace_only_when_both() -> None:
    """T26 in the formats: `ace` is written only when it is "both" (documents of before read
    as "low"); a position and a record under it read back equal."""
    rng = random.Random(3)
    state: State = new_game(BOTH, seed=3)
    for _ in range(40):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    assert json.loads(state.to_json())["rules"]["ace"] == "both"
    assert State.from_json(state.to_json()) == state
    record = GameRecord.from_state(state)
    assert GameRecord.from_json(record.to_json()).replay() == state
    assert "ace" not in json.loads(new_game(ConquianRules(), seed=3).to_json())["rules"]
    data = json.loads(GameRecord.from_state(new_game(ConquianRules(), seed=3)).to_json())
    data["rules"]["ace"] = "both"
    data["rules"]["pack"] = "american"
    with pytest.raises(Exception, match=r"rules\.ace"):
        GameRecord.from_json(json.dumps(data))


def test_t26_action_ids_add_the_high_ace_melds_and_leave_the_others_alone() -> None:
    """T26 in `ActionSpace`: the rules with the high ace number Q K A and J Q K A; the rules of
    before keep their ids (4,247 for the default, pinned by the golden files too); every
    legal action of random deals under `ace="both"` has an id that gives it back."""
    low, both = ActionSpace(ConquianRules()), ActionSpace(BOTH)
    assert len(low) == 4247 and len(both) > len(low)
    qka = parse_action("meld QC KC AC")
    with pytest.raises(ValueError):
        low.index(qka)
    assert both.action(both.index(qka)) == qka
    assert both.action(both.index(parse_action("meld JC QC KC AC"))) == parse_action(
        "meld AC JC QC KC"
    )
    for seed in range(6):
        rng = random.Random(seed)
        state: State = new_game(BOTH, seed=seed)
        while not state.is_over:
            for action in state.legal_actions():
                assert both.action(both.index(action)) == action
            state = state.apply(rng.choice(state.legal_actions()))


def test_t26_at_the_command_line(tmp_path: Path) -> None:
    """``conquian play --option ace=both`` plays it; with the American pack it is one error
    line naming T26, exit 2."""
    run = [sys.executable, "-m", "conquian", "play", "--seed", "3"]
    ok = subprocess.run(
        [*run, "--option", "ace=both"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,  # quitting saves the deal in the current directory
    )
    assert ok.returncode == 0 and "Two-hand Conquian" in ok.stdout
    bad = subprocess.run(
        [*run, "--option", "ace=both", "--option", "pack=american"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert bad.returncode == 2 and "(T26)" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("pack", ["spanish", "standard"])
def test_t26_bots_and_samples_play_it(pack: str) -> None:
    """T26 beyond the engine: the heuristic bot (its hand analysis places the ace at both
    ends) finishes deals, and every view samples states that give it back (C6)."""
    from conquian.agents import HeuristicAgent, play

    rules = ConquianRules(pack=pack, ace="both")  # type: ignore[arg-type]
    for seed in range(8):
        final = play([HeuristicAgent(seed=seed), HeuristicAgent(seed=seed + 1)], rules, seed=seed)
        assert final.is_over
        rng = random.Random(seed)
        state: State = new_game(rules, seed=seed)
        while not state.is_over:
            view = state.view(state.current_player)
            assert view.sample_state(rng).view(state.current_player) == view  # type: ignore[attr-defined]
            state = state.apply(rng.choice(state.legal_actions()))


def test_t26_t10_the_ace_forced_above_the_king() -> None:
    """T26 with T10: a random deal (seed 9, 37 random actions) reaches an ace of clubs on offer
    that fits J Q K of clubs above the king: the force is legal and makes J Q K A."""
    rng = random.Random(9)
    state: State = new_game(BOTH, seed=9)
    for _ in range(37):
        state = state.apply(rng.choice(state.legal_actions()))
    force = parse_action("force AC @0")
    assert str(state.table[0]) == "JC QC KC" and force in state.legal_actions()
    assert str(state.apply(force).table[0]) == "JC QC KC AC"
