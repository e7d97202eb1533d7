#!/usr/bin/env bash
# Frames per second of `vqx` (vmaf_v0.6.1, the default run) on corpus pairs,
# --threads 1 and 2, median of 3 wall-clock runs, y4m inputs already decoded
# (as the reference's timing anchor in ../shared/corpus/timing.json was
# measured). Prints a Markdown table next to the reference's numbers.
# Usage: bench/fps.sh [pair ...]   (default: P1a P3 P8)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${VQX_CORPUS:-../shared/corpus}
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=(P1a P3 P8)
bin=build/release/vqx
[ -x "$bin" ] || { cmake --preset release >/dev/null && cmake --build --preset release --target vqx_cli; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "| pair | size | frames | threads | vqx wall s | vqx fps | reference fps | speed-up |"
echo "|---|---|---|---|---|---|---|---|"
for p in "${pairs[@]}"; do
  read -r ref dist frames size < <(python3 - "$corpus" "$p" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json")); p = m["pairs"][sys.argv[2]]; c = m["clips"]
print(c[p["ref"]]["file"], c[p["dist"]]["file"], p["frames"], f'{p["width"]}x{p["height"]}')
PY
)
  for f in ref dist; do
    src="$corpus/${!f}"
    if command -v ffmpeg >/dev/null; then
      ffmpeg -nostdin -v error -y -i "$src" -f yuv4mpegpipe -strict -1 "$work/$p.$f.y4m"
    else
      cp "$src" "$work/$p.$f.mkv.y4m"  # falls back to decoding inside the timed run
    fi
  done
  for t in 1 2; do
    runs=()
    for _ in 1 2 3; do
      s=$(date +%s.%N)
      "$bin" -r "$work/$p.ref.y4m" -d "$work/$p.dist.y4m" --threads "$t" -q >/dev/null
      e=$(date +%s.%N)
      runs+=("$(echo "$e - $s" | bc -l)")
    done
    wall=$(printf '%s\n' "${runs[@]}" | median)
    ref_fps=$(python3 -c "import json;print(json.load(open('$corpus/timing.json'))['results']['$p']['vmaf_v0.6.1/threads$t']['fps_wall'])" 2>/dev/null || echo "-")
    fps=$(echo "$frames / $wall" | bc -l)
    speed=$( [ "$ref_fps" != "-" ] && echo "$fps / $ref_fps" | bc -l || echo 0)
    printf "| %s | %s | %s | %s | %.3f | %.1f | %s | %.2fx |\n" "$p" "$size" "$frames" "$t" "$wall" "$fps" "$ref_fps" "$speed"
  done
done
