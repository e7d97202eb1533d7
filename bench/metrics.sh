#!/usr/bin/env bash
# One row per metric: `vqx -n --feature X` on the 1080p corpus pair (P3, 10
# frames, y4m already decoded), --threads 2. Prints frames per second (wall)
# and CPU milliseconds per frame (user+sys, less sensitive to a busy machine),
# median of 3 runs, beside the whole-run reference numbers of timing.json.
# Usage: bench/metrics.sh [pair]   (default P3)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${VQX_CORPUS:-../shared/corpus}
pair=${1:-P3}
bin=build/release/vqx
[ -x "$bin" ] || { cmake --preset release >/dev/null && cmake --build --preset release --target vqx_cli; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -r ref dist frames < <(python3 - "$corpus" "$pair" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json")); p = m["pairs"][sys.argv[2]]; c = m["clips"]
print(c[p["ref"]]["file"], c[p["dist"]]["file"], p["frames"])
PY
)
ffmpeg -nostdin -v error -y -i "$corpus/$ref" -f yuv4mpegpipe -strict -1 "$work/ref.y4m"
ffmpeg -nostdin -v error -y -i "$corpus/$dist" -f yuv4mpegpipe -strict -1 "$work/dist.y4m"

echo "| metric | fps (wall, threads 2) | CPU ms per frame |"
echo "|---|---|---|"
for f in psnr float_psnr float_moment float_ansnr float_ssim float_ms_ssim ciede psnr_hvs cambi \
         float_adm float_vif float_motion adm vif motion speed_chroma speed_temporal ssimulacra2; do
  rows=()
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %U %S" -o "$work/t" "$bin" -r "$work/ref.y4m" -d "$work/dist.y4m" -n \
      --feature "$f" --threads 2 -q >/dev/null 2>"$work/err" || { rows=(); break; }
    rows+=("$(cat "$work/t")")
  done
  if [ ${#rows[@]} -eq 0 ]; then echo "| $f | (failed: $(head -c 80 "$work/err")) | |"; continue; fi
  printf '%s\n' "${rows[@]}" | sort -g | sed -n 2p | \
    awk -v f="$f" -v n="$frames" '{printf "| %s | %.1f | %.1f |\n", f, n / $1, 1000 * ($2 + $3) / n}'
done
