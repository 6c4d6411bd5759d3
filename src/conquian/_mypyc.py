"""mypyc's class options for the compiled build, and nothing at run time.

The optional compiled build (see the Performance page) compiles the engines
with mypyc, which reads options such as ``@mypyc_attr(acyclic=True)`` from the
decorator ``mypy_extensions.mypyc_attr``. The package itself depends only on
attrs, so here the name is that decorator for the type checker (and so for
mypyc, which compiles from the types) and a decorator that returns the class
unchanged at run time. This module is never compiled: in a compiled module the
``else`` branch below would be dead code.

>>> class Value: ...
>>> mypyc_attr(acyclic=True)(Value) is Value
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["mypyc_attr"]

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*args: Any, **kwargs: Any) -> Any:
        """The class decorator of mypyc's options; at run time it leaves the class as it is."""
        return lambda cls: cls
