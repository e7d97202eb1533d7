"""vqx.score_many(): the reference read once, each clip's values those of
vqx.score() of that clip alone, a failing clip reported in its place."""

import pathlib
import shutil

import numpy as np
import pytest

import vqx

from helpers import bits


def assert_same_result(a, b):
    assert a.frames.tolist() == b.frames.tolist()
    assert list(a.metrics) == list(b.metrics)
    for name in a.metrics:
        assert a.metrics[name].tobytes() == b.metrics[name].tobytes(), name
        assert [bits(x) for x in a.pooled[name]] == [bits(x) for x in b.pooled[name]], name
    assert {k: bits(v) for k, v in a.aggregates.items()} == \
        {k: bits(v) for k, v in b.aggregates.items()}
    assert a.models == b.models and a.backends == b.backends


def test_each_clip_equals_its_own_run(p9, tmp_path):
    ref, dist = p9
    # A second clip: the reference itself (another content, same size).
    results = vqx.score_many(ref, [dist, ref], features=["psnr=enable_apsnr=true", "float_ssim"])
    assert len(results) == 2
    for path, got in zip([dist, ref], results):
        assert isinstance(got, vqx.Result)
        alone = vqx.score(ref, path, features=["psnr=enable_apsnr=true", "float_ssim"])
        assert_same_result(got, alone)
        assert got.offset == 0
    assert results[0].pooled["vmaf"].mean != results[1].pooled["vmaf"].mean


def test_a_failing_clip_is_named_and_the_others_scored(p9, tmp_path):
    ref, dist = p9
    missing = tmp_path / "missing.y4m"
    short = tmp_path / "short.y4m"
    # A clip with fewer frames than the reference: the header and 9 frames.
    data = pathlib.Path(dist).read_bytes()
    frame = data.index(b"FRAME", data.index(b"FRAME") + 1) - data.index(b"FRAME")
    short.write_bytes(data[:len(data) - frame])
    results = vqx.score_many(ref, [missing, dist, short])
    assert isinstance(results[0], vqx.Error)
    assert str(missing) in str(results[0]) and results[0].code == "io"
    assert results[0].path == str(missing)
    assert isinstance(results[1], vqx.Result)
    assert_same_result(results[1], vqx.score(ref, dist))
    assert isinstance(results[2], vqx.Error) and "short.y4m" in str(results[2])


def test_errors_of_the_whole_batch_raise(p9, tmp_path):
    ref, dist = p9
    with pytest.raises(vqx.Error, match="nope.y4m"):
        vqx.score_many(tmp_path / "nope.y4m", [dist])
    with pytest.raises(vqx.Error, match="version=nope"):
        vqx.score_many(ref, [dist], models=["version=nope"])
    with pytest.raises(ValueError, match="2 offsets for 1 files"):
        vqx.score_many(ref, [dist], dist_offsets=[1, 2])
    with pytest.raises(TypeError, match="vqx.score"):
        vqx.score_many(ref, dist)
    with pytest.raises(vqx.Error, match="scale filter|filter"):
        vqx.score_many(ref, [dist], scale=True, scale_filter="blurry")


def test_offsets_as_the_cli_takes_them(p9, tmp_path):
    ref, dist = p9
    # dist without its first 3 frames: offset 3 pairs it with reference frame 3 on.
    data = pathlib.Path(dist).read_bytes()
    first = data.index(b"FRAME")
    size = data.index(b"FRAME", first + 1) - first
    late = tmp_path / "late.y4m"
    late.write_bytes(data[:first] + data[first + 3 * size:])
    got = vqx.score_many(ref, [late], dist_offsets=3)[0]
    assert isinstance(got, vqx.Result) and got.offset == 3
    alone = vqx.score(ref, dist, skip=3)
    assert_same_result(got, alone)
    assert len(got.frames) == 7


def test_scaled_clip_equals_the_cli(p9, tmp_path, cli):
    if not vqx.libav_available():
        pytest.skip("FFmpeg's libraries are absent: --scale needs libswscale")
    import subprocess
    ref, dist = p9
    # The reference at half size, as a Y4M, scaled back by --scale.
    small = tmp_path / "small.y4m"
    frames = [f for f in _y4m_frames(pathlib.Path(dist))]
    _write_y4m(small, [(y[::2, ::2], u[::2, ::2], v[::2, ::2]) for y, u, v in frames], 88, 72)
    got = vqx.score_many(ref, [small, dist], scale=True)
    report = tmp_path / "out"
    report.mkdir()
    subprocess.run([cli, "-r", str(ref), "-d", str(small), "-d", str(dist), "--scale", "--json",
                    "--precision", "max", "-q", "-o", str(report) + "/"], check=True, timeout=60)
    import json
    from helpers import assert_matches_report
    assert_matches_report(got[0], json.loads((report / "small.json").read_text()))
    assert_matches_report(got[1], json.loads((report / (pathlib.Path(dist).stem + ".json")).read_text()))


def _y4m_frames(path):
    from helpers import read_y4m
    return read_y4m(path)


def _write_y4m(path, frames, width, height):
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{width} H{height} F25:1 Ip A1:1 C420jpeg\n".encode())
        for planes in frames:
            f.write(b"FRAME\n")
            for p in planes:
                f.write(np.ascontiguousarray(p).tobytes())


def test_sync_finds_the_offset(p9, tmp_path):
    ref, _ = p9
    # The reference without its first 3 frames: offset 3, found by sync.
    data = pathlib.Path(ref).read_bytes()
    first = data.index(b"FRAME")
    size = data.index(b"FRAME", first + 1) - first
    late = tmp_path / "late.y4m"
    late.write_bytes(data[:first] + data[first + 3 * size:])
    got = vqx.score_many(ref, [late, ref], sync=True, sync_window=5)
    assert [r.offset for r in got] == [3, 0]
    assert_same_result(got[0], vqx.score(ref, ref, skip=3))
    assert_same_result(got[1], vqx.score(ref, ref))
    with pytest.raises(ValueError, match="not both"):
        vqx.score_many(ref, [late], sync=True, dist_offsets=[3])
