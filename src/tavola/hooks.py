"""Hooks that do not keep their owner alive.

An object that hands one of its own methods to an object it holds (a table
listening to its game) makes a reference cycle: when both are let go, only
Python's cyclic garbage collector frees them, in a full collection that
stops the whole process. :func:`weak_hook` hands on the method without the
cycle, so that reference counting frees them at once.

>>> class Owner:
...     def heard(self, word: str) -> str:
...         return word.upper()
>>> owner = Owner()
>>> hook = weak_hook(owner.heard)
>>> hook("hello")
'HELLO'
>>> del owner
>>> hook("hello") is None
True
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import ParamSpec, TypeVar

__all__ = ["weak_hook"]

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


def weak_hook(method: Callable[_Params, _Result]) -> Callable[_Params, _Result | None]:
    """``method`` (bound to an object) called through a weak reference to its object: nothing once
    the object is gone."""
    reference = weakref.WeakMethod(method)

    def hook(*args: _Params.args, **kwargs: _Params.kwargs) -> _Result | None:
        bound = reference()
        return None if bound is None else bound(*args, **kwargs)

    hook.__qualname__ = f"weak_hook({getattr(method, '__qualname__', method)})"
    return hook
