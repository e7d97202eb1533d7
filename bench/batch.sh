#!/usr/bin/env bash
# The batch (issue 17): N distorted clips scored against one reference in
# one run (`vqx -r REF -d a -d b ...`) against N separate runs, on the CPU
# (or --backend). The distorted clips are x264 encodes of the reference
# made here with ffmpeg (CRF 23, 28, 33, 38, ...), in a temporary folder;
# with --ladder they are rungs of an encoding ladder (the reference's size, 3/4, 1/2 and
# 1/3 of it, scored with --scale). Runs alternate (separate, batch, batch,
# separate, ...) and the medians of RUNS are reported: wall-clock seconds
# and CPU seconds (user + system, the children's), which a machine shared
# with other work disturbs less. The batch's pooled scores are checked
# against the separate runs' (a mismatch ends the script with status 1).
#
# Usage: bench/batch.sh [--ref FILE] [--clips N] [--threads N] [--runs N]
#                       [--ladder] [--build DIR] [--backend B]
#                       [--synthetic WxH:FRAMES]
#   --ref      the reference (default: the corpus's P1 reference, FFV1
#              576x324, 48 frames: ../shared/corpus or $VQX_CORPUS)
#   --clips    distorted clips (default 4)
#   --threads  vqx --threads (default 2)
#   --runs     runs of each kind (default 5)
#   --backend  vqx --backend (default cpu)
#   --synthetic  no ffmpeg: a synthetic 8-bit Y4M pair of that size and
#              length (the build's vqx_synth_y4m), in /dev/shm when there
#              is one, the distorted file scored as N clips (links to it);
#              what the device machine, which has no ffmpeg, can run
set -euo pipefail
cd "$(dirname "$0")/.."

corpus=${VQX_CORPUS:-../shared/corpus}
ref=$corpus/ref/P1_pan_576x324_420p8.mkv
clips=4
threads=2
runs=5
ladder=0
build=build/release
backend=cpu
synthetic=""
while [ $# -gt 0 ]; do
  case $1 in
    --ref) ref=$2; shift ;;
    --clips) clips=$2; shift ;;
    --threads) threads=$2; shift ;;
    --runs) runs=$2; shift ;;
    --ladder) ladder=1 ;;
    --build) build=$2; shift ;;
    --backend) backend=$2; shift ;;
    --synthetic) synthetic=$2; shift ;;
    *) echo "bench/batch.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
vqx=$build/vqx
[ -x "$vqx" ] || { echo "bench/batch.sh: no $vqx (build the release preset)" >&2; exit 2; }
if [ -n "$synthetic" ]; then
  [ -x "$build/bench/vqx_synth_y4m" ] ||
    { echo "bench/batch.sh: --synthetic needs $build/bench/vqx_synth_y4m (-DVQX_BUILD_BENCH=ON)" >&2; exit 2; }
else
  [ -f "$ref" ] || { echo "bench/batch.sh: no reference $ref (--ref, or the corpus)" >&2; exit 2; }
  command -v ffmpeg >/dev/null || { echo "bench/batch.sh: needs ffmpeg (scripts/setup.sh)" >&2; exit 2; }
fi

tmp=$(mktemp -d -p "$([ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")")
trap 'rm -rf "$tmp"' EXIT
dists=()
scale=""
if [ -n "$synthetic" ]; then
  size=${synthetic%:*}
  frames=${synthetic#*:}
  "$build/bench/vqx_synth_y4m" "${size%x*}" "${size#*x}" 8 "$frames" "$tmp/ref.y4m" "$tmp/dist.y4m"
  ref=$tmp/ref.y4m
  for ((i = 0; i < clips; i++)); do
    ln -s "$tmp/dist.y4m" "$tmp/clip$i.y4m"
    dists+=("$tmp/clip$i.y4m")
  done
else
  size=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0:s=x "$ref")
  frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$ref")
  w=${size%x*}
  h=${size#*x}
  # The clips: x264 encodes of the reference (rungs of a ladder with --ladder).
  for ((i = 0; i < clips; i++)); do
    crf=$((23 + 5 * (i % 4)))
    filter=()
    if [ "$ladder" = 1 ]; then
      # The rung's size, even (x264's 4:2:0), from the full size down.
      num=(1 3 1 1) den=(1 4 2 3)
      rw=$((w * num[i % 4] / den[i % 4] / 2 * 2))
      rh=$((h * num[i % 4] / den[i % 4] / 2 * 2))
      filter=(-vf "scale=$rw:$rh")
      scale="--scale"
    fi
    out=$tmp/clip$i.mp4
    ffmpeg -nostdin -v error -y -i "$ref" "${filter[@]}" -c:v libx264 -preset veryfast -crf "$crf" \
      -threads 1 "$out"
    dists+=("$out")
  done
fi

# Runs $@ and prints "wall cpu" (seconds; cpu: user + system of the children).
timed() {
  local t0 c0 t1 c1
  t0=$(date +%s.%N)
  c0=$(awk '{print $16 + $17}' /proc/$$/stat)
  "$@" >/dev/null
  t1=$(date +%s.%N)
  c1=$(awk '{print $16 + $17}' /proc/$$/stat)
  awk -v a="$t0" -v b="$t1" -v c="$c0" -v d="$c1" -v hz="$(getconf CLK_TCK)" \
    'BEGIN {printf "%.3f %.3f\n", b - a, (d - c) / hz}'
}
separate() {
  for d in "${dists[@]}"; do
    "$vqx" -r "$ref" -d "$d" --threads "$threads" --backend "$backend" $scale -q
  done
}
batch() {
  local args=()
  for d in "${dists[@]}"; do args+=(-d "$d"); done
  "$vqx" -r "$ref" "${args[@]}" --threads "$threads" --backend "$backend" $scale -q
}

# The same scores first: each separate run's pooled VMAF in the batch's table.
table=$(for d in "${dists[@]}"; do printf -- '-d %s ' "$d"; done)
batch_out=$("$vqx" -r "$ref" $table --threads "$threads" --backend "$backend" $scale)
for d in "${dists[@]}"; do
  one=$("$vqx" -r "$ref" -d "$d" --threads "$threads" --backend "$backend" $scale | awk '{print $2}')
  echo "$batch_out" | awk -v d="$d" -v s="$one" '$1 == d && $NF == s {found = 1} END {exit !found}' ||
    { echo "bench/batch.sh: $d: the batch's score differs from its own run's ($one)" >&2; exit 1; }
done

: >"$tmp/separate"
: >"$tmp/batch"
for ((r = 0; r < runs; r++)); do
  if ((r % 2 == 0)); then
    timed separate >>"$tmp/separate"
    timed batch >>"$tmp/batch"
  else
    timed batch >>"$tmp/batch"
    timed separate >>"$tmp/separate"
  fi
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
sw=$(awk '{print $1}' "$tmp/separate" | median)
sc=$(awk '{print $2}' "$tmp/separate" | median)
bw=$(awk '{print $1}' "$tmp/batch" | median)
bc=$(awk '{print $2}' "$tmp/batch" | median)
kind=$([ "$ladder" = 1 ] && echo "ladder, --scale" || echo "same size")
[ -z "$synthetic" ] || kind="synthetic, one file as every clip"
echo "reference: $ref ($size, $frames frames); $clips clips ($kind); --backend $backend --threads $threads; $runs runs each, medians"
echo "CPU: $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$backend" = cpu ] || echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
echo
echo "| clips | kind | $clips separate runs: wall s | batch: wall s | wall speedup | separate: CPU s | batch: CPU s | CPU speedup |"
echo "|---|---|---|---|---|---|---|---|"
awk -v n="$clips" -v k="$kind" -v sw="$sw" -v bw="$bw" -v sc="$sc" -v bc="$bc" \
  'BEGIN {printf "| %d | %s | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx |\n", n, k, sw, bw, sw / bw, sc, bc, sc / bc}'
