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
from typing import Any, Generic, ParamSpec, TypeVar

__all__ = ["WeakHook", "weak_hook"]

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


class WeakHook(Generic[_Params, _Result]):
    """A bound method called through a weak reference to its object (:func:`weak_hook`).

    A copy or a pickle holds the method itself, as the method would be copied or pickled (its object
    with it), and is weak again once restored.
    """

    __slots__ = ("_method",)

    def __init__(self, method: Callable[_Params, _Result]) -> None:
        self._method = weakref.WeakMethod(method)

    def __call__(self, *args: _Params.args, **kwargs: _Params.kwargs) -> _Result | None:
        bound = self._method()
        return None if bound is None else bound(*args, **kwargs)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restored, (self._method(),))

    def __repr__(self) -> str:
        bound = self._method()
        return f"weak_hook({getattr(bound, '__qualname__', 'nothing: its object is gone')})"


def weak_hook(method: Callable[_Params, _Result]) -> WeakHook[_Params, _Result]:
    """``method`` (bound to an object) called through a weak reference to its object: nothing once
    the object is gone."""
    return WeakHook(method)


def _restored(method: Callable[..., Any] | None) -> Callable[..., Any]:
    """A weak hook copied or unpickled: weak again, or doing nothing where its object was gone."""
    return _nothing if method is None else WeakHook(method)


def _nothing(*_args: object, **_kwargs: object) -> None:
    """The hook of an object gone."""
