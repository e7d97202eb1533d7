#!/usr/bin/env bash
# Two vqx binaries side by side on one corpus pair (default P3, 1080p): the
# default run (vmaf_v0.6.1) with --threads 1 and 2, and single features with
# --threads 1. Runs alternate A, B, A, B, ... so that both see the same load;
# prints the median of RUNS runs (default 7): wall seconds and CPU (user +
# sys) milliseconds per frame, the steadier figure on a shared machine.
# Inputs are decoded to Y4M first (ffmpeg, else vqx_to_y4m from build/release
# with VQX_BUILD_BENCH=ON), into /dev/shm when it exists, and the pair's
# frames repeated REPEAT times (default 5: P3's 10 frames make 50), so that
# each run is long against the 10 ms resolution of the CPU times.
# Usage: bench/ab.sh BIN_A BIN_B [pair]   (RUNS=n, REPEAT=n, FEATURES="adm vif ...")
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: bench/ab.sh BIN_A BIN_B [pair]" >&2; exit 2; }
a=$1 b=$2 pair=${3:-P3}
runs=${RUNS:-7}
repeat=${REPEAT:-5}
features=${FEATURES:-"adm vif motion float_adm float_vif float_motion float_ssim psnr_hvs ciede speed_temporal cambi"}
corpus=${VQX_CORPUS:-../shared/corpus}
tmp=/tmp
[ -d /dev/shm ] && tmp=/dev/shm
work=$(mktemp -d "$tmp/vqx_ab.XXXXXX")
trap 'rm -rf "$work"' EXIT

read -r ref dist frames < <(/usr/bin/python3 - "$corpus" "$pair" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json")); p = m["pairs"][sys.argv[2]]; c = m["clips"]
print(c[p["ref"]]["file"], c[p["dist"]]["file"], p["frames"])
PY
)
for f in ref dist; do
  src="$corpus/${!f}"
  if command -v ffmpeg >/dev/null; then
    ffmpeg -nostdin -v error -y -i "$src" -f yuv4mpegpipe -strict -1 "$work/$f.y4m"
  else
    [ -x build/release/bench/vqx_to_y4m ] || {
      cmake --preset release -DVQX_BUILD_BENCH=ON >/dev/null
      cmake --build --preset release --target vqx_to_y4m >/dev/null
    }
    build/release/bench/vqx_to_y4m "$src" "$work/$f.y4m"
  fi
  # The frames again and again, after the one header line.
  /usr/bin/python3 - "$work/$f.y4m" "$repeat" <<'PY'
import sys
path, times = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
header_end = data.index(b"\n") + 1
open(path, "wb").write(data[:header_end] + data[header_end:] * times)
PY
done
frames=$((frames * repeat))

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# run BIN ARGS...: appends "wall cpu_ms_per_frame" to $work/out
run() {
  local bin=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$work/t" "$bin" -r "$work/ref.y4m" -d "$work/dist.y4m" -q "$@" \
    >/dev/null
  awk -v n="$frames" '{printf "%s %.2f\n", $1, 1000 * ($2 + $3) / n}' "$work/t"
}

echo "A: $a"
echo "B: $b"
echo "$pair, $frames frames; $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); median of $runs runs"
echo
echo "| run | A wall s | B wall s | A CPU ms/frame | B CPU ms/frame | B/A CPU |"
echo "|---|---|---|---|---|---|"
cases=("vmaf_v0.6.1, threads 1|--threads 1" "vmaf_v0.6.1, threads 2|--threads 2")
for f in $features; do cases+=("$f, threads 1|-n --feature $f --threads 1"); done
for c in "${cases[@]}"; do
  name=${c%%|*}
  read -r -a args <<<"${c#*|}"
  : >"$work/a"
  : >"$work/b"
  for _ in $(seq "$runs"); do
    run "$a" "${args[@]}" >>"$work/a"
    run "$b" "${args[@]}" >>"$work/b"
  done
  aw=$(cut -d' ' -f1 "$work/a" | median) bw=$(cut -d' ' -f1 "$work/b" | median)
  ac=$(cut -d' ' -f2 "$work/a" | median) bc=$(cut -d' ' -f2 "$work/b" | median)
  printf "| %s | %s | %s | %s | %s | %.3f |\n" "$name" "$aw" "$bw" "$ac" "$bc" "$(echo "$bc / $ac" | bc -l)"
done
