#!/usr/bin/env python3
"""Soak test of `vqx` (docs/reliability.md): scores a long generated pair and
records the process's peak RSS (VmHWM) as the run goes.

The pair is generated on the fly and fed through two pipes as Y4M (no disk
space needed): K distinct reference frames of a moving textured pattern,
cycled, and distorted frames that add a frame-dependent error. vqx reads
them as /dev/fd/N. Once the writer has handed over frame n+1 of both
streams, vqx has read at least n frames (the pipes hold less than a frame),
and VmHWM is read from /proc/<pid>/status; the value at the end is the peak
of the whole run (the larger of wait4's ru_maxrss and the last VmHWM read).
"""
import argparse
import os
import json
import subprocess
import sys
import threading
import time

CYCLE = 24  # distinct frames, cycled


def make_frames(w, h):
    """CYCLE reference and distorted 4:2:0 8-bit frames (bytes)."""
    refs, dists = [], []
    cw, ch = w // 2, h // 2
    base_row = bytes((x * 255 // max(w - 1, 1)) for x in range(w))
    tex = bytes(((x * 37) ^ (x >> 3) * 11) & 63 for x in range(2 * w + 2 * h))
    for k in range(CYCLE):
        shift = 3 * k
        y_plane = bytearray()
        for y in range(h):
            row = base_row[shift % w:] + base_row[:shift % w]
            t = tex[(y + k) % (2 * h):][:w]
            y_plane += bytes(((a >> 1) + b + (y & 31)) & 255 for a, b in zip(row, t))
        u = bytes(((x + k * 5) & 255) for x in range(cw)) * ch
        v = bytes(((ch - x + k * 3) & 255) for x in range(cw)) * ch
        ref = bytes(y_plane) + u + v
        # Distortion: coarser luma (drop low bits), more of it on odd frames.
        mask = 0xF8 if k % 2 else 0xFC
        dist = bytes(b & mask for b in y_plane) + u + v
        refs.append(ref)
        dists.append(dist)
    return refs, dists


def vm_hwm_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vqx", required=True)
    ap.add_argument("--frames", type=int, default=20000)
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=360)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--checkpoints", default="1000,5000,10000,15000")
    args = ap.parse_args()
    w, h, n = args.width, args.height, args.frames
    checkpoints = sorted(int(c) for c in args.checkpoints.split(",") if int(c) < n)

    t0 = time.time()
    refs, dists = make_frames(w, h)
    header = f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode()

    r_read, r_write = os.pipe()
    d_read, d_write = os.pipe()
    out = f"/tmp/vqx_soak_{os.getpid()}.json"
    cmd = [args.vqx, "-r", f"/dev/fd/{r_read}", "-d", f"/dev/fd/{d_read}", "--threads",
           str(args.threads), "-q", "--json", "-o", out]
    proc = subprocess.Popen(cmd, pass_fds=(r_read, d_read))
    os.close(r_read)
    os.close(d_read)

    samples = []
    errors = []

    def writer(fd, frames, record):
        try:
            with os.fdopen(fd, "wb", buffering=0) as f:
                f.write(header)
                for i in range(n):
                    f.write(b"FRAME\n")
                    f.write(frames[i % CYCLE])
                    if record and checkpoints and i == checkpoints[0]:
                        # frame i is handed over: vqx has read frames 0..i-1 at least.
                        samples.append((i, vm_hwm_kb(proc.pid), time.time() - t0))
                        checkpoints.pop(0)
        except BrokenPipeError as e:
            errors.append(e)

    last_hwm = [0]
    done = threading.Event()

    def monitor():
        while not done.is_set():
            kb = vm_hwm_kb(proc.pid)
            if kb > 0:
                last_hwm[0] = max(last_hwm[0], kb)
            time.sleep(0.05)

    tm = threading.Thread(target=monitor, daemon=True)
    tm.start()
    tr = threading.Thread(target=writer, args=(r_write, refs, False))
    td = threading.Thread(target=writer, args=(d_write, dists, True))
    tr.start()
    td.start()
    tr.join()
    td.join()
    # wait4 gives this child's own peak RSS (ru_maxrss); the monitor's last
    # VmHWM was read at most 50 ms before the exit. The peak is the larger.
    _, status, usage = os.wait4(proc.pid, 0)
    done.set()
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.time() - t0
    if proc.returncode != 0 or errors:
        print(f"vqx failed: exit {proc.returncode} {errors}", file=sys.stderr)
        return 1
    with open(out) as f:
        doc = json.load(f)
    os.unlink(out)
    frames_scored = len(doc.get("frames", []))
    peak_kb = max(usage.ru_maxrss, last_hwm[0])
    samples.append((n, peak_kb, elapsed))
    print(f"soak: {frames_scored} frames of {w}x{h}, --threads {args.threads}, "
          f"{elapsed:.0f} s ({n / elapsed:.0f} fps), pooled vmaf "
          f"{doc['pooled_metrics']['vmaf']['mean']:.4f}")
    print("| frames scored | VmHWM (MiB) | elapsed (s) |")
    print("|---|---|---|")
    for i, kb, t in samples:
        print(f"| {i} | {kb / 1024:.1f} | {t:.0f} |")
    first = samples[0][1]
    growth = (peak_kb - first) / first * 100
    print(f"peak RSS at {n} frames vs {samples[0][0]}: {growth:+.1f} %")
    if frames_scored != n:
        print(f"FAIL: scored {frames_scored} frames, expected {n}", file=sys.stderr)
        return 1
    if abs(growth) >= 10:
        print("FAIL: peak RSS grew by 10 % or more", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
