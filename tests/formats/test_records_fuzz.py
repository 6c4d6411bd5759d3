"""Fuzzing the readers of records and positions with hypothesis (RULES.md E2, E3).

Hypothesis mutates real records and positions of every game (fields deleted,
types swapped, cards duplicated, huge numbers, very long strings, deep
nesting, actions shuffled, dropped or repeated, text cut or garbled) and
also feeds random bytes and text; and it edits the views of those states
(history entries inserted, deleted, swapped or replaced, zones emptied).
Whatever the input, `GameRecord.from_json`, `State.from_json` and
`PlayerView.from_json` either load it or raise `RecordError` (a
`ConquianError` and a `ValueError`), never anything else, and each call
takes less than `BOUND` seconds. Match files and score sheets are mutated the same way
(`Match.from_json`, `ScoreSheet.from_json`), and the states include Coo-Can and
Conquian with trade rounds (T21), whose views are edited too. This runs in CI like every test: the
default profile tries `FUZZ_EXAMPLES` inputs per test (5 times the profile's
``max_examples``: 300 by default, 1500 under ``HYPOTHESIS_PROFILE=ci``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from conquian import (
    ConquianError,
    ConquianRules,
    CooCanRules,
    CooncanRules,
    HeuristicAgent,
    Match,
    PlayerView,
    RecordError,
    ScoreSheet,
    State,
    new_game,
    play,
)
from conquian.formats.records import GameRecord

BOUND = 2.0
"""The most seconds one load may take, whatever the input."""

FUZZ_EXAMPLES = 5 * settings().max_examples
"""Inputs tried per fuzz test: 5 times the hypothesis profile's ``max_examples``."""

FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _states() -> list[State]:
    """A few states of every game: finished deals and states in the middle of a turn."""
    out: list[State] = []
    games = [
        (ConquianRules(), 1),
        (ConquianRules.pagat(pack="american", hand_size=9), 2),
        (CooncanRules.three_hand(jokers=1, stock="open", turn_limit=6), 3),
        (CooncanRules.double_pack(players=3, turn_limit=4), 4),
        (CooCanRules(players=3, turn_limit=5), 5),
        (CooCanRules(players=2, turn_limit=6), 6),
        (ConquianRules(trades=2), 7),
        (ConquianRules(players=3, hand_size=8, trades=1), 8),
    ]
    for rules, seed in games:
        final = play([HeuristicAgent() for _ in range(rules.players)], rules, seed=seed)
        out.append(final)
        state = new_game(rules, deck=final.deck, dealer=final.dealer)  # type: ignore[attr-defined]
        for action in final.history[: len(final.history) // 2]:
            state = state.apply(action)
        out.append(state)
    return out


STATES = _states()
BASES: list[str] = [GameRecord.from_state(s).to_json() for s in STATES] + [
    s.to_json() for s in STATES
]

LOADERS: list[Callable[[Any], object]] = [GameRecord.from_json, State.from_json]


def check(text: object) -> None:
    """Both readers load `text` or raise RecordError, each in less than BOUND seconds."""
    for load in LOADERS:
        start = time.perf_counter()
        try:
            loaded = load(text)
        except RecordError as err:
            assert isinstance(err, ConquianError) and isinstance(err, ValueError)
            assert err.problems and all(isinstance(p, str) and p for p in err.problems)
            assert "\n" not in str(err)
            event(f"{load.__qualname__}: RecordError")
        else:
            event(f"{load.__qualname__}: loaded")
            if isinstance(loaded, GameRecord):
                assert GameRecord.from_json(loaded.to_json()) == loaded
            else:
                assert isinstance(loaded, State)
                assert State.from_json(loaded.to_json()) == loaded
        elapsed = time.perf_counter() - start
        assert elapsed < BOUND, f"{load.__qualname__} took {elapsed:.2f} s"


# -- mutations of real documents ------------------------------------------------------------------

Path = tuple[Any, ...]


def _paths(value: Any, path: Path = ()) -> list[Path]:
    """The path of every value inside a JSON value (the value itself included)."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*path, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*path, i)))
    return out


def _get(value: Any, path: Path) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(root: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    _get(root, path[:-1])[path[-1]] = new
    return root


def _delete(root: Any, path: Path) -> Any:
    if not path:
        return root
    del _get(root, path[:-1])[path[-1]]
    return root


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([0, -1, 2**53, 2**53 - 1, 2**63, 10**30, 10**4000])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from(["5X", "JK=4D", "10H", "t♠", "", "take 5H", "pass", "@0", "JK", "JK=5"])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated(draw: st.DrawFn, bases: list[str] | None = None) -> object:
    """A real record or position (or a document of `bases`) with one to four mutations, as
    text (sometimes bytes)."""
    data = json.loads(draw(st.sampled_from(BASES if bases is None else bases)))
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        target = _get(data, path)
        kind = draw(
            st.sampled_from(
                [
                    "delete",
                    "replace",
                    "swap type",
                    "huge number",
                    "long string",
                    "deep nesting",
                    "duplicate card",
                    "shuffle actions",
                    "drop or repeat an action",
                    "unknown field",
                ]
            )
        )
        event(f"mutation: {kind}")
        if kind == "delete":
            data = _delete(data, path)
        elif kind == "replace":
            data = _set(data, path, draw(json_values))
        elif kind == "swap type":
            if isinstance(target, list):
                swapped: Any = {str(i): v for i, v in enumerate(target)}
            elif isinstance(target, dict):
                swapped = list(target.values())
            elif isinstance(target, str):
                swapped = list(target)
            else:
                swapped = str(target)
            data = _set(data, path, swapped)
        elif kind == "huge number":
            data = _set(data, path, draw(st.sampled_from([10**300, -(10**300), 2**64, 1e308])))
        elif kind == "long string":
            data = _set(data, path, "x" * draw(st.sampled_from([1_001, 50_000, 1_100_000])))
        elif kind == "deep nesting":
            # spliced in as text: json.dumps (and the path walking above) would recurse too deep
            depth = draw(st.sampled_from([50, 900, 5_000, 200_000]))
            data = _set(data, path, "__DEEP__")
            text = json.dumps(data).replace('"__DEEP__"', "[" * depth + "]" * depth, 1)
            return text
        elif kind == "duplicate card":
            cards = [p for p in paths if isinstance(_get(data, p), str) and len(p) >= 2]
            if len(cards) >= 2:
                a, b = draw(st.lists(st.sampled_from(cards), min_size=2, max_size=2))
                data = _set(data, b, _get(data, a))
        elif kind in ("shuffle actions", "drop or repeat an action"):
            actions = data.get("actions") if isinstance(data, dict) else None
            played = data.get("played") if isinstance(data, dict) else None
            deals = [d for d in played if isinstance(d, dict)] if isinstance(played, list) else []
            if deals:  # a deal of a match file (an earlier mutation may have replaced some)
                actions = draw(st.sampled_from(deals)).get("actions")
            if isinstance(actions, list) and actions:
                if kind == "shuffle actions":
                    data["actions"] = draw(st.permutations(actions))
                else:
                    i = draw(st.integers(0, len(actions) - 1))
                    if draw(st.booleans()):
                        del actions[i]
                    else:
                        actions.insert(i, actions[i])
        elif isinstance(target, dict):
            target[draw(st.text(max_size=10))] = draw(json_values)
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    return text.encode() if draw(st.booleans()) else text


@st.composite
def garbled(draw: st.DrawFn) -> object:
    """A real document cut short, with characters changed, or random bytes or text."""
    kind = draw(st.sampled_from(["cut", "garble", "bytes", "text"]))
    event(f"garbling: {kind}")
    if kind == "bytes":
        return draw(st.binary(max_size=500))
    if kind == "text":
        return draw(st.text(max_size=500))
    text = draw(st.sampled_from(BASES))
    if kind == "cut":
        return text[: draw(st.integers(0, len(text)))]
    chars = list(text)
    for _ in range(draw(st.integers(1, 5))):
        i = draw(st.integers(0, len(chars) - 1))
        chars[i] = draw(st.characters())
    out = "".join(chars)
    try:
        return out.encode() if draw(st.booleans()) else out
    except UnicodeEncodeError:  # a lone surrogate cannot be UTF-8
        return out


@FUZZ
@given(mutated())
def test_mutated_documents_give_only_record_errors_in_bounded_time(text: object) -> None:
    """E2, E3: mutated records and positions load or raise RecordError, each in under 2 s."""
    check(text)


@FUZZ
@given(garbled())
def test_garbled_text_and_random_bytes_give_only_record_errors(text: object) -> None:
    """E2: cut, garbled or random input raises RecordError (never another error), in under 2 s."""
    check(text)


def test_the_unmutated_documents_load() -> None:
    """The fuzz corpus itself is valid: every base record and position loads."""
    for text in BASES:
        loaded = GameRecord.from_json(text) if "conquian-record" in text else State.from_json(text)
        assert loaded is not None


# -- edits of real views ------------------------------------------------------------------------

VIEWS: list[str] = [s.view(p).to_json() for s in STATES for p in range(s.rules.players)]
ACTION_TEXTS: list[str] = [
    *sorted({str(a) for s in STATES for a in s.history}),
    "draw",
    "pass",
    "take JD",
    "meld 2H 5H 9H",
    "discard KS",
    "borrow 5H @0",
    "force 7H @0",
    "trade",
    "trade 5H",
    "trade KS",
]


@st.composite
def edited_views(draw: st.DrawFn) -> str:
    """A real view with one to three edits of its history or zones (E2, C6)."""
    data = json.loads(draw(st.sampled_from(VIEWS)))
    history: list[str] = data["history"]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["insert", "delete", "swap", "replace", "append", "empty"]))
        event(f"view edit: {kind}")
        n = len(history)
        if kind in ("insert", "append"):
            at = n if kind == "append" else draw(st.integers(0, n))
            history.insert(at, draw(st.sampled_from(ACTION_TEXTS)))
        elif kind == "delete" and n:
            del history[draw(st.integers(0, n - 1))]
        elif kind == "swap" and n > 1:
            i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
            history[i], history[j] = history[j], history[i]
        elif kind == "replace" and n:
            history[draw(st.integers(0, n - 1))] = draw(st.sampled_from(ACTION_TEXTS))
        elif kind == "empty":
            zones = [k for k, v in data.items() if isinstance(v, list) and k != "history"]
            data[draw(st.sampled_from(zones))] = []
    return json.dumps(data)


@FUZZ
@given(edited_views())
def test_edited_views_give_only_record_errors_in_bounded_time(text: str) -> None:
    """E2, C6: a view with its history or zones edited loads or raises RecordError (never
    an IndexError or another error), in under 2 s."""
    start = time.perf_counter()
    try:
        view = PlayerView.from_json(text)
    except RecordError as err:
        assert err.problems and "\n" not in str(err)
        event("view: RecordError")
    else:
        event("view: loaded")
        assert PlayerView.from_json(view.to_json()) == view
    elapsed = time.perf_counter() - start
    assert elapsed < BOUND, f"PlayerView.from_json took {elapsed:.2f} s"


def test_the_unedited_views_load() -> None:
    """The view corpus itself is valid: every base view loads back equal."""
    for text in VIEWS:
        assert PlayerView.from_json(text).to_json() == text


# -- match files and score sheets ---------------------------------------------------------------


def _matches() -> list[str]:
    """Match files of every scoring, finished and in the middle of a deal, and three at a
    table of two-hand (T24)."""
    out = []
    for match, deals in (
        (Match(ConquianRules(), seed=1, deals=3), 3),
        (Match(ConquianRules(), seed=2, scoring="next", people=3, rounds=1), 2),
        (Match(CooncanRules.three_hand(turn_limit=8), seed=3, scoring="points", target=30), 2),
        (Match(CooCanRules(players=2, turn_limit=6), seed=4, deals=2), 2),
    ):
        agent = HeuristicAgent(seed=0)
        for _ in range(deals):
            while not match.state.is_over:
                match = match.apply(agent(match.state.view(match.state.current_player)))
            if match.is_over:
                break
            match = match.next_deal()
        out.append(match.to_json())
    half = Match(ConquianRules(), seed=5)
    for _ in range(4):
        half = half.apply(half.state.legal_actions()[0])
    out.append(half.to_json())
    return out


MATCHES = _matches()
SHEETS = [
    json.dumps({"format": "conquian-sheet", "version": 1, **json.loads(text)["sheet"]})
    for text in MATCHES
]


def _check_document(load: Callable[[Any], Any], text: object) -> None:
    start = time.perf_counter()
    try:
        loaded = load(text)
    except RecordError as err:
        assert err.problems and all(isinstance(p, str) and p for p in err.problems)
        assert "\n" not in str(err)
        event("RecordError")
    else:
        event("loaded")
        assert load(loaded.to_json()) == loaded
    elapsed = time.perf_counter() - start
    assert elapsed < BOUND, f"{load.__qualname__} took {elapsed:.2f} s"


@FUZZ
@given(mutated(MATCHES))
def test_mutated_match_files_give_only_record_errors_in_bounded_time(text: object) -> None:
    """E2, E3, M12, M13: a match file mutated (fields, seeds, dealers, deals' actions, its
    sheet) loads or raises RecordError, never a KeyError, in under 2 s."""
    _check_document(Match.from_json, text)


@FUZZ
@given(mutated(SHEETS))
def test_mutated_score_sheets_give_only_record_errors(text: object) -> None:
    """E2, M12: a score sheet mutated (a field deleted, a row changed) loads or raises
    RecordError naming the field, never a KeyError."""
    _check_document(ScoreSheet.from_json, text)


def test_the_unmutated_matches_and_sheets_load() -> None:
    """The match and sheet corpus itself is valid: every document loads back equal."""
    for text in MATCHES:
        assert Match.from_json(text).to_json() == text
    for text in SHEETS:
        assert ScoreSheet.from_json(text) is not None
