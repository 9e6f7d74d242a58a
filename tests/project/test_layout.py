"""The layout of the package, guarded (issue 39): modules of a readable size, a short top level,
imports one way (type-checking imports included), one player syntax read by one function, one
resolver of ruleset names, one re-export style, and the ruleset parameter named ``ruleset``.

Everything here reads the source as text and AST: nothing is imported but what a test names.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src" / "draughts"

MAX_LINES = 800
"""The longest a module may be: past it, a module holds more than one concern (the review found
``engine.py`` at 1,034 lines with four jobs)."""
MAX_FLAT_MODULES = 20
"""The most modules directly in ``src/draughts`` (``__init__`` and ``__main__`` aside): the stages
live in packages, so a directory listing shows them."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _trees(src: Path = SRC) -> dict[str, ast.Module]:
    return {
        ".".join(path.relative_to(src.parent).with_suffix("").parts).removesuffix(".__init__"): ast.parse(
            path.read_text(encoding="utf-8")
        )
        for path in sorted(src.rglob("*.py"))
    }


def _is_public_module(module: str) -> bool:
    return not any(part.startswith("_") for part in module.split("."))


# --- sizes -------------------------------------------------------------------------------------------


NATIVE = "draughts._core"
"""The Python move generator, which the native core (``native/``) replaces whole: its two largest
files (the capture search, the quiet moves) are closures specialised for speed, on purpose
(``docs/architecture.rst``), and are not split before they go."""


def test_no_module_is_over_800_lines() -> None:
    sizes = {_module_name(path): len(path.read_text(encoding="utf-8").splitlines()) for path in SRC.rglob("*.py")}
    over = {module: lines for module, lines in sizes.items() if lines > MAX_LINES}
    assert {module: lines for module, lines in over.items() if not module.startswith(f"{NATIVE}.")} == {}
    assert all(lines < 1000 for lines in over.values()), over  # the generator's files too stay readable


def test_the_top_level_holds_at_most_twenty_modules() -> None:
    """Leaves and the model sit at the top; the rules, the engine and the applications in packages."""
    flat = sorted(path.stem for path in SRC.glob("*.py") if path.stem not in ("__init__", "__main__"))
    assert len(flat) <= MAX_FLAT_MODULES, flat


# --- import cycles -----------------------------------------------------------------------------------


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, tree: ast.Module, modules: set[str], *, type_checking: bool = False) -> set[str]:
    """The package's modules ``module`` imports when it is imported: its module-level imports (not
    those inside functions; those under ``if TYPE_CHECKING:`` only with ``type_checking``).
    Importing ``a.b.c`` also imports the packages ``a`` and ``a.b``, except those ``module`` is in
    (they are being imported already); ``from a import name`` needs ``a`` itself unless ``name`` is
    a module."""
    found: set[str] = set()
    package = module if (SRC / Path(*module.split(".")[1:]) / "__init__.py").exists() else module.rpartition(".")[0]
    ancestors = {".".join(module.split(".")[:end]) for end in range(1, module.count(".") + 1)}

    def add(name: str) -> None:
        parts = name.split(".")
        for end in range(1, len(parts) + 1):
            prefix = ".".join(parts[:end])
            if prefix in modules and prefix != module and (prefix == name or prefix not in ancestors):
                found.add(prefix)

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in node.names:
                    add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
            elif isinstance(node, ast.If):
                if type_checking or not _is_type_checking(node.test):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)

    visit(tree.body)
    return found


def _with_function_imports(tree: ast.Module) -> ast.Module:
    """``tree`` with the statements of its functions appended at module level (lazy imports count)."""
    body = list(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body.extend(node.body)
    return ast.Module(body=body, type_ignores=[])


def _import_cycles(
    *, inside_functions: bool = False, type_checking: bool = False, among: set[str] | None = None
) -> list[list[str]]:
    """The strongly connected components of more than one module in the package's import graph
    (of module-level imports; with ``inside_functions`` those in functions too, with
    ``type_checking`` those under ``if TYPE_CHECKING:`` too; only between the modules ``among``
    when given)."""
    trees = _trees()
    if inside_functions:
        trees = {module: _with_function_imports(tree) for module, tree in trees.items()}
    graph = {module: _imports(module, tree, set(trees), type_checking=type_checking) for module, tree in trees.items()}
    if among is not None:
        graph = {module: targets & among for module, targets in graph.items() if module in among}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph):
        if module not in index:
            connect(module)
    return cycles


def test_the_package_has_no_import_cycles() -> None:
    """Modules import each other one way (issue 24 §6): a loop like board -> position -> notation ->
    board is broken by where things live, not by imports hidden inside functions."""
    assert _import_cycles() == []


def test_no_import_cycle_even_through_type_checking_imports() -> None:
    """Issue 39 §4: the type-level circles (position/legal/notation/diagram/_bridge, engine.root/engine,
    endgame.probe/tablebase, pdn.events/game) are gone: a module that needs the shape of one that
    imports it names that shape as a protocol (svg.PositionLike, notation.Notatable, root._Engine,
    probe._Tablebase)."""
    assert _import_cycles(type_checking=True, inside_functions=True) == []


def test_positions_boards_notation_and_pictures_import_one_way_even_lazily() -> None:
    """The loop board/position/notation/diagram/svg was once closed by imports inside functions
    (``Position.__str__``, ``_repr_svg_``): now those modules import one way wherever the import is."""
    looped = {"draughts.board", "draughts.position", "draughts.notation", "draughts.diagram", "draughts.svg"}
    assert _import_cycles(inside_functions=True, type_checking=True, among=looped | {"draughts.legal"}) == []


def test_no_module_closes_a_loop_even_lazily() -> None:
    """No import inside a function closes a loop either: LegalMoves' repr writes moves with
    notation (which reads positions through a protocol), and the web's jobs read their stop
    signal from the worker's side (:mod:`draughts.web.job`), not from the pool that preloads them."""
    assert _import_cycles(inside_functions=True) == []


def test_the_cycle_scan_sees_what_it_is_asked_to() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nimport draughts.board\nif TYPE_CHECKING:\n    import draughts.svg\n"
        "def f():\n    import draughts.pdn\n"
    )
    modules = {"draughts", "draughts.board", "draughts.svg", "draughts.pdn", "draughts.x"}
    assert _imports("draughts.x", tree, modules) == {"draughts.board"}
    assert _imports("draughts.x", tree, modules, type_checking=True) == {"draughts.board", "draughts.svg"}
    tree = ast.parse("from draughts import WHITE, board\n")
    assert _imports("draughts.x", tree, modules) == {"draughts", "draughts.board"}


# --- the position's low-level contract, on the class ----------------------------------------------


def test_the_position_declares_its_low_level_contract_itself() -> None:
    """Issue 39 §4: no module rebinds names at import time (``_bridge.register_position_class``
    did); the fast paths use documented members of :class:`~draughts.Position`."""
    assert not (SRC / "_bridge.py").exists()
    from draughts import Position

    members = ("node", "bitboards", "generator", "tables", "moves_with_masks", "child", "children", "capture_paths")
    for name in (*members, "from_bitboards"):
        assert (getattr(Position, name).__doc__ or "").startswith("Low-level"), name
        assert f"{name}" in (Position.__doc__ or ""), name
    position = Position.from_fen("russian", "W:Wc3:Bd4")
    moves, masks = position.moves_with_masks()
    white, black, kings = position.bitboards
    rebuilt = Position.from_bitboards(position.ruleset, white, black, kings, position.turn)
    assert rebuilt == position
    assert [position.child(mask) for mask in masks] == [position.play(move) for move in moves]
    assert position.children() == [(move, position.play(move)) for move in moves]


# --- one player syntax, one resolver ------------------------------------------------------------

_PLAYER_KINDS = {"hub", "dxp", "depth", "nodes", "level", "computer", "random", "time", "human"}
"""The kinds a player's text may start with, in any of the syntaxes there once were."""


def _kinds_compared(function: ast.AST) -> set[str]:
    """The player kinds ``function`` compares text with (``kind == "hub"``, ``text.startswith("dxp:")``)."""
    kinds = set()
    for node in ast.walk(function):
        tested = isinstance(node, ast.Compare) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith"
        )
        if tested:
            for value in ast.walk(node):
                if isinstance(value, ast.Constant) and str(value.value).rstrip(":") in _PLAYER_KINDS:
                    kinds.add(str(value.value).rstrip(":"))
    return kinds


def _splits_at_a_colon(function: ast.AST) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("partition", "rpartition", "split", "startswith", "removeprefix")
        and bool(node.args)
        and isinstance(node.args[0], ast.Constant)
        and str(node.args[0].value).endswith(":")
        for node in ast.walk(function)
    )


def player_parsers(src: Path = SRC) -> list[tuple[str, str]]:
    """``(module, function)`` for each function that reads a player's text itself: it splits the
    text at a colon and compares the kind with two player kinds or more (whatever its name)."""
    found = []
    for module, tree in _trees(src).items():
        for node in ast.walk(tree):
            function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            if function and _splits_at_a_colon(node) and len(_kinds_compared(node)) >= 2:
                found.append((module, node.name))
    return found


def test_one_function_reads_the_player_syntax() -> None:
    """Issue 39 §2: ``play``, ``lab``, ``match`` and the web board once had three syntaxes read by
    three functions (``computer:LEVEL``; ``LEVEL|depth:N|hub:CMD``; ``level:NAME|hub:CMD|dxp:...``)."""
    parsers = player_parsers()
    assert len({module for module, _ in parsers}) <= 1, parsers


def _calls(tree: ast.AST) -> set[str]:
    return {
        node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
    }


def test_the_commands_read_players_through_the_one_parser() -> None:
    """``play``, ``lab``, ``match`` and the web board call the parser (or a function that does)."""
    trees = _trees()
    parsers = player_parsers()
    assert parsers, "no function reads the player syntax: the scan has lost it"
    (home,) = {module for module, _ in parsers}
    readers = {name for _, name in parsers}
    readers |= {  # the public functions of the parser's module that call a private parser
        node.name
        for node in ast.walk(trees[home])
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and _calls(node) & readers
    }
    for _ in range(3):  # and what calls those (a factory that makes the player from the text)
        readers |= {
            node.name
            for tree in trees.values()
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and _calls(node) & readers and "player" in node.name
        }
    areas = {"play": ("draughts.cli.play",), "lab": ("draughts.lab", "draughts.cli.lab")}
    areas |= {"match": ("draughts.match", "draughts.cli.match"), "web": ("draughts.web",)}
    for area, prefixes in areas.items():
        modules = [tree for module, tree in trees.items() if module.startswith(prefixes)]
        assert any(_calls(tree) & readers for tree in modules), f"{area} does not read players with {readers}"


_RESOLVERS = ("draughts.rules.names", "draughts.rules.files")
"""Where text becomes a ruleset: names, aliases, suffixes and GameTypes; files and ``module:attribute``."""
_NAME_TABLES = {"ALIASES", "VARIANTS"}


def _returns_a_ruleset(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    annotation = ast.unparse(function.returns) if function.returns is not None else ""
    return annotation in ("Ruleset", "Ruleset | None")


def _takes_text(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the first parameter (``self`` aside) is text: what a resolver resolves."""
    arguments = [*function.args.posonlyargs, *function.args.args]
    arguments = [argument for argument in arguments if argument.arg not in ("self", "cls")]
    return (
        bool(arguments)
        and arguments[0].annotation is not None
        and ast.unparse(arguments[0].annotation)
        in (
            "str",
            "str | None",
        )
    )


def _resolves_itself(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``function`` takes text, gives a ruleset, and asks neither resolver (nor a registry's
    ``get``, which does) for it."""
    asks = _calls(function) & {"resolve_ruleset", "get_variant", "get"}
    return _returns_a_ruleset(function) and _takes_text(function) and not asks


def _looks_up(node: ast.AST) -> bool:
    """``TABLE[key]`` with a key that is not a literal (``VARIANTS["russian"]`` names a ruleset
    in code, it does not resolve text), or ``TABLE.get(...)``."""
    if isinstance(node, ast.Subscript):
        return not isinstance(node.slice, ast.Constant)
    return isinstance(node, ast.Attribute) and node.attr == "get"


def test_one_resolver_maps_names_to_rulesets() -> None:
    """Issue 39 §2: a ruleset's name was resolved in ``variants``, ``gametype``, ``spec``,
    ``web/rulesets.py`` and ``hub/variant_names.py``. Now every function elsewhere that takes text
    and gives a ruleset asks :func:`~draughts.rules.files.resolve_ruleset` or
    :func:`~draughts.get_variant` (after the names that are its own: the web's custom rulesets, the
    Hub's declared ones), and none reads the name tables itself."""
    own = []
    for module, tree in _trees().items():
        if module in _RESOLVERS:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _resolves_itself(node):
                own.append(f"{module}:{node.name}")
            table = node.value if isinstance(node, (ast.Subscript, ast.Attribute)) else None
            if isinstance(table, ast.Name) and table.id in _NAME_TABLES and _looks_up(node):
                own.append(f"{module}:{node.lineno} looks a name up in {table.id}")
    assert own == []


# --- one re-export style -----------------------------------------------------------------------------

LAZY = {"draughts.web": "``import draughts.web`` must not load Starlette and uvicorn (the command line imports it)"}
"""The packages that load names lazily (a module ``__getattr__``), each with its reason."""


def _assigns_all(tree: ast.Module) -> bool:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        targets += [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
            return True
    return False


def _rebinds_module(tree: ast.Module) -> Iterator[int]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "__module__":
                    yield node.lineno
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
            named = [argument.value for argument in node.args[1:2] if isinstance(argument, ast.Constant)]
            if named == ["__module__"]:
                yield node.lineno


def test_every_public_module_lists_its_names_in_all() -> None:
    """One re-export style (issue 39 §2): ``__all__`` in every public module, and only names it has."""
    trees = _trees()
    missing = [module for module, tree in trees.items() if _is_public_module(module) and not _assigns_all(tree)]
    assert missing == []
    for module in ("draughts", "draughts.rules", "draughts.engine", "draughts.endgame", "draughts.ai", "draughts.hub"):
        loaded = importlib.import_module(module)
        assert [name for name in loaded.__all__ if not hasattr(loaded, name)] == [], module


def test_no_module_rewrites_where_its_names_come_from() -> None:
    """``endgame/__init__.py`` once set ``__module__`` of the classes it exported: names now stay
    where they are defined, and ``__all__`` says where users import them."""
    rewritten = [f"{module}:{line}" for module, tree in _trees().items() for line in _rebinds_module(tree)]
    assert rewritten == []


def test_lazy_names_are_loaded_only_where_a_reason_is_given() -> None:
    lazy = [
        module
        for module, tree in _trees().items()
        if any(isinstance(node, ast.FunctionDef) and node.name == "__getattr__" for node in tree.body)
    ]
    assert sorted(lazy) == sorted(LAZY)


# --- the ruleset parameter -------------------------------------------------------------------------

_MODEL_AND_LIBRARY = (
    "draughts.position",
    "draughts.board",
    "draughts.perft",
    "draughts.notation",
    "draughts.svg",
    "draughts.diagram",
    "draughts.results",
    "draughts.drawrules",
    "draughts.compare",
    "draughts.engine",
    "draughts.endgame",
    "draughts.openings",
    "draughts.ai",
    "draughts.rules",
    "draughts.hub",
)


def test_the_ruleset_parameter_is_named_ruleset_in_the_model_and_library() -> None:
    """Issue 39 §2: ``Position.from_fen(ruleset, ...)`` but ``Board.from_fen(variant, ...)``; the
    parameter was ``rules`` 53 times, ``ruleset`` 39, ``variant`` 21 in public signatures."""
    spec = importlib.util.spec_from_file_location("ruleset_parameters", REPO / "tools" / "ruleset_parameters.py")
    assert spec is not None
    assert spec.loader is not None
    ruleset_parameters = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ruleset_parameters)
    other = [
        f"{where}({name})"
        for where, name in ruleset_parameters.signatures(SRC)
        if name != "ruleset" and where.partition(":")[0].startswith(_MODEL_AND_LIBRARY)
    ]
    assert other == []


# --- shims of never-released APIs ---------------------------------------------------------------


def test_the_shims_of_never_released_apis_are_gone() -> None:
    """Issue 39 §4: nothing had been released, yet four names warned that they were deprecated."""
    import draughts.board
    import draughts.dxp.codec
    import draughts.hub
    import draughts.lab.stats

    assert not (SRC / "web" / "search.py").exists()
    assert not hasattr(draughts.board, "result_text")
    assert not hasattr(draughts.hub, "move_text")
    assert not hasattr(draughts.hub, "parse_move")
    assert not hasattr(draughts.lab.stats, "welch_p")
    assert not hasattr(draughts.lab.stats.Estimate, "overlaps")
    assert not hasattr(draughts.dxp.codec, "BACK_ACCEPTED")
    assert not (SRC / "_core" / "state.py").exists()  # STATELESS went first, then the whole Python generator
