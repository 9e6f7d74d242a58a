"""Names of rulesets: canonical names, aliases, transform suffixes and PDN GameTypes, read in one place.

:func:`get_variant` is the names-only resolver every entry point uses (through
:func:`~draughts.resolve_ruleset`, which also takes files); :func:`from_gametype`, :func:`is_gametype` and
:func:`matching_ruleset` read PDN GameType values.
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Callable, Iterable, Mapping

from draughts import _caches
from draughts._text import excerpt, number
from draughts.errors import UnknownVariantError
from draughts.rules import (
    Ruleset,
)
from draughts.rules.transforms import (
    BREAKTHROUGH_SUFFIX,
    LOSING_SUFFIX,
    NFC_SUFFIX,
    breakthrough,
    losing,
    no_forced_capture,
)
from draughts.rules.variants import AMERICAN, VARIANTS

__all__ = [
    "ALIASES",
    "LONGEST_NAME",
    "MOST_TRANSFORMS",
    "from_gametype",
    "gametype_alias",
    "get_variant",
    "is_gametype",
    "matching_ruleset",
]

ALIASES: Mapping[str, str] = types.MappingProxyType(
    {
        "english": "american",
        "checkers": "american",
        "english-draughts": "american",
        "american-checkers": "american",
        "dama": "italian",
        "dama-italiana": "italian",
        "italiana": "italian",
        "shashki": "russian",
        "russian-draughts": "russian",
        "brazil": "brazilian",
        "damas-brasileiras": "brazilian",
        "damas-espanolas": "spanish",
        "ceska-dama": "czech",
        "czech-draughts": "czech",
        "intl": "international",
        "10x10": "international",
        "fmjd": "international",
        "polish": "international",
        "normal": "international",  # Scan's name in the Hub protocol
        "frisian-draughts": "frisian",
        "fries": "frisian",
        "frysk!": "frysk",  # lidraughts' and playstrategy.org's name
        # lidraughts' own GameType numbers (PDN 3.0 leaves 51 and up unassigned); the PDN reader
        # takes a GameType tag of one of these numbers as this alias.
        "96": "breakthrough",
        "97": "frysk",
        "98": "antidraughts",
        "losing": "antidraughts",  # Scan's name
        "losing-draughts": "antidraughts",
        "giveaway": "antidraughts",
        "bt": "breakthrough",  # Scan's name
        "mak-hos": "thai",
        "makhos": "thai",
        "dama-turca": "turkish",
        "turkish-dama": "turkish",
        "pool-checkers": "pool",
        "american-pool": "pool",
        "canadian-checkers": "canadian",
        "damas-classicas": "portuguese",
    }
)
"""Other accepted names -> canonical name."""


def _normalise(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def _canonical(name: str) -> str | None:
    key = _normalise(name)
    if key in VARIANTS:
        return key
    return ALIASES.get(key)


LONGEST_NAME = 100
"""The longest name :func:`get_variant` takes apart (a PDN GameType, read by one linear match, may
be longer: leading zeros are harmless). Every name, alias and transform combination of
the library is far shorter; a longer text is refused at once with a clear error, so that no input
(a PDN tag, a Hub parameter, a ruleset file's ``base``) costs more than a few string operations."""

MOST_TRANSFORMS = 6
"""The most transform suffixes and prefixes one name may carry (``russian-nfc-losing`` has two).
The three transforms are idempotent, so a longer chain only repeats one of them."""


def get_variant(name: str | Ruleset) -> Ruleset:
    """Look up a ruleset by canonical name, alias, transform suffix or PDN GameType.

    >>> get_variant("shashki").name
    'russian'
    >>> get_variant("25").name, get_variant("20,W,10,10,N2,0").name
    ('russian', 'international')
    >>> get_variant("english-nfc").capture_mandatory
    False
    >>> get_variant("losing").name, get_variant("checkers-losing").name, get_variant("russian-nfc-losing").name
    ('antidraughts', 'american-losing', 'russian-nfc-losing')

    Names are read iteratively, never recursively, and bounded (:data:`~draughts.rules.names.LONGEST_NAME`,
    :data:`~draughts.rules.names.MOST_TRANSFORMS`): a hostile name is an error, never a :class:`RecursionError`.

    Raises:
        UnknownVariantError: the name matches nothing (the message lists the known names), or it is
            longer than :data:`~draughts.rules.names.LONGEST_NAME` or carries more than
            :data:`~draughts.rules.names.MOST_TRANSFORMS` transforms.
    """
    if isinstance(name, Ruleset):
        return name
    if not isinstance(name, str):
        raise UnknownVariantError(f"variant {excerpt(name)} is not a name")
    gametype = is_gametype(name)  # a linear match: leading zeros of any length are harmless
    if len(name) > LONGEST_NAME and not gametype:
        raise UnknownVariantError(
            f"variant {excerpt(name)} is no variant's name: names have at most {LONGEST_NAME} characters"
        )
    key = _normalise(name)
    canonical = _canonical(key)
    if canonical is not None:  # first: lidraughts' numbers 96-98 are aliases
        return VARIANTS[canonical]
    if gametype:
        return from_gametype(name)
    derived = _derived(key)
    if derived is not None:
        return derived
    if key and key[0].isdigit():  # after the names: the alias "10x10" starts with a digit too
        return from_gametype(name)  # says why the text is no GameType
    raise UnknownVariantError(
        f"unknown variant {excerpt(name)}; variants: {', '.join(VARIANTS)}, their aliases (draughts.ALIASES) "
        "and the suffixes -nfc, -losing, -breakthrough"
    )


@functools.lru_cache(maxsize=_caches.VARIANT_NAMES)
def _derived(key: str) -> Ruleset | None:
    """The ruleset a name with transforms (or a bare GameType) means, or None.

    The name is taken apart from the outside in, in a loop: a suffix of :data:`_TRANSFORMS` or a
    prefix of :data:`_NFC_PREFIXES` is taken off until the rest is a canonical name, an alias or a
    PDN GameType; the transforms are then applied from the inside out. Built once per name: the
    same object every call.
    """
    transforms: list[Callable[[Ruleset], Ruleset]] = []
    rest = key
    while (base := _base(rest)) is None:
        peeled = _peel(rest)
        if peeled is None:
            return _house_rule(rest, transforms)
        if len(transforms) == MOST_TRANSFORMS:
            raise UnknownVariantError(
                f"variant {excerpt(key)} carries more than {MOST_TRANSFORMS} transforms (-nfc, -losing, -breakthrough)"
            )
        transform, rest = peeled
        transforms.append(transform)
    return _applied(base, transforms)


def _base(key: str) -> Ruleset | None:
    """The ruleset ``key`` names without transforms: a canonical name, an alias or a GameType."""
    canonical = _canonical(key)
    if canonical is not None:
        return VARIANTS[canonical]
    if is_gametype(key):
        return from_gametype(key)
    return None


def _peel(key: str) -> tuple[Callable[[Ruleset], Ruleset], str] | None:
    """The outermost transform of ``key`` and the rest of the name, or None if it has none."""
    for suffix, transform in _TRANSFORMS:
        if key.endswith(suffix) and len(key) > len(suffix):
            return transform, key[: -len(suffix)]
    for prefix in _NFC_PREFIXES:
        if key.startswith(prefix) and len(key) > len(prefix):
            return no_forced_capture, key[len(prefix) :]
    return None


def _house_rule(key: str, transforms: list[Callable[[Ruleset], Ruleset]]) -> Ruleset | None:
    """``"no-forced-capture"`` or ``"nfc"`` alone: the American house rule (with ``transforms``)."""
    if key in _NFC_NAMES:
        return _applied(no_forced_capture(AMERICAN), transforms)
    return None


def _applied(base: Ruleset, transforms: list[Callable[[Ruleset], Ruleset]]) -> Ruleset:
    """``base`` under ``transforms``, listed from the outermost (the end of the name) in."""
    rules = base
    for transform in reversed(transforms):
        rules = transform(rules)
    return rules


_TRANSFORMS: tuple[tuple[str, Callable[[Ruleset], Ruleset]], ...] = (
    ("-no-forced-capture", no_forced_capture),
    (NFC_SUFFIX, no_forced_capture),
    (LOSING_SUFFIX, losing),
    (BREAKTHROUGH_SUFFIX, breakthrough),
)
"""Name suffixes of the transforms, applied to whatever the rest of the name means."""

_NFC_NAMES = ("no-forced-capture", "nfc")
"""The house rule's own names; alone they mean the American house rule."""

_NFC_PREFIXES = tuple(f"{name}-" for name in _NFC_NAMES)
"""Prefixes of the house rule (``"no-forced-capture russian"``), the same names as its suffixes."""


def from_gametype(gametype: str | int, ruleset: Ruleset | None = None) -> Ruleset:
    """The ruleset of a PDN GameType value (``25`` or ``"25,W,8,8,A0,0"``).

    The type number selects the named variant; the optional fields must agree with it where they
    change the rules: who moves first, the board size and the invert flag. A tag that says
    ``26,B,...`` is not Brazilian draughts, so it is an error rather than Brazilian with White
    first. The notation field is not checked (real International files write ``20,W,10,10,N1,0``).

    With ``ruleset`` (for instance a user-defined variant with a GameType number of its own), the tag
    is checked against that ruleset instead and ``ruleset`` is returned: its ``pdn_gametype`` must be
    the tag's number and the fields must agree with it.

    >>> from_gametype("20,W,10,10,N1,0").name
    'international'
    >>> from_gametype("26,B,8,8,A0,0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    draughts.errors.UnknownVariantError: GameType '26,B,8,8,A0,0' is not brazilian: Black moves first, ...

    Raises:
        UnknownVariantError: malformed value, a type number of no supported variant (or not
            ``ruleset``'s), or a field that contradicts the variant's rules.
    """
    return matching_ruleset(gametype, VARIANTS.values(), ruleset)


def gametype_alias(value: str) -> Ruleset | None:
    """The ruleset a GameType number outside PDN 3.0 names through an alias (lidraughts' 96-98), or None.

    >>> gametype_alias("98").name, gametype_alias("10x10")
    ('antidraughts', None)
    """
    number = value.strip()
    name = ALIASES.get(number) if number.isdigit() else None  # not "10x10", an alias that is no number
    return None if name is None else VARIANTS[name]


# --- PDN GameType values ---

_GAMETYPE = re.compile(
    r"\s*([0-9]+)(?:\s*,\s*([WB])\s*,\s*([0-9]+)\s*,\s*([0-9]+)\s*,\s*([ANS][0-3])(?:\s*,\s*([01]))?)?\s*",
    re.IGNORECASE,
)


def is_gametype(text: str) -> bool:
    """Whether ``text`` has the shape of a GameType value (one linear match, any length: leading
    zeros are harmless); whether it names a ruleset is :func:`matching_ruleset`'s question."""
    return _GAMETYPE.fullmatch(text) is not None


def _short(digits: str) -> str:
    return digits if len(digits) <= 8 else excerpt(digits, 16)


def _differences(match: re.Match[str], rules: Ruleset) -> list[str]:
    """What the optional fields of a GameType tag say that ``rules`` does not (rule-changing fields only).

    The notation field is not compared: it says how squares are written, which the reader finds out
    from the moves themselves, and real files write ``N1`` where International's tag has ``N2``.
    """
    if match.group(2) is None:
        return []
    differences = []
    color = match.group(2).upper()
    if color != rules.first_to_move.letter:
        first, actual = ("White", "Black") if color == "W" else ("Black", "White")
        differences.append(f"{first} moves first, but {actual} does in {rules.name}")
    size = (number(match.group(3)), number(match.group(4)))
    if size != (rules.width, rules.height):
        differences.append(
            f"the board is {_short(match.group(3))}x{_short(match.group(4))}, but "
            f"{rules.name} is played on {rules.shape}"
        )
    invert = match.group(6)
    if invert is not None and (invert == "1") == rules.bottom_left_playable:
        board = "inverted" if invert == "1" else "not inverted"
        actual = "is not" if rules.bottom_left_playable else "is"
        differences.append(f"the board is {board} (invert flag {invert}), but {rules.name}'s {actual}")
    return differences


def _parsed(gametype: object) -> tuple[str, re.Match[str], int]:
    """The value's text, its fields and its type number; raises for anything that is no GameType value."""
    if isinstance(gametype, bool) or not isinstance(gametype, (str, int)):
        raise UnknownVariantError(f"GameType {excerpt(gametype)} is not a number or text")
    text = str(gametype)
    match = _GAMETYPE.fullmatch(text)
    if match is None:
        raise UnknownVariantError(
            f"GameType {excerpt(text)} is not of the form 'number[,W|B,width,height,notation[,invert]]'"
        )
    value = number(match.group(1))
    if value is None:
        raise UnknownVariantError(f"GameType {excerpt(text)}: {excerpt(match.group(1))} is no type number")
    return text, match, value


def matching_ruleset(gametype: str | int, catalog: Iterable[Ruleset], ruleset: Ruleset | None = None) -> Ruleset:
    """The ruleset of ``catalog`` a GameType value names, or ``ruleset`` checked against the value.

    This is :func:`draughts.from_gametype` with the catalog as an argument (the named variants
    there): ``catalog`` gives the candidates by their ``pdn_gametype`` (the first with the number
    wins) and the names the messages quote.

    Raises:
        UnknownVariantError: malformed value, a type number of no ruleset of the catalog (or not
            ``ruleset``'s), or a field that contradicts the ruleset's rules.
    """
    text, match, value = _parsed(gametype)
    known = list(catalog)
    if ruleset is not None:
        if ruleset.pdn_gametype is None or ruleset.pdn_gametype != value:
            own = "no GameType" if ruleset.pdn_gametype is None else f"GameType {ruleset.pdn_gametype}"
            named = [rules.name for rules in known if rules.pdn_gametype == value]
            whose = f" ({named[0]})" if named else ""
            raise UnknownVariantError(f"GameType {excerpt(text)}{whose} is not {ruleset.name}, which has {own}")
        candidates = [ruleset]
    else:
        candidates = [rules for rules in known if rules.pdn_gametype == value]
    for rules in candidates:
        differences = _differences(match, rules)
        if differences:
            raise UnknownVariantError(f"GameType {excerpt(text)} is not {rules.name}: {'; '.join(differences)}")
        return rules
    supported = ", ".join(f"{r.pdn_gametype} ({r.name})" for r in known)
    raise UnknownVariantError(f"GameType {excerpt(text)} names no supported variant; supported: {supported}")
