#!/usr/bin/env bash
# The input alone: how fast the vqx command reads a pair of 8-bit 4:2:0 Y4M
# files with no feature work (-n --feature motion=motion_force_zero=true),
# with the read-ahead off (--read_ahead 0: both inputs read in turn on the
# main thread) and on, with one or more threads reading each file
# (--read_threads), against `cat ref dist >/dev/null` (what the page cache
# and memory allow). Prints pairs per second, the median of RUNS rounds
# (default 5; each round times every case once, in turn), as a Markdown table.
#
# The pair is synthesised (SIZE, default 3840x2160; FRAMES frames, default
# 60: 746 MB a file at 4K) into /dev/shm when it exists (tmpfs: no disk in
# the timings), read once before timing, and removed at the end.
#
# Usage: bench/input.sh [VQX_BIN]   (default build/release/vqx)
#   FRAMES=n RUNS=n SIZE=WxH DEPTHS="0 4 8 auto" THREADS="0 2"
#   READERS="1 2 auto"   --read_threads for each depth but 0 (default 1)
#   BEFORE=/path/to/an/older/vqx   also timed, with its own defaults
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/vqx}
frames=${FRAMES:-60}
runs=${RUNS:-5}
size=${SIZE:-3840x2160}
depths=${DEPTHS:-"0 4"}
threads=${THREADS:-"0"}
readers=${READERS:-"1"}
before=${BEFORE:-}
[ -x "$bin" ] || { echo "bench/input.sh: no vqx binary at $bin" >&2; exit 2; }
width=${size%x*}
height=${size#*x}
frame_bytes=$((width * height * 3 / 2))
file_bytes=$(((frame_bytes + 6) * frames))

tmp=/tmp
[ -d /dev/shm ] && tmp=/dev/shm
free_kb=$(df -Pk "$tmp" | awk 'NR == 2 {print $4}')
if [ $((2 * file_bytes / 1024 + 65536)) -gt "$free_kb" ]; then
  echo "bench/input.sh: $tmp has $((free_kb / 1024)) MiB free, the pair needs $((2 * file_bytes / 1048576)) MiB (FRAMES=...)" >&2
  exit 2
fi
work=$(mktemp -d "$tmp/vqx_input.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Two different frames of noise, each repeated: the readers' speed does not
# depend on the samples.
python3 - "$work" "$width" "$height" "$frames" <<'PY'
import os, sys
work, w, h, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
header = f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode()
for name in ("ref", "dist"):
    frame = b"FRAME\n" + os.urandom(w * h * 3 // 2)
    with open(f"{work}/{name}.y4m", "wb") as f:
        f.write(header)
        for _ in range(n):
            f.write(frame)
    with open(f"{work}/{name}1.y4m", "wb") as f:  # one frame: the fixed cost of a run
        f.write(header + frame)
PY
ref=$work/ref.y4m
dist=$work/dist.y4m
cat "$ref" "$dist" >/dev/null  # in memory before the first timing

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# calc EXPR: its value (awk: no bc on the device machine)
calc() { awk "BEGIN {printf \"%.9f\\n\", $1}"; }
# seconds CMD...: wall seconds of one run
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  calc "$end - $start"
}
cat_pair() { cat "$ref" "$dist"; }
vqx_input() {
  local b=$1
  shift
  "$b" -r "$ref" -d "$dist" -n --feature motion=motion_force_zero=true -q "$@"
}
vqx_one_frame() {
  local b=$1
  shift
  "$b" -r "$work/ref1.y4m" -d "$work/dist1.y4m" -n --feature motion=motion_force_zero=true -q "$@"
}

# The cases, timed in turn within each round (so that every case sees the
# same load on a shared machine): "name|command ...|command on one frame".
# The one-frame run is the fixed cost (loading the program and its
# libraries, the first pictures); the last column is the rate without it.
cases=("cat ref dist >/dev/null|cat_pair|")
for t in $threads; do
  for d in $depths; do
    for r in $readers; do
      opts="--read_ahead $d --read_threads $r --threads $t"
      if [ "$d" = 0 ]; then
        opts="--read_ahead 0 --threads $t"
        [ "$r" = "${readers%% *}" ] || continue  # no reading thread: once
      fi
      cases+=("vqx $opts|vqx_input $bin $opts|vqx_one_frame $bin $opts")
    done
  done
done
if [ -n "$before" ]; then
  for t in $threads; do
    cases+=("before ($(basename "$before")) --threads $t|vqx_input $before --threads $t|vqx_one_frame $before --threads $t")
  done
fi
for _ in $(seq "$runs"); do
  for i in "${!cases[@]}"; do
    IFS='|' read -r _ full one <<<"${cases[$i]}"
    read -r -a cmd <<<"$full"
    seconds "${cmd[@]}" >>"$work/times.$i"
    if [ -n "$one" ]; then
      read -r -a cmd <<<"$one"
      seconds "${cmd[@]}" >>"$work/one.$i"
    fi
  done
done

cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "$size 8-bit 4:2:0 Y4M pair, $frames frames ($((file_bytes / 1000000)) MB a file) in $tmp"
echo "$cpu, $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs; median of $runs rounds"
echo
echo "| what | pairs/s | GB/s | of cat | one-frame run s | pairs/s after it |"
echo "|---|---|---|---|---|---|"
cat_fps=""
for i in "${!cases[@]}"; do
  wall=$(median <"$work/times.$i")
  fps=$(calc "$frames / $wall")
  gbs=$(calc "2 * $file_bytes / $wall / 1000000000")
  [ -n "$cat_fps" ] || cat_fps=$fps
  fixed="-" steady="-"
  if [ -f "$work/one.$i" ]; then
    one=$(median <"$work/one.$i")
    fixed=$(printf '%.3f' "$one")
    steady=$(printf '%.1f' "$(calc "($frames - 1) / ($wall - $one)")")
  fi
  printf '| %s | %.1f | %.2f | %.0f %% | %s | %s |\n' "${cases[$i]%%|*}" "$fps" "$gbs" \
    "$(calc "100 * $fps / $cat_fps")" "$fixed" "$steady"
done
