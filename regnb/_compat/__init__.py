"""Old import paths of modules that moved, kept working.

A module moved into a package (`regnb.shards` is now `regnb.corpus.shards`) still imports under
its old name: `import regnb.shards` gives the very module `regnb.corpus.shards`, so a name
patched through either path is the same object. The four display modules replaced by
`regnb.present` (`regnb.display`, `regnb.export`, `regnb.markdown`, `regnb.plot`) import too,
with a `DeprecationWarning`; they go in regnb 0.3.

`install()` puts the finder on `sys.meta_path` once; `import regnb` calls it. A package's face
re-exports its modules' names on first use (`exports`), so that importing one module of a
package (`regnb.corpus.location`) loads no other.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["DEPRECATED", "MOVED", "REMOVED_IN", "exports", "install"]

MOVED = {
    "regnb.accounts": "regnb.server.accounts",
    "regnb.cfr": "regnb.documents.cfr",
    "regnb.conversation": "regnb.conversations.conversation",
    "regnb.legacy": "regnb.search.legacy",
    "regnb.shards": "regnb.corpus.shards",
}
DEPRECATED = {
    "regnb.display": "regnb._compat.display",
    "regnb.export": "regnb._compat.export",
    "regnb.markdown": "regnb._compat.markdown",
    "regnb.plot": "regnb._compat.plot",
}
REMOVED_IN = "0.3"


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module now at `target`: the import system keeps what
    `exec_module` leaves in `sys.modules` under the old name."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        sys.modules[module.__name__] = importlib.import_module(self.target)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname) or DEPRECATED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))


_FINDER = _Finder()


def install() -> None:
    """Let the old names import (once, whatever the number of calls)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)


def exports(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A package's module `__getattr__`: each name in `names` read from its module (a submodule
    of `package`) on first use."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
