"""Count the names of the ruleset parameter in the package's public signatures (issue 39 §2).

A public signature is a function or method whose name has no leading underscore (``__init__``
counts: it is the class's signature), defined at module level or in a public class, in a module
whose path has no private part. Run from the repository root::

    python tools/ruleset_parameters.py            # the counts
    python tools/ruleset_parameters.py --list     # every signature that names rules or variant
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "draughts"
NAMES = ("rules", "ruleset", "variant")


def _public(name: str) -> bool:
    return not name.startswith("_") or name == "__init__"


def _functions(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _public(node.name):
            yield f"{prefix}{node.name}", node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            yield from _functions(node.body, f"{prefix}{node.name}.")


def signatures(src: Path = SRC) -> Iterator[tuple[str, str]]:
    """``(module:function, parameter)`` for each public signature's parameter named in :data:`NAMES`."""
    for path in sorted(src.rglob("*.py")):
        parts = path.relative_to(src.parent).with_suffix("").parts
        if any(part.startswith("_") and part != "__init__" for part in parts):
            continue
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for name, function in _functions(ast.parse(path.read_text(encoding="utf-8")).body, ""):
            arguments = function.args
            for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
                if argument.arg in NAMES:
                    yield f"{module}:{name}", argument.arg


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the signatures naming rules or variant")
    args = parser.parse_args()
    found = list(signatures())
    counts = Counter(parameter for _, parameter in found)
    print(", ".join(f"{name} {counts[name]}" for name in NAMES))
    if args.list:
        for where, parameter in found:
            if parameter != "ruleset":
                print(f"  {where}({parameter})")


if __name__ == "__main__":
    main()
