"""vqx.Context: frames the caller has, as NumPy arrays."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from . import _args, _vqx
from ._result import Result

Frame = Any  # a NumPy array, or a sequence of 1 or 3 of them (Y, U, V)


class Context:
    """Scores frames given as NumPy arrays, one pair at a time.

    vqx.Context(models=None, features=(), *, backend="auto", gpu=0,
                threads=0, subsample=1, bitdepth=None)

    models, features, backend, gpu, threads, subsample: as vqx.score().
    bitdepth  the samples' bit depth: None or 8 for uint8 arrays, 9 to 16
              for uint16 arrays (required for them)

    A frame is one of:
      * a 2-D array (height, width): the luma alone (4:0:0);
      * a 3-D array (3, height, width): the Y, U and V planes of 4:4:4
        ((1, height, width): 4:0:0);
      * a sequence of 3 2-D arrays (Y, U, V), the chroma planes' size telling
        the format: ((h+1)//2, (w+1)//2) 4:2:0, (h, (w+1)//2) 4:2:2,
        (h, w) 4:4:4; or of 1 (Y).
    Samples are uint8, or native-endian uint16 with bitdepth. Any strides are
    taken (slices, transposes): each plane is copied once, straight into a
    picture of the context's pool.

        ctx = vqx.Context(features=["psnr"])
        for ref, dist in pairs:
            ctx.add(ref, dist)
        result = ctx.score()

    add() checks each frame (TypeError for a dtype, ValueError for a shape or
    a size that differs from the reference's or the first frame's, vqx.Error
    for a sample above the bit depth) and a refused pair leaves the context
    as it was. The GIL is released while a pair is copied and scored.
    """

    def __init__(
        self,
        models: Optional[Union[str, Sequence[str]]] = None,
        features: Union[str, Sequence[str]] = (),
        *,
        backend: str = "auto",
        gpu: int = 0,
        threads: int = 0,
        subsample: int = 1,
        bitdepth: Optional[int] = None,
    ) -> None:
        if bitdepth is not None:
            _args.whole("bitdepth", bitdepth, 8, 16)
        self._engine = _vqx.FrameContext(
            _args.models(models), _args.names("features", features), _args.backend(backend),
            _args.whole("gpu", gpu, 0), _args.threads(threads),
            _args.whole("subsample", subsample, 1), bitdepth)

    def add(self, ref: Frame, dist: Frame) -> None:
        """Scores the next pair of frames (reference, distorted)."""
        self._engine.add(ref, dist)

    @property
    def frames(self) -> int:
        """Pairs added so far."""
        return self._engine.frames

    def score(self) -> Result:
        """Finishes the run (temporal features, model scores) and returns its
        vqx.Result; the context takes no more frames."""
        return Result(self._engine.finish())
