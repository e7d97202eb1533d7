#!/usr/bin/python3
"""What Dask costs: vqx.dask on a LocalCluster of 2 worker processes (one
thread each) against one process, on this machine (docs/performance.md,
"Dask"). Prints a Markdown table of wall-clock seconds (median of
--repeats runs) and the checks that every result equals the one-process
run bit for bit.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/dask_overhead.py [--repeats 3]

Workloads (made from the corpus subset bundled with the sources, as the
tests make them): 4 pairs of 352x288 clips of --frames frames (the P9 pair
played back and forth, upscaled), and one such pair of 4 x --frames frames
in segments. The model: vmaf_v0.6.1.
"""

import argparse
import logging
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python" / "tests"))  # the test clips' writer

import vqx  # noqa: E402
import vqx.dask  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

from dask_helpers import write_long_pair  # noqa: E402


def timed(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def same(a, b):
    return list(a.metrics) == list(b.metrics) and all(
        a.metrics[n].tobytes() == b.metrics[n].tobytes() for n in a.metrics)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--frames", type=int, default=150)
    args = parser.parse_args()
    subset = ROOT / "tests" / "data" / "corpus_subset"
    p9 = (subset / "P9_tiny_176x144_420p8.y4m", subset / "P9_tiny_176x144_420p8__x264-crf45.y4m")
    load_before = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory(prefix="vqx-dask-bench-") as tmp:
        folder = pathlib.Path(tmp)
        short = write_long_pair(p9, folder, args.frames)
        pairs = [short] * 4
        (folder / "long").mkdir()
        long = write_long_pair(p9, folder / "long", 4 * args.frames)

        t, one = timed(lambda: [vqx.score(*p) for p in pairs], args.repeats)
        rows.append(("4 pairs", "one process, threads=0 (one core)", t, True))
        t, two = timed(lambda: [vqx.score(*p, threads=2) for p in pairs], args.repeats)
        rows.append(("4 pairs", "one process, threads=2", t, all(map(same, two, one))))
        t, whole = timed(lambda: vqx.score(*long), args.repeats)
        rows.append(("1 long pair", "one process, threads=0", t, True))
        t, whole2 = timed(lambda: vqx.score(*long, threads=2), args.repeats)
        rows.append(("1 long pair", "one process, threads=2", t, same(whole2, whole)))

        start = time.perf_counter()
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)
        rows.append(("-", "LocalCluster start (2 worker processes)", time.perf_counter() - start,
                     True))
        try:
            client.run(lambda: __import__("vqx"))  # workers import vqx once, untimed
            t, _ = timed(lambda: client.submit(int, 1, pure=False).result(), 5 * args.repeats)
            rows.append(("-", "Dask round trip of one empty task", t, True))
            t, got = timed(lambda: vqx.dask.score_pairs(client, pairs), args.repeats)
            rows.append(("4 pairs", "Dask score_pairs, 2 workers", t, all(map(same, got, one))))
            for segments in (2, 4, 8):
                frames = 4 * args.frames
                t, got = timed(lambda: vqx.dask.score_segments(
                    client, *long, segment_frames=-(-frames // segments)), args.repeats)
                rows.append(("1 long pair", f"Dask score_segments, {segments} segments", t,
                             same(got, whole)))
        finally:
            client.close()
            cluster.close()

    print(f"{os.cpu_count()} CPUs; load average before: {load_before:.2f}; "
          f"{args.frames} frames a pair, 352x288, vmaf_v0.6.1, median of {args.repeats}\n")
    print("| workload | how | wall s | equal to one process |")
    print("|---|---|---|---|")
    for workload, how, seconds, equal in rows:
        print(f"| {workload} | {how} | {seconds:.2f} | {'yes' if equal else 'NO'} |")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
