"""The command line, driven through `conquian.cli.main` with captured output and piped input."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import conquian
from conquian import (
    JOKER,
    Action,
    ConquianRules,
    CooCanRules,
    CooncanRules,
    GameRecord,
    Match,
    NamedJoker,
    NotationError,
    Rules,
    State,
    cli,
    new_game,
    parse_action,
)
from conquian.agents import AGENTS, play
from conquian.cards import parse_face
from conquian.cli import main
from conquian.render.terminal import LineReader, Printer, help_text, not_in_pack, progress_bar
from conquian.render.text import cards_text
from conquian.table import PRESETS

RULES: dict[str, Rules] = {
    "two-hand": ConquianRules(),
    "three-hand": CooncanRules.three_hand(turn_limit=300),
    "double-pack": CooncanRules.double_pack(players=4, turn_limit=300),
    "coo-can": CooCanRules(turn_limit=300),
}


@pytest.fixture(autouse=True)
def _in_a_scratch_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in its own directory (quit saves a game there) at 80 columns."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *argv: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    """main(argv) with `stdin` piped in; returns (exit status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def heuristic_game(game: str, seed: int) -> tuple[State, list[tuple[Action, bool]]]:
    """The deal `play` would give with heuristic bots everywhere, and seat 0's actions in it,
    each with whether it was his only legal move."""
    rules = RULES[game]
    mine: list[tuple[Action, bool]] = []

    def observe(before: State, seat: int, action: Action, after: State) -> None:
        if seat == 0:
            mine.append((action, len(before.legal_actions()) == 1))

    bots = [AGENTS["heuristic"](seed + seat) for seat in range(rules.players)]
    final = play(bots, rules, seed=seed, dealer=0, observe=observe)
    return final, mine


# -- demo -----------------------------------------------------------------------------------


def test_demo_plays_one_game_of_each_kind_move_by_move(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """demo plays a deal of every game of the registry to a result, with suit symbols."""
    status, out, err = run(capsys, monkeypatch, "demo", "--seed", "1")
    assert status == 0 and err == ""
    assert out.count("Result:") == 4
    assert "stock starts with -" not in out  # Coo-Can has no face-up stock at the deal
    for title in ("Two-hand Conquian", "three-hand Cooncan", "double-pack Cooncan", "Coo-Can"):
        assert title in out
    assert "not available" not in out
    assert any(s in out for s in "♣♦♥♠")
    assert "    1. seat 0: " in out
    assert " draw (drew " in out  # the demo shows what a bot drew
    assert "starter 3♠ turned for seat 0 (T11)" in out


def test_demo_is_reproducible(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same seed prints the same games; another seed prints other games."""
    first = run(capsys, monkeypatch, "demo", "--seed", "4")[1]
    again = run(capsys, monkeypatch, "demo", "--seed", "4")[1]
    other = run(capsys, monkeypatch, "demo", "--seed", "5")[1]
    assert first == again != other


# -- play --------------------------------------------------------------------------------


def test_play_numbers_the_moves_shows_the_board_and_takes_a_number(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board is the view's diagram; the legal moves are numbered and a number plays one."""
    status, out, err = run(
        capsys, monkeypatch, "play", "--seed", "3", "--seat", "1", stdin="2\nquit\n"
    )
    assert status == 0 and err == ""
    assert "you       7♣ A♦ J♦ Q♦ A♥ 7♥ A♠ 5♠ 6♠ Q♠  (10 cards, 0 melded)" in out
    assert "seat 0    10 cards, 0 melded" in out
    assert "offer     3♠ to you (turned for you, T11)" in out  # T11: turned for the pone
    assert "next      you have the say to 3♠" in out
    assert "Your moves:\n   1. pass" in out and "2. meld A♦ A♥ A♠" in out
    assert "    1. You meld A♦ A♥ A♠.\n" in out
    assert "You left the game." in out


def test_play_explains_bad_input_with_cards_as_the_board_writes_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bad text, a card not in the pack, an illegal action and a bad number each get their
    message (rule cited) and a new prompt; cards in messages carry the board's suit symbols."""
    piped = "help\nlegal\nhint\ntake ZZ\ntake 8H\nmeld 4H 5H 6H\n9\nfrobnicate\n\nquit\n"
    status, out, err = run(capsys, monkeypatch, "play", "--seed", "3", "--seat", "1", stdin=piped)
    assert status == 0 and err == ""
    assert "Commands: help" in out and "borrow 7S @0" in out
    assert out.count("Your moves:\n   1. pass") == 2  # the board, then `legal`
    assert "hint: pass" in out
    assert "unknown card 'ZZ' at column 5" in out
    assert "8♥ is not in this pack: the Spanish pack has no 8, 9 or 10 (C4)" in out
    assert "illegal action 'meld 4♥ 5♥ 6♥': 4♥ is not in your hand (T8)" in out
    assert "There is no move 9: type 1 to 2" in out
    assert "unknown action 'frobnicate'" in out
    assert out.count("Try again") == 5


def test_play_makes_a_single_legal_move_for_you_unless_asked_not_to(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After melding the aces (seed 3) passing is the only move: it is made and shown, or,
    with --no-auto, offered as move 1."""
    seat = ("--seat", "1")
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", "3", *seat, stdin="2\nquit\n")
    assert "    2. You pass 3♠ to seat 0 (your only move, made for you)." in out
    piped = "2\n1\nquit\n"
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", "3", *seat, "--no-auto", stdin=piped)
    assert "made for you" not in out
    assert "Your moves:\n   1. pass\n> 1\n    2. You pass 3♠ to seat 0.\n" in out


def test_play_quits_cleanly_at_the_end_of_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With nothing (more) on stdin the game ends quietly, exit status 0."""
    status, out, err = run(capsys, monkeypatch, "play", "--game", "three-hand", "--seed", "2")
    assert status == 0 and err == ""
    assert "next      you to draw from the pack or take from the stock" in out
    assert "You left the game." in out


def test_play_in_the_spanish_pack_refuses_an_eight_and_in_three_hand_a_joker(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card the pack in play lacks is named as such (C4, C5), on an ASCII terminal too."""
    raw = io.BytesIO()
    ascii_out = io.TextIOWrapper(raw, encoding="ascii")
    monkeypatch.setattr(sys, "stdout", ascii_out)
    monkeypatch.setattr(sys, "stdin", io.StringIO("take 8H\nquit\n"))
    assert main(["play", "--seed", "3", "--seat", "1"]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("meld JK=4D 5D 6D\nquit\n"))
    assert main(["play", "--seed", "3", "--game", "three-hand"]) == 0
    ascii_out.flush()
    text = raw.getvalue().decode("ascii")
    assert "8H is not in this pack: the Spanish pack has no 8, 9 or 10 (C4)" in text
    assert "JK=4D: there is no joker in this game (C5)" in text


@pytest.mark.parametrize(
    "rules",
    [
        ConquianRules(),
        ConquianRules(pack="american"),
        CooncanRules.three_hand(),
        CooncanRules.double_pack(),
    ],
    ids=["spanish", "american", "three-hand", "double-pack"],
)
def test_the_help_uses_only_cards_of_the_pack_in_play(rules: Rules) -> None:
    """Every card in the help's examples is in the pack in play, and every example parses."""
    text = help_text(rules)
    pack = set(rules.pack_cards())
    examples = [ln.strip().removeprefix("jokers:") for ln in text.splitlines()[1:3]]
    examples = [e for e in examples if not e.startswith("Ranks")]
    seen = 0
    for line in examples:
        for example in line.split("|"):
            action = parse_action(example.strip())
            for token in str(action).split():
                try:
                    face = parse_face(token)
                except NotationError:
                    continue
                physical = JOKER if isinstance(face, NamedJoker) else face
                assert physical in pack, f"{token} in {example!r} is not in {rules}"
                seen += 1
    assert seen >= 7
    assert ("JK" in text) == bool(getattr(rules, "jokers", 0))


def test_play_against_a_named_opponent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--opponent takes a name from conquian.agents.AGENTS; the banner names it."""
    status, out, _ = run(capsys, monkeypatch, "play", "--seed", "3", "--opponent", "random")
    assert status == 0 and "the random bot plays" in out


def test_play_reads_with_input_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal lines are read with input() (readline editing and history where it
    exists), without echo, and the legal moves complete."""

    monkeypatch.setattr(sys, "stdin", Terminal("2\nquit\n"))
    assert main(["play", "--seed", "3", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "    1. You meld A♦ A♥ A♠." in out and "> 2\n" not in out
    reader = LineReader(sys.stdin, Printer(sys.stdout))
    reader.words = ["pass", "meld ad ah as", "meld ad ah as qd"]
    assert [reader._complete("me", i) for i in range(3)] == [
        "meld ad ah as",
        "meld ad ah as qd",
        None,
    ]


@pytest.mark.parametrize("game", list(RULES))
def test_play_a_whole_game_from_piped_input_and_save_it(
    game: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Typing the heuristic's moves plays the deal to its result, shows every hand (C6
    "Showing") and saves the record; single legal moves are made for the player."""
    final, mine = heuristic_game(game, seed=6)
    piped = "".join(f"{a}\n" for a, only in mine if not only)
    path = tmp_path / "game.json"
    status, out, err = run(
        capsys,
        monkeypatch,
        "play",
        "--game",
        game,
        "--seed",
        "6",
        "--save",
        str(path),
        stdin=piped,
    )
    assert status == 0 and err == ""
    assert "Result:" in out and "Try again" not in out
    assert out.count("(your only move, made for you)") == sum(only for _, only in mine)
    assert final.result is not None
    if final.result.winner is not None:
        who = "you win" if final.result.winner == 0 else f"seat {final.result.winner} wins"
        assert f"Result: {who}" in out
    showing = out[out.index("Every hand is shown (C6):") :]
    for seat in range(final.rules.players):
        name = "you" if seat == 0 else f"seat {seat}"
        hand = cards_text(final.hand(seat), symbols=True)
        assert f"\n{name:<10}{hand}  (" in showing
    text = path.read_text(encoding="utf-8")
    assert GameRecord.from_json(text).replay() == final


def test_play_with_letters_when_the_terminal_cannot_show_symbols(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On an ASCII-only stdout cards are written with suit letters."""
    raw = io.BytesIO()
    ascii_out = io.TextIOWrapper(raw, encoding="ascii")
    monkeypatch.setattr(sys, "stdout", ascii_out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--seed", "3", "--seat", "1"]) == 0
    ascii_out.flush()
    assert "you       7C AD JD QD AH 7H AS 5S 6S QS  (10 cards" in raw.getvalue().decode("ascii")


# -- simulate --------------------------------------------------------------------------------


def test_simulate_prints_rates_intervals_and_a_progress_bar(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table of wins, rates and Wilson intervals on stdout; the bar on stderr."""
    status, out, err = run(
        capsys,
        monkeypatch,
        "simulate",
        "--game",
        "three-hand",
        "--games",
        "6",
        "--agents",
        "heuristic,random,random",
        "--seed",
        "1",
    )
    assert status == 0
    assert "95% CI (Wilson)" in out
    assert out.count("\n  heuristic ") == 1 and out.count("\n  random ") == 2
    assert "abandoned:" in out and "mean game length:" in out and "games/s" in out
    # stderr is not a terminal here: plain lines, no carriage returns
    assert "\r" not in err and err.splitlines()[-1].startswith("6/6 games 100%, ")
    assert all(re.fullmatch(r"\d/6 games +\d+%, .*", line) for line in err.splitlines())


class Clock:
    """A clock for the progress bar that moves one second at each reading."""

    def __init__(self) -> None:
        self.now = -1.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_shows_the_rate_and_the_time_left() -> None:
    """Off a terminal: one plain line every 10%, with games per second and the time left."""
    err = io.StringIO()
    draw = progress_bar(err, clock=Clock())
    for done in range(1, 21):
        draw(done, 20)
    lines = err.getvalue().splitlines()
    assert len(lines) == 11  # 5%, then each tenth
    assert lines[1] == "2/20 games  10%, 1.0 games/s, about 18 s left"
    assert lines[-1] == "20/20 games 100%, 1.0 games/s, done in 20 s"


def test_progress_on_a_terminal_redraws_one_line() -> None:
    """On a terminal the bar is redrawn in place with \\r and ends with a newline."""
    err = Terminal()
    draw = progress_bar(err, clock=Clock())
    for done in range(1, 4):
        draw(done, 3)
    text = err.getvalue()
    assert text.count("\r[") == 3 and text.endswith("\n") and text.count("\n") == 1
    assert "[##########" in text and "3/3 games 100%, 1.0 games/s, done in 3 s" in text


def test_simulate_progress_frames_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """main draws the bar in place when stderr is a terminal."""
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["simulate", "--games", "3", "--seed", "2"]) == 0
    assert "\r[" in err.getvalue() and "3/3 games 100%" in err.getvalue()


def test_simulate_plot_writes_an_svg_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--plot FILE writes the win shares chart, which parses as SVG."""
    path = tmp_path / "shares.svg"
    status, _, _ = run(
        capsys, monkeypatch, "simulate", "--games", "4", "--quiet", "--plot", str(path)
    )
    assert status == 0
    root = ET.fromstring(path.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_simulate_json_is_one_object_with_the_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--json prints a JSON object whose counts add up to the games played."""
    status, out, _ = run(
        capsys, monkeypatch, "simulate", "--games", "5", "--seed", "3", "--json", "--quiet"
    )
    assert status == 0
    data = json.loads(out)
    assert data["game"] == "conquian" and data["games"] == 5
    assert [a["agent"] for a in data["agents"]] == ["heuristic", "random"]
    assert sum(a["wins"] for a in data["agents"]) + data["tableaus"] == 5
    lo, hi = data["agents"][0]["ci95"]
    assert 0 <= lo <= data["agents"][0]["win_rate"] <= hi <= 1
    assert data["mean_decisions"] > 0 and data["games_per_second"] > 0


def test_simulate_takes_the_rules_and_options_play_takes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--rules and --option build the rules as for play (T21: trade rounds for three)."""
    played: list[Rules] = []
    real = cli.simulate

    def spy(agents: Any, rules: Rules, **options: Any) -> Any:
        played.append(rules)
        return real(agents, rules, **options)

    monkeypatch.setattr(cli, "simulate", spy)
    quiet = ("--games", "3", "--json", "--quiet")
    assert (
        run(capsys, monkeypatch, "simulate", "--players", "3", "--option", "trades=2", *quiet)[0]
        == 0
    )
    assert played[-1] == ConquianRules(players=3, trades=2)
    assert run(capsys, monkeypatch, "simulate", "--rules", "hoyle", *quiet)[0] == 0
    assert played[-1] == PRESETS["hoyle"]()
    coocan = ("simulate", "--game", "coo-can", "--turn-limit", "60")
    assert run(capsys, monkeypatch, *coocan, *quiet)[0] == 0
    assert played[-1] == CooCanRules(turn_limit=60)
    assert run(capsys, monkeypatch, *coocan, "--option", "turn_limit=40", *quiet)[0] == 0
    assert played[-1] == CooCanRules(turn_limit=40)


# -- replay ------------------------------------------------------------------------------


def test_replay_prints_a_saved_game_move_by_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record saved by play replays to the same moves and result."""
    final, mine = heuristic_game("two-hand", seed=6)
    path = tmp_path / "game.json"
    run(
        capsys,
        monkeypatch,
        "play",
        "--seed",
        "6",
        "--save",
        str(path),
        stdin="".join(f"{a}\n" for a, only in mine if not only),
    )
    status, out, err = run(capsys, monkeypatch, "replay", str(path))
    assert status == 0 and err == ""
    assert out.count("\n") >= len(final.history)
    assert "Result:" in out


def test_coo_can_is_played_saved_and_replayed_at_80_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`play --game coo-can` says how a deal is won (K4, K5, K7), shows the discard pile and
    the deck, keeps every line within 80 columns, and its saved record replays to the end."""
    final, mine = heuristic_game("coo-can", seed=4)
    path = tmp_path / "coocan.json"
    moves = "".join(f"{a}\n" for a, only in mine if not only)
    status, out, err = run(
        capsys, monkeypatch, "play", "--game", "coo-can", "--seed", "4", "--save", str(path),
        stdin="help\n" + moves,
    )  # fmt: skip
    assert status == 0 and err == ""
    assert out.startswith("Coo-Can (4 players, two packs). You are seat 0") and "(K4)" in out
    assert "draw | take 5H | meld 4H 5H 6H 7H" in out and "force" not in out
    assert "    1. You discard " in out and "You draw " in out  # told as events
    assert "discards  " in out and "deck      " in out
    assert "next      you to draw from the deck or take the top discard" in out
    board = [line for line in out.splitlines() if not line.startswith("Saved the game record")]
    assert max(len(line) for line in board) <= 80
    record = GameRecord.from_json(path.read_text(encoding="utf-8"))
    assert record.replay() == final
    status, out, err = run(capsys, monkeypatch, "replay", str(path))
    assert status == 0 and err == "" and "Result:" in out


def test_coo_can_is_told_as_events_with_the_reshuffle_at_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`play --game coo-can` tells the deal as the events of `conquian.events` (C6): the
    card you drew, the others' draws unnamed, the declarations (K6), the discard pile mixed
    into a new deck (K8), the winner and what each loser pays (K9); within 80 columns."""
    rules, seed = CooCanRules(players=6, turn_limit=300), 6
    mine: list[str] = []

    def observe(before: State, seat: int, action: Action, after: State) -> None:
        if seat == 0 and len(before.legal_actions()) > 1:
            mine.append(f"{action}\n")

    bots = [AGENTS["heuristic"](seed + seat) for seat in range(6)]
    final = play(bots, rules, seed=seed, dealer=0, observe=observe)
    assert final.reshuffles == 1  # type: ignore[attr-defined]
    status, out, err = run(
        capsys, monkeypatch, "play", "--game", "coo-can", "--players", "6", "--seed", str(seed),
        stdin="".join(mine),
    )  # fmt: skip
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    mixed = [line for line in lines if "is mixed into a new deck." in line]
    assert len(mixed) == 1 and "The discard pile (" in mixed[0]
    assert any(line.startswith("    2. Seat 1 draws a card.") for line in lines)
    assert any(". You draw " in line and "a card" not in line for line in lines)
    assert any(" declares " in line for line in lines)
    result = final.result
    assert result is not None and result.winner is not None
    payers = [line for line in lines if " pays " in line or ". You pay " in line]
    winner = "you" if result.winner == 0 else f"seat {result.winner}"
    assert len(payers) == 5 and all(f" {winner} " in line + " " for line in payers)
    assert f"Result: seat {result.winner} wins" in out or "Result: you win" in out


def test_simulate_plays_coo_can(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`simulate --game coo-can` plays deals of every seat count between the bots."""
    status, out, err = run(
        capsys, monkeypatch, "simulate", "--game", "coo-can", "--players", "3", "--games", "3",
        "--agents", "heuristic,random,heuristic", "--quiet",
    )  # fmt: skip
    assert status == 0 and err == ""
    assert out.startswith("Coo-Can (3 players, two packs): 3 games") and "abandoned" in out


def test_replay_rejects_a_bad_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that is not a valid record exits with status 2 and one line naming the file."""
    path = tmp_path / "bad.json"
    path.write_text('{"not": "a record"}', encoding="utf-8")
    status, _, err = run(capsys, monkeypatch, "replay", str(path))
    assert status == 2
    assert err.startswith(f"conquian: error: {path}") and err.count("\n") == 1


# -- bad arguments ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["bogus"],
        ["demo", "--seed", "x"],
        ["play", "--game", "chess"],
        ["play", "--game", "three-hand", "--players", "7"],
        ["play", "--game", "two-hand", "--players", "5"],
        ["play", "--game", "conquian", "--players", "1"],
        ["simulate", "--games", "0"],
        ["simulate", "--games", "many"],
        ["simulate", "--agents", "heuristic"],
        ["simulate", "--agents", "heuristic,genius"],
        ["simulate", "--jobs", "-1"],
        ["replay"],
        ["replay", "/nonexistent/game.json"],
        ["simulate", "--unknown-option"],
        ["simulate", "--option", "bogus=1"],
        ["simulate", "--players", "3", "--option", "trades=9"],
        ["simulate", "--game", "coo-can", "--rules", "pagat"],
        ["play", "--opponent", "genius"],
    ],
    ids=" ".join,
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bad arguments or files: exit status 2 and one line on stderr, never a traceback."""
    status, out, err = run(capsys, monkeypatch, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("conquian: error: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_version(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """--version prints the package's version, exit status 0."""
    status, out, _ = run(capsys, monkeypatch, "--version")
    assert status == 0 and out == f"conquian {conquian.__version__}\n"


def test_help_exits_0(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """--help prints the usage and every command, with exit status 0."""
    status, out, _ = run(capsys, monkeypatch, "--help")
    assert status == 0
    assert "usage: conquian" in out
    assert all(c in out for c in ("demo", "play", "simulate", "replay"))


def test_python_dash_m_conquian_runs_the_cli() -> None:
    """python -m conquian is the same command line."""
    done = subprocess.run(
        [sys.executable, "-m", "conquian", "simulate", "--games", "2", "--json", "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2


@pytest.mark.parametrize(
    ("rules", "text", "why"),
    [
        (
            ConquianRules(),
            "take 8H",
            "8H is not in this pack: the Spanish pack has no 8, 9 or 10 (C4)",
        ),
        (ConquianRules(pack="american"), "discard KD", "the American pack has no J, Q or K (C4)"),
        (CooncanRules.three_hand(), "discard JK", "JK: there is no joker in this game (C5)"),
        (CooncanRules.three_hand(), "force JK=10H @0", "there is no joker in this game (C5)"),
        (ConquianRules(), "take 7H", None),
        (CooncanRules.double_pack(), "meld 5D 6D JK=4D", None),
    ],
)
def test_a_card_outside_the_pack_in_play_is_named(rules: Rules, text: str, why: str | None) -> None:
    """C4, C5: the 40-card packs lack some ranks, and only the double pack (or the three-hand
    joker option) has jokers."""
    found = not_in_pack(parse_action(text), rules)
    assert (found is None) if why is None else (found is not None and why in found)


# -- play: matches, seats, presets, saving and resuming (issue #26) ---------------------------

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "docs" / "examples" / "bots"


def ones(n: int = 4000) -> str:
    """Input that always picks move 1: legal at every prompt, so any deal goes to its end."""
    return "1\n" * n


def test_play_a_match_to_a_target_with_the_sheet_between_deals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """--target plays deals until a total reaches it, the score sheet printed after each."""
    path = tmp_path / "match.json"
    status, out, err = run(
        capsys, monkeypatch, "play", "--target", "2", "--seed", "4", "--save", str(path),
        stdin=ones(),
    )  # fmt: skip
    assert status == 0 and err == ""
    match = Match.from_json(path.read_text(encoding="utf-8"))
    assert match.is_over and max(match.sheet.totals) >= 2
    deals = len(match.sheet.rows)
    assert out.count("Score sheet:") == deals and out.count("== Deal ") == deals
    assert "deal  dealer" in out and "\ntotal " in out
    assert ("You win the match." in out) == (match.winner == 0)


def test_quit_saves_a_match_and_load_resumes_it_where_it_stopped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Quitting a match saves it to a file it names; --load plays on from there, and the
    match ends as it would have without the break (the heuristic bot is deterministic)."""
    whole = tmp_path / "whole.json"
    argv = ("play", "--deals", "2", "--seed", "9")
    run(capsys, monkeypatch, *argv, "--save", str(whole), stdin=ones())
    status, out, err = run(capsys, monkeypatch, *argv, stdin="1\n" * 5 + "quit\n")
    assert status == 0 and err == ""
    saved = re.search(r"Saved the match to (\S+)\.\n", out)
    assert saved is not None and f"conquian play --load {saved.group(1)}" in out
    halfway = Match.from_json(Path(saved.group(1)).read_text(encoding="utf-8"))
    assert not halfway.is_over
    resumed = tmp_path / "resumed.json"
    status, out, err = run(
        capsys, monkeypatch, "play", "--load", saved.group(1), "--save", str(resumed),
        stdin=ones(),
    )  # fmt: skip
    assert status == 0 and err == "" and "(resumed after " in out
    assert Match.from_json(resumed.read_text()) == Match.from_json(whole.read_text())


def test_quit_saves_a_single_deal_as_a_record_and_load_resumes_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "deal.json"
    argv = ("play", "--game", "three-hand", "--seed", "2")
    run(capsys, monkeypatch, *argv, "--save", str(path), stdin="1\n1\nquit\n")
    record = GameRecord.from_json(path.read_text(encoding="utf-8"))
    assert len(record.actions) >= 2 and "seed" not in dict(record.metadata)
    assert record.player_names[0] == "human"
    status, out, _ = run(capsys, monkeypatch, "play", "--load", str(path), stdin=ones())
    assert status == 0 and "(resumed after " in out and "Result:" in out
    status, _, err = run(capsys, monkeypatch, "play", "--load", str(path), "--seed", "3")
    assert status == 2 and "a saved game resumes as it was saved (drop --seed)" in err


def test_play_deals_as_new_game_does_and_seats_you_where_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`conquian play --seed 5` is new_game(rules, seed=5): dealer 0; --seat picks your seat."""
    for seat in (0, 1):
        status, out, _ = run(capsys, monkeypatch, "play", "--seed", "5", "--seat", str(seat))
        hand = cards_text(new_game(ConquianRules(), seed=5).hand(seat), symbols=True)
        assert status == 0 and f"\nyou       {hand}  (10 cards" in out
        assert f"You are seat {seat};" in out
        assert ("0. You deal;" if seat == 0 else "0. Seat 0 deals;") in out
    status, _, err = run(capsys, monkeypatch, "play", "--seat", "2")
    assert status == 2 and "--seat" in err


def test_play_takes_a_preset_and_options(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "deal.json"
    argv = ("play", "--rules", "pagat", "--option", "hand_size=9", "--save", str(path))
    status, _, err = run(capsys, monkeypatch, *argv, stdin="quit\n")
    assert status == 0 and err == ""
    rules = GameRecord.from_json(path.read_text(encoding="utf-8")).rules
    assert rules == ConquianRules.pagat(hand_size=9)
    status, _, err = run(capsys, monkeypatch, "play", "--option", "frobs=1")
    assert status == 2 and "frobs" in err and err.count("\n") == 1
    status, _, err = run(capsys, monkeypatch, "play", "--game", "three-hand", "--rules", "hoyle")
    assert status == 2 and "--rules" in err


def test_no_seed_is_shown_to_the_player(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seed foretells the deal: neither the deal nor a match prints it."""
    for extra in ((), ("--deals", "1")):
        _, out, _ = run(capsys, monkeypatch, "play", "--seed", "987654321", *extra, stdin=ones())
        assert "987654321" not in out and "seed" not in out.lower()


def test_help_explains_the_words_of_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", "3", stdin="help\nquit\n")
    legend = out[out.index("The words:") :]
    for word in ("say", "pone", "offer", "force", "@1", "tableau", "borrow", "stock", "pending"):
        assert re.search(rf"^  {re.escape(word)} +\S", legend, re.M), word
    assert all(len(line) <= 80 for line in out.splitlines())


def test_the_stock_line_wraps_between_whole_cards_at_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A three-hand stock of many cards is cut between cards, never inside one."""
    rules = CooncanRules.three_hand(turn_limit=300)
    bot = AGENTS["heuristic"](0)

    def long_stock(seed: int) -> State | None:
        state = new_game(rules, seed=seed)
        while state.current_player is not None:
            if len(state.stock) >= 20 and state.current_player == 0:  # type: ignore[attr-defined]
                return state
            state = state.apply(bot(state.view(state.current_player)))
        return None

    state = next(s for s in map(long_stock, range(50)) if s is not None)
    path = tmp_path / "long.json"
    path.write_text(GameRecord.from_state(state).to_json(), encoding="utf-8")
    _, out, _ = run(capsys, monkeypatch, "play", "--load", str(path), stdin="quit\n")
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    start = next(i for i, line in enumerate(lines) if line.startswith("stock "))
    end = start + 1
    while lines[end].startswith(" " * 10):  # the stock's continuation lines
        end += 1
    rows = lines[start:end]
    assert len(rows) > 1
    tokens = " ".join(r[10:] for r in rows).replace("(face up, top last)", "").split()
    shown = cards_text(state.stock, symbols=True).split()  # type: ignore[attr-defined]
    assert tokens[: len(shown)] == shown


@pytest.mark.parametrize("runtime", ["python", "node"])
def test_cmd_bots_play_in_simulate_and_in_play(
    runtime: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cmd:...`` names a bot in another process wherever an agent name is taken: the docs'
    ``conquian simulate --agents "cmd:node ..." heuristic`` example runs as written."""
    if runtime == "node":
        if shutil.which("node") is None:
            pytest.skip("node is not installed")
        command = f"cmd:node {BOTS / 'first_bot.js'}"
    else:
        command = f"cmd:{sys.executable} {BOTS / 'first_bot.py'}"
    argv = ("simulate", "--agents", command, "heuristic", "--games", "2", "--json", "--quiet")
    status, out, err = run(capsys, monkeypatch, *argv)
    assert status == 0 and err == ""
    summary = json.loads(out)
    assert summary["games"] == 2 and summary["agents"][0]["agent"] == command
    status, out, err = run(capsys, monkeypatch, "play", "--opponent", command, stdin=ones())
    assert status == 0 and err == "" and "Result:" in out
    status, _, err = run(capsys, monkeypatch, "simulate", "--agents", "nobody", "heuristic")
    assert status == 2 and "cmd:COMMAND" in err


def test_a_failing_bot_ends_play_with_its_seat_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cmd: bot that exits is the bot's fault: status 2, one line naming its seat."""
    command = f"cmd:{sys.executable} -c 'raise SystemExit(3)'"
    status, _, err = run(capsys, monkeypatch, "play", "--opponent", command, stdin=ones(50))
    assert status == 2 and err.count("\n") == 1
    assert "seat 1 (bot" in err and "exit code 3" in err


# -- bots that fail, and what reaches the terminal (issues 38.6, 39.10) ----------------------


def _script(tmp_path: Path, text: str) -> str:
    """A cmd: name for a Python bot with this source."""
    script = tmp_path / "bot.py"
    script.write_text(text)
    return f"cmd:{sys.executable} {script}"


_ANSWER = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    "    if m['type'] == 'hello':\n"
    "        print(json.dumps({'type': 'hello', 'protocol': 1}), flush=True)\n"
    "    elif m['type'] == 'decide':\n"
    "        {}\n"
)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ("sys.exit(3)", "exit code 3"),
        ("print(json.dumps({'type': 'action', 'action': 'discard 5H'}), flush=True)", "not legal"),
        ("print('[' * 100000, flush=True)", "not JSON"),
        (None, "could not be started"),
    ],
    ids=["crash", "illegal", "nested", "missing"],
)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_bot_ends_simulate_with_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    answer: str | None,
    said: str,
    jobs: str,
) -> None:
    """simulate with a cmd: bot that crashes, answers illegally or out of protocol, or
    cannot start: ``conquian: error:`` and one line naming the seat, exit status 2, as play
    (on one process or several)."""
    if answer is None:
        name = f"cmd:{tmp_path / 'no-such-bot'}"
    else:
        name = _script(tmp_path, _ANSWER.replace("{}", answer))
    argv = ("simulate", "--agents", name, "heuristic", "--games", "4", "--jobs", jobs)
    status, out, err = run(capsys, monkeypatch, *argv, "--quiet")
    assert status == 2 and out == ""
    assert err.startswith("conquian: error: the bot failed: seat ") and err.count("\n") == 1
    assert said in err


def test_a_bot_that_times_out_in_simulate_raises_bot_error(tmp_path: Path) -> None:
    """A bot past its timeout is a BotError from simulate, the error the command line
    reports on one line."""
    from conquian.agents.process import BotError, Command

    script = tmp_path / "slow.py"
    script.write_text("import time\ntime.sleep(30)\n")
    with pytest.raises(BotError, match=r"no hello within 0\.5 s"):
        conquian.simulate(
            [Command([sys.executable, str(script)], 0.5), "heuristic"], RULES["two-hand"], games=1
        )


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_bots_escape_codes_do_not_reach_the_terminal(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
) -> None:
    """What a bot writes on standard error reaches the terminal quoted, as replay quotes a
    file's names: no escape code retitles the window or erases a line."""
    name = _script(
        tmp_path, "import sys\nsys.stderr.write('\\x1b]0;pwned\\x07\\x1b[2Kgone\\n')\nsys.exit(4)\n"
    )
    if command == "play":
        status, out, err = run(capsys, monkeypatch, "play", "--opponent", name, stdin=ones(50))
    else:
        argv = ("simulate", "--agents", name, "heuristic", "--games", "2", "--quiet")
        status, out, err = run(capsys, monkeypatch, *argv)
    assert status == 2 and "exit code 4" in err
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "\\x1b]0;pwned\\x07\\x1b[2Kgone" in err


def test_simulate_prints_the_bots_seed_and_repeats_with_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run with a cmd: bot prints the bots' seed (fresh entropy), in text and JSON;
    --bot-seed gives it back; a run of bots of this process has none."""
    name = f"cmd:{sys.executable} {BOTS / 'first_bot.py'}"
    argv = ("simulate", "--agents", name, "heuristic", "--games", "1", "--quiet")
    status, out, _ = run(capsys, monkeypatch, *argv)
    found = re.search(r"bots' seed (\d+) \(--bot-seed \1 repeats", out)
    assert status == 0 and found is not None and "1 game, seed 0, 1 job;" in out
    status, out, _ = run(capsys, monkeypatch, *argv, "--json", "--bot-seed", found.group(1))
    assert status == 0 and json.loads(out)["bot_seed"] == int(found.group(1))
    status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "2", "--quiet")
    assert status == 0 and "bots' seed" not in out and "2 games, seed 0, 1 job;" in out


# -- what a user trips on (issue 38.9) -----------------------------------------------------


@pytest.mark.parametrize(
    ("game", "option", "named"),
    [
        ("two-hand", "foo=1", "hand_size"),
        ("three-hand", "hand_size=9", "splash_bonus"),
        ("coo-can", "turnlimit=9", "did you mean turn_limit?"),
    ],
)
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_an_unknown_option_is_answered_with_the_options(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    game: str,
    option: str,
    named: str,
) -> None:
    """``--option foo=1`` names the options the rules take, never Python's internals."""
    status, _, err = run(capsys, monkeypatch, command, "--game", game, "--option", option)
    assert status == 2 and err.count("\n") == 1 and named in err
    assert f"no option {option.split('=')[0]!r}" in err
    assert "__init__" not in err and "keyword argument" not in err


def test_a_match_is_announced_in_english(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "A match of 3 deals or to 5 points", "of 1 round": no "of to", no "deal(s)"."""
    _, out, _ = run(capsys, monkeypatch, "play", "--deals", "3", "--target", "5")
    assert "A match of 3 deals or to 5 points;" in out and "(s)" not in out
    _, out, _ = run(capsys, monkeypatch, "play", "--rounds", "1", "--game", "three-hand")
    assert "A match of 1 round." in out


def test_a_mistyped_move_gets_a_did_you_mean(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``psas`` (a typo of a move's word) is answered with the nearest legal word and the
    rest of the line; a typo of a word of the session too."""
    # seat 1 passes the turned starter, then you have the say to it: pass is legal (T11, T6)
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", "4", "--no-auto", stdin="psas\n")
    assert "Did you mean 'pass'?" in out
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", "4", "--no-auto", stdin="hlep\n")
    assert "Did you mean 'help'?" in out


class _Interrupted(io.StringIO):
    """Input that gives its lines, then Ctrl-C."""

    def readline(self, size: int | None = -1) -> str:
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_in_play_saves_as_quit_does(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Ctrl-C at the prompt leaves as ``quit``: the game is saved in the current directory,
    the user told where and that the file holds the deal, and --load resumes it."""
    monkeypatch.setattr(sys, "stdin", _Interrupted("1\n1\n"))
    status = main(["play", "--game", "three-hand", "--seed", "2"])
    out, err = capsys.readouterr()
    assert status == 0 and err == "" and "You left the game." in out
    saved = re.search(r"Saved the game record to (\S+)\.\n", out)
    assert saved is not None and (tmp_path / saved.group(1)).exists()
    assert "is in the current directory and holds the whole deal" in out
    record = GameRecord.from_json((tmp_path / saved.group(1)).read_text(encoding="utf-8"))
    assert len(record.deck) == len(record.replay().deck)  # type: ignore[attr-defined]
    status, out, _ = run(capsys, monkeypatch, "play", "--load", saved.group(1), stdin=ones())
    assert status == 0 and "(resumed after " in out and "Result:" in out
