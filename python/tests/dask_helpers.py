"""What the Dask tests (test_dask.py) ship to the workers, and the long
test clip they score. Workers import this module by name (Dask's spawned
workers get the test process's sys.path)."""

import os
import pathlib

import numpy as np
from distributed import WorkerPlugin

from helpers import read_y4m


class KillOnceWhenScoring(WorkerPlugin):
    """Kills its worker's process as the first task whose key starts with
    `prefix` begins (the marker file says it was done): a worker dying in
    the middle of a run, which Dask must survive by running the task
    again elsewhere."""

    def __init__(self, marker: str, prefix: str) -> None:
        self.marker = marker
        self.prefix = prefix

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or not str(key).startswith(self.prefix):
            return
        try:
            fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        os._exit(1)


def _up2(p: np.ndarray) -> np.ndarray:
    """A plane at twice its size, interpolated (bilinear-like, rounded)."""
    p = p.astype(np.uint16)
    h, w = p.shape
    out = np.empty((2 * h, 2 * w), np.uint16)
    right = np.concatenate([p[:, 1:], p[:, -1:]], 1)
    out[0::2, 0::2] = p
    out[0::2, 1::2] = (p + right + 1) // 2
    below = np.concatenate([out[2::2], out[-2:-1]], 0)
    out[1::2] = (out[0::2] + below + 1) // 2
    return out.astype(np.uint8)


def write_long_pair(p9, folder: pathlib.Path, frames: int):
    """A long pair from the bundled P9 (176x144, 10 frames): its frames
    played forwards then backwards (0..9, 8..1, 0..9, ...), so consecutive
    frames differ as in the clip (no jump at the loop), at 352x288 (CAMBI,
    in the v1.0.16 models, needs 216 lines or columns). The distorted clip
    is the reference 3/4 and P9's crf45 encode 1/4: a VMAF near 60, far
    from the model's clipping."""
    ref_frames = read_y4m(p9[0])
    dist_frames = [tuple(((a.astype(np.uint16) * 3 + b + 2) // 4).astype(np.uint8)
                         for a, b in zip(r, d)) for r, d in zip(ref_frames, read_y4m(p9[1]))]
    order = list(range(10)) + list(range(8, 0, -1))
    paths = []
    for name, source in (("long_ref.y4m", ref_frames), ("long_dist.y4m", dist_frames)):
        path = folder / name
        with open(path, "wb") as f:
            f.write(b"YUV4MPEG2 W352 H288 F25:1 Ip A1:1 C420jpeg\n")
            for k in range(frames):
                f.write(b"FRAME\n")
                for plane in source[order[k % len(order)]]:
                    f.write(_up2(plane).tobytes())
        paths.append(path)
    return tuple(paths)
