"""Cross-check: pydraughts' DXPEngine (initiator, PyPI pydraughts in its own venv) drives our follower.

Run `draughts dxp --listen --port P --games 1` first, then `PEER_VENV/bin/python tools/dxp_pydraughts_check.py P`:
White plays random legal moves, our engine answers as Black; every answer is checked legal by pydraughts.
"""

import random
import sys

import draughts
from draughts.engine import DXPEngine

port = int(sys.argv[1])
board = draughts.Board(variant="standard")
engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port}, initial_time=5)
rng = random.Random(1)
plies = 0
while not board.is_over() and plies < 120:
    if board.turn == draughts.WHITE:
        move = rng.choice(board.legal_moves())
    else:
        move = engine.play(board).move
        assert move.pdn_move in [m.pdn_move for m in board.legal_moves()], move.pdn_move
    board.push(move)
    plies += 1
engine.quit()
print("plies", plies, "over", board.is_over(), "winner", board.winner())
