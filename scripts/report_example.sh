#!/usr/bin/env bash
# Makes docs/report-example.png: `vqx report` comparing the two encodes of
# the corpus's P1 reference (P1a: x264 CRF 36; P1b: downscaled, x264 CRF 23,
# upscaled), as headless Chromium shows it.
#   scripts/report_example.sh [VQX] [CORPUS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
vqx=${1:-$root/build/release/vqx}
corpus=${2:-${VQX_CORPUS:-$root/../shared/corpus}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ref=$corpus/ref/P1_pan_576x324_420p8.mkv
for pair in P1a_pan_576x324_420p8__x264-crf36 \
            P1b_pan_576x324_420p8__down288x162-x264-crf23-bicubicup; do
  "$vqx" -r "$ref" -d "$corpus/dist/$pair.mkv" --feature psnr --json -q \
    -o "$work/${pair#*__}.json"
done
"$vqx" report "$work/x264-crf36.json" "$work/down288x162-x264-crf23-bicubicup.json" \
  --metric vmaf --metric psnr_y --metric integer_adm2 --worst 5 \
  --title "P1: two encodes of one reference" -o "$work/report.html"
sandbox=()
[ "$(id -u)" -ne 0 ] || sandbox=(--no-sandbox)
chromium --headless --disable-gpu --hide-scrollbars --no-first-run "${sandbox[@]}" \
  --user-data-dir="$work/profile" --window-size=1200,1500 \
  --screenshot="$root/docs/report-example.png" "file://$work/report.html" 2>/dev/null
ls -l "$root/docs/report-example.png"
