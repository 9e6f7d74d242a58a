"""Every cache size of the library, in one place, and why each is what it is.

The policy: a cache keyed by ruleset holds every ruleset the library itself offers at once, so
that a pass over any of its menus (the web board's picker above all) builds each ruleset's
tables, generator and evaluation once and then only hits; caches of values that come back move
after move are bounded by what one long game or search meets; and every cache is bounded, so a
program that makes rulesets without end (a property test, a search over rules) holds a fixed
amount of memory. Where a cache is full it drops the least recently used entry, or starts again
empty where that is cheaper to keep (noted per size). The test
``tests/model/test_board_api.py::test_a_pass_over_the_web_menu_hits_the_second_time`` checks the
first rule; ``test_per_ruleset_caches_are_bounded`` the last.
"""

from __future__ import annotations

from typing import Final

LIBRARY_RULESETS: Final = 110
"""The rulesets the library offers by name: its 19 variants, each with forced or optional capture
and the normal, losing or breakthrough goal (the web board's picker; its menu lists 34 of them).
``tests/model/test_board_api.py`` checks the figure against the web board's own list."""

RULESETS: Final = 140
"""Compiled rulesets (:func:`draughts._core.tables.compile_rules`: bit tables, the generator's
closures and the per-ruleset caches below; about 50-200 KB each once used): the whole library
with room for 30 of the user's own (least recently used dropped)."""

EVALUATIONS: Final = RULESETS
"""The engine's built evaluations, per ruleset and weights (its square tables and the evaluating
function): as many as compiled rulesets, so an engine playing over the menu builds each once."""

ENCODINGS: Final = RULESETS
"""The AI tensors' encodings, per ruleset (their planes and action tables)."""

GEOMETRIES: Final = 64
"""Board geometries, per size and layout (13 even sizes from 4 to 26, two corner parities, the
numberings and square names in use): a few KB each."""

VARIANT_NAMES: Final = 256
"""Rulesets named by a transform suffix (``russian-nfc-losing``): each name once, the same object
every call; the library's own names are about a hundred."""

ENGINE_TABLES: Final = 4
"""Transposition tables one :class:`~draughts.engine.Engine` keeps, one per ruleset it searched
(each may hold megabytes; an engine mostly plays one ruleset, an analysis board two or three)."""

CAPTURE_FORMS: Final = 4096
"""Captures whose public form (the :class:`~draughts.Move`) one ruleset keeps: the same captures
come back game after game; past it the table starts again empty."""

QUIET_CHUNKS: Final = 1024
"""Keys one chunk-of-rows table of the quiet-move generator keeps (most positions meet far fewer);
past it the table starts again empty."""

DRAW_COUNTERS: Final = 4096
"""Distinct draw counters boards share (equal counters are one object); past it the table starts
again empty."""
