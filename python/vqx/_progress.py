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
        # The last count and total given (the module calls at most every
        # 50 ms, so the last count may be behind the frames scored).
        self.done = 0
        self.total: Optional[int] = None

    def __call__(self, done: int, total: Optional[int]) -> None:
        self.done = done
        if total is not None:
            self.total = total
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

    def close(self, scored: Optional[int] = None) -> None:
        """The last line, left on the terminal: `scored` frames when the
        caller knows the count, else the last count given (after an error or
        Ctrl-C: how far the run got; never the reported frames, which
        subsampling thins)."""
        if self._enabled and self._drawn:
            self(self.done if scored is None else scored, None)
            self._stream.write("\n")
            self._stream.flush()


def _bar(done: int, total: int, width: int = 24) -> str:
    filled = min(width, done * width // total)
    return "[" + "#" * filled + "." * (width - filled) + "]"
