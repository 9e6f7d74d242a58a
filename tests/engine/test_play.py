"""``draughts play``, driven end to end: the real console script with scripted input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import draughts
from draughts import pdn

SCRIPT = Path(sys.executable).parent / "draughts"


def play(*args: str, script: str = "", expect: int = 0, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    assert SCRIPT.exists(), f"the console script {SCRIPT} is not installed (pip install -e .)"
    done = subprocess.run(
        [str(SCRIPT), "play", *args], input=script, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == expect, (done.returncode, done.stdout[-3000:], done.stderr)
    return done


def lines(*commands: str) -> str:
    return "".join(command + "\n" for command in commands)


def test_human_against_computer_with_every_command(tmp_path: Path) -> None:
    # White's king has two captures from 47 to 36 (of different pieces): "47x36" is ambiguous.
    fen = "W:WK47:B3,4,14,19,29,31,42"
    saved = tmp_path / "middle.pdn"
    script = lines(
        "help",
        "moves",
        "hello",
        "99-98",
        "47-41",
        "47x36",
        "47x38x24x13x36",
        "undo",
        "moves",
        "47x38x20x9x36",
        "hint",
        f"save {saved}",
        "resign",
    )
    out = play(
        "international", "--white", "human", "--black", "computer:beginner", "--fen", fen, "--seed", "3", script=script
    ).stdout

    assert "International draughts: human (white) against level:beginner (black)" in out
    assert "  undo          take back your last move" in out  # help
    assert out.count("2 legal moves: 47x38x20x9x36 47x38x24x13x36") == 2  # moves, twice
    assert "Not a command, and not a move: move 'hello'" in out
    assert "square '99' is not on the board" in out
    # Issue 23 §13: with a capture pending, a quiet move is refused with the compulsory captures named.
    compulsory = "capturing is compulsory here, so play one of the captures 47x38x20x9x36, 47x38x24x13x36."
    assert f"Illegal move '47-41': {compulsory}" in out
    assert "Ambiguous move '47x36': it may be 47x38x20x9x36 or 47x38x24x13x36. Type the long form." in out
    assert "white plays 47x38x24x13x36" in out
    assert "black (level:beginner) plays" in out
    assert "Took back 2 plies." in out
    assert "white plays 47x38x20x9x36" in out
    assert "Hint: " in out
    assert f"Game saved to {saved}" in out
    assert "Game over: 0-2 (black wins: white resigns)" in out
    # the board is drawn after each move
    assert out.count("+---------------------+") >= 2 * 6

    # the game printed at the end is PDN that reads back, with the resignation
    text = out[out.index('[Event "polydraughts terminal game"]') :]
    game = pdn.parse_game(text)
    assert game.result == "0-2"
    assert game.headers["Termination"] == "white resigns"
    assert game.headers["White"] == "Human"
    assert game.headers["Black"] == "polydraughts beginner"
    assert game.position == draughts.Position.from_fen("international", fen)
    assert len(game.mainline_moves()) == 2
    assert set(game.mainline_moves()[0].captured) == {14, 29, 31, 42}  # the second capture, after the undo

    # "save" wrote the game so far (no result yet)
    middle = pdn.parse_game(saved.read_text(encoding="utf-8"))
    assert middle.result == "*"
    assert middle.mainline_moves() == game.mainline_moves()


def test_computer_against_computer_to_the_end(tmp_path: Path) -> None:
    target = tmp_path / "game.pdn"
    out = play(
        "american",
        "--white",
        "computer:strong",
        "--black",
        "computer:beginner",
        "--fen",
        "W:W18,20,22,25:B11,12",
        "--seed",
        "2",
        "--save",
        str(target),
    ).stdout
    # White sacrifices on 15 and takes both black men: in American checkers "0-1" is White's win.
    assert "white (level:strong) plays 18-15" in out
    assert "Game over: 0-1 (white wins: black has no pieces left)" in out
    assert f"Game saved to {target}" in out
    game = pdn.parse_game(target.read_text(encoding="utf-8"))
    assert game.ruleset.name == "american"
    assert game.result == "0-1"
    assert game.winner is draughts.WHITE
    board = game.end().board()
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.winner is draughts.WHITE


def test_a_whole_game_from_the_start_position(tmp_path: Path) -> None:
    target = tmp_path / "full.pdn"
    out = play(
        "russian",
        "--white",
        "computer:intermediate",
        "--black",
        "computer:beginner",
        "--seed",
        "1",
        "--save",
        str(target),
        "--numbers",
        timeout=300,
    ).stdout
    assert "Game over: " in out
    game = pdn.parse_game(target.read_text(encoding="utf-8"))
    outcome = game.end().board().outcome()
    assert outcome is not None
    assert game.result == pdn.result_for("russian", outcome.winner)
    assert f"({outcome.rule})" in out or outcome.rule in out


def test_draw_claim_and_repetition() -> None:
    shuffle = ("29-25", "4-8", "25-29", "8-4")
    script = lines(*shuffle[:3], "draw", shuffle[3], *shuffle, "draw")
    out = play("american", "--white", "human", "--black", "human", "--fen", "W:WK29:BK4", script=script).stdout
    assert "No draw can be claimed now; american allows a claim after: the same position 3 times" in out
    assert "Game over: 1/2-1/2 (drawn, claimed by white: the same position 3 times)" in out
    # where draws are not claimed the command says so
    out = play("russian", "--white", "human", "--black", "human", script=lines("draw", "quit")).stdout
    assert "Draws are not claimed in russian" in out
    assert "Game over: * (unfinished: white quits)" in out


def test_automatic_draws_are_announced_with_their_rule() -> None:
    shuffle = ["a1-b2", "h2-g1", "b2-a1", "g1-h2"]
    out = play(
        "russian", "--white", "human", "--black", "human", "--fen", "W:WKa1:BKh2", script=lines(*shuffle * 3)
    ).stdout
    assert "Game over: 1/2-1/2 (drawn: repetition, the same position 3 times)" in out
    # the computers avoid repeating; a king against a king is drawn after 5 moves each (RUS64 7.2.8)
    args = ("--white", "computer:strong", "--black", "computer:strong", "--fen", "W:WKa1:BKh2", "--seed", "1")
    out = play("russian", *args).stdout
    assert "Game over: 1/2-1/2 (drawn: endgame rule, RUS64 7.2.8)" in out


def test_black_human_board_is_flipped_and_end_of_input() -> None:
    out = play("italian", "--white", "computer:beginner", "--black", "human", "--seed", "1", script="").stdout
    assert "white (level:beginner) plays" in out
    assert "black> (end of input)" in out
    assert "Game over: * (unfinished: the input ended)" in out
    diagram = out[out.index("white (level:beginner) plays") :]
    first_rank_line = next(line for line in diagram.splitlines() if "|" in line)
    assert first_rank_line.lstrip().startswith("1")  # Black's side at the bottom: rank 1 on top


def test_default_players_and_fen_numbers() -> None:
    out = play("american", "--numbers", script=lines("fen", "quit")).stdout
    assert "level:intermediate (white) against human (black)" in out
    assert "black to move (human)" in out
    assert "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["russian", "--white", "computer:godlike"], "unknown level 'godlike'"),
        (["russian", "--black", "robot"], "a player is human, random, level:NAME"),
        (["russian", "--black", "dxp:127.0.0.1:27531"], "dxp:HOST:PORT cannot play in draughts play"),
        (["russian", "--white", "time:inf"], "time:S takes seconds a move above 0"),
        (["russian", "--fen", "W:W99:B1"], "FEN"),
        (["martian"], "martian"),
    ],
)
def test_errors_are_one_line(args: list[str], message: str) -> None:
    done = play(*args, expect=2)
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("draughts play: error: ")
    assert message in done.stderr


def test_unwritable_save_file(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "game.pdn"
    done = play("russian", "--save", str(target), script=lines("save", "quit"), expect=2)
    assert "Cannot write" in done.stdout  # the save command reports and the game goes on
    assert done.stderr.startswith("draughts play: error: cannot write")
    assert "Game over: *" in done.stdout


def test_numbers_show_the_squares_of_pieces_too() -> None:
    from draughts.diagram import text_diagram

    text = text_diagram(draughts.Position.from_fen("russian", "W:Wc3:Bd6"), numbers=True)
    assert "w22" in text
    assert "b10" in text
    assert ".21" in text


def test_an_illegal_move_names_the_compulsory_capture_or_says_it_is_not_legal() -> None:
    """Issue 23 §13: one capture is named as the capture; with captures optional, the plain message."""
    out = play(
        "international",
        "--white",
        "human",
        "--black",
        "human",
        "--fen",
        "W:W32,33:B23",
        script=lines("32-28", "33-28", "quit"),
    ).stdout
    assert "Illegal move '33-28': capturing is compulsory here, so play the capture 23x32." in out
    optional = play(
        "international-nfc",
        "--white",
        "human",
        "--black",
        "human",
        "--fen",
        "W:W32,33:B23",
        script=lines("31-27", "quit"),
    ).stdout
    assert "Illegal move '31-27': it is not legal here. Type 'moves' to list the legal moves." in optional


def test_counts_take_the_singular_for_one() -> None:
    """Issue 23 §12: "1 legal move", not "1 legal moves"; "1 ply" in the undo message."""
    out = play(
        "international",
        "--white",
        "human",
        "--black",
        "human",
        "--fen",
        "W:W35:B3",
        script=lines("moves", "35-30", "undo", "quit"),
    ).stdout
    assert "1 legal move: 35-30\n" in out
    assert "1 legal moves" not in out
    assert "Took back 1 ply." in out
    from draughts.cli.play import score_text
    from draughts.engine import MATE, SearchResult

    for score, text in ((MATE - 1, "wins in 1 ply"), (-(MATE - 1), "loses in 1 ply"), (MATE - 3, "wins in 3 plies")):
        assert score_text(SearchResult(move=None, value=score, pv=(), depth=1, nodes=1)) == text


def test_a_ruleset_file_whose_name_has_a_nul_is_played(tmp_path: Path) -> None:
    # The engine once pasted the ruleset's name into compile(): a NUL there was a traceback.
    import attrs

    from draughts.rules.files import save_ruleset

    rules = tmp_path / "nul.json"
    save_ruleset(attrs.evolve(draughts.get_variant("russian"), name="nul\x00name"), rules)
    done = play(
        str(rules), "--white", "computer:beginner", "--black", "computer:beginner", "--fen", "W:Wc3:Bd4", "--seed", "1"
    )
    assert "Traceback" not in done.stderr
    assert "wins" in done.stdout.lower()


def test_save_never_truncates_the_file_when_the_game_cannot_be_written(tmp_path: Path) -> None:
    """Issue 40 §13: ``save FILE`` opened the file for writing before the text existed, so a game that
    cannot be written (a ruleset named with a lone surrogate, which a rule file may hold) left it empty."""
    import io

    import attrs

    from draughts.cli.play import play as play_in_process

    rules = attrs.evolve(draughts.get_variant("russian"), name="mine\ud800", pdn_gametype=None)
    saved = tmp_path / "saved.pdn"
    saved.write_text("the games saved before\n", encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(pdn.PDNTextError):  # the game printed at the end cannot be written either
        play_in_process(rules, white="human", black="human", stdin=io.StringIO(f"save {saved}\nresign\n"), stdout=out)
    assert "Cannot write" in out.getvalue()
    assert saved.read_text(encoding="utf-8") == "the games saved before\n"


def test_a_player_that_cannot_be_made_closes_those_made_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """play() makes the computer players before the game (a Hub engine's process started for each):
    when Black's cannot be made, White's is closed, not left running."""
    import io

    import draughts.cli.play as terminal
    from draughts.errors import HubEngineError

    closed: list[str] = []

    class Held:
        name = "held"

        def close(self, board: draughts.Board) -> None:
            closed.append(board.fen())

    def make(spec: object, ruleset: object, *, seed: int | None) -> Held:
        if str(spec) == "random":
            return Held()
        raise HubEngineError("the engine did not start")

    monkeypatch.setattr(terminal, "make_player", make)
    with pytest.raises(HubEngineError):
        terminal.play("russian", white="random", black="hub:nothing", stdin=io.StringIO(), stdout=io.StringIO())
    assert closed == [draughts.Board("russian").fen()]
