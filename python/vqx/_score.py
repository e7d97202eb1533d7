"""vqx.score(): two video files scored as the vqx command scores them."""

from __future__ import annotations

import os
from typing import Callable, Optional, Sequence, Tuple, Union

from . import _args, _vqx
from ._progress import TerminalProgress
from ._result import Result

PathLike = Union[str, "os.PathLike[str]"]
ProgressCallback = Callable[[int, Optional[int]], None]


def raw_geometry(width: Optional[int], height: Optional[int], pixel_format: Optional[str],
                 bitdepth: Optional[int]) -> Optional[Tuple[int, int, str, int]]:
    """The binding's raw-input tuple, or None for files that tell their format."""
    raw_given = [v is not None for v in (width, height, pixel_format, bitdepth)]
    if not any(raw_given):
        return None
    if not all(raw_given):
        raise ValueError("raw input needs all of width, height, pixel_format and bitdepth")
    if not isinstance(pixel_format, str):
        raise TypeError(f"pixel_format must be a str, not {type(pixel_format).__name__}")
    return (_args.whole("width", width, 1, 16384), _args.whole("height", height, 1, 16384),
            pixel_format, _args.whole("bitdepth", bitdepth, 8, 16))


def progress_callback(progress: Union[bool, ProgressCallback]
                      ) -> Tuple[Optional[TerminalProgress], Optional[ProgressCallback]]:
    """(the terminal line to close at the end or None, the binding's callback)."""
    if progress is True:
        bar = TerminalProgress()
        return bar, bar
    if progress is False or progress is None:
        return None, None
    if callable(progress):
        return None, progress
    raise TypeError("progress must be a bool or a callable progress(frames_done, total)")


def score(
    ref: PathLike,
    dist: PathLike,
    models: Optional[Union[str, Sequence[str]]] = None,
    features: Union[str, Sequence[str]] = (),
    *,
    backend: str = "auto",
    gpu: int = 0,
    threads: int = 0,
    subsample: int = 1,
    frame_cnt: int = 0,
    skip: int = 0,
    width: Optional[int] = None,
    height: Optional[int] = None,
    pixel_format: Optional[str] = None,
    bitdepth: Optional[int] = None,
    ignore_frame_rate: bool = False,
    progress: Union[bool, ProgressCallback] = False,
) -> Result:
    """Scores a distorted video against its reference; returns a vqx.Result.

    vqx.score(ref, dist, models=None, features=(), *, backend="auto", ...)

    ref, dist          Reference and distorted video: .y4m, raw .yuv (with
                       width, height, pixel_format and bitdepth), or any file
                       FFmpeg reads (.mkv, .mp4, ...); like -r/--reference and
                       -d/--distorted
    models             Models, each as -m/--model takes it: "version=NAME" or
                       "path=FILE", with ":name=...", ":disable_clip",
                       ":enable_transform", ":FEATURE.OPTION=VALUE". None (the
                       default): vmaf_v0.6.1, named "vmaf"; []: no model
                       (like -n/--no_prediction)
    features           Feature extractors, each as --feature takes it:
                       "NAME[=OPTION=VALUE:...]", e.g. "psnr", "float_ssim",
                       "adm=debug=true"
    backend            Where to compute: "auto" (the GPU when one is present),
                       "cpu", "cuda" or "hip" (--backend)
    gpu                Index of the GPU to use (--gpu)
    threads            Worker threads, frames in flight; 0 scores on the
                       calling thread (--threads). The scores do not depend on it.
    subsample          Score every N-th frame (--subsample)
    frame_cnt          Score at most this many frames; 0: all (--frame_cnt)
    skip               Frames of both videos passed over before the first
                       scored (--frame_skip_ref and --frame_skip_dist with the
                       same N); the result's frames are numbered from 0 there
    width, height      Size of raw .yuv input (-w, -h)
    pixel_format       Pixel format of raw input: "420", "422", "444" or "400" (-p)
    bitdepth           Bit depth of raw input: 8 to 16 (-b)
    ignore_frame_rate  Score videos of different frame rates frame by frame
                       (--ignore_frame_rate)
    progress           True: a progress line on standard error when it is a
                       terminal (frames, fps, time left); or a callable
                       progress(frames_done, total) called about every 50 ms,
                       total None when the files do not tell it

    The GIL is released while frames are read and scored; Ctrl-C stops the
    run with KeyboardInterrupt within a frame. Errors (a missing file, an
    unknown model or feature, a damaged frame, videos that differ) raise
    vqx.Error with the library's one-line message, naming the file or the
    option; bad arguments raise TypeError or ValueError.

    Example:
        result = vqx.score("ref.y4m", "dist.y4m", features=["psnr"])
        result.pooled["vmaf"].mean, result["psnr_y"]
        result.write("out.json")
    """
    reference = _args.path("ref", ref)
    distorted = _args.path("dist", dist)
    model_list = _args.models(models)
    feature_list = _args.names("features", features)
    raw = raw_geometry(width, height, pixel_format, bitdepth)
    if not isinstance(ignore_frame_rate, bool):
        raise TypeError("ignore_frame_rate must be a bool")
    bar, callback = progress_callback(progress)
    run = None
    try:
        run = _vqx.score_files(
            reference, distorted, raw, model_list, feature_list, _args.backend(backend),
            _args.whole("gpu", gpu, 0), _args.threads(threads),
            _args.whole("subsample", subsample, 1), _args.whole("frame_cnt", frame_cnt, 0),
            _args.whole("skip", skip, 0), ignore_frame_rate, callback)
    finally:
        if bar is not None:
            bar.close(_frames_scored(run, bar, subsample))
    return Result(run)


def _frames_scored(run, bar: TerminalProgress, subsample) -> Optional[int]:
    """The frames a finished run scored, where known: the total the files
    told (a run that finished scored them all), else, without subsampling,
    the reported frames; None (the progress's last count) after a failure."""
    if run is None:
        return None
    if bar.total is not None:
        return bar.total
    return len(run.frames) if subsample in (None, 1) else None
