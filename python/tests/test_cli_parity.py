"""vqx.score() gives the CLI's numbers bit for bit: per frame, pooled and
aggregate, compared with `vqx --json --precision max` on the same pair."""

import json

import pytest

import vqx
from conftest import run_cli
from helpers import assert_matches_report

FEATURES = ["psnr=enable_apsnr=true", "float_ssim", "ciede"]


def test_default_model_and_features_on_p9(cli, p9, tmp_path):
    ref, dist = p9
    report = run_cli(cli, ["-r", ref, "-d", dist, *sum((["--feature", f] for f in FEATURES), [])],
                     tmp_path)
    result = vqx.score(ref, dist, features=FEATURES)
    assert result.models == ["vmaf"]
    assert result.aggregates.keys() == {"apsnr_y", "apsnr_cb", "apsnr_cr"}
    assert 10 < result.pooled["vmaf"].mean < 25  # P9 is a crf 45 encode
    assert_matches_report(result, report)


def test_models_threads_and_subsample_on_p9(cli, p9, tmp_path):
    ref, dist = p9
    models = ["version=vmaf_v0.6.1neg:name=neg", "version=vmaf_float_v0.6.1:name=float"]
    report = run_cli(cli, ["-r", ref, "-d", dist, "-m", models[0], "-m", models[1],
                           "--threads", 2, "--subsample", 3], tmp_path)
    result = vqx.score(ref, dist, models=models, threads=2, subsample=3)
    assert result.frames.tolist() == [0, 3, 6, 9]
    assert result.models == ["neg", "float"]
    assert_matches_report(result, report)


def test_features_only_on_the_bundled_mkv(cli, subset, tmp_path):
    if not vqx.libav_available():
        pytest.skip("this build reads no FFmpeg formats (VQX_WITH_LIBAV=OFF)")
    ref = subset / "P1_pan_576x324_420p8.mkv"
    dist = subset / "P1a_pan_576x324_420p8__x264-crf36.mkv"
    report = run_cli(cli, ["-r", ref, "-d", dist, "-n", "--feature", "vif", "--feature", "motion"],
                     tmp_path)
    result = vqx.score(ref, dist, models=[], features=["vif", "motion"])
    assert result.models == [] and len(result.frames) == 5
    assert_matches_report(result, report)


def test_10_bit_422_corpus_pair(cli, corpus, tmp_path):
    manifest = json.loads((corpus / "manifest.json").read_text())
    pair = manifest["pairs"]["P6"]
    ref = corpus / manifest["clips"][pair["ref"]]["file"]
    dist = corpus / manifest["clips"][pair["dist"]]["file"]
    report = run_cli(cli, ["-r", ref, "-d", dist, "--feature", "psnr", "--feature", "float_ssim"],
                     tmp_path)
    result = vqx.score(ref, dist, features=["psnr", "float_ssim"])
    assert len(result.frames) == pair["frames"]
    assert_matches_report(result, report)


def test_raw_input_and_frame_cnt(cli, p9, tmp_path):
    # The P9 pair's frames as raw .yuv files, the first 4 scored.
    from helpers import read_y4m, write_raw

    paths = []
    for name, y4m in zip(("ref", "dist"), p9):
        path = tmp_path / f"{name}.yuv"
        write_raw(path, read_y4m(y4m))
        paths.append(path)
    report = run_cli(cli, ["-r", paths[0], "-d", paths[1], "-w", 176, "-h", 144, "-p", "420",
                           "-b", 8, "--frame_cnt", 4], tmp_path)
    result = vqx.score(*paths, width=176, height=144, pixel_format="420", bitdepth=8, frame_cnt=4)
    assert len(result.frames) == 4
    assert_matches_report(result, report)


@pytest.mark.parametrize("fmt", ["json", "xml", "csv", "sub"])
def test_write_gives_the_clis_report(cli, p9, tmp_path, fmt):
    ref, dist = p9
    cli_out = tmp_path / f"cli.{fmt}"
    import subprocess

    subprocess.run([cli, "-r", str(ref), "-d", str(dist), "--feature", "psnr", f"--{fmt}",
                    "--precision", "max", "-q", "-o", str(cli_out)], check=True, timeout=60)
    result = vqx.score(ref, dist, features=["psnr"])
    out = tmp_path / f"py.{fmt}"
    result.write(out, precision="max")
    mine, theirs = out.read_text(), cli_out.read_text()
    # The same report, but for the run's speed (fps), which each run measures.
    import re

    fps = re.compile(r'("fps": |fps="|fps=)[0-9.]+')
    assert fps.sub("fps", mine) == fps.sub("fps", theirs)
    assert len(mine) > 1000
