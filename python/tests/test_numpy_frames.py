"""vqx.Context: NumPy frames give the numbers of the same frames read from
files, in every layout a frame may take."""

import numpy as np
import pytest

import vqx
from helpers import assert_matches_report, bits, read_y4m, synthetic_frames, write_raw


def same_results(a: vqx.Result, b: vqx.Result) -> None:
    assert a.frames.tolist() == b.frames.tolist()
    assert list(a.metrics) == list(b.metrics)
    for name in a.metrics:
        assert a.metrics[name].tobytes() == b.metrics[name].tobytes(), name
        assert [bits(x) for x in a.pooled[name]] == [bits(x) for x in b.pooled[name]], name
    assert a.aggregates == b.aggregates
    assert a.models == b.models


def test_y4m_frames_as_planes_equal_the_file(p9):
    ref, dist = p9
    features = ["psnr=enable_apsnr=true", "float_ssim"]
    from_file = vqx.score(ref, dist, features=features)
    ctx = vqx.Context(features=features)
    for r, d in zip(read_y4m(ref), read_y4m(dist)):
        ctx.add(r, d)
    assert ctx.frames == 10
    same_results(ctx.score(), from_file)


def test_strided_and_transposed_views_equal_contiguous_frames(p9):
    ref, dist = p9
    refs, dists = read_y4m(ref)[:3], read_y4m(dist)[:3]
    plain = vqx.Context(features=["psnr"])
    for r, d in zip(refs, dists):
        plain.add(r, d)
    # The same samples, seen through strides: every other column of a wider
    # array, and the transpose of a transposed copy.
    strided = vqx.Context(features=["psnr"])
    for r, d in zip(refs, dists):
        wide = [np.repeat(p, 2, axis=1)[:, ::2] for p in r]
        turned = [np.ascontiguousarray(p.T).T for p in d]
        assert not wide[0].flags.c_contiguous and not turned[0].flags.c_contiguous
        strided.add(wide, turned)
    same_results(strided.score(), plain.score())


@pytest.mark.parametrize("chroma,bitdepth", [("420", 10), ("422", 12), ("444", 8), ("400", 8),
                                             ("400", 16)])
def test_numpy_frames_equal_raw_files(tmp_path, chroma, bitdepth):
    width, height, count = 96, 64, 4
    refs, dists = synthetic_frames(width, height, chroma, bitdepth, count, seed=bitdepth)
    write_raw(tmp_path / "ref.yuv", refs)
    write_raw(tmp_path / "dist.yuv", dists)
    features = ["psnr", "float_ssim"]
    from_file = vqx.score(tmp_path / "ref.yuv", tmp_path / "dist.yuv", features=features,
                          width=width, height=height, pixel_format=chroma, bitdepth=bitdepth)
    ctx = vqx.Context(features=features, bitdepth=bitdepth if bitdepth > 8 else None)
    for r, d in zip(refs, dists):
        if chroma == "400":
            ctx.add(r[0], d[0])  # a 2-D array: the luma alone
        elif chroma == "444":
            ctx.add(np.stack(r), np.stack(d))  # one (3, h, w) array
        else:
            ctx.add(tuple(r), list(d))
    result = ctx.score()
    assert np.all(np.isfinite(result["psnr_y"])) and result.pooled["psnr_y"].mean > 20
    same_results(result, from_file)


def test_threads_give_the_same_numbers(p9):
    ref, dist = p9
    frames = list(zip(read_y4m(ref), read_y4m(dist)))
    results = []
    for threads in (0, 3):
        ctx = vqx.Context(threads=threads)
        for r, d in frames:
            ctx.add(r, d)
        results.append(ctx.score())
    same_results(results[0], results[1])


def test_a_context_written_report_equals_its_values(p9, tmp_path):
    import json

    ref, dist = p9
    ctx = vqx.Context(models=["version=vmaf_v0.6.1:name=vmaf"], features=["psnr"], subsample=2)
    for r, d in zip(read_y4m(ref), read_y4m(dist)):
        ctx.add(r, d)
    result = ctx.score()
    result.write(tmp_path / "out.json", precision="max")
    assert_matches_report(result, json.loads((tmp_path / "out.json").read_text()))
    assert result.frames.tolist() == [0, 2, 4, 6, 8]
