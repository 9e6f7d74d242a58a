"""Replaying a PDN collection (draughts.pdn.collection.replay_files, draughts pdn DIR) here and in a process pool.

The cluster runs of the same map are in test_dask.py. The figures are checked against the sample
tables of test_pdn.py and test_pdn_family.py, which were worked out file by file.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import draughts
from conftest import DATA
from draughts import PDNError, pdn
from draughts.pdn.collection import OUTCOMES, CollectionReport, FileReport, pdn_files, replay_files
from draughts.rules.variants import FEDERATION_VARIANTS
from test_pdn import EXPECTED, variant_of
from test_pdn_family import FAMILY

GAMES = DATA / "games"
SCRIPT = Path(sys.executable).parent / "draughts"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}  # for --scheduler to nowhere
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=300, check=False, env=env)


@pytest.fixture(scope="module")
def serial() -> CollectionReport:
    return replay_files(GAMES, variant_of)


def test_every_sample_in_sorted_order(serial: CollectionReport) -> None:
    names = [f"{file.path.parent.name}/{file.path.name}" for file in serial.files]
    assert sorted(names) == sorted([*EXPECTED, *FAMILY])
    assert [file.path for file in serial.files] == sorted(GAMES.glob("*/*.pdn"))  # folder, then file name


def test_figures_per_file_match_the_sample_tables(serial: CollectionReport) -> None:
    for file in serial.files:
        name = f"{file.path.parent.name}/{file.path.name}"
        if name in FAMILY:
            read, plies, _ = FAMILY[name]
            skipped = 0
            assert file.moves == plies, name
        else:
            read, _, skipped = EXPECTED[name]
        assert (file.games, len(file.skipped), file.error) == (read, skipped, None), name
        assert file.variants == ({variant_of(file.path): read} if read else {})
        assert sum(sum(counts.values()) for counts in file.results.values()) == read
        assert all(list(counts) == list(OUTCOMES) for counts in file.results.values())


def test_figures_match_a_plain_read(serial: CollectionReport) -> None:
    """Moves and results, file by file, as pdn.read_games gives them."""
    for file in serial.files:
        with pytest.warns(pdn.PDNWarning) if file.skipped else contextlib.nullcontext():
            games = list(pdn.read_games(file.path, variant_of(file.path), errors="skip"))
        assert file.moves == sum(len(game.mainline_moves()) for game in games)
        winners = [game.winner for game in games]
        counts = file.results.get(variant_of(file.path), dict.fromkeys(OUTCOMES, 0))
        assert counts["white"] == winners.count(draughts.WHITE)
        assert counts["black"] == winners.count(draughts.BLACK)
        assert counts["draw"] + counts["none"] == winners.count(None)


def test_sums(serial: CollectionReport) -> None:
    assert serial.games == sum(read for read, _, _ in EXPECTED.values()) + sum(read for read, _, _ in FAMILY.values())
    assert serial.moves == sum(file.moves for file in serial.files)
    federation = {name: count for name, count in serial.variants.items() if name in FEDERATION_VARIANTS}
    assert federation == {
        "american": 92,
        "brazilian": 25,
        "czech": 23,
        "international": 78,
        "italian": 27,
        "russian": 36,
    }
    assert list(serial.variants) == sorted(serial.variants)
    assert sum(serial.results["american"].values()) == 92
    assert len(serial.failures) == 4  # the three defective Tinsley games and abatsiev's '1. - -'
    assert serial.failures[0][0].name == "checkerboard-tinsley-excerpt.pdn"
    assert "game 36" not in serial.failures[-1][1]  # game numbers count within the excerpt: game 6
    assert serial.failures[-1][1].startswith("game 6 ")
    assert not serial.ok


def test_results_by_outcome() -> None:
    report = replay_files(GAMES / "english" / "py-draughts-playstrategy-american.pdn", "american")
    # playstrategy.org's American games: "1-0" is a Black win (Black moves first), see pdn's notes
    games = list(pdn.read_games(GAMES / "english" / "py-draughts-playstrategy-american.pdn", "american"))
    expected = {"white": 0, "black": 0, "draw": 0, "none": 0}
    for game in games:
        result = pdn.normalise_result(game.result)
        if result in ("*", "0-0", None):
            expected["none"] += 1
        elif game.winner is None:
            expected["draw"] += 1
        else:
            expected[str(game.winner)] += 1
    assert report.results == {"american": expected}
    assert expected["black"] > 0
    assert expected["white"] > 0


def test_process_pool_gives_the_same_report(serial: CollectionReport) -> None:
    with ProcessPoolExecutor(2) as pool:
        parallel = replay_files(GAMES, variant_of, executor=pool)
    assert parallel == serial
    assert [file.path for file in parallel.files] == [file.path for file in serial.files]


def test_reports_pickle(serial: CollectionReport) -> None:
    assert pickle.loads(pickle.dumps(serial)) == serial


def test_several_paths_keep_their_order() -> None:
    czech, kurnik = GAMES / "czech", GAMES / "international" / "pdn-standard-kurnik.pdn"
    report = replay_files([kurnik, czech, str(kurnik)])
    assert [file.path for file in report.files] == [kurnik, *pdn_files(czech), kurnik]
    assert report.files[0] == report.files[-1]
    assert report.files[0].games == 4


def test_pdn_files_skips_hidden_and_finds_any_case(tmp_path: Path) -> None:
    for name in ("b.pdn", "A.PDN", ".hidden.pdn", "notes.txt", "sub/c.pdn", ".git/d.pdn", "sub/sub/a.Pdn"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    found = [path.relative_to(tmp_path).as_posix() for path in pdn_files(tmp_path)]
    assert found == ["A.PDN", "b.pdn", "sub/c.pdn", "sub/sub/a.Pdn"]
    with pytest.raises(NotADirectoryError):
        pdn_files(tmp_path / "b.pdn")


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "a.pdn").write_text('[GameType "20"] 1. 32-28 19-23 2. 28x19 14x23 2-0\n', encoding="utf-8")
    (tmp_path / "b.pdn").write_text('[GameType "20"] 1. 32-28 15-20 *\n\n[GameType "20"] 1. 33-28 *\n', "utf-8")
    (tmp_path / "c.pdn").write_text("", encoding="utf-8")
    (tmp_path / "d.pdn").symlink_to(tmp_path / "missing.pdn")  # a file that cannot be opened
    (tmp_path / "e.pdn").write_bytes(b'[GameType "20"] 1. 32-28 {\xe9} *\n')
    return tmp_path


def test_bad_games_and_files_are_recorded(tmp_path: Path) -> None:
    report = replay_files(_folder(tmp_path), encoding="utf-8")
    a, b, c, d, e = report.files
    assert (a.games, a.moves, a.results) == (1, 4, {"international": {"white": 1, "black": 0, "draw": 0, "none": 0}})
    assert a.ok
    assert (b.games, b.moves, len(b.skipped)) == (1, 1, 1)
    assert "move '15-20' is not legal" in b.skipped[0]
    assert b.results == {"international": {"white": 0, "black": 0, "draw": 0, "none": 1}}
    assert (c.games, c.skipped, c.error, c.ok) == (0, (), None, False)
    assert d.error == "cannot read: No such file or directory"
    assert e.error is not None
    assert e.error.startswith("the input is not valid utf-8")  # the forced encoding cannot decode the file
    assert [path.name for path, _ in report.failures] == ["b.pdn", "d.pdn", "e.pdn"]


def test_errors_raise_names_the_first_bad_file(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    with ProcessPoolExecutor(2) as pool, pytest.raises(draughts.pdn.PDNIllegalMoveError) as caught:
        replay_files(folder, errors="raise", executor=pool)
    assert str(caught.value).startswith(f"{folder / 'b.pdn'}: game 1")
    assert (caught.value.game, caught.value.ply, caught.value.move) == (1, 2, "15-20")
    (folder / "b.pdn").unlink()
    with pytest.raises(OSError, match=r"d\.pdn"):
        replay_files(folder, errors="raise")
    (folder / "d.pdn").unlink()
    with pytest.raises(PDNError, match=r"e\.pdn: the input is not valid utf-8"):
        replay_files(folder, errors="raise", encoding="utf-8")


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="No such file or directory"):
        replay_files([GAMES, tmp_path / "nothing"])
    with pytest.raises(TypeError, match="not int"):
        replay_files([GAMES, 3])  # type: ignore[list-item]
    with pytest.raises(draughts.UnknownVariantError):
        replay_files(GAMES, "chess")
    with pytest.raises(draughts.UnknownVariantError):
        replay_files(GAMES, lambda path: "chess" if path.parent.name == "czech" else None)
    with pytest.raises(draughts.DraughtsError, match="errors='ignore'"):
        replay_files(GAMES, errors="ignore")
    with pytest.raises(draughts.DraughtsError, match="encoding"):
        replay_files(GAMES, encoding="no-such-codec")
    assert replay_files([]) == CollectionReport(())
    assert not replay_files([]).ok


def test_file_report_equality_ignores_time() -> None:
    assert FileReport(Path("x"), seconds=1.0) == FileReport(Path("x"), seconds=2.0)


# --- draughts pdn on a directory ----------------------------------------------------------------


def test_cli_directory_in_a_process_pool_and_here() -> None:
    pooled = run("pdn", str(GAMES / "czech"), "--variant", "czech", "--workers", "2")
    here = run("pdn", str(GAMES / "czech"), "--variant", "czech", "--workers", "1")
    assert pooled.returncode == here.returncode == 0, pooled
    assert pooled.stdout == here.stdout
    lines = pooled.stdout.splitlines()
    assert lines[0] == (
        f"{GAMES / 'czech' / 'games-checkers-mr-ceska-dama-druzstev-2008-excerpt.pdn'}: 3 games read, "
        "every move legal (114 moves; czech: 3)"
    )
    assert lines[5] == "total: 5 files, 23 games read, every move legal (897 moves; czech: 23)"
    assert lines[6] == "results czech: white 8, black 7, draw 8, none 0"
    assert len(lines) == 7


def test_cli_directory_with_a_ruleset_file(tmp_path: Path) -> None:
    rules = tmp_path / "czech.toml"
    draughts.save_ruleset(draughts.get_variant("czech"), rules)
    done = run("pdn", str(GAMES / "czech"), "--variant", str(rules), "--workers", "1")
    assert done.returncode == 0, done
    assert "total: 5 files, 23 games read, every move legal (897 moves; czech: 23)\n" in done.stdout


def test_cli_several_files_with_failures_exit_1(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    done = run("pdn", str(folder / "a.pdn"), str(folder / "b.pdn"), str(folder / "c.pdn"))
    assert done.returncode == 1, done
    assert done.stdout.splitlines()[:4] == [
        f"{folder / 'a.pdn'}: 1 game read, every move legal (4 moves; international: 1)",
        f"{folder / 'b.pdn'}: 1 game read, every move legal (1 move; international: 1), 1 game skipped",
        f"{folder / 'c.pdn'}: no game found",
        "total: 3 files, 2 games read, every move legal (5 moves; international: 2)",
    ]
    assert "1 problem:\n" in done.stdout
    assert done.stderr == ""
    whole = run("pdn", str(folder), "--encoding", "utf-8")
    assert whole.returncode == 1
    assert f"{folder / 'd.pdn'}: no game read, stopped early\n" in whole.stdout
    assert f"  {folder / 'd.pdn'}: cannot read: No such file or directory\n" in whole.stdout
    assert "3 problems:" in whole.stdout


def test_cli_good_files_exit_0() -> None:
    international = GAMES / "international"
    files = [str(international / name) for name in ("pdn-standard-kurnik.pdn", "pdn-standard-prof2.pdn")]
    done = run("pdn", *files)
    assert done.returncode == 0, done
    assert (
        done.stdout.splitlines()[-2]
        == "total: 2 files, 20 games read, every move legal (2,151 moves; international: 20)"
    )


def test_cli_errors_raise_and_statuses(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    done = run("pdn", str(folder), "--errors", "raise")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(f"draughts pdn: error: {folder / 'b.pdn'}: game 1")
    (folder / "b.pdn").unlink()
    done = run("pdn", str(folder), "--errors", "raise")
    assert done.returncode == 2  # a file that cannot be opened: the check could not run
    assert done.stderr == f"draughts pdn: error: cannot read '{folder / 'd.pdn'}': No such file or directory\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    done = run("pdn", str(empty))
    assert (done.returncode, done.stdout) == (1, f"{empty}: no PDN file found\n")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("-", str(GAMES)), "standard input (-) can only be read alone"),
        ((str(GAMES), "--workers", "0"), "--workers 0 must be at least 1"),
        ((str(GAMES / "czech" / "pdn-standard-mrcd2006-excerpt.pdn"), "--workers", "-1"), "must be at least 1"),
        ((str(GAMES), "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"), "exclude each other"),
        ((str(GAMES), "/no/such/dir"), "cannot read '/no/such/dir': No such file or directory"),
        ((str(GAMES), "--variant", "chess"), "chess"),
        ((str(GAMES), "--scheduler", "tcp://127.0.0.1:1"), "cannot reach the Dask scheduler 'tcp://127.0.0.1:1'"),
        ((str(GAMES), "--scheduler", "nonsense://x"), "unknown address scheme 'nonsense'"),
    ],
    ids=["stdin", "workers", "workers-one-file", "both", "missing", "variant", "no-scheduler", "bad-address"],
)
def test_cli_collection_that_cannot_run_exits_2(args: tuple[str, ...], says: str) -> None:
    done = run("pdn", *args)
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert says in done.stderr
    assert "Traceback" not in done.stderr


def test_import_draughts_loads_no_dask() -> None:
    code = (
        "import sys, draughts, draughts.pdn.collection, draughts.cli, draughts.perft; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"
