"""vqx.dask: scoring on a Dask distributed cluster (docs/scale-out.md).

    from distributed import Client
    import vqx.dask

    client = Client("tcp://scheduler:8786")          # or Client(LocalCluster(...))
    results = vqx.dask.score_pairs(client, [("ref.mkv", "a.mp4"), ("ref.mkv", "b.mp4")])
    whole = vqx.dask.score_segments(client, "ref.mkv", "long.mp4", segment_frames=500)

Each task runs vqx.score() on a worker, which reads the files itself: every
worker must reach the paths (shared storage, or the same copies on each
machine). Results come back as vqx.Result objects (they pickle: their values
and what the reports print besides them), equal bit for bit to a run in one
process, and write() the same bytes.

GPU workers: start them with `dask worker ... --resources GPU=1`; a task
whose backend is "cuda" or "hip" asks for {"GPU": 1} (resources=), so that
each GPU scores one pair at a time and CPU-only workers get none.

Only this module imports Dask's distributed: `import vqx` works without it.
"""

from __future__ import annotations

import os
import time
import uuid
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
from distributed import Client

from . import _args, _vqx
from ._result import Result
from ._score import raw_geometry, score

PathLike = Union[str, "os.PathLike[str]"]

GPU_BACKENDS = ("cuda", "hip")

__all__ = ["score_pairs", "score_segments", "plan_segments", "GPU_BACKENDS"]


def _resources(backend: str, resources: Optional[Dict[str, float]]) -> Optional[Dict[str, float]]:
    """The task's resources: those given ({} for none), else {"GPU": 1}
    for a GPU backend and none for the CPU ("auto" asks for none: it takes
    the worker's GPU when there is one)."""
    if resources is not None:
        return dict(resources) or None
    return {"GPU": 1} if backend in GPU_BACKENDS else None


def _score_task(ref: str, dist: str, options: Dict[str, Any], keep_errors: bool) -> Any:
    """One pair on a worker. vqx.Error is returned instead of raised when
    the caller keeps errors: a bad file fails the same on any worker, so
    Dask should not retry it."""
    try:
        return score(ref, dist, **options)
    except _vqx.Error as e:
        if not keep_errors:
            raise
        e.path = dist
        return e


def _check_options(options: Dict[str, Any]) -> None:
    if "progress" in options:
        raise TypeError("progress: tasks run on the workers; watch them on Dask's dashboard")
    unknown = set(options) - _SCORE_OPTIONS
    if unknown:
        raise TypeError(f"unknown option {sorted(unknown)[0]!r}: expected vqx.score()'s "
                        f"({', '.join(sorted(_SCORE_OPTIONS))})")


_SCORE_OPTIONS = {"backend", "gpu", "threads", "subsample", "frame_cnt", "skip", "width",
                  "height", "pixel_format", "bitdepth", "ignore_frame_rate"}


def score_pairs(
    client: Client,
    pairs: Sequence[Tuple[PathLike, PathLike]],
    models: Optional[Union[str, Sequence[str]]] = None,
    features: Union[str, Sequence[str]] = (),
    *,
    resources: Optional[Dict[str, float]] = None,
    errors: str = "raise",
    **options: Any,
) -> List[Union[Result, "_vqx.Error"]]:
    """Scores each (reference, distorted) pair in a task of its own on the
    cluster; returns their vqx.Result objects in the pairs' order.

    models, features, and the keyword options (backend, gpu, threads,
    subsample, frame_cnt, skip, width, height, pixel_format, bitdepth,
    ignore_frame_rate): as vqx.score(), the same for every pair.
    resources  Dask resources each task needs; None: {"GPU": 1} when
               backend is "cuda" or "hip" (workers started with
               --resources GPU=1), none otherwise; {}: none
    errors     "raise": the first pair's vqx.Error is raised (the other
               tasks are cancelled); "return": a failing pair's entry is
               its vqx.Error (with .path), as vqx.score_many's

    A task whose worker dies (killed, out of memory) is run again on
    another worker by Dask, up to distributed.scheduler.allowed-failures
    times (3 by default).
    """
    if errors not in ("raise", "return"):
        raise ValueError(f"errors {errors!r}: expected 'raise' or 'return'")
    _check_options(options)
    backend = _args.backend(options.get("backend", "auto"))
    opts = dict(options, models=_args.models(models), features=_args.names("features", features))
    checked = [(_args.path("ref", r), _args.path("dist", d)) for r, d in pairs]
    batch = uuid.uuid4().hex[:12]
    futures = [
        client.submit(_score_task, r, d, opts, errors == "return", key=f"vqx-pair-{batch}-{i}",
                      resources=_resources(backend, resources), pure=False)
        for i, (r, d) in enumerate(checked)
    ]
    try:
        return client.gather(futures)
    finally:
        for f in futures:
            f.release()


def plan_segments(frames: int, segment_frames: int, reach: Tuple[int, int]
                  ) -> List[Tuple[int, int, int, int]]:
    """The segments of a video of `frames` frames: (first, end, read_from,
    read_to) each, frames first..end-1 kept, read_from..read_to-1 scored:
    `reach` = (before, after) frames more on each side, within the video."""
    before, after = reach
    plan = []
    for first in range(0, frames, segment_frames):
        end = min(first + segment_frames, frames)
        plan.append((first, end, max(0, first - before), min(frames, end + after)))
    return plan


def score_segments(
    client: Client,
    ref: PathLike,
    dist: PathLike,
    models: Optional[Union[str, Sequence[str]]] = None,
    features: Union[str, Sequence[str]] = (),
    *,
    segment_frames: int = 1000,
    frames: Optional[int] = None,
    resources: Optional[Dict[str, float]] = None,
    **options: Any,
) -> Result:
    """Scores one (long) pair of videos in segments of `segment_frames`
    frames, one task each, and merges them into the Result a run of the
    whole pair gives: every frame's values and every pooled value equal bit
    for bit, write() the same bytes (apart from fps, the run's speed).

    Each segment is scored from `before` frames ahead of its first frame to
    `after` frames past its last, the temporal reach of the models and
    features (vqx._vqx.temporal_reach: e.g. 1 and 1 for VMAF's motion, 4
    and 1 for the v1.0.16 HFR models' five-frame window with its moving
    average); those frames' values are dropped, the others kept. A segment
    starts by skipping to its first frame read: Y4M and raw files seek,
    containers FFmpeg reads are decoded from the start and the frames
    dropped (libav's seeking is not frame-exact), so the later segments of
    an .mkv cost more decoding than their share.

    frames     the pair's frame count; None: the reference's, as the file
               tells it (Y4M, raw) or counted by decoding it here
    resources  as score_pairs()
    options    vqx.score()'s keyword options (not frame_cnt, skip, subsample)

    Refused (ValueError): subsample other than 1; features whose values
    depend on the whole video (psnr's enable_apsnr aggregates, CAMBI's
    heatmaps_path files).
    """
    _check_options(options)
    for name in ("frame_cnt", "skip"):
        if name in options:
            raise TypeError(f"{name}: score_segments scores the whole pair; give frames= to "
                            "bound it")
    if options.get("subsample", 1) != 1:
        raise ValueError("subsample: score_segments scores every frame (subsample=1)")
    _args.whole("segment_frames", segment_frames, 1)
    model_list = _args.models(models)
    feature_list = _args.names("features", features)
    reference = _args.path("ref", ref)
    distorted = _args.path("dist", dist)
    reach = _vqx.temporal_reach(model_list, feature_list)
    if reach is None:
        raise ValueError("some feature's values depend on the whole video (psnr's enable_apsnr "
                         "aggregates, CAMBI's heatmaps): score the pair whole with vqx.score()")
    if frames is None:
        raw = raw_geometry(options.get("width"), options.get("height"),
                           options.get("pixel_format"), options.get("bitdepth"))
        frames = int(_vqx.frame_count(reference, raw))
    _args.whole("frames", frames, 1)
    backend = _args.backend(options.get("backend", "auto"))
    opts = dict(options, models=model_list, features=feature_list)
    plan = plan_segments(frames, segment_frames, reach)
    batch = uuid.uuid4().hex[:12]
    start = time.monotonic()
    futures = [
        client.submit(_score_task, reference, distorted,
                      dict(opts, skip=read_from, frame_cnt=read_to - read_from), False,
                      key=f"vqx-segment-{batch}-{first}", resources=_resources(backend, resources),
                      pure=False)
        for first, end, read_from, read_to in plan
    ]
    try:
        parts = client.gather(futures)
    finally:
        for f in futures:
            f.release()
    return merge_segments(plan, parts, frames / max(time.monotonic() - start, 1e-9))


def merge_segments(plan: Sequence[Tuple[int, int, int, int]], parts: Sequence[Result],
                   fps: float) -> Result:
    """The whole video's Result from its segments' (plan_segments order)."""
    names: List[str] = []
    for part in parts:
        names += [n for n in part.metrics if n not in names]
    total = plan[-1][1]
    merged = {name: np.full(total, np.nan) for name in names}
    for (first, end, read_from, read_to), part in zip(plan, parts):
        if len(part.frames) != read_to - read_from:
            raise _vqx.Error(f"segment at frame {first}: scored {len(part.frames)} frames of "
                             f"{read_to - read_from}: the video is shorter than told")
        keep = slice(first - read_from, end - read_from)
        for name, values in part.metrics.items():
            merged[name][first:end] = values[keep]
        if part.aggregates:  # none without the refused whole-video features
            raise ValueError(f"segments cannot merge whole-video values ({', '.join(part.aggregates)})")
    head = parts[0]
    backends: Dict[str, str] = {}
    for part in parts:
        for name, where in part.backends.items():
            backends.setdefault(name, where)
    return Result._from_values(np.arange(total, dtype=np.int64), merged, backends, {}, head.models,
                               head.device, fps, head._run_header())
