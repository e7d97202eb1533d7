"""Every bad input raises an exception with a message naming the culprit;
none crashes the interpreter, and a refused frame leaves the context usable."""

import numpy as np
import pytest

import vqx

Y = np.zeros((144, 176), np.uint8)
U = np.zeros((72, 88), np.uint8)


def frame(value=0):
    return (np.full((144, 176), value, np.uint8), np.full((72, 88), 128, np.uint8),
            np.full((72, 88), 128, np.uint8))


@pytest.mark.parametrize("ref,exc,message", [
    (np.zeros((144, 176), np.float32), TypeError,
     "reference frame has dtype float32: expected uint8 (8-bit samples) or native-endian uint16"),
    (np.zeros((144, 176), np.int16), TypeError, "reference frame has dtype int16"),
    (np.zeros((144, 176), ">u2"), TypeError, "reference frame has dtype >u2"),
    ([[1, 2], [3, 4], [5, 6]], TypeError, "reference plane Y is a list: expected a NumPy array"),
    ("frame", TypeError, "reference frame is a str: expected a NumPy array"),
    (np.zeros(176, np.uint8), ValueError, "reference frame has shape (176): expected (height, width)"),
    (np.zeros((2, 144, 176), np.uint8), ValueError, "reference frame has shape (2, 144, 176)"),
    ((Y, U), ValueError, "reference frame has 2 planes: expected 1 (Y) or 3 (Y, U, V)"),
    ((Y, U, np.zeros((72, 90), np.uint8)), ValueError,
     "reference frame's chroma planes differ: U is 88x72, V is 90x72"),
    ((Y, np.zeros((50, 50), np.uint8), np.zeros((50, 50), np.uint8)), ValueError,
     "reference frame's chroma planes are 50x50, which fits no chroma format of a 176x144 luma "
     "plane (4:2:0: 88x72, 4:2:2: 88x144, 4:4:4: 176x144)"),
    ((Y, U.astype(np.uint16), U.astype(np.uint16)), TypeError,
     "reference frame mixes uint8 and uint16 planes"),
    (np.zeros((0, 176), np.uint8), ValueError, "reference frame has an empty plane (176x0)"),
    ((Y, U, U[None]), ValueError, "reference plane V has 3 dimensions: expected 2"),
])
def test_bad_frames(ref, exc, message):
    ctx = vqx.Context(features=["psnr"])
    with pytest.raises(exc) as e:
        ctx.add(ref, frame())
    assert message in str(e.value)
    # The context is as it was: a good pair is scored.
    ctx.add(frame(10), frame(12))
    assert ctx.score()["psnr_y"].size == 1


def test_mismatched_sizes():
    ctx = vqx.Context(features=["psnr"])
    with pytest.raises(ValueError, match=r"reference frame is 176x144 420 8-bit but distorted frame "
                                         r"is 176x144 400 8-bit"):
        ctx.add(frame(), Y)
    ctx.add(frame(), frame(3))
    with pytest.raises(ValueError, match=r"frame 1 is 88x72 420 8-bit but the first frame was "
                                         r"176x144 420 8-bit"):
        small = (Y[::2, ::2], U[::2, ::2], U[::2, ::2])
        ctx.add(small, small)
    ctx.add(frame(), frame(5))
    assert ctx.score().frames.tolist() == [0, 1]


def test_bit_depths():
    with pytest.raises(ValueError, match=r"uint16 samples: give the context their bit depth, "
                                         r"vqx.Context\(..., bitdepth=N\) with N from 9 to 16"):
        vqx.Context(features=["psnr"]).add(Y.astype(np.uint16), Y.astype(np.uint16))
    with pytest.raises(TypeError, match="uint8 samples but the context's bit depth is 10"):
        vqx.Context(features=["psnr"], bitdepth=10).add(Y, Y)
    with pytest.raises(ValueError, match="bitdepth 17: expected a whole number from 8 to 16"):
        vqx.Context(bitdepth=17)
    ctx = vqx.Context(features=["psnr"], bitdepth=10)
    high = np.full((144, 176), 1024, np.uint16)
    with pytest.raises(vqx.Error) as e:
        ctx.add(high, high)
    assert "1024" in str(e.value) and "10-bit" in str(e.value) and e.value.code == "invalid_argument"
    ctx.add(high - 1, high - 2)
    assert ctx.score().frames.tolist() == [0]


def test_unknown_model_and_feature(p9):
    ref, dist = p9
    with pytest.raises(vqx.Error, match=r"^model version=vmaf_v9: no built-in model \"vmaf_v9\""):
        vqx.score(ref, dist, models=["version=vmaf_v9"])
    with pytest.raises(vqx.Error, match=r"^feature nonsense: .*nonsense"):
        vqx.Context(features=["nonsense"])
    with pytest.raises(vqx.Error, match=r"^feature psnr=bogus=1: .*bogus"):
        vqx.score(ref, dist, features=["psnr=bogus=1"])
    with pytest.raises(vqx.Error, match="nothing to compute: give a model or a feature"):
        vqx.score(ref, dist, models=[])


def test_files(p9, tmp_path):
    ref, dist = p9
    with pytest.raises(vqx.Error) as e:
        vqx.score(tmp_path / "missing.y4m", dist)
    assert str(e.value) == f"{tmp_path / 'missing.y4m'}: cannot open: No such file or directory"
    assert e.value.code == "io"
    with pytest.raises(vqx.Error, match="ref.yuv: .*-w -h -p -b"):
        (tmp_path / "ref.yuv").write_bytes(b"\0" * 100)
        vqx.score(tmp_path / "ref.yuv", dist)
    cut = tmp_path / "cut.y4m"
    cut.write_bytes(ref.read_bytes()[:-1000])
    with pytest.raises(vqx.Error, match="cut.y4m"):
        vqx.score(cut, dist)
    short = tmp_path / "short.yuv"
    short.write_bytes(b"\x10" * (176 * 144 * 3 // 2) * 2)
    longer = tmp_path / "long.yuv"
    longer.write_bytes(b"\x10" * (176 * 144 * 3 // 2) * 3)
    with pytest.raises(vqx.Error, match=r"short.yuv has 2 frames but .*long.yuv has 3 frames: "
                                        r".*\(frame_cnt scores only the first ones\)") as e:
        vqx.score(short, longer, width=176, height=144, pixel_format="420", bitdepth=8)
    assert e.value.code == "mismatch"


def test_arguments(p9):
    ref, dist = p9
    with pytest.raises(ValueError, match=r"raw input needs all of width, height, pixel_format"):
        vqx.score(ref, dist, width=176)
    with pytest.raises(vqx.Error, match=r"pixel_format .*411"):
        vqx.score(ref, dist, width=176, height=144, pixel_format="411", bitdepth=8)
    with pytest.raises(ValueError, match=r"backend 'gpu': expected one of auto, cpu, cuda, hip"):
        vqx.score(ref, dist, backend="gpu")
    with pytest.raises(ValueError, match=r"threads -1: expected a whole number from 0 to 256"):
        vqx.score(ref, dist, threads=-1)
    with pytest.raises(TypeError, match=r"subsample must be an int, not float"):
        vqx.score(ref, dist, subsample=1.5)
    with pytest.raises(TypeError, match=r"ref must be a path"):
        vqx.score(None, dist)
    with pytest.raises(TypeError, match=r"features must hold strings, not int"):
        vqx.score(ref, dist, features=[3])
    with pytest.raises(TypeError, match=r"progress must be a bool or a callable"):
        vqx.score(ref, dist, progress="yes")


def test_context_lifecycle_and_outputs(tmp_path):
    ctx = vqx.Context(models=[], features=["psnr"])
    with pytest.raises(vqx.Error, match="no frames to score"):
        ctx.score()
    ctx.add(frame(), frame(9))
    result = ctx.score()
    with pytest.raises(vqx.Error, match=r"add\(\) after score\(\)"):
        ctx.add(frame(), frame())
    with pytest.raises(vqx.Error, match=r"score\(\) called twice"):
        ctx.score()
    with pytest.raises(KeyError, match="no metric named 'vmaf'; the run has: psnr_y, psnr_cb, psnr_cr"):
        result["vmaf"]
    with pytest.raises(ValueError, match="cannot tell the format from the extension"):
        result.write(tmp_path / "out.txt")
    with pytest.raises(ValueError, match=r"precision 18: expected None, 0 to 17, or 'max'"):
        result.write(tmp_path / "out.json", precision=18)
    with pytest.raises(vqx.Error, match="no-such-folder"):
        result.write(tmp_path / "no-such-folder" / "out.json")
    assert not (tmp_path / "no-such-folder").exists()
    with pytest.raises(ValueError, match="the run has no model score: name the metric to plot"):
        result.plot()
