"""Hostile and edited documents: sheets, match files and views that must be refused with a
`RecordError` naming the problem, and documents the library writes that must load back
(E2, E3, C6, C7, M11, M12, M13, K3, T21).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from conquian import (
    ConquianRules,
    CooCanRules,
    CooncanRules,
    GameRecord,
    Match,
    PlayerView,
    RecordError,
    Result,
    ScoreSheet,
    State,
    new_game,
)
from conquian.match import MAX_MATCH_ACTIONS, deal_seed


def _played(match: Match, deals: int, seed: int = 0) -> Match:
    """`match` played at random for `deals` deals (the last one finished)."""
    rng = random.Random(seed)
    for k in range(deals):
        while not match.state.is_over:
            match = match.apply(rng.choice(match.state.legal_actions()))
        if k + 1 < deals and not match.is_over:
            match = match.next_deal()
    return match


# -- score sheets and match files missing a field (M12) ----------------------------------------


@pytest.mark.parametrize("field", ["tie", "points", "rows", "players"])
def test_m12_a_sheet_missing_a_field_is_a_record_error_naming_it(field: str) -> None:
    """A sheet without `tie` or `points` (or any field) raises RecordError naming the field,
    not a KeyError."""
    sheet = ScoreSheet(2).add(Result("win", winner=0, payments=(1, -1)), dealer=1)
    data = json.loads(sheet.to_json())
    del data[field]
    with pytest.raises(RecordError, match=rf"\b{field}: missing"):
        ScoreSheet.from_json(json.dumps(data))


@pytest.mark.parametrize("field", ["tie", "points"])
def test_m12_a_match_file_whose_sheet_misses_a_field_is_a_record_error(field: str) -> None:
    """A match file whose sheet lacks `tie` or `points`: RecordError naming sheet.<field>."""
    data = json.loads(_played(Match(ConquianRules(), seed=3, deals=2), 1).to_json())
    del data["sheet"][field]
    with pytest.raises(RecordError, match=rf"sheet\.{field}: missing"):
        Match.from_json(json.dumps(data))


# -- match files bound to their seed ----------------------------------------------------------


def test_a_match_file_with_its_seed_edited_is_refused() -> None:
    """Changing only the top-level seed of a match file is refused: its deals' seeds are
    the old seed's (deal_seed), and later deals would come from the new one."""
    match = _played(Match(ConquianRules(), seed=5, deals=3), 2)
    data = json.loads(match.to_json())
    assert data["played"][1]["seed"] == deal_seed(5, 1)
    data["seed"] = 6
    with pytest.raises(RecordError, match=r"played\[0\]\.seed: not the seed of deal 0"):
        Match.from_json(json.dumps(data))


def test_a_seeded_match_file_with_a_null_seed_is_refused() -> None:
    """`"seed": null` for a seeded match is refused (next_deal would then fail)."""
    data = json.loads(_played(Match(ConquianRules(), seed=5, deals=3), 1).to_json())
    data["seed"] = None
    with pytest.raises(RecordError, match="a match without a seed"):
        Match.from_json(json.dumps(data))


def test_a_seeded_match_whose_first_deal_is_a_deck_is_refused() -> None:
    """A seeded match deals its first deal from its seed: a deck there is refused."""
    match = _played(Match(ConquianRules(), seed=5, deals=3), 1)
    data = json.loads(match.to_json())
    del data["played"][0]["seed"]
    data["played"][0]["deck"] = [str(c) for c in match.state.deck]  # type: ignore[attr-defined]
    with pytest.raises(RecordError, match="first deal from its seed"):
        Match.from_json(json.dumps(data))


def test_an_unseeded_match_of_decks_still_loads() -> None:
    """A match of explicit decks has a null seed, and loads back equal."""
    pack = ConquianRules().pack_cards()
    match = _played(Match(ConquianRules(), deck=pack, deals=3), 1)
    match = match.next_deal(deck=tuple(reversed(pack)))
    assert Match.from_json(match.to_json()) == match


# -- match files: linear loading and a file-wide action limit ---------------------------------


def test_loading_a_match_checks_each_sheet_row_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a match of n deals checks n sheet rows, not n(n+1)/2 (the whole sheet
    again for each deal); playing adds one row at a time the same way."""
    import conquian.scoring as scoring

    match = _played(Match(CooncanRules.double_pack(players=3, turn_limit=3), seed=1, deals=40), 40)
    assert len(match.sheet.rows) == 40
    text = match.to_json()
    calls = 0
    check = scoring._check_row

    def counted(*args: object) -> None:
        nonlocal calls
        calls += 1
        check(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(scoring, "_check_row", counted)
    assert Match.from_json(text) == match
    assert calls <= 2 * 40  # the rows of the deals, and those of the sheet written in the file


def test_a_match_file_past_the_action_limit_is_refused_on_both_sides() -> None:
    """The action limit is file-wide (all deals together): writing past it raises, and so
    does reading, naming MAX_MATCH_ACTIONS."""
    match = _played(Match(ConquianRules(), seed=2, deals=3), 3)
    data = json.loads(match.to_json())
    per_deal = MAX_MATCH_ACTIONS // 2 + 1
    data["played"][0]["actions"] = ["pass"] * per_deal
    data["played"][1]["actions"] = ["pass"] * per_deal
    with pytest.raises(RecordError, match=f"actions, more than the limit of {MAX_MATCH_ACTIONS}"):
        Match.from_json(json.dumps(data))


def test_a_match_past_the_action_limit_is_not_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer keeps to the same file-wide limit (here lowered to what three deals hold),
    so whatever it writes loads back."""
    import conquian.match

    match = _played(Match(ConquianRules(), seed=2, deals=3), 3)
    total = sum(len(r.actions) for r in match.records())
    monkeypatch.setattr(conquian.match, "MAX_MATCH_ACTIONS", total - 1)
    with pytest.raises(RecordError, match=f"{total} actions, more than the limit"):
        match.to_json()
    monkeypatch.setattr(conquian.match, "MAX_MATCH_ACTIONS", total)
    assert Match.from_json(match.to_json()) == match


# -- views: edited Coo-Can and trading views ---------------------------------------------------


def _views(rules: object, seed: int, every: int = 3) -> list[str]:
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)  # type: ignore[arg-type]
    out = []
    k = 0
    while not state.is_over:
        if k % every == 0:
            out.extend(state.view(p).to_json() for p in range(state.rules.players))
        state = state.apply(rng.choice(state.legal_actions()))
        k += 1
    return out


@pytest.mark.parametrize("entry", ["pass", "trade", "trade 5H", "borrow 5H @0", "force 5H @0"])
def test_k3_a_coocan_history_entry_replaced_by_a_move_of_another_game_is_refused(
    entry: str,
) -> None:
    """A Coo-Can view whose history holds pass or trade (no Coo-Can move, K3) is a
    RecordError naming the entry, not an AttributeError from the sampler."""
    views = [json.loads(v) for v in _views(CooCanRules(players=3, turn_limit=20), 1)]
    tried = 0
    for data in views:
        if len(data["history"]) > 3:
            data["history"][2] = entry
            with pytest.raises(RecordError, match=r"history\[2\]: .* is no Coo-Can action"):
                PlayerView.from_json(json.dumps(data))
            tried += 1
    assert tried > 5


def test_a_two_hand_coocan_view_with_an_entry_replaced_is_refused() -> None:
    """The two-seat reading of the Coo-Can history (coocan/pair.py) refuses them too."""
    for data in map(json.loads, _views(CooCanRules(players=2, turn_limit=20), 2)):
        if len(data["history"]) > 4:
            data["history"][3] = "trade"
            with pytest.raises(RecordError):
                PlayerView.from_json(json.dumps(data))


def test_c6_a_coocan_view_with_no_seat_to_play_mid_deal_is_refused() -> None:
    """`"current_player": null` while the deal goes on (no result) is refused; str() of
    such a view used to raise TypeError."""
    data = json.loads(_views(CooCanRules(players=3, turn_limit=20), 3)[4])
    assert data["result"] is None
    data["current_player"] = None
    with pytest.raises(RecordError, match="current_player: null"):
        PlayerView.from_json(json.dumps(data))


@pytest.mark.parametrize("seed", range(2))
def test_t21_trading_views_with_edited_rounds_are_record_errors(seed: int) -> None:
    """Trading views (T21) with a history entry replaced, inserted or deleted: RecordError,
    never a ValueError of zip() or an IllegalActionError from the sampler."""
    rng = random.Random(seed)
    texts = _views(ConquianRules(players=3, hand_size=8, trades=2), seed, every=4)
    texts += _views(ConquianRules(trades=2), seed, every=4)
    entries = ["pass", "trade", "trade 5H", "trade KS", "draw", "take 5H"]
    loaded = refused = 0
    for text in texts:
        data = json.loads(text)
        history = data["history"]
        if not history:
            continue
        i = rng.randrange(len(history))
        kind = rng.randrange(3)
        if kind == 0:
            history[i] = rng.choice(entries)
        elif kind == 1:
            history.insert(i, rng.choice(entries))
        else:
            del history[i]
        try:
            PlayerView.from_json(json.dumps(data))
            loaded += 1
        except RecordError:
            refused += 1
    assert refused > 0


def test_t21_a_trade_after_the_trade_rounds_is_named() -> None:
    """A trade where the trade rounds are over (or in a deal without them) is named (T21)."""
    data = json.loads(_views(ConquianRules(), 1)[6])
    data["history"].append("trade 5H")
    with pytest.raises(RecordError, match="in a deal without trade rounds"):
        PlayerView.from_json(json.dumps(data))


# -- limits: what the library writes, it reads -------------------------------------------------


def test_k8_a_coocan_view_with_more_draws_than_cards_in_a_list_loads() -> None:
    """A Coo-Can view may hold as many draws as actions (no default turn limit): a deal long
    enough to give a view of more than 200 draws writes views that load back."""
    rules = CooCanRules(players=2)
    rng = random.Random(0)
    state = new_game(rules, seed=0)
    steps = 0
    while not state.is_over and len(json.loads(state.view(0).to_json()).get("draws", [])) <= 205:
        actions = state.legal_actions()
        # drawing and discarding only: the deck reshuffled again and again (K8)
        quiet = [a for a in actions if str(a).split()[0] in ("draw", "discard")]
        state = state.apply(rng.choice(quiet or actions))
        steps += 1
        assert steps < 6_000
    view = state.view(0)
    assert len(json.loads(view.to_json())["draws"]) > 200
    assert PlayerView.from_json(view.to_json()) == view


# -- regressions of round 3 ---------------------------------------------------------------------


def test_m11_a_three_hand_view_of_31_draws_is_a_record_error() -> None:
    """A three-hand view whose history is 31 `draw`s: RecordError naming M11, not an
    IndexError in the sampler."""
    data = json.loads(new_game(CooncanRules.three_hand(), seed=1).view(0).to_json())
    data["history"] = ["draw"] * 31
    with pytest.raises(RecordError, match=r"M11"):
        PlayerView.from_json(json.dumps(data))


@pytest.mark.parametrize(
    "rules",
    [
        CooncanRules.three_hand(),
        CooncanRules.three_hand(jokers=1, stock="open"),
        CooncanRules.double_pack(players=4),
        CooncanRules.double_pack(players=2),
    ],
    ids=["three-hand", "three-hand-open", "double-pack-4", "double-pack-2"],
)
def test_c7_a_state_drawn_by_sample_state_is_written_and_read_back(rules: CooncanRules) -> None:
    """A state drawn by sample_state is a state like any other: its position and record
    are written (the deal found when written), and read back to the same position."""
    rng = random.Random(7)
    state = new_game(rules, seed=7)
    tried = 0
    for k in range(170):
        if state.is_over:
            break
        if k % 6 == 0:
            seat = k % rules.players
            sample = state.view(seat).sample_state(random.Random(k))
            text = sample.to_json()
            loaded = State.from_json(text)
            assert loaded.to_json() == text
            assert all(loaded.view(q) == sample.view(q) for q in range(rules.players))
            assert GameRecord.from_state(sample).replay().view(seat) == state.view(seat)
            tried += 1
        state = state.apply(rng.choice(state.legal_actions()))
    assert tried >= 10


def test_a_big_match_file_loads_within_the_bound() -> None:
    """A valid match file near the limits loads well within 2 s (here a small one, to keep
    the suite fast: the time grows with the actions, linearly)."""
    match = _played(Match(CooncanRules.double_pack(players=7, turn_limit=6), seed=3, deals=60), 60)
    text = match.to_json()
    start = time.process_time()
    assert Match.from_json(text) == match
    assert time.process_time() - start < 2.0


# -- conquian replay reads match files; a position is pointed to play --load (issue 38.8) ------


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from conquian.cli import main

    try:
        status = main(list(argv))
    except SystemExit as e:
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_replay_tells_every_deal_of_a_match_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`conquian replay` of a match file (as `play --deals` and the network server save it)
    tells each deal and the totals, not "expected 'conquian-record'"."""
    match = _played(Match(ConquianRules(), seed=4, deals=2), 2)
    path = tmp_path / "match.json"
    path.write_text(match.to_json(), encoding="utf-8")
    status, out, err = _cli(capsys, "replay", str(path))
    assert status == 0 and err == ""
    assert out.count("deal 1 (") == 1 and out.count("deal 2 (") == 1
    assert out.count("Result:") == 2
    assert f"person 0: {match.sheet.totals[0]:+d}" in out


def test_replay_points_a_position_to_play_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`conquian replay` of a position says to play on from it with `play --load`."""
    path = tmp_path / "position.json"
    path.write_text(new_game(ConquianRules(), seed=1).apply("pass").to_json(), encoding="utf-8")
    status, _, err = _cli(capsys, "replay", str(path))
    assert status == 2 and "conquian play --load" in err and "State.from_json" not in err
