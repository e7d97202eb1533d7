"""Argument checks shared by vqx.score and vqx.Context: one message per
mistake, naming the parameter, before anything is opened or computed."""

from __future__ import annotations

import os
from typing import Iterable, Optional, Sequence, Union

from ._vqx import DEFAULT_MODEL, MAX_THREADS

BACKENDS = ("auto", "cpu", "cuda", "hip")


def threads(value: object) -> int:
    """Worker threads: 0 to the library's bound (vqx::kMaxThreads)."""
    return whole("threads", value, 0, MAX_THREADS)


def whole(name: str, value: object, low: int, high: int = 2**32 - 1) -> int:
    """An int (not a bool) from low to high."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} {value}: expected a whole number from {low} to {high}")
    return value


def names(name: str, value: Union[None, str, Iterable[str]]) -> list:
    """A list of specs; a lone string is one spec, not its letters."""
    if value is None:
        return []
    if isinstance(value, (str, os.PathLike)):
        value = [value]
    out = []
    for item in value:
        if not isinstance(item, str):
            raise TypeError(f"{name} must hold strings, not {type(item).__name__}")
        if not item:
            raise ValueError(f"{name}: an empty string")
        out.append(item)
    return out


def models(value: Optional[Union[str, Sequence[str]]]) -> list:
    """None: VMAF v0.6.1 (as the CLI without --model); []: no model."""
    return [DEFAULT_MODEL] if value is None else names("models", value)


def backend(value: object) -> str:
    if value not in BACKENDS:
        raise ValueError(f"backend {value!r}: expected one of {', '.join(BACKENDS)}")
    return str(value)


def path(name: str, value: object) -> str:
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), not {type(value).__name__}")
    text = os.fspath(value)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if not text:
        raise ValueError(f"{name}: an empty path")
    return text
