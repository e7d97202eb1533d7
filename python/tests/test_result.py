"""vqx.Result's views: names, backends, pandas and matplotlib."""

import math

import numpy as np
import pytest

import vqx


@pytest.fixture(scope="module")
def result(p9):
    return vqx.score(*p9, features=["psnr"], subsample=2)


def test_the_result_holds_every_metric(result):
    assert result.models == ["vmaf"]
    assert list(result)[-1] == "vmaf" and "psnr_y" in result and len(result) == 18
    assert result.frames.dtype == np.int64 and result.frames.tolist() == [0, 2, 4, 6, 8]
    assert set(result.backends.values()) == {"cpu"} and result.device == "cpu"
    assert result.fps > 0
    psnr = result["psnr_y"]
    assert not psnr.flags.writeable
    pooled = result.pooled["psnr_y"]
    assert pooled.mean == pytest.approx(float(np.mean(psnr)), rel=1e-12)
    assert pooled.min == psnr.min() and pooled.max == psnr.max()
    assert pooled.harmonic_mean == pytest.approx(len(psnr) / float(np.sum(1 / (psnr + 1))) - 1,
                                                 rel=1e-12)
    assert repr(result) == f"<vqx.Result: 5 frames, 18 metrics, vmaf={result.pooled['vmaf'].mean:.6f}>"
    assert vqx.__version__ and vqx.Pooled._fields == ("mean", "harmonic_mean", "min", "max")


def test_to_pandas(result):
    pd = pytest.importorskip("pandas", reason="pandas is not installed (python3-pandas)")
    frame = result.to_pandas()
    assert list(frame.columns) == list(result.metrics)
    assert frame.index.name == "frame" and frame.index.tolist() == [0, 2, 4, 6, 8]
    assert frame["vmaf"].tolist() == result["vmaf"].tolist()
    assert isinstance(frame, pd.DataFrame)


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_plot(result, tmp_path, suffix, magic):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (python3-matplotlib)")
    path = tmp_path / f"vmaf{suffix}"
    figure = result.plot(path=path)
    assert path.read_bytes().startswith(magic)
    (ax,) = figure.axes
    assert ax.get_title() == "vmaf"
    line = ax.get_lines()[0]
    assert line.get_xdata().tolist() == [0, 2, 4, 6, 8]
    assert line.get_ydata().tolist() == result["vmaf"].tolist()
    assert math.isclose(ax.get_lines()[1].get_ydata()[0], result.pooled["vmaf"].mean)
    figure = result.plot("psnr_y", path=tmp_path / f"psnr{suffix}")
    assert figure.axes[0].get_title() == "psnr_y"
