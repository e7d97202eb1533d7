"""VQX: video quality (VMAF and its features) with the reference libvmaf's numbers.

    import vqx
    result = vqx.score("ref.y4m", "dist.y4m")        # VMAF v0.6.1
    result.pooled["vmaf"].mean                       # the pooled score
    result["vmaf"]                                   # per frame, a NumPy array

    ctx = vqx.Context(features=["psnr"])             # frames you have
    for ref, dist in frames:
        ctx.add(ref, dist)                           # NumPy arrays
    result = ctx.score()

    results = vqx.score_many("ref.y4m", ["a.y4m", "b.y4m"])   # the reference read once
    vqx.report(["a.json", "b.json"], "report.html")           # the HTML report

vqx.dask (import it; it needs Dask's distributed) scores many pairs, or one
long video in segments, on a Dask cluster.

Errors of the library (a missing file, an unknown model, a damaged frame)
raise vqx.Error with its one-line message; bad arguments raise TypeError or
ValueError. See docs/python.md.
"""

from ._vqx import Error, libav_available
from ._vqx import version as _version
from ._context import Context
from ._result import Pooled, Result
from ._score import score
from ._many import score_many
from ._report import report

__version__: str = _version()

# help() and reprs name the package, not the private modules.
for _public in (Context, Error, Pooled, Result, score, score_many, report):
    _public.__module__ = __name__
del _public

__all__ = ["Context", "Error", "Pooled", "Result", "score", "score_many", "report", "libav_available", "__version__"]
