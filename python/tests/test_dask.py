"""vqx.dask on a real Dask LocalCluster (2 worker processes, started here
and stopped at the end): pairs and segments equal the single-process run
bit for bit, a worker killed mid-run costs nothing but time."""

import logging
import os
import pickle
import subprocess
import sys
import time

import numpy as np
import pytest

import vqx

distributed = pytest.importorskip(
    "distributed", reason="Dask's distributed is absent (Debian: python3-distributed)")
import vqx.dask  # noqa: E402  (needs distributed)

from dask_helpers import KillOnceWhenScoring, write_long_pair  # noqa: E402
from helpers import bits  # noqa: E402

LONG_FRAMES = 300
SEGMENT_FRAMES = 75  # 4 segments; boundaries at 75, 150, 225 (3 phases of the 18-frame loop)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def long_pair(p9, tmp_path_factory):
    return write_long_pair(p9, tmp_path_factory.mktemp("long"), LONG_FRAMES)


# The reach tests score each clip 3 or 4 times in this process: a shorter one.
SHORT_FRAMES = 120
SHORT_SEGMENT_FRAMES = 30  # boundaries at 30, 60, 90: 3 phases of the loop


@pytest.fixture(scope="module")
def short_pair(p9, tmp_path_factory):
    return write_long_pair(p9, tmp_path_factory.mktemp("short"), SHORT_FRAMES)


def assert_same(got, want):
    assert got.frames.tolist() == want.frames.tolist()
    assert list(got.metrics) == list(want.metrics)
    for name in want.metrics:
        a, b = got.metrics[name], want.metrics[name]
        assert a.dtype == b.dtype == np.float64
        # Bit for bit (NaN where absent compares equal as bytes).
        assert a.tobytes() == b.tobytes(), (name, np.flatnonzero(a != b)[:5])
        assert [bits(x) for x in got.pooled[name]] == [bits(x) for x in want.pooled[name]], name
    assert {k: bits(v) for k, v in got.aggregates.items()} == \
        {k: bits(v) for k, v in want.aggregates.items()}
    assert got.models == want.models and got.backends == want.backends
    assert got.device == want.device


def assert_writes_same(got, want, tmp_path, formats=("json", "xml", "csv")):
    """write() gives the same bytes (at the same fps: the run's speed)."""
    got.fps = want.fps
    for fmt in formats:
        for precision in (None, "max"):
            a, b = tmp_path / f"got.{fmt}", tmp_path / f"want.{fmt}"
            got.write(a, fmt, precision)
            want.write(b, fmt, precision)
            assert a.read_bytes() == b.read_bytes(), (fmt, precision)


def test_import_vqx_needs_no_dask():
    code = "import sys, vqx; assert 'distributed' not in sys.modules and 'dask' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_result_pickles_and_writes_the_same_bytes(p9, tmp_path):
    want = vqx.score(*p9, features=["psnr=enable_apsnr=true", "float_ssim"])
    got = pickle.loads(pickle.dumps(want))
    assert got._run is None
    assert_same(got, want)
    assert not got.metrics["vmaf"].flags.writeable
    assert_writes_same(got, want, tmp_path, ("json", "xml", "csv", "sub"))


def test_gpu_backends_ask_for_a_gpu():
    assert vqx.dask._resources("cuda", None) == {"GPU": 1}
    assert vqx.dask._resources("hip", None) == {"GPU": 1}
    assert vqx.dask._resources("cpu", None) is None
    assert vqx.dask._resources("auto", None) is None
    assert vqx.dask._resources("cuda", {}) is None
    assert vqx.dask._resources("cpu", {"GPU": 2}) == {"GPU": 2}


def _pairs(p9, subset, corpus_dir):
    ref, dist = p9
    pairs = [(ref, dist), (dist, ref), (ref, ref)]
    if vqx.libav_available():
        pairs.append((subset / "P1_pan_576x324_420p8.mkv",
                      subset / "P1a_pan_576x324_420p8__x264-crf36.mkv"))
        if (corpus_dir / "dist" / "P9_tiny_176x144_420p8__x264-crf45.mkv").is_file():
            pairs.append((corpus_dir / "ref" / "P9_tiny_176x144_420p8.mkv",
                          corpus_dir / "dist" / "P9_tiny_176x144_420p8__x264-crf45.mkv"))
    return pairs


@pytest.fixture(scope="module")
def corpus_dir():
    import pathlib
    return pathlib.Path(os.environ.get("VQX_CORPUS") or os.environ.get("VQX_CORPUS_DIR")
                        or pathlib.Path(__file__).resolve().parents[3] / "shared" / "corpus")


def test_pairs_on_two_workers_equal_one_process(client, p9, subset, corpus_dir, tmp_path):
    pairs = _pairs(p9, subset, corpus_dir)
    got = vqx.dask.score_pairs(client, pairs, features=["psnr"])
    assert len(got) == len(pairs)
    for (ref, dist), result in zip(pairs, got):
        assert isinstance(result, vqx.Result) and result._run is None  # came back pickled
        want = vqx.score(ref, dist, features=["psnr"])
        assert_same(result, want)
    assert_writes_same(got[0], vqx.score(*pairs[0], features=["psnr"]), tmp_path)


def test_a_failing_pair(client, p9, tmp_path):
    ref, dist = p9
    missing = tmp_path / "missing.y4m"
    got = vqx.dask.score_pairs(client, [(ref, missing), (ref, dist)], errors="return")
    assert isinstance(got[0], vqx.Error) and str(missing) in str(got[0])
    assert got[0].code == "io" and got[0].path == str(missing)
    assert_same(got[1], vqx.score(ref, dist))
    with pytest.raises(vqx.Error, match="missing.y4m"):
        vqx.dask.score_pairs(client, [(ref, missing)])
    with pytest.raises(TypeError, match="progress"):
        vqx.dask.score_pairs(client, [(ref, dist)], progress=True)


@pytest.mark.parametrize("models, features", [
    (["version=vmaf_v0.6.1"], []),
    (["version=vmaf_v1.0.16_3d0h"], []),
    # The five-frame window with the moving average (reach 4 before), and
    # the other temporal families.
    (["version=vmaf_v1.0.16_hfr_3d0h"], ["float_motion", "speed_temporal", "motion=debug=true"]),
])
def test_segments_equal_the_whole_clip(client, long_pair, models, features, tmp_path):
    ref, dist = long_pair
    want = vqx.score(ref, dist, models=models, features=features)
    assert len(want.frames) == LONG_FRAMES
    got = vqx.dask.score_segments(client, ref, dist, models=models, features=features,
                                  segment_frames=SEGMENT_FRAMES)
    assert_same(got, want)
    assert_writes_same(got, want, tmp_path)


def _segments_here(ref, dist, models, features, reach):
    """score_segments' plan and merge, each segment scored in this process."""
    plan = vqx.dask.plan_segments(SHORT_FRAMES, SHORT_SEGMENT_FRAMES, reach)
    parts = [vqx.score(ref, dist, models=models, features=features, skip=a, frame_cnt=b - a)
             for _, _, a, b in plan]
    return vqx.dask.merge_segments(plan, parts, 1.0)


@pytest.mark.parametrize("models, features, reach", [
    (["version=vmaf_v0.6.1"], [], (1, 1)),
    (["version=vmaf_v1.0.16_hfr_3d0h"], [], (4, 1)),
    ([], ["float_motion"], (1, 1)),
    ([], ["speed_temporal"], (1, 0)),
])
def test_the_reach_is_needed_and_enough(short_pair, models, features, reach):
    """Each family's reach (ExtractorFamily::reach) gives the whole clip's
    values, and one frame less on either side does not: the test can fail."""
    ref, dist = short_pair
    assert vqx._vqx.temporal_reach(models or [], features) == reach
    want = vqx.score(ref, dist, models=models, features=features)
    assert_same(_segments_here(ref, dist, models, features, reach), want)
    before, after = reach
    for short in [(before - 1, after)] * (before > 0) + [(before, after - 1)] * (after > 0):
        got = _segments_here(ref, dist, models, features, short)
        assert any(got.metrics[n].tobytes() != want.metrics[n].tobytes() for n in want.metrics), short


def test_whole_video_features_are_refused(client, long_pair):
    with pytest.raises(ValueError, match="whole video"):
        vqx.dask.score_segments(client, *long_pair, features=["psnr=enable_apsnr=true"])
    with pytest.raises(ValueError, match="subsample"):
        vqx.dask.score_segments(client, *long_pair, subsample=2)


def test_mkv_segments_decode_and_drop(client, subset, tmp_path):
    """A container: each segment decodes from the start and drops the
    frames before its own (the bundled P1a: 5 frames, 3 segments)."""
    if not vqx.libav_available():
        pytest.skip("FFmpeg's libraries are absent")
    ref = subset / "P1_pan_576x324_420p8.mkv"
    dist = subset / "P1a_pan_576x324_420p8__x264-crf36.mkv"
    assert vqx._vqx.frame_count(str(ref), None) == 5  # counted: Matroska does not tell it
    got = vqx.dask.score_segments(client, ref, dist, segment_frames=2)
    assert_same(got, vqx.score(ref, dist))


def test_a_worker_killed_mid_run_is_retried(client, p9, tmp_path):
    """The first pair's task kills its worker process as it starts; Dask
    runs it again (allowed-failures: 3) and the results are exact."""
    marker = tmp_path / "killed"
    client.register_worker_plugin(KillOnceWhenScoring(str(marker), "vqx-pair-"), name="kill-once")
    try:
        ref, dist = p9
        got = vqx.dask.score_pairs(client, [(ref, dist), (dist, ref)], features=["psnr"])
    finally:
        client.unregister_worker_plugin("kill-once")
    assert marker.is_file()  # a worker did die
    assert int(marker.read_text()) not in client.run(os.getpid).values()
    assert_same(got[0], vqx.score(ref, dist, features=["psnr"]))
    assert_same(got[1], vqx.score(dist, ref, features=["psnr"]))


def test_scheduler_and_worker_processes_route_gpu_tasks(p9, tmp_path):
    """`dask scheduler` and two `dask worker` processes, as on a cluster:
    one worker declares GPU=1; tasks that ask for the GPU run there alone
    (asked for explicitly here: this machine has no GPU, and the scores are
    the CPU's either way), and the results are exact."""
    scheduler_file = tmp_path / "scheduler.json"
    env = dict(os.environ)
    common = ["--scheduler-file", str(scheduler_file), "--no-dashboard"]
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", "0",
                               *common], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)]
    try:
        for extra in (["--resources", "GPU=1", "--name", "gpu-worker"], ["--name", "cpu-worker"]):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", "--nthreads", "1",
                 "--no-nanny", *extra, *common], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 60
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        with distributed.Client(scheduler_file=str(scheduler_file), timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
            names = {info["name"]: addr for addr, info in client.scheduler_info()["workers"].items()}
            ref, dist = p9
            pairs = [(ref, dist), (dist, ref), (ref, ref), (dist, dist)]
            with distributed.get_task_stream(client) as stream:
                got = vqx.dask.score_pairs(client, pairs, backend="cpu", resources={"GPU": 1})
            workers = {t["worker"] for t in stream.data if str(t["key"]).startswith("vqx-pair-")}
            assert workers == {names["gpu-worker"]}
            for (r, d), result in zip(pairs, got):
                assert_same(result, vqx.score(r, d, backend="cpu"))
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
