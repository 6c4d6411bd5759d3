"""Gymnasium ids for the games (optional extra ``conquian[pettingzoo]``, which brings
Gymnasium).

Importing this module registers four ids with Gymnasium, one per game of the registry:

- ``conquian/Conquian-v0``: two-hand Conquian, Foster's rules (`ConquianRules`);
- ``conquian/ThreeHand-v0``: Foster's three-hand Cooncan;
- ``conquian/DoublePack-v0``: Foster's double-pack Cooncan;
- ``conquian/CooCan-v0``: Coo-Can, from Cork (`CooCanRules`).

Gymnasium 1.x has no plugin discovery, so the ids are known once this module is
imported; ``gymnasium.make("conquian.gymnasium:conquian/Conquian-v0")`` imports it
itself. ``import conquian`` never imports Gymnasium.

Each id makes `conquian.pettingzoo.single_agent_env` for one seat and takes its
arguments: ``rules=`` (rules of the id's own game: another game's are refused with a
`ValueError`), ``opponent=`` (an agent factory, `HeuristicAgent` by default), ``seat=``,
``render_mode=`` (``"human"`` or ``"ansi"``), and ``skip_forced``, ``action_mask``,
``normalize``, ``illegal``, ``reward`` and ``observation``. Two defaults differ from
``single_agent_env``'s:

- ``observation="box"``: the observation is the float32 array of
  `conquian.encoding.Observer` alone, a ``Box`` in [0, 1] that a default policy
  (Stable-Baselines3's ``MlpPolicy``) reads as it is; the legal ids are in
  ``info["legal_ids"]`` and the dense mask comes from ``env.unwrapped.action_masks()``,
  which sb3-contrib's ``MaskablePPO`` calls through Gymnasium's wrappers.
  ``observation="dict"`` gives the dict of the PettingZoo environment instead (with
  ``"action_mask"`` where the mask is on);
- Cooncan and Coo-Can rules without a ``turn_limit`` play with 200 turns
  (`conquian.pettingzoo.TURN_LIMIT`), so that every deal ends; a deal cut there is
  ``truncated``.

>>> import gymnasium, conquian.gymnasium  # doctest: +SKIP
>>> env = gymnasium.make("conquian/Conquian-v0", opponent=RandomAgent)  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
from typing import Any

from .agents import HeuristicAgent
from .games import find_game, game_of
from .rules import Rules

__all__ = ["IDS", "make_env", "register"]

IDS = {
    "conquian/Conquian-v0": "conquian",
    "conquian/ThreeHand-v0": "three-hand",
    "conquian/DoublePack-v0": "double-pack",
    "conquian/CooCan-v0": "coo-can",
}
"""Each Gymnasium id and the name of its game in the registry (`conquian.GAMES`)."""


def make_env(
    game: str,
    rules: Rules | None = None,
    opponent: Any = HeuristicAgent,
    seat: int = 0,
    render_mode: str | None = None,
    *,
    observation: str = "box",
    **options: Any,
) -> Any:
    """The environment of an id: `conquian.pettingzoo.single_agent_env` for `game` (a
    name of the registry), refusing rules of another game, with ``observation="box"``
    by default. Gymnasium calls it for the ids with the arguments given to
    ``gymnasium.make``.

    >>> make_env("three-hand", ConquianRules())  # doctest: +SKIP
    Traceback (most recent call last):
    ValueError: three-hand takes rules of its own game (got rules of conquian)
    """
    from .pettingzoo import single_agent_env

    entry = find_game(game)
    if rules is None:
        rules = entry.rules()
    elif game_of(rules) is not entry:
        raise ValueError(
            f"{entry.name} takes rules of its own game (got rules of {game_of(rules).name})"
        )
    return single_agent_env(rules, opponent, seat, render_mode, observation=observation, **options)


def register() -> None:
    """Register the ids with Gymnasium (importing this module does; again does nothing).

    Raises `ImportError` naming the extra to install when Gymnasium is missing.
    """
    try:
        import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError as e:  # pragma: no cover - the extra is installed in CI
        raise ImportError("Gymnasium is missing: pip install 'conquian[pettingzoo]'") from e
    for env_id, game in IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id, entry_point="conquian.gymnasium:make_env", kwargs={"game": game}
        )


# Importing the module registers the ids (Gymnasium 1.x has no plugin discovery);
# without the extra, `register()` says what to install.
with contextlib.suppress(ImportError):
    register()
