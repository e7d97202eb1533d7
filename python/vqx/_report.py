"""vqx.report(): the HTML page `vqx report` writes (docs/report.md), from
the JSON of one or more runs."""

from __future__ import annotations

import os
from typing import Optional, Sequence, Union

from . import _args, _vqx

PathLike = Union[str, "os.PathLike[str]"]


def report(
    json_paths: Union[PathLike, Sequence[PathLike]],
    out_path: PathLike,
    worst: int = 10,
    metrics: Optional[Sequence[str]] = None,
    title: Optional[str] = None,
) -> None:
    """Writes one self-contained HTML page comparing runs (vqx report).

    json_paths  the runs' JSON files, as `vqx --json` (or Result.write(...,
                "json"), or the reference vmaf tool) writes them; one path or
                a sequence
    out_path    the page; it appears only once completely written
    worst       the lowest-scoring frames listed per run (0: no such table)
    metrics     the metrics shown, in order, the first being the main one
                (each must be in every run); None: every metric, the first
                model score first
    title       the page's title (None: "VQX report")

    A file that cannot be read, is not a run's JSON, or lacks a chosen
    metric raises vqx.Error naming it.
    """
    if isinstance(json_paths, (str, os.PathLike)):
        json_paths = [json_paths]
    paths = [_args.path("json_paths", p) for p in json_paths]
    if not paths:
        raise ValueError("json_paths: no run to report")
    target = _args.path("out_path", out_path)
    chosen = _args.names("metrics", metrics)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str, not {type(title).__name__}")
    _vqx.html_report(paths, target, _args.whole("worst", worst, 0), chosen, title or "")
