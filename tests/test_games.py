"""The registry of games (`conquian.games`): its entries, the old names, and that nothing else
switches on a rules type or a game name."""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conquian import (
    GAMES,
    ConquianRules,
    ConquianState,
    ConquianView,
    CooCanRules,
    CooCanState,
    CooCanView,
    CooncanRules,
    CooncanState,
    CooncanView,
    Game,
    GameRecord,
    PlayerView,
    Rules,
    RulesError,
    State,
    game_of,
    new_game,
)
from conquian.cards import make_pack
from conquian.coocan import CooCanGame
from conquian.formats.records import RecordError
from conquian.games import find_game
from conquian.offer import OfferGame
from conquian.rummy import RummyGame

RULES = {
    "conquian": [ConquianRules(), ConquianRules.pagat(), ConquianRules(pack="american")],
    "three-hand": [CooncanRules.three_hand(), CooncanRules.three_hand(players=2, jokers=1)],
    "double-pack": [CooncanRules.double_pack(), CooncanRules.double_pack(players=6)],
    "coo-can": [CooCanRules(), CooCanRules(players=2), CooCanRules(players=6, turn_limit=40)],
}
EVERY_RULES = [(name, rules) for name, many in RULES.items() for rules in many]


# -- the entries ---------------------------------------------------------------------------


def test_games_lists_every_game_once_by_its_name() -> None:
    """GAMES maps each name to its entry, in the order the games are listed, read-only."""
    assert list(GAMES) == ["conquian", "three-hand", "double-pack", "coo-can"]
    assert all(isinstance(g, Game) and g.name == name for name, g in GAMES.items())
    with pytest.raises(TypeError):
        GAMES["chess"] = GAMES["conquian"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "rules_class", "engine", "seats", "copies", "title"),
    [
        ("conquian", ConquianRules, OfferGame, (2, 3, 4), 1, "Conquian"),
        ("three-hand", CooncanRules, RummyGame, (2, 3), 1, "Foster's three-hand Cooncan"),
        (
            "double-pack",
            CooncanRules,
            RummyGame,
            (2, 3, 4, 5, 6, 7),
            2,
            "Foster's double-pack Cooncan",
        ),
        ("coo-can", CooCanRules, CooCanGame, (2, 3, 4, 5, 6), 2, "Coo-Can"),
    ],
)
def test_entry_fields(
    name: str, rules_class: type, engine: type, seats: tuple[int, ...], copies: int, title: str
) -> None:
    """Each game's facts: its rules class, its engine's `Game` class, seats (T16, M1), copies
    of the pack, title."""
    game = GAMES[name]
    assert game.rules_class is rules_class and type(game) is engine
    assert tuple(game.seats) == seats and game.rules().copies == copies and game.title == title
    assert repr(game) == f"<Game {name!r}: {title}>"


def test_the_offer_engine_is_conquian_and_two_hand_is_its_alias() -> None:
    """The offer engine's game is "conquian"; "two-hand", its name before, stays an alias."""
    assert GAMES["conquian"].aliases == ("two-hand",)
    assert find_game("two-hand") is find_game("conquian") is GAMES["conquian"]
    assert ConquianRules().game == "conquian"
    assert "two-hand" not in GAMES  # an alias is found, never listed


@pytest.mark.parametrize(("name", "rules"), EVERY_RULES, ids=str)
def test_game_of_each_rules_object(name: str, rules: Rules) -> None:
    """game_of gives the entry of the game the rules play, whose rules class they are."""
    game = game_of(rules)
    assert game is GAMES[name] and type(rules) is game.rules_class
    assert rules.players in game.seats


@pytest.mark.parametrize(("name", "rules"), EVERY_RULES, ids=str)
def test_pack_facts_agree_with_the_rules_pack(name: str, rules: Rules) -> None:
    """The rules' pack name, copies and jokers make exactly their pack (C1, C4, C5, M1)."""
    made = make_pack(rules.pack_name, copies=rules.copies, jokers=rules.jokers)
    assert made == rules.pack_cards()


@pytest.mark.parametrize(("name", "rules"), EVERY_RULES, ids=str)
def test_deal_and_seeded_deal(name: str, rules: Rules) -> None:
    """The seeded deal is the deal of the seeded shuffle of the pack (C7), as new_game gives."""
    game = game_of(rules)
    seeded = game.deal_seeded(rules, 11, 1)
    assert seeded == new_game(rules, seed=11, dealer=1)
    assert game.deal(rules, seeded.deck, 1) == seeded  # type: ignore[attr-defined]
    assert game.codec.is_state(seeded) and game.codec.is_view(seeded.view(0))


def test_the_samplers_and_state_classes() -> None:
    """Each engine's sampler and its states and views, as the codecs know them."""
    assert GAMES["conquian"].codec.is_state(new_game(ConquianRules(), seed=1))
    assert not GAMES["conquian"].codec.is_state(new_game(CooncanRules.three_hand(), seed=1))
    view = new_game(CooncanRules.three_hand(), seed=1).view(0)
    assert isinstance(view, CooncanView) and GAMES["three-hand"].codec.is_view(view)
    assert not GAMES["three-hand"].codec.is_view(new_game(ConquianRules(), seed=1).view(0))
    sample = GAMES["conquian"].sample(new_game(ConquianRules(), seed=2).view(1), random.Random(4))
    assert isinstance(sample, ConquianState) and isinstance(sample.view(1), ConquianView)
    assert isinstance(GAMES["three-hand"].sample(view, random.Random(4)), CooncanState)
    coocan = new_game(CooCanRules(), seed=1).view(2)
    assert isinstance(coocan, CooCanView) and GAMES["coo-can"].codec.is_view(coocan)
    drawn = GAMES["coo-can"].sample(coocan, random.Random(4))
    assert isinstance(drawn, CooCanState) and drawn.view(2) == coocan


@pytest.mark.parametrize(
    ("name", "options", "want"),
    [
        ("conquian", {}, ConquianRules()),
        ("two-hand", {"players": 2}, ConquianRules()),
        ("conquian", {"pack": "american"}, ConquianRules(pack="american")),
        ("three-hand", {"players": 2}, CooncanRules.three_hand(players=2)),
        ("double-pack", {"turn_limit": 9}, CooncanRules.double_pack(turn_limit=9)),
        ("coo-can", {}, CooCanRules()),
        ("coo-can", {"players": 2, "turn_limit": 9}, CooCanRules(players=2, turn_limit=9)),
    ],
)
def test_default_rules_from_a_name(name: str, options: dict[str, object], want: object) -> None:
    """An entry builds its game's default rules, with options (the CLI and the records)."""
    assert find_game(name).rules(**options) == want


def test_bad_options_are_the_rules_objects_errors() -> None:
    """A bad option is refused by the rules object, naming it (RulesError)."""
    with pytest.raises(RulesError, match="players must be one of 2, 3"):
        GAMES["three-hand"].rules(players=5)


@pytest.mark.parametrize("name", ["chess", "", "Conquian", "two_hand", None, 3])
def test_unknown_game_names_are_refused_naming_the_games(name: object) -> None:
    """An unknown name is a RulesError naming the option and the games (case counts)."""
    with pytest.raises(RulesError) as err:
        find_game(name)  # type: ignore[arg-type]
    assert err.value.option == "game"
    assert str(err.value) == (
        f"game must be one of conquian, three-hand, double-pack or coo-can (got {name!r})"
    )


@pytest.mark.parametrize("thing", ["conquian", None, object(), GAMES["conquian"]])
def test_game_of_refuses_anything_but_rules(thing: object) -> None:
    """game_of raises TypeError for anything but a rules object of a registered game."""
    with pytest.raises(TypeError, match="rules must be ConquianRules, CooncanRules or CooCanRules"):
        game_of(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "rules"), EVERY_RULES, ids=str)
def test_order_is_the_codecs(name: str, rules: Rules) -> None:
    """The order of sequences (C4, T14): the pack's, with Conquian's sequence limit."""
    order = game_of(rules).order(rules)
    assert order.pack == rules.pack_name
    assert order.max_sequence == getattr(rules, "max_sequence", None)


def test_most_melds_counts_three_cards_a_meld() -> None:
    """The most melds on the table: hand size + 1 cards each in melds of three (T2, C3), or
    the pack less a card in every hand (M10)."""
    assert GAMES["conquian"].most_melds(ConquianRules()) == 6
    assert GAMES["conquian"].most_melds(ConquianRules(hand_size=8)) == 6
    assert GAMES["three-hand"].most_melds(CooncanRules.three_hand()) == (52 - 3) // 3
    assert GAMES["double-pack"].most_melds(CooncanRules.double_pack()) == (106 - 4) // 3
    assert GAMES["coo-can"].most_melds(CooCanRules()) == 104 // 4  # K4: four to a new meld


@pytest.mark.parametrize(
    ("rules", "heading"),
    [
        (ConquianRules(), "Two-hand Conquian (spanish pack, 40 cards)"),
        (ConquianRules(pack="american"), "Two-hand Conquian (american pack, 40 cards)"),
        (ConquianRules(players=3, trades=2), "Conquian for 3 (spanish pack, 40 cards, 2 trades)"),
        (ConquianRules(trades=1), "Two-hand Conquian (spanish pack, 40 cards, 1 trade)"),
        (CooncanRules.three_hand(), "Foster's three-hand Cooncan (3 players, one pack)"),
        (
            CooncanRules.double_pack(players=5),
            "Foster's double-pack Cooncan (5 players, two packs)",
        ),
        (CooCanRules(players=3), "Coo-Can (3 players, two packs)"),
    ],
)
def test_describe_heads_the_diagrams(rules: Rules, heading: str) -> None:
    """describe() is the heading of a diagram of a deal under these rules."""
    assert game_of(rules).describe(rules) == heading
    assert str(new_game(rules, seed=1)).startswith(heading + ",")


# -- old names in records, positions and views ----------------------------------------------


def _renamed(text: str, old: str = "two-hand") -> str:
    data = json.loads(text)
    assert data["rules"]["game"] == "conquian"
    return text.replace('"game": "conquian"', f'"game": "{old}"', 1)


def _played(seed: int = 5, actions: int = 12) -> State:
    state = new_game(ConquianRules(), seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_new_records_write_conquian_and_round_trip() -> None:
    """A record written today names the game "conquian" and reads back to the same deal."""
    state = _played()
    text = GameRecord.from_state(state).to_json()
    assert json.loads(text)["rules"]["game"] == "conquian"
    assert GameRecord.from_json(text).replay() == state


def test_old_two_hand_records_load_and_replay() -> None:
    """A record written before, naming "two-hand", loads, replays and writes "conquian"."""
    state = _played(seed=9)
    old = _renamed(GameRecord.from_state(state).to_json())
    record = GameRecord.from_json(old)
    assert record.rules == ConquianRules() and record.replay() == state
    assert json.loads(record.to_json())["rules"]["game"] == "conquian"


def test_old_two_hand_records_with_old_options_still_load() -> None:
    """The older field lay_down_from_hand (T8) under the old game name still reads."""
    data = json.loads(GameRecord.from_state(_played(seed=3)).to_json())
    data["rules"] = {
        "game": "two-hand",
        "players": 2,
        "pack": "spanish",
        "hand_size": 10,
        "lay_down_from_hand": True,
        "borrow_middle": True,
        "max_sequence": None,
    }
    assert GameRecord.from_json(json.dumps(data)).rules == ConquianRules(lay_down="say")


def test_positions_old_and_new() -> None:
    """A position writes "conquian"; one naming "two-hand" loads to the same state."""
    state = _played(seed=7)
    text = state.to_json()
    assert State.from_json(text) == state
    assert State.from_json(_renamed(text)) == state
    assert ConquianState.from_json(_renamed(text)) == state


def test_views_old_and_new() -> None:
    """A view writes "conquian"; one naming "two-hand" loads to the same view."""
    view = _played(seed=8, actions=6).view(0)
    text = view.to_json()
    assert PlayerView.from_json(text) == view
    assert PlayerView.from_json(_renamed(text)) == view


def test_unknown_game_in_a_record_lists_the_games() -> None:
    """A record naming another game is refused with the registry's names (E2)."""
    names = r"\(use conquian, three-hand, double-pack or coo-can\)"
    with pytest.raises(RecordError, match=r"unknown game 'gin' " + names):
        GameRecord.from_json(_renamed(GameRecord.from_state(_played()).to_json(), "gin"))


def test_a_cooncan_name_with_conquian_options_is_refused() -> None:
    """Game names are not interchangeable: three-hand rules do not take Conquian options."""
    text = _renamed(GameRecord.from_state(_played()).to_json(), "three-hand")
    with pytest.raises(RecordError, match=r"rules\.pack: unknown option of the three-hand game"):
        GameRecord.from_json(text)


# -- nothing else switches on the game --------------------------------------------------------

SRC = Path(__file__).resolve().parent.parent / "src" / "conquian"

ALLOWED = {"rules.py", "games.py"}
"""The modules that may know the rules classes and the game names: the rules and the registry
(and the engine packages below)."""

ENGINES = ("offer/", "rummy/", "coocan/")

_RULES_CLASSES = {"ConquianRules", "CooncanRules", "Rules", "CooCanRules"}
_NAMES = {n for g in GAMES.values() for n in (g.name, *g.aliases)}
_ENGINES = {"offer", "rummy", "coocan"}
_SEAT_WORDS = ("player", "seat", "me", "opp", "who", "mover", "turn")


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def _switches(tree: ast.AST) -> list[tuple[int, str]]:
    """Where a module tests a rules type, compares a game name, or does two-seat arithmetic."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
            "isinstance",
            "issubclass",
        ):
            if len(node.args) == 2 and _names_in(node.args[1]) & _RULES_CLASSES:
                found.append((node.lineno, "isinstance against a rules class"))
        elif isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            texts = {c.value for p in parts for c in ast.walk(p) if isinstance(c, ast.Constant)}
            if texts & _NAMES or any(
                isinstance(p, ast.Attribute) and p.attr == "variant" for p in parts
            ):
                found.append((node.lineno, "a game-name comparison"))
            elif _names_in(node) & {"engine"}:
                found.append((node.lineno, "an engine-name comparison"))
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Sub)
            and isinstance(node.left, ast.Constant)
            and type(node.left.value) is int
            and node.left.value == 1
            and isinstance(node.right, (ast.Name, ast.Attribute, ast.Subscript))
        ):
            words = {w.lower() for w in _names_in(node.right)}
            if any(w.startswith(_SEAT_WORDS) for w in words):
                found.append((node.lineno, "two-seat arithmetic (1 - seat)"))
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if keys & _NAMES or len(keys & _ENGINES) > 1:
                found.append((node.lineno, "a table keyed by game names"))
    return found


def _outside(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def test_no_rules_type_or_game_name_switch_outside_the_registry() -> None:
    """Outside the rules, the registry and the engines, nothing tests the type of a rules
    object, compares a game or engine name or does ``1 - player``: ask the game
    (`conquian.state.game.Game`) instead."""
    bad = []
    for path in sorted(SRC.rglob("*.py")):
        name = _outside(path)
        if name in ALLOWED or name.startswith(ENGINES):
            continue
        for line, what in _switches(ast.parse(path.read_text(encoding="utf-8"))):
            bad.append(f"{name}:{line}: {what}")
    assert bad == []


@pytest.mark.parametrize(
    ("source", "count"),
    [
        ("isinstance(rules, ConquianRules)", 1),
        ("isinstance(r, (ConquianRules, CooncanRules))", 1),
        ('rules.variant == "three-hand"', 1),
        ('game == "two-hand"', 1),
        ('x = {"conquian": 1}', 1),
        ("other = 1 - player", 1),
        ("who[1 - seat]", 1),
        ("self.opp = 1 - me", 1),
        ("q = 1 - p", 0),
        ("1.0 - (0.8 if self.opp_hand <= 3 else 0.1)", 0),
        ("other = 1 - view.player", 1),
        ("game_of(rules).engine == 'offer'", 1),
        ("engine != 'coocan'", 1),
        ('{"offer": 1, "rummy": 2}', 1),
        ('"offer" in game.zones', 0),
        ("isinstance(card, Card)", 0),
    ],
)
def test_the_scan_sees_each_kind_of_switch(source: str, count: int) -> None:
    """The scan above finds each kind of switch it forbids, and not the allowed forms."""
    assert len(_switches(ast.parse(source))) == count


def test_the_modules_the_scan_lets_through_exist() -> None:
    """Every module and engine package the scan lets through exists (so that the list does
    not rot)."""
    assert all((SRC / name).is_file() for name in ALLOWED)
    assert all((SRC / engine).is_dir() for engine in ENGINES)


# -- no import cycle ---------------------------------------------------------------------------


def _module_imports() -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports, wherever the import
    stands: at the top, inside a function (read when first used), or under
    ``TYPE_CHECKING`` (read by the type checker)."""
    names = {
        ".".join(p.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__"): p
        for p in SRC.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.level):
                continue
            base = package[: len(package) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                edges.add(sub if sub in names else target)
        # A package importing its own modules (its public names) is no edge back up.
        graph[name] = {
            e for e in edges if e in names and e != name and not e.startswith(name + ".")
        }
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of `graph` (its modules in order, the first repeated at the end), or []."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str]:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return []
        for other in sorted(graph[name]):
            found = visit(other, [*path, name])
            if found:
                return found
        done.add(name)
        return []

    for name in sorted(graph):
        found = visit(name, [])
        if found:
            return found
    return []


def test_no_import_cycle() -> None:
    """The package's modules import one another one way, counting the imports inside
    functions and those for the type checker: the games' list above the engines, the
    table of games below them."""
    graph = _module_imports()
    assert graph["conquian.games"] >= {"conquian.offer", "conquian.rummy", "conquian.coocan"}
    assert "conquian.state.game" in graph["conquian.formats.codec"]
    assert "conquian.render.text" in graph["conquian.state.base"]  # inside a method
    assert _cycle(graph) == []
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


@pytest.mark.parametrize(
    "first", ["conquian.determinize", "conquian.games", "conquian.formats.codec"]
)
def test_any_module_imports_first(first: str) -> None:
    """A fresh interpreter imports any module first and finds the registry whole."""
    code = f"import {first}; import conquian; assert len(conquian.GAMES) == 4"
    env_path = str(SRC.parent)
    done = subprocess.run(
        [sys.executable, "-c", code], env={"PYTHONPATH": env_path}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_at_most_two_private_modules_at_the_top() -> None:
    """``_`` means private and nothing else: the hidden information lives with its engine
    (``offer/sampling.py``, ``rummy/sampling.py``, ``coocan/sampling.py``), and at the top
    stay only the shared steps of sampling and the compiled build's shim."""
    private = sorted(
        p.name for p in SRC.glob("_*.py") if p.name not in ("__init__.py", "__main__.py")
    )
    assert len(private) <= 2, private
