"""The command line, driven through `conquian.cli.main` with captured output and piped input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conquian import Action, ConquianRules, CooncanRules, GameRecord, Rules, State
from conquian.agents import HeuristicAgent, play
from conquian.cli import main

RULES: dict[str, Rules] = {
    "two-hand": ConquianRules(),
    "three-hand": CooncanRules.three_hand(turn_limit=300),
    "double-pack": CooncanRules.double_pack(players=4, turn_limit=300),
}


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


def heuristic_game(game: str, seed: int) -> tuple[State, list[Action]]:
    """The deal `play` would give with heuristic bots everywhere, and seat 0's actions in it."""
    rules = RULES[game]
    mine: list[Action] = []

    def observe(before: State, seat: int, action: Action, after: State) -> None:
        if seat == 0:
            mine.append(action)

    bots = [HeuristicAgent() for _ in range(rules.players)]
    final = play(bots, rules, seed=seed, dealer=rules.players - 1, observe=observe)
    return final, mine


# -- demo -----------------------------------------------------------------------------------


def test_demo_plays_one_game_of_each_kind_move_by_move(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """demo plays two-hand, three-hand and double-pack deals to a result, with suit symbols."""
    status, out, err = run(capsys, monkeypatch, "demo", "--seed", "1")
    assert status == 0 and err == ""
    assert out.count("Result:") == 3
    for title in ("Two-hand Conquian", "three-hand Cooncan", "double-pack Cooncan"):
        assert title in out
    assert "not available" not in out
    assert any(s in out for s in "♣♦♥♠")
    assert "    1. player 0: " in out
    assert " draw (drew " in out  # the demo shows what a bot drew


def test_demo_is_reproducible(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same seed prints the same games; another seed prints other games."""
    first = run(capsys, monkeypatch, "demo", "--seed", "4")[1]
    again = run(capsys, monkeypatch, "demo", "--seed", "4")[1]
    other = run(capsys, monkeypatch, "demo", "--seed", "5")[1]
    assert first == again != other


# -- play --------------------------------------------------------------------------------


def test_play_explains_bad_notation_and_illegal_actions_then_quits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bad text and an illegal action each get their message (rule cited) and a new prompt."""
    piped = "help\nlegal\nhint\ntake ZZ\nmeld 4H 5H 6H\nfrobnicate\n\nquit\n"
    status, out, err = run(capsys, monkeypatch, "play", "--seed", "3", stdin=piped)
    assert status == 0 and err == ""
    assert "Your hand: 7♣ A♦ J♦ Q♦ A♥ 7♥ A♠ 5♠ 6♠ Q♠" in out
    assert "On offer to you: 3♠" in out
    assert "Commands: help" in out
    assert "legal: pass, meld A♦ A♥ A♠" in out
    assert "hint: pass" in out
    assert "unknown card 'ZZ' at column 5" in out
    assert "illegal action 'meld 4H 5H 6H': 4H is not in your hand (T8)" in out
    assert "unknown action 'frobnicate'" in out
    assert out.count("Try again") == 3
    assert out.rstrip().endswith("You left the game.")


def test_play_quits_cleanly_at_the_end_of_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With nothing (more) on stdin the game ends quietly, exit status 0."""
    status, out, err = run(capsys, monkeypatch, "play", "--game", "three-hand", "--seed", "2")
    assert status == 0 and err == ""
    assert "Your turn (draw)" in out and "You left the game." in out


@pytest.mark.parametrize("game", list(RULES))
def test_play_a_whole_game_from_piped_input_and_save_it(
    game: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Typing the heuristic's moves plays the deal to its result and saves the record."""
    final, mine = heuristic_game(game, seed=6)
    piped = "".join(f"{a}\n" for a in mine)
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
    assert final.result is not None
    if final.result.winner is not None:
        who = "you win" if final.result.winner == 0 else f"player {final.result.winner} wins"
        assert f"Result: {who}" in out
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
    assert main(["play", "--seed", "3"]) == 0
    ascii_out.flush()
    assert "Your hand: 7C AD JD QD AH 7H AS 5S 6S QS" in raw.getvalue().decode("ascii")


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
    assert "[" in err and "6/6 games 100%" in err


def test_simulate_json_is_one_object_with_the_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--json prints a JSON object whose counts add up to the games played."""
    status, out, _ = run(
        capsys, monkeypatch, "simulate", "--games", "5", "--seed", "3", "--json", "--quiet"
    )
    assert status == 0
    data = json.loads(out)
    assert data["game"] == "two-hand" and data["games"] == 5
    assert [a["agent"] for a in data["agents"]] == ["heuristic", "random"]
    assert sum(a["wins"] for a in data["agents"]) + data["tableaus"] == 5
    lo, hi = data["agents"][0]["ci95"]
    assert 0 <= lo <= data["agents"][0]["win_rate"] <= hi <= 1
    assert data["mean_decisions"] > 0 and data["games_per_second"] > 0


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
        stdin="".join(f"{a}\n" for a in mine),
    )
    status, out, err = run(capsys, monkeypatch, "replay", str(path))
    assert status == 0 and err == ""
    assert out.count("\n") >= len(final.history)
    assert "Result:" in out


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
        ["play", "--game", "two-hand", "--players", "3"],
        ["simulate", "--games", "0"],
        ["simulate", "--games", "many"],
        ["simulate", "--agents", "heuristic"],
        ["simulate", "--agents", "heuristic,genius"],
        ["simulate", "--jobs", "-1"],
        ["replay"],
        ["replay", "/nonexistent/game.json"],
        ["simulate", "--unknown-option"],
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
