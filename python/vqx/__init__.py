"""VQX: video quality (VMAF and its features) with the reference libvmaf's numbers.

    import vqx
    result = vqx.score("ref.y4m", "dist.y4m")        # VMAF v0.6.1
    result.pooled["vmaf"].mean                       # the pooled score
    result["vmaf"]                                   # per frame, a NumPy array

    ctx = vqx.Context(features=["psnr"])             # frames you have
    for ref, dist in frames:
        ctx.add(ref, dist)                           # NumPy arrays
    result = ctx.score()

Errors of the library (a missing file, an unknown model, a damaged frame)
raise vqx.Error with its one-line message; bad arguments raise TypeError or
ValueError. See docs/python.md.
"""

from ._vqx import Error, libav_available
from ._vqx import version as _version
from ._context import Context
from ._result import Pooled, Result
from ._score import score

__version__: str = _version()

# help() and reprs name the package, not the private modules.
for _public in (Context, Error, Pooled, Result, score):
    _public.__module__ = __name__
del _public

__all__ = ["Context", "Error", "Pooled", "Result", "score", "libav_available", "__version__"]
