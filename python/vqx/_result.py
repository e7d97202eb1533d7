"""vqx.Result: what a scored run tells, as NumPy arrays and plain values."""

from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Union

import numpy as np

from . import _vqx

_FORMATS = ("xml", "json", "csv", "sub")


class Pooled(NamedTuple):
    """A metric pooled over the scored frames, as the reports' pooled_metrics."""

    mean: float
    harmonic_mean: float
    min: float
    max: float


class Result:
    """The scores of one run.

    frames      frame numbers of the scored frames (every subsample-th), int64 array
    metrics     {name: float64 array}, one value per entry of `frames`, NaN
                where the metric has none; model scores ("vmaf") and every
                feature output, in the reports' order. result[name] is
                result.metrics[name].
    pooled      {name: Pooled(mean, harmonic_mean, min, max)}
    aggregates  {name: float}: whole-video values (e.g. apsnr_y)
    backends    {name: "cpu" | "cuda" | "hip"}: what computed each metric
    models      the models' score names, in the order given
    device      "cpu", or the GPU used ("cuda:0 NVIDIA H200, ...")
    fps         frames scored per second (the reports' fps)

    offset      vqx.score_many's offset of the clip against the reference
                (found with sync=True, or given); None otherwise

    write() writes the reference's XML, JSON, CSV or SUB and report() the
    HTML page; to_pandas() and plot() need pandas and matplotlib.

    A Result pickles (vqx.dask sends them between processes): it carries
    its values and what the reports print besides them, not the engine's
    context, and one that was unpickled writes the same bytes.
    """

    def __init__(self, run: "_vqx.Run") -> None:
        # The flushed context, which write() reads; None for a Result that
        # was unpickled or merged, which writes from _header and its values.
        self._run: Optional["_vqx.Run"] = run
        self._header: Optional[dict] = None
        self.offset: Optional[int] = None
        self.frames: np.ndarray = run.frames
        self.metrics: Dict[str, np.ndarray] = {}
        self.pooled: Dict[str, Pooled] = {}
        self.backends: Dict[str, str] = {}
        for name, values, pooled, backend in run.metrics:
            values.flags.writeable = False
            self.metrics[name] = values
            self.pooled[name] = Pooled(*pooled)
            self.backends[name] = backend
        self.aggregates: Dict[str, float] = dict(run.aggregates)
        self.models: List[str] = list(run.models)
        self.device: str = run.device
        self.fps: float = run.fps

    @classmethod
    def _from_values(cls, frames: np.ndarray, metrics: Dict[str, np.ndarray],
                     backends: Dict[str, str], aggregates: Dict[str, float], models: List[str],
                     device: str, fps: float, header: dict) -> "Result":
        """A Result from values alone (vqx.dask's merged segments): each
        metric pooled as the reports pool it."""
        self = cls.__new__(cls)
        self._run = None
        self._header = header
        self.offset = None
        self.frames = np.asarray(frames, dtype=np.int64)
        self.frames.flags.writeable = False
        self.metrics, self.pooled, self.backends = {}, {}, {}
        for name, values in metrics.items():
            values = np.asarray(values, dtype=np.float64)
            if np.isnan(values).all():
                continue  # as the reports: a metric without a value is not listed
            values.flags.writeable = False
            self.metrics[name] = values
            self.pooled[name] = Pooled(*_vqx.pool(values))
            self.backends[name] = backends[name]
        self.aggregates = dict(aggregates)
        self.models = list(models)
        self.device = device
        self.fps = fps
        return self

    def _run_header(self) -> dict:
        """What the reports print besides the values (vqx._vqx.run_header)."""
        if self._header is None:
            assert self._run is not None
            self._header = _vqx.run_header(self._run)
        return self._header

    def __getstate__(self) -> dict:
        state = {k: v for k, v in self.__dict__.items() if k not in ("_run", "_header")}
        state["_header"] = self._run_header()
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._run = None
        for values in self.metrics.values():
            values.flags.writeable = False

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.metrics[name]
        except KeyError:
            raise KeyError(f"no metric named {name!r}; the run has: {', '.join(self.metrics)}") from None

    def __contains__(self, name: object) -> bool:
        return name in self.metrics

    def __iter__(self) -> Iterator[str]:
        return iter(self.metrics)

    def __len__(self) -> int:
        return len(self.metrics)

    def __repr__(self) -> str:
        scores = ", ".join(f"{m}={self.pooled[m].mean:.6f}" for m in self.models if m in self.pooled)
        return f"<vqx.Result: {len(self.frames)} frames, {len(self.metrics)} metrics{', ' if scores else ''}{scores}>"

    def write(
        self,
        path: Union[str, "os.PathLike[str]"],
        format: Optional[str] = None,
        precision: Union[None, int, str] = None,
    ) -> None:
        """Writes every metric, per frame and pooled, in the reference's schemas.

        path       the file; it appears only once completely written
        format     "xml", "json", "csv" or "sub"; None: from the file's
                   extension (.xml, .json, .csv, .sub)
        precision  decimals: None for the reference's own formatting, 0 to
                   17, or "max" (round-trips every double, as --precision max)
        """
        from ._args import path as check_path

        target = check_path("path", path)
        if format is None:
            ext = os.path.splitext(target)[1].lower().lstrip(".")
            if ext not in _FORMATS:
                raise ValueError(f"{target}: cannot tell the format from the extension: give format= "
                                 f"({', '.join(_FORMATS)})")
            format = ext
        if format not in _FORMATS:
            raise ValueError(f"format {format!r}: expected one of {', '.join(_FORMATS)}")
        if precision is None:
            digits = -1
        elif precision == "max":
            digits = 17
        elif isinstance(precision, int) and not isinstance(precision, bool) and 0 <= precision <= 17:
            digits = precision
        else:
            raise ValueError(f"precision {precision!r}: expected None, 0 to 17, or 'max'")
        if self._run is not None:
            self._run.write(target, format, digits, self.fps)
        else:
            _vqx.write_values(self._run_header(), self.frames.tolist(),
                              [(n, v, self.backends[n]) for n, v in self.metrics.items()],
                              target, format, digits, self.fps)

    def report(
        self,
        out_path: Union[str, "os.PathLike[str]"],
        worst: int = 10,
        metrics: Optional[List[str]] = None,
        title: Optional[str] = None,
    ) -> None:
        """The HTML page of this run (vqx.report() of its JSON, written at
        full precision to a temporary file)."""
        import tempfile

        from ._report import report

        with tempfile.TemporaryDirectory(prefix="vqx-report-") as folder:
            run_json = os.path.join(folder, "run.json")
            self.write(run_json, "json", "max")
            report([run_json], out_path, worst=worst, metrics=metrics, title=title)

    def to_pandas(self) -> Any:
        """A pandas DataFrame: one row per scored frame (indexed by frame
        number), one column per metric. Needs pandas."""
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("Result.to_pandas() needs pandas (Debian: python3-pandas)") from e
        frame = pd.DataFrame(dict(self.metrics), index=pd.Index(self.frames, name="frame"))
        return frame

    def plot(
        self,
        metric: Optional[str] = None,
        path: Union[None, str, "os.PathLike[str]"] = None,
        ax: Any = None,
    ) -> Any:
        """Plots a metric per frame with matplotlib; returns the figure.

        metric  the metric's name; None: the first model's score
        path    save the figure there, its format from the extension
                (.png, .svg, or any matplotlib writes)
        ax      a matplotlib Axes to draw on (default: a new figure)
        """
        from ._plot import plot_metric

        if metric is None:
            if not self.models:
                raise ValueError("the run has no model score: name the metric to plot")
            metric = self.models[0]
        return plot_metric(self.frames, self[metric], metric, self.pooled[metric], path, ax)
