"""vqx.report() and Result.report(): the HTML page of vqx report."""

import re

import pytest

import vqx


def test_report_of_two_runs_draws_every_metric(p9, tmp_path):
    ref, dist = p9
    result = vqx.score(ref, dist, features=["psnr"])
    result.write(tmp_path / "a.json")
    vqx.score(ref, ref, features=["psnr"]).write(tmp_path / "b.json")
    page = tmp_path / "report.html"
    vqx.report([tmp_path / "a.json", tmp_path / "b.json"], page, worst=3,
               metrics=["vmaf", "psnr_y"], title="P9 encodes")
    html = page.read_text()
    assert "<title>P9 encodes" in html
    # A chart and a histogram per metric shown, both runs named.
    assert html.count("<svg") == 4
    assert "a.json" in html and "b.json" in html
    # The pooled mean of the first run is on the page as vqx report prints it.
    assert f"{result.pooled['vmaf'].mean:.3f}"[:5] in html


def test_result_report_shows_each_metric(p9, tmp_path):
    result = vqx.score(*p9, features=["psnr"])
    page = tmp_path / "one.html"
    result.report(page, worst=2)
    html = page.read_text()
    # Every metric of the run: a chart and a histogram each.
    assert html.count("<svg") == 2 * len(result.metrics)
    for name in result.metrics:
        assert re.search(re.escape(name), html), name


def test_report_errors_name_the_file(p9, tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(vqx.Error, match=re.escape(str(missing))):
        vqx.report([missing], tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(vqx.Error, match="bad.json"):
        vqx.report(bad, tmp_path / "r.html")
    vqx.score(*p9).write(tmp_path / "ok.json")
    with pytest.raises(vqx.Error, match="psnr_y"):
        vqx.report(tmp_path / "ok.json", tmp_path / "r.html", metrics=["psnr_y"])
    with pytest.raises(vqx.Error, match="no_such_dir"):
        vqx.report(tmp_path / "ok.json", tmp_path / "no_such_dir" / "r.html")
    with pytest.raises(ValueError, match="no run"):
        vqx.report([], tmp_path / "r.html")
    with pytest.raises(ValueError, match="worst -1"):
        vqx.report(tmp_path / "ok.json", tmp_path / "r.html", worst=-1)
