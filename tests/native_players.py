"""The player pairs and rulesets the native game loop is compared with the Python loop on
(tests/lab: one game at a time and in batches): every native player kind, rulesets of every
capture and draw-rule shape."""

from __future__ import annotations

PAIRS = [
    ("random", "random"),
    ("depth:1", "random"),
    ("depth:2", "depth:2"),
    ("nodes:400", "depth:1"),
    ("level:beginner", "level:intermediate"),
]
RULESETS = ["russian", "international", "american", "frisian", "breakthrough", "antidraughts", "turkish", "thai"]
