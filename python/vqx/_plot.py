"""Result.plot(): one metric per frame, with matplotlib."""

from __future__ import annotations

import os
from typing import Any, Optional, Union

import numpy as np


def plot_metric(frames: np.ndarray, values: np.ndarray, name: str, pooled: Any,
                path: Union[None, str, "os.PathLike[str]"], ax: Any) -> Any:
    try:
        import matplotlib  # noqa: F401
    except ImportError as e:
        raise ImportError("Result.plot() needs matplotlib (Debian: python3-matplotlib)") from e
    if ax is None and path is not None:
        # Only a file is asked for: a figure outside pyplot, which needs no
        # display and is not kept by pyplot after it is saved.
        from matplotlib.figure import Figure

        figure = Figure(figsize=(8, 3.5))
        ax = figure.add_subplot()
    elif ax is None:
        import matplotlib.pyplot as plt

        figure, ax = plt.subplots(figsize=(8, 3.5))
    else:
        figure = ax.figure
    present = ~np.isnan(values)
    ax.plot(frames[present], values[present], marker="." if present.sum() < 60 else None,
            label=name)
    ax.axhline(pooled.mean, linestyle="--", linewidth=0.8, color="grey",
               label=f"mean {pooled.mean:.4f}")
    ax.set_xlabel("frame")
    ax.set_ylabel(name)
    ax.set_title(name)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best")
    if path is not None:
        figure.savefig(os.fspath(path), bbox_inches="tight")
    return figure
