"""Give modules that have none an ``__all__`` of their public names (issue 39 §2: one re-export style).

``tests/project/test_layout.py`` asks every public module for an ``__all__``; this writes the
first one of a module from what it defines at top level (classes, functions, constants; not the
names it imports), right after its imports. Read the result: a name a module defines but does not
offer is then taken out by hand. Run from the repository root::

    python tools/add_all.py src/draughts/pdn/*.py
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def _defines_all(tree: ast.Module) -> bool:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        targets += [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
            return True
    return False


def public_names(tree: ast.Module) -> list[str]:
    """The public names ``tree`` defines at top level, sorted as ruff sorts ``__all__``."""
    imported: set[str] = set()
    defined: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported |= {(alias.asname or alias.name).partition(".")[0] for alias in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                defined += [item.id for item in ast.walk(target) if isinstance(item, ast.Name)]
    names = {name for name in defined if not name.startswith("_") and name not in imported}
    return sorted(names, key=lambda name: (0 if name.isupper() else 1 if name[0].isupper() else 2, name))


def _after_imports(tree: ast.Module) -> int:
    """The line after the module's docstring, imports and ``if TYPE_CHECKING:`` block."""
    line = 0
    for node in tree.body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and line == 0
        checking = isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        if not (isinstance(node, (ast.Import, ast.ImportFrom)) or docstring or checking):
            break
        line = node.end_lineno or line
    return line


def add_all(path: Path) -> bool:
    """Write ``path``'s ``__all__`` if it has none; whether it wrote one."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    if _defines_all(tree):
        return False
    names = public_names(tree)
    line = "__all__ = [" + ", ".join(f'"{name}"' for name in names) + "]"
    if len(line) > 120:
        line = "__all__ = [\n" + "".join(f'    "{name}",\n' for name in names) + "]"
    lines = text.splitlines(keepends=True)
    lines.insert(_after_imports(tree), "\n" + line + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return True


def main() -> None:
    for name in sys.argv[1:]:
        path = Path(name)
        if not path.name.startswith("_") or path.name == "__init__.py":
            print(f"{path}: {'__all__ written' if add_all(path) else 'has one'}")


if __name__ == "__main__":
    main()
