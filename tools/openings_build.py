"""Build the data files of ``draughts.openings`` from their published sources.

The ballots and opening tables are facts (which moves open a game); this script reads them from
the repositories that publish them as data, at pinned commits, checks every opening by replaying it
with polydraughts, and writes one JSON file per variant under ``src/draughts/openings/data``:

* Russian and Brazilian: FMJD's Drawing Table 64 (and its Brazilian form) and the IDF's 150 basic
  positions, from lidraughts' ``modules/draughts/src/main/OpeningTable.scala``
  (github RoepStoep/lidraughts). Each entry there gives its code, the moves (short Russian form:
  ``ab4`` is the man on the a-file going to b4) and the FEN after them; the script plays the
  moves and requires the FEN it reaches to be lidraughts' FEN.
* American: the ACF's numbered list of 174 three-move combinations with their status (barred, in
  the deck since 1934, or added to the deck in 2003), from CheckerBoard's ``utility.c``
  (github eygilbert/CheckerBoard), checked against milhouse's ``acf-openings.c``
  (github brainwagon/milhouse), which must list the same moves in the same order with the same
  status; and the 11-man ballot from CheckerBoard's ``11_man_english.pdn``.
* Italian: the 11-man ballot from CheckerBoard's ``11_man_italian.pdn``.

An 11-man position is stored as the start position with one man of each side taken off and the
two moves that lead to it; the script finds that derivation (see :func:`eleven_man`) and fails if
a position has none.

Usage (the repositories as bare git directories, e.g. from ``git clone --mirror``)::

    python tools/openings_build.py --lidraughts DIR --checkerboard DIR --milhouse DIR
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import draughts
from draughts.notation import move_text, parse_move

LIDRAUGHTS = ("RoepStoep/lidraughts", "c7feaf1810c34f44f9b5f2b719a4aa795f9c7618")
CHECKERBOARD = ("eygilbert/CheckerBoard", "691ab4951eafa6b58d19063535c8d7788a03f213")
MILHOUSE = ("brainwagon/milhouse", "fb9f1089ff4c5abda2e416695d548b492f3d6387")
FACTS = "the openings are facts (moves and positions), not a creative work"
LICENCES = {
    "lidraughts": f"{FACTS}; transcribed as data from lidraughts (AGPL-3.0), none of its code used",
    "checkerboard": f"{FACTS}; transcribed as data from CheckerBoard (no licence stated), none of its code used",
    "acf": f"{FACTS}; transcribed as data from CheckerBoard (no licence stated) and milhouse (BSD-2-Clause), "
    "none of their code used",
}
NOTES: list[str] = []  # where a source disagrees with itself, and what the build kept
OUT = Path(__file__).resolve().parent.parent / "src" / "draughts" / "openings" / "data"


def show(gitdir: str, commit: str, path: str) -> str:
    """A file of a repository at a commit."""
    return subprocess.run(
        ["git", "--git-dir", gitdir, "show", f"{commit}:{path}"], check=True, capture_output=True, text=True
    ).stdout


def source(repo: tuple[str, str], path: str) -> str:
    return f"https://github.com/{repo[0]}/blob/{repo[1]}/{path}"


def same_position(a: draughts.Position, b: draughts.Position) -> bool:
    return a.fen() == b.fen()


def replay(variant: str, moves: list[str], start: str | None = None) -> tuple[list[str], str]:
    """Play ``moves`` (any notation the library reads) and return them in the variant's own notation
    and the FEN reached."""
    rules = draughts.get_variant(variant)
    position = draughts.Position.from_fen(rules, start) if start else draughts.Position.initial(rules)
    written = []
    for text in moves:
        move = parse_move(position, text)
        written.append(move_text(position, move))
        position = position.play(move)
    return written, position.fen()


def russian_short(position: draughts.Position, text: str) -> draughts.Move:
    """The one legal move a short Russian move names: the file it leaves, and the square it reaches."""
    rules = position.ruleset
    file, target = text[0], text[1:]
    found = [
        move
        for move in position.legal_moves()
        if rules.square_name(move.start)[0] == file and rules.square_name(move.end) == target
    ]
    if len(found) != 1:
        raise SystemExit(f"{text!r} names {len(found)} legal moves in {position.fen()}")
    return found[0]


def lidraughts_tables(gitdir: str) -> dict[str, list[list[str]]]:
    """The tables of OpeningTable.scala: name -> [code, moves, fen] (lidraughts' own strings)."""
    text = show(gitdir, LIDRAUGHTS[1], "modules/draughts/src/main/OpeningTable.scala")
    tables: dict[str, list[list[str]]] = {}
    current = None
    entry = re.compile(r'StartingPosition\("([^"]+)", "([^"]+)", "([^"]*)", "([^"]+)"\.some\)')
    for line in text.splitlines():
        started = re.match(r"\s*private val (categories\w+) = List\(", line)
        if started:
            current = started.group(1)
            tables[current] = []
        found = entry.search(line)
        if found and current:
            code, fen, pdn, moves = found.groups()
            tables[current].append([code, moves if pdn else "", fen, "" if pdn else moves])
    brazilian = re.search(r"private val categoriesFmjdBrazilian = (.*?)\n  }", text, re.S)
    assert brazilian is not None
    dropped = set(re.findall(r'"(\d+-[IVX]+)"', brazilian.group(1)))
    tables["categoriesFmjdBrazilian"] = [row for row in tables["categoriesFmjd"] if row[0] not in dropped]
    return tables


def relocated(rules: draughts.Ruleset, setup: str, turn: str) -> str:
    """The FEN of the start position with men moved as ``setup`` says (``a1-a5 a7-h4``: the man on
    a1 put on a5, the one on a7 on h4; ``-----`` for a side whose men stay): how the table's
    positions after its first ten groups are defined (set up, not played)."""
    pieces = draughts.Position.initial(rules).pieces()
    pairs = [pair.split("-") for pair in setup.split() if pair.strip("-")]  # ``-----``: none for that side
    lifted = [(target, pieces.pop(rules.geometry.parse(origin))) for origin, target in pairs]
    for target, piece in lifted:  # all lifted first: a man may go where another one left
        square = rules.geometry.parse(target)
        if square in pieces:
            raise SystemExit(f"{setup}: {target} is occupied")
        pieces[square] = piece
    whites = sorted(s for s, p in pieces.items() if p.color is draughts.WHITE)
    blacks = sorted(s for s, p in pieces.items() if p.color is not draughts.WHITE)
    return draughts.Position.from_fen(
        rules, f"{turn}:W{','.join(map(str, whites))}:B{','.join(map(str, blacks))}"
    ).fen()


def lidraughts_openings(variant: str, rows: list[list[str]]) -> list[list[str]]:
    """Each row checked in ``variant``: [code, moves in the variant's notation], or for a position
    set up rather than played [code, "", its FEN, "", the setup]."""
    rules = draughts.get_variant(variant)
    out = []
    for code, moves, fen, setup in rows:
        if setup:
            built = relocated(rules, setup, fen[0])
            if not same_position(draughts.Position.from_fen(rules, built), draughts.Position.from_fen(rules, fen)):
                raise SystemExit(f"{variant} {code}: setup {setup} gives {built}, lidraughts says {fen}")
            out.append([code, "", built, "", setup])
            continue
        position = draughts.Position.initial(rules)
        written = []
        if moves == "Free":  # the IDF's free opening: the start position, no moves
            moves = ""
        for text in moves.split():
            move = russian_short(position, text)
            written.append(move_text(position, move))
            position = position.play(move)
        theirs = draughts.Position.from_fen(rules, fen)
        if position.pieces() != theirs.pieces():
            NOTES.append(f"{code}: lidraughts' FEN {fen} is not where its moves {moves} lead (the moves kept)")
        elif position.turn is not theirs.turn:
            NOTES.append(
                f"{code}: lidraughts' FEN has {theirs.turn} to move, the moves leave {position.turn} to move (kept)"
            )
        out.append([code, " ".join(written)])
    seen: dict[str, str] = {}
    for code, _, *rest in out:
        key = rest[2] if rest else code
        if key in seen and rest:
            NOTES.append(f"{code}: the same set-up as {seen[key]} ({key}) in lidraughts' table")
        seen.setdefault(key, code)
    return out


def acf_three_move(checkerboard: str, milhouse: str) -> list[tuple[int, str, str, str]]:
    """The ACF's 174 three-move combinations: (number, moves, status, name), status one of
    ``barred``, ``deck`` (in the deck before 2003) and ``added-2003``; both sources must agree."""
    text = show(checkerboard, CHECKERBOARD[1], "utility.c")
    rows = re.findall(r'\{"([\dx -]+)", ([A-Z_ |]+), (nullptr|"[^"]*")\},\s*/\* ACF #(\d+) \*/', text)
    status = {"OP_BARRED": "barred", "OP_CROSSBOARD": "deck", "OP_MAILPLAY": "added-2003"}
    ours = [
        (int(number), moves, status[flags.split("|")[0].strip()], name.strip('"') if name != "nullptr" else "")
        for moves, flags, name, number in rows
    ]
    theirs = re.findall(
        r'\{"ACF (\d+)", "([\d -]+)", "[^"]*", (DECK_\w+)\}', show(milhouse, MILHOUSE[1], "acf-openings.c")
    )
    other = {"DECK_LOSING": "barred", "DECK_NORMAL": "deck", "DECK_NEW": "added-2003"}
    if len(ours) != 174 or len(theirs) != 174:
        raise SystemExit(f"expected 174 combinations, read {len(ours)} and {len(theirs)}")
    for (number, moves, state, _), (their_number, their_moves, their_state) in zip(ours, theirs, strict=True):
        squares = [int(s) for s in re.findall(r"\d+", moves)]
        if (number, squares, state) != (
            int(their_number),
            [int(s) for s in re.findall(r"\d+", their_moves)],
            other[their_state],
        ):
            raise SystemExit(f"ACF #{number}: CheckerBoard {moves} {state}, milhouse {their_moves} {their_state}")
    return ours


def two_move(three: list[tuple[int, str, str, str]], acf: str) -> dict[str, object]:
    """The two-move ballot: the first two moves of the ACF's 174 combinations, in their order.

    Every three-move combination extends a two-move opening, so the two-move ballot is the set of
    their two-move beginnings: 47 of the 49 pairs of first moves (9-14 21-17 and 10-14 21-17 begin
    none), the "47 playable combinations" of the two-move restriction (Britannica, "two-move
    restriction", https://www.britannica.com/topic/two-move-restriction).
    """
    first = draughts.Position.initial(draughts.get_variant("american"))
    pairs = [(str(m), str(n)) for m in first.legal_moves() for n in first.play(m).legal_moves()]
    seen: list[tuple[str, str]] = []
    for _, moves, _, _ in three:
        written, _ = replay("american", moves.split()[:2])
        pair = (written[0], written[1])
        if pair not in seen:
            seen.append(pair)
    missing = [" ".join(pair) for pair in pairs if pair not in seen]
    return {
        "name": "2-move",
        "title": "two-move ballot (47 openings)",
        "source": "ACF's list, its combinations' first two moves: " + acf + "; the count is Britannica's (two-move "
        "restriction: "
        '"47 playable combinations", https://www.britannica.com/topic/two-move-restriction)',
        "licence": LICENCES["acf"],
        "notes": [
            f"of the 49 pairs of first moves, {' and '.join(missing)} begin no combination of the ACF's list",
            "an older form of the restriction excluded six pairs (also 9-14 23-18, 10-14 23-18, 11-16 23-19, "
            "12-16 23-19: http://quadibloc.com/other/bo010201.htm), leaving 43",
        ],
        "openings": [[str(number), " ".join(pair)] for number, pair in enumerate(seen, 1)],
    }


FID_OPENINGS = "http://fid.it/corsi/italiana/aperture/indice.htm"
ITALIAN_BARRED = [("21-18", "9-13"), ("22-18", "9-13")]


def italian_two_move() -> dict[str, object]:
    """Italian draughts' two-move restriction: the 49 pairs of first moves less the two the
    Federazione Italiana Dama's course page bars ("la 21-18, 9-13 e la 22-18, 9-13 portano il Nero
    alla perdita immediata di una pedina", FID_OPENINGS), in the order of the moves' squares."""
    first = draughts.Position.initial(draughts.get_variant("italian"))
    pairs = [(str(m), str(n)) for m in first.legal_moves() for n in first.play(m).legal_moves()]
    if len(pairs) != 49 or any(pair not in pairs for pair in ITALIAN_BARRED):
        raise SystemExit(f"Italian: {len(pairs)} pairs of first moves, expected 49 with {ITALIAN_BARRED}")
    kept = [pair for pair in pairs if pair not in ITALIAN_BARRED]
    return {
        "name": "2-move",
        "title": "two-move restriction (47 openings)",
        "source": f"FID, Corso elementare di Dama Italiana, 'Il sorteggio delle aperture' ({FID_OPENINGS}): "
        "the 49 combinations of White's and Black's first moves less 21-18 9-13 and 22-18 9-13",
        "licence": f"{FACTS}; derived from the rule the FID's page states",
        "openings": [[str(number), " ".join(pair)] for number, pair in enumerate(kept, 1)],
    }


def _key(position: draughts.Position) -> str:
    return position.fen()


def eleven_man(variant: str, fens: list[str]) -> tuple[list[list[str]], list[str]]:
    """Each 11-man position derived: [number, the two moves, the start with the two men taken off],
    and notes on which derivable positions the file leaves out.

    The derivation: one man of each side taken off its two front rows, then a move of the side that
    starts and a reply, each by a man of those rows. The first derivation found (removed squares in
    order) is kept. The notes name the pairs of first moves all of whose positions the file leaves
    out, and the positions it leaves out besides.
    """
    rules = draughts.get_variant(variant)
    initial = draughts.Position.initial(rules)
    first = initial.turn
    own = _front(rules, sorted(s for s, p in initial.pieces().items() if p.color is first), first)
    other = _front(rules, sorted(s for s, p in initial.pieces().items() if p.color is not first), first.opponent)
    derived: dict[str, tuple[list[str], str]] = {}
    pairs: dict[str, set[tuple[str, str]]] = {}
    for removed_own, removed_other in itertools.product(own, other):
        start = _without(initial, removed_own, removed_other)
        position = draughts.Position.from_fen(rules, start)
        for move in position.legal_moves():
            if move.start not in own:
                continue
            child = position.play(move)
            for reply in child.legal_moves():
                if reply.start not in other:
                    continue
                key = _key(child.play(reply))
                texts = [move_text(position, move), move_text(child, reply)]
                derived.setdefault(key, (texts, start))
                pairs.setdefault(key, set()).add((texts[0], texts[1]))
    out = []
    kept = set()
    for number, fen in enumerate(fens, 1):
        key = _key(draughts.Position.from_fen(rules, fen))
        if key not in derived:
            raise SystemExit(f"{variant} 11-man #{number} {fen}: no derivation")
        kept.add(key)
        moves, start = derived[key]
        out.append([str(number), " ".join(moves), start])
    left = set(derived) - kept
    every_pair = {pair for found in pairs.values() for pair in found}
    barred = sorted(pair for pair in every_pair if all(key in left for key, found in pairs.items() if pair in found))
    besides = sorted(key for key in left if not pairs[key] & set(barred))
    notes = [
        f"the derivation reaches {len(derived)} positions; the file has {len(kept)}: it leaves out every "
        f"position {' or '.join(' '.join(pair) for pair in barred)} reaches "
        f"({len(left) - len(besides)}), and {len(besides)} more:",
        *(f"{' '.join(derived[key][0])} from {derived[key][1]} (gives {key})" for key in besides),
    ]
    return out, notes


def _front(rules: draughts.Ruleset, squares: list[int], color: draughts.Color) -> list[int]:
    """The men of ``squares`` on the two rows nearest the middle (the rows a first move leaves)."""
    rows = sorted({rules.geometry.coords[s][1] for s in squares})
    front = rows[-2:] if color is draughts.WHITE else rows[:2]
    return [s for s in squares if rules.geometry.coords[s][1] in front]


def _without(position: draughts.Position, *removed: int) -> str:
    rules = position.ruleset
    pieces = {s: p for s, p in position.pieces().items() if s not in removed}
    whites = sorted(s for s, p in pieces.items() if p.color is draughts.WHITE)
    blacks = sorted(s for s, p in pieces.items() if p.color is not draughts.WHITE)
    turn = "W" if position.turn is draughts.WHITE else "B"
    text = f"{turn}:W{','.join(map(str, whites))}:B{','.join(map(str, blacks))}"
    return draughts.Position.from_fen(rules, text).fen()


def pdn_fens(text: str) -> list[str]:
    return re.findall(r'\[FEN "([^"]+)"\]', text)


def ballots(args: argparse.Namespace) -> Iterator[tuple[str, dict[str, object]]]:
    """(variant, ballot) for every ballot built."""
    tables = lidraughts_tables(args.lidraughts)
    table_path = "modules/draughts/src/main/OpeningTable.scala"
    via = f"transcribed from lidraughts ({source(LIDRAUGHTS, table_path)})"
    fmjd = "FMJD Drawing Table 64 (https://results.fmjd.org/viewpage.php?page_id=2)"
    for variant, key, name, title, origin in (
        ("russian", "categoriesFmjd", "fmjd-64", "FMJD Drawing Table 64", fmjd),
        ("brazilian", "categoriesFmjdBrazilian", "fmjd-64", "FMJD Drawing Table 64, Brazilian form", fmjd),
        (
            "russian",
            "categoriesIDFBasic",
            "idf-150",
            "IDF's 150 basic positions",
            "IDF Table of draw (https://idf64.org/tables-of-draw/)",
        ),
        (
            "brazilian",
            "categoriesIDFBasic",
            "idf-150",
            "IDF's 150 basic positions",
            "IDF Table of draw (https://idf64.org/tables-of-draw/)",
        ),
    ):
        NOTES.clear()
        openings = lidraughts_openings(variant, tables[key])
        ballot: dict[str, object] = {
            "name": name,
            "title": title,
            "source": f"{origin}; {via}",
            "licence": LICENCES["lidraughts"],
        }
        if NOTES:
            ballot["notes"] = list(NOTES)
        yield variant, {**ballot, "openings": openings}
    three = acf_three_move(args.checkerboard, args.milhouse)
    acf = (
        "ACF three-move deck (http://www.usacheckers.com/156openingdeck.php); the ACF's numbered list "
        f"of 174 combinations as in CheckerBoard ({source(CHECKERBOARD, 'utility.c')}), "
        f"identical in milhouse ({source(MILHOUSE, 'acf-openings.c')})"
    )
    for name, title, keep in (
        ("acf-3-move", "ACF three-move deck (156 openings, since 2003)", {"deck", "added-2003"}),
        ("acf-3-move-144", "ACF three-move deck before 2003 (144 openings)", {"deck"}),
        ("acf-3-move-174", "ACF's 174 three-move combinations, barred ones included", {"deck", "added-2003", "barred"}),
    ):
        openings = []
        for number, moves, state, label in three:
            if state in keep:
                written, _ = replay("american", moves.split())
                openings.append([str(number), " ".join(written), "", label])
        yield (
            "american",
            {"name": name, "title": title, "source": acf, "licence": LICENCES["acf"], "openings": openings},
        )
    yield "american", two_move(three, acf)
    yield "italian", italian_two_move()
    for variant, path in (("american", "11_man_english.pdn"), ("italian", "11_man_italian.pdn")):
        fens = pdn_fens(show(args.checkerboard, CHECKERBOARD[1], path))
        rows, notes = eleven_man(variant, fens)
        yield (
            variant,
            {
                "name": "11-man",
                "title": "11-man ballot",
                "source": f"CheckerBoard's {path} ({source(CHECKERBOARD, path)})",
                "licence": LICENCES["checkerboard"],
                "notes": notes,
                "openings": rows,
            },
        )


def _trimmed(row: list[str]) -> list[str]:
    """A data row without its trailing empty fields: [name, moves, start FEN, title, setup]."""
    while row and not row[-1]:
        row = row[:-1]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lidraughts", required=True, help="git directory of RoepStoep/lidraughts")
    parser.add_argument("--checkerboard", required=True, help="git directory of eygilbert/CheckerBoard")
    parser.add_argument("--milhouse", required=True, help="git directory of brainwagon/milhouse")
    parser.add_argument("--out", type=Path, default=OUT, help="where the JSON files go")
    args = parser.parse_args()
    per_variant: dict[str, list[dict[str, object]]] = {}
    for variant, ballot in ballots(args):
        per_variant.setdefault(variant, []).append(ballot)
    args.out.mkdir(parents=True, exist_ok=True)
    for variant, items in per_variant.items():
        lines = [json.dumps({key: value for key, value in item.items() if key != "openings"}) for item in items]
        body = ",\n".join(
            "  {"
            + line[1:-1]
            + ', "openings": [\n'
            + ",\n".join("    " + json.dumps(_trimmed(row)) for row in item["openings"])  # type: ignore[attr-defined]
            + "\n  ]}"
            for line, item in zip(lines, items, strict=True)
        )
        (args.out / f"{variant}.json").write_text(
            f'{{"variant": "{variant}", "ballots": [\n{body}\n]}}\n', encoding="utf-8"
        )
        for item in items:
            print(variant, item["name"], len(item["openings"]), *item.get("notes", ()), sep="\n  ")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
