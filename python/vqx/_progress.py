"""The progress line of vqx.score(progress=True): frames, frames per
second and, when the files tell how many frames there are, the time left;
drawn on standard error only when it is a terminal (as the CLI's)."""

from __future__ import annotations

import sys
import time
from typing import Optional, TextIO


class TerminalProgress:
    def __init__(self, stream: Optional[TextIO] = None) -> None:
        self._stream = stream if stream is not None else sys.stderr
        isatty = getattr(self._stream, "isatty", None)
        self._enabled = bool(isatty and isatty())
        self._start = time.monotonic()
        self._drawn = False

    def __call__(self, done: int, total: Optional[int]) -> None:
        if not self._enabled:
            return
        seconds = time.monotonic() - self._start
        rate = done / seconds if seconds > 0 else 0.0
        if total and total > done and rate > 0:
            left = int((total - done) / rate)
            bar = _bar(done, total)
            line = f"{bar} {done}/{total} frames, {rate:.1f} fps, ETA {left // 60}:{left % 60:02d}"
        else:
            line = f"{done} frames, {rate:.1f} fps"
        self._stream.write("\r" + line + "\033[K")
        self._stream.flush()
        self._drawn = True

    def close(self, done: int) -> None:
        """The last line, left on the terminal."""
        if self._enabled and self._drawn:
            self(done, None)
            self._stream.write("\n")
            self._stream.flush()


def _bar(done: int, total: int, width: int = 24) -> str:
    filled = min(width, done * width // total)
    return "[" + "#" * filled + "." * (width - filled) + "]"
