"""vqx.score_many(): several distorted files against one reference, which
is read once (the CLI's batch, docs/batch.md)."""

from __future__ import annotations

import os
from typing import List, Optional, Sequence, Union

from . import _args, _vqx
from ._result import Result
from ._score import ProgressCallback, progress_callback, raw_geometry

PathLike = Union[str, "os.PathLike[str]"]


def score_many(
    ref: PathLike,
    dists: Sequence[PathLike],
    models: Optional[Union[str, Sequence[str]]] = None,
    features: Union[str, Sequence[str]] = (),
    *,
    scale: bool = False,
    scale_filter: str = "bicubic",
    dist_offsets: Union[None, int, Sequence[int]] = None,
    sync: bool = False,
    sync_window: int = 30,
    backend: str = "auto",
    gpu: int = 0,
    threads: int = 0,
    subsample: int = 1,
    frame_cnt: int = 0,
    width: Optional[int] = None,
    height: Optional[int] = None,
    pixel_format: Optional[str] = None,
    bitdepth: Optional[int] = None,
    ignore_frame_rate: bool = False,
    progress: Union[bool, ProgressCallback] = False,
) -> List[Union[Result, "_vqx.Error"]]:
    """Scores each distorted file against one reference, read (decoded) once.

    Returns one entry per file of `dists`, in order: its vqx.Result (the
    values a vqx.score() of that file alone gives, bit for bit), or, for a
    file that failed, the vqx.Error saying why (not raised: the others are
    still scored, as the CLI's batch goes on). So:

        results = vqx.score_many("ref.mkv", ["a.mp4", "b.mp4"])
        for path, r in zip(dists, results):
            if isinstance(r, vqx.Error):
                print(path, "failed:", r)        # r.path, r.code
            else:
                print(path, r.pooled["vmaf"].mean)

    What fails every file raises at once: a bad argument, model or feature,
    the reference's own error, Ctrl-C (KeyboardInterrupt).

    models, features, backend, gpu, threads, subsample, frame_cnt, width,
    height, pixel_format, bitdepth, ignore_frame_rate, progress: as
    vqx.score() (progress counts reference frames).
    scale         scale a file of another size to the reference's (--scale),
                  with FFmpeg's libswscale filter `scale_filter` ("bicubic",
                  "lanczos", ...; --scale-filter)
    dist_offsets  the reference frame each file's first frame shows
                  (--dist-offset): one int for all, or one per file
    sync          find each file's offset within +-sync_window frames
                  (--sync, --sync-window); Result.offset tells it
    """
    reference = _args.path("ref", ref)
    if isinstance(dists, (str, os.PathLike)):
        raise TypeError("dists must be a sequence of paths (for one file, use vqx.score)")
    distorted = [_args.path("dists", d) for d in dists]
    if not distorted:
        raise ValueError("dists: no distorted file")
    if isinstance(dist_offsets, bool):
        raise TypeError("dist_offsets must be an int or a sequence of ints")
    if dist_offsets is None:
        offsets: List[int] = []
    elif isinstance(dist_offsets, int):
        offsets = [dist_offsets] * len(distorted)
    else:
        offsets = [_args.whole("dist_offsets", o, -2**31, 2**31 - 1) for o in dist_offsets]
        if len(offsets) != len(distorted):
            raise ValueError(f"dist_offsets: {len(offsets)} offsets for {len(distorted)} files")
    if not isinstance(sync, bool) or not isinstance(scale, bool):
        raise TypeError("scale and sync must be bools")
    if sync and offsets:
        raise ValueError("sync finds the offsets: give sync=True or dist_offsets, not both")
    if not isinstance(scale_filter, str):
        raise TypeError(f"scale_filter must be a str, not {type(scale_filter).__name__}")
    if not isinstance(ignore_frame_rate, bool):
        raise TypeError("ignore_frame_rate must be a bool")
    bar, callback = progress_callback(progress)
    entries = None
    try:
        entries = _vqx.score_many(
            reference, distorted, raw_geometry(width, height, pixel_format, bitdepth),
            _args.models(models), _args.names("features", features), _args.backend(backend),
            _args.whole("gpu", gpu, 0), _args.threads(threads),
            _args.whole("subsample", subsample, 1), _args.whole("frame_cnt", frame_cnt, 0),
            ignore_frame_rate, scale_filter if scale else None, offsets,
            _args.whole("sync_window", sync_window, 0, 100000) if sync else None, callback)
    finally:
        if bar is not None:
            bar.close()
    out: List[Union[Result, _vqx.Error]] = []
    for path, (run, message, code, offset) in zip(distorted, entries):
        if run is not None:
            result = Result(run)
            result.offset = offset
            out.append(result)
        else:
            error = _vqx.Error(message)
            error.code = code
            error.path = path
            out.append(error)
    return out
