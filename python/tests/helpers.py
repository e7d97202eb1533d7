"""What several test files use: comparing a result with the CLI's report
bit for bit, reading Y4M frames into NumPy, writing raw test videos."""

import math
import pathlib
import struct

import numpy as np


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def assert_matches_report(result, report: dict) -> None:
    """Per frame, pooled and aggregate values equal the report's, bit for bit."""
    frames = report["frames"]
    assert result.frames.tolist() == [f["frameNum"] for f in frames]
    assert list(result.pooled) == list(report["pooled_metrics"])
    for name, values in result.metrics.items():
        assert values.dtype == np.float64 and values.shape == (len(frames),)
        for i, frame in enumerate(frames):
            expected = frame["metrics"].get(name)
            if expected is None:
                assert math.isnan(values[i]), (name, i)
            else:
                assert bits(float(values[i])) == bits(float(expected)), (name, i, values[i], expected)
        pooled = report["pooled_metrics"][name]
        got = result.pooled[name]
        for key in ("min", "max", "mean", "harmonic_mean"):
            assert bits(getattr(got, key)) == bits(float(pooled[key])), (name, key)
    assert {k: bits(v) for k, v in result.aggregates.items()} == \
        {k: bits(float(v)) for k, v in report.get("aggregate_metrics", {}).items()}


def read_y4m(path: pathlib.Path):
    """The frames of an 8-bit 4:2:0 Y4M file as (Y, U, V) tuples of uint8 arrays."""
    data = pathlib.Path(path).read_bytes()
    header_end = data.index(b"\n")
    tags = data[:header_end].split()
    assert tags[0] == b"YUV4MPEG2"
    width = int(next(t[1:] for t in tags if t.startswith(b"W")))
    height = int(next(t[1:] for t in tags if t.startswith(b"H")))
    chroma = next((t[1:] for t in tags if t.startswith(b"C")), b"420")
    assert chroma in (b"420", b"420jpeg", b"420mpeg2", b"420paldv"), chroma
    cw, ch = (width + 1) // 2, (height + 1) // 2
    frame_bytes = width * height + 2 * cw * ch
    frames = []
    pos = header_end + 1
    while pos < len(data):
        line_end = data.index(b"\n", pos)
        assert data[pos:line_end].startswith(b"FRAME")
        pos = line_end + 1
        buf = np.frombuffer(data, np.uint8, frame_bytes, pos)
        y = buf[:width * height].reshape(height, width)
        u = buf[width * height:width * height + cw * ch].reshape(ch, cw)
        v = buf[width * height + cw * ch:].reshape(ch, cw)
        frames.append((y, u, v))
        pos += frame_bytes
    return frames


def plane_sizes(width: int, height: int, chroma: str):
    if chroma == "400":
        return [(height, width)]
    cw = (width + 1) // 2 if chroma in ("420", "422") else width
    ch = (height + 1) // 2 if chroma == "420" else height
    return [(height, width), (ch, cw), (ch, cw)]


def synthetic_frames(width: int, height: int, chroma: str, bitdepth: int, count: int, seed: int):
    """Reference and distorted frames (lists of planes) with moving content
    and noise, so that every metric sees motion and distortion."""
    rng = np.random.default_rng(seed)
    top = (1 << bitdepth) - 1
    dtype = np.uint8 if bitdepth == 8 else np.uint16
    refs, dists = [], []
    for k in range(count):
        ref_planes, dist_planes = [], []
        for p, (h, w) in enumerate(plane_sizes(width, height, chroma)):
            yy, xx = np.mgrid[0:h, 0:w]
            base = 0.5 + 0.35 * np.sin((xx + 3 * k) / (7.0 + p)) * np.cos((yy - 2 * k) / 11.0)
            ref = np.clip(base * top + rng.normal(0, top * 0.02, (h, w)), 0, top)
            dist = np.clip(ref + rng.normal(0, top * 0.05, (h, w)), 0, top)
            ref_planes.append(ref.astype(dtype))
            dist_planes.append(dist.astype(dtype))
        refs.append(ref_planes)
        dists.append(dist_planes)
    return refs, dists


def write_raw(path: pathlib.Path, frames) -> None:
    with open(path, "wb") as f:
        for planes in frames:
            for plane in planes:
                f.write(np.ascontiguousarray(plane).astype(plane.dtype.newbyteorder("<")).tobytes())
