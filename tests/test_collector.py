"""What outlives a state holds (almost) nothing the garbage collector tracks.

A full collection walks every object the collector tracks, so its pause grows
with them. The tables built per rule set and the module-level caches live as
long as the process: they hold ints, strings and tuples of those (which the
collector leaves alone once it has seen them), never combinations, actions,
sets or instances per entry. What is tracked is a few objects per rule set
and the actions and combinations of the game itself, shared by every rule
set (each table of those has a size fixed by the game).
"""

from __future__ import annotations

import gc
import random
import sys
import types

from conquian import ConquianRules, CooncanRules, Rules, new_game
from conquian.combos import core as combos
from conquian.offer import board, tables
from conquian.rummy import melds

# The objects a walk from the library's roots does not enter: they are the program, not data.
_CODE = (
    types.ModuleType,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
)


def _tracked(root: object, seen: set[int]) -> int:
    """How many objects the collector tracks are reachable from `root`, not counting those
    in `seen` (which it adds to) nor the program's modules, classes and functions."""
    count = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _CODE) or not gc.is_tracked(obj):
            continue
        seen.add(id(obj))
        count += 1
        stack.extend(gc.get_referents(obj))
    return count


def _cached(function: object) -> list[object]:
    """What a `functools` cache holds: the referents of its wrapper (its cache)."""
    return [r for r in gc.get_referents(function) if not isinstance(r, _CODE)]


def _collect() -> None:
    """Full collections, enough for every table's tuples to be let go: a tuple is let go
    once its items are, and the tables' tuples nest four deep at most."""
    for _ in range(4):
        gc.collect()


def _play(rules: Rules, deals: int) -> None:
    for seed in range(deals):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        for _ in range(150):
            if state.is_over:
                break
            actions = state.legal_actions()
            state = state.apply(actions[rng.randrange(len(actions))])


RULES: list[Rules] = [
    *(
        ConquianRules(pack=pack, max_sequence=cap, borrow_middle=middle)
        for pack, cap, middle in [
            ("spanish", None, True),
            ("spanish", 4, False),
            ("american", None, False),
            ("american", 5, True),
        ]
    ),
    CooncanRules.three_hand(jokers=1),
    CooncanRules.three_hand(players=2, stock="open"),
    CooncanRules.double_pack(players=4),
    CooncanRules.double_pack(players=5, splash_bonus=25),
]


def test_long_lived_tables_hold_almost_nothing_the_collector_tracks() -> None:
    """After deals of the three games under eight rule sets, the per-rules tables and the
    memoised combinations hold only what is counted here, and the package's modules hold
    fewer tracked objects than the interpreter's own (a full collection of 20,000 objects
    takes about 3 ms)."""
    for rules in RULES:
        _play(rules, 3)
    _collect()
    seen: set[int] = set()
    # A rule set's tables: the `Tables` object, the set of its groups' masks, the tuple of
    # its per-card dicts (the dicts themselves hold ints and bools), and its `Order`.
    per_rules = [_tracked(t, seen) for t in tables._TABLES.values()]
    assert len(per_rules) >= 4
    assert max(per_rules) <= 4, per_rules
    # The combinations memoised by rank and by suit: ints only (the caches' own dicts aside).
    assert combos._groups_in.cache_info().currsize > 0
    assert sum(_tracked(r, seen) for r in _cached(combos._groups_in)) <= 2
    assert combos._SEQUENCES
    assert _tracked(combos._SEQUENCES, seen) <= 1
    # The game's own actions and combinations: a size fixed by the game (two-hand meld
    # actions, kept up to a number; the combinations of the packs played, for each of at
    # most four owners, T16, whatever rule sets other tests of this process played; the
    # forces onto each place of a Cooncan table).
    assert len(board._MELDS) <= board.MELD_ACTIONS
    packs = {id(t.order): len(t.fit) for t in tables._TABLES.values()}
    assert len(tables._COMBINATIONS) <= 4 * sum(packs.values())
    assert len(melds._FORCES) == melds.MAX_COMBINATIONS
    # Everything the package's modules hold: well under the interpreter's own objects
    # (about 20,000 after importing the package), whatever ran before in this process.
    total = 0
    for name, module in list(sys.modules.items()):
        if name == "conquian" or name.startswith("conquian."):
            for value in list(vars(module).values()):
                for root in _cached(value) if hasattr(value, "cache_info") else [value]:
                    total += _tracked(root, seen)
    assert total <= 20_000, total


def test_a_full_collection_is_not_slowed_by_new_rules_values() -> None:
    """Tables built for more rule sets add no more than a few tracked objects each."""
    _play(ConquianRules(pack="american", borrow_middle=False), 1)  # the code's first run
    _collect()
    before = len(gc.get_objects())
    for cap in range(3, 11):
        _play(ConquianRules(pack="american", max_sequence=cap, borrow_middle=False), 1)
    _collect()
    # Eight rule sets, one deal each: four objects per rule set, and the actions and
    # combinations these deals meet for the first time (a few dozen). The tables holding
    # combinations and options per rule set, as they did, added about 1,800.
    assert len(gc.get_objects()) - before <= 400
