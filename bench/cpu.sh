#!/usr/bin/env bash
# The CPU kernels (issue 12): per family, CPU milliseconds per frame of the
# vqx command, side by side with the reference libvmaf command when its path
# is given, at 1920x1080 and 3840x2160, with 1 and 2 threads; one Markdown
# table (docs/performance.md, "The CPU kernels").
#
# Inputs: the corpus pairs P3 (1920x1080) and P8 (3840x2160), 8-bit 4:2:0,
# decoded once by vqx_to_y4m and looped to --frames frames (a looped clip
# has a cut where it wraps; both tools see the same frames), in /dev/shm
# (else $TMPDIR or /tmp), removed at the end.
# Each row runs `-n --feature F` (the model rows: the default run, no -n),
# vqx and the reference alternately, RUNS times each, and takes the medians:
#   wall s      the whole process, as a user sees it;
#   CPU s       user + system CPU time of the whole process, which the
#               machine's other load disturbs less than the wall time;
#   ref / vqx   the reference's CPU s over vqx's (2.00 = twice as fast):
#               the median of each run's ratio to the vqx run just before
#               it, so that the machine's speed, which drifts over minutes
#               on a shared host, is nearly the same for both sides of a
#               ratio;
#   kernel ms/f CPU time less that of the read-only floor run (`-n --feature
#               motion=motion_force_zero=true`: start-up, reading the luma,
#               output, no kernel), per frame: the family's kernels, for the
#               families whose cost is mostly theirs. (vqx reads only the
#               planes the features read, so for a family that reads chroma
#               the difference also holds reading the chroma, which the
#               reference's floor run reads as well.)
#   kernel ratio  the reference's kernel ms/f over vqx's.
# Usage: bench/cpu.sh [options]
#   --ref PATH        the reference's `vmaf` command (e.g. a meson build of
#                     Netflix/vmaf, libvmaf/build/tools/vmaf); without it the
#                     reference columns are empty
#   --build DIR       where vqx and bench/vqx_to_y4m are (default build/release)
#   --sizes LIST      "1080p 4k" (default)
#   --threads LIST    "1 2" (default)
#   --families LIST   default: vmaf_v0.6.1, all17 (every libvmaf feature in
#                     one run), then the 17 features one by one
#   --frames N        frames at 1080p (default 60); 4K runs a quarter of it
#   --runs N          runs per row and tool (default 3)
#   --vqx-args "..."  more options for every vqx run (e.g. "--read_ahead 4"
#                     for the read-ahead's former default)
#   --ref-args "..."  more options for every reference run (e.g. "--cpumask
#                     48": libvmaf's AVX-512 kernels left unused)
# An AVX2-only CPU on one with AVX-512 (issue 12's machine kind): the
# reference with --ref-args "--cpumask 48", vqx from a build whose kernels
# are all AVX2's, given with --build: the per-target build of x86-64-v3
# with Highway's AVX-512 targets left out at compile time,
#   cmake --preset release -B DIR -DVQX_CPU_TARGET=x86-64-v3 -DVQX_BUILD_BENCH=ON \
#     -DCMAKE_CXX_FLAGS=-DHWY_DISABLED_TARGETS=384   # HWY_AVX3 | HWY_AVX3_DL
#   cmake --build DIR --target vqx_cli vqx_to_y4m
#   --out FILE        also write the table there
set -euo pipefail
cd "$(dirname "$0")/.."

corpus=${VQX_CORPUS:-../shared/corpus}
build=build/release
ref=""
sizes="1080p 4k"
threads_list="1 2"
features="psnr float_psnr float_moment float_ansnr float_ssim float_ms_ssim ciede psnr_hvs cambi \
float_adm float_vif float_motion adm vif motion speed_chroma speed_temporal"
families="vmaf_v0.6.1 all17 $features"
frames=60
runs=3
vqx_args=""
ref_args=""
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ref) ref=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --threads) threads_list=$2; shift 2 ;;
    --families) families=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --vqx-args) vqx_args=$2; shift 2 ;;
    --ref-args) ref_args=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "bench/cpu.sh: unknown option '$1' (see the comment at the top)" >&2; exit 2 ;;
  esac
done
vqx=$build/vqx
to_y4m=$build/bench/vqx_to_y4m
for f in "$vqx" "$to_y4m"; do
  [ -x "$f" ] || { echo "bench/cpu.sh: $f not found (build the release preset)" >&2; exit 2; }
done
[ -z "$ref" ] || [ -x "$ref" ] || { echo "bench/cpu.sh: reference '$ref' is not executable" >&2; exit 2; }
[ -f "$corpus/manifest.json" ] || { echo "bench/cpu.sh: no corpus at $corpus" >&2; exit 2; }

shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=${TMPDIR:-/tmp}
work=$(mktemp -d "$shm/vqx-cpu-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# clip FILE of the corpus pair's ref or dist
clip_of() {
  /usr/bin/python3 - "$corpus" "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
print(m["clips"][m["pairs"][sys.argv[2]][sys.argv[3]]]["file"])
PY
}

# loop_y4m IN OUT N: OUT holds IN's frames repeated to N frames.
loop_y4m() {
  /usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
head = data.index(b"\n") + 1
frames = data[head:].split(b"FRAME")[1:]
sizes = {len(f) for f in frames}
assert len(sizes) == 1, "frames of one size (no frame parameters)"
with open(sys.argv[2], "wb") as out:
    out.write(data[:head])
    for i in range(int(sys.argv[3])):
        out.write(b"FRAME" + frames[i % len(frames)])
PY
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run TOOL THREADS FAMILY OUTFILE: one timed run; appends "wall cpu" to OUTFILE.
run() {
  local tool=$1 threads=$2 family=$3 times=$4 bin args=()
  bin=$vqx
  [ "$tool" = vqx ] || bin=$ref
  # shellcheck disable=SC2206  # the extra options, split at spaces
  [ "$tool" != vqx ] || [ -z "$vqx_args" ] || args+=($vqx_args)
  # shellcheck disable=SC2206  # likewise
  [ "$tool" = vqx ] || [ -z "$ref_args" ] || args+=($ref_args)
  case "$family" in
    floor) args+=(-n --feature motion=motion_force_zero=true) ;;
    vmaf_v0.6.1) ;;
    all17) args+=(-n); for f in $features; do args+=(--feature "$f"); done ;;
    *) args+=(-n --feature "$family") ;;
  esac
  /usr/bin/time -f "%e %U %S" -o "$work/t" "$bin" -r "$work/ref.y4m" -d "$work/dist.y4m" \
    --threads "$threads" -q -o "$work/out.xml" "${args[@]}" >/dev/null 2>"$work/err" || {
    echo "bench/cpu.sh: $tool $family failed: $(head -c 200 "$work/err")" >&2
    return 1
  }
  awk '{printf "%s %.4f\n", $1, $2 + $3}' "$work/t" >>"$times"
}

# measure FAMILY THREADS: sets wall_vqx cpu_vqx wall_ref cpu_ref (medians)
# and pair_ratio (the median of the runs' reference CPU s over vqx's).
measure() {
  local family=$1 threads=$2 tool
  : >"$work/vqx.t"
  : >"$work/ref.t"
  for _ in $(seq "$runs"); do
    run vqx "$threads" "$family" "$work/vqx.t"
    [ -z "$ref" ] || run ref "$threads" "$family" "$work/ref.t"
  done
  for tool in vqx ref; do
    if [ -s "$work/$tool.t" ]; then
      eval "wall_$tool=$(awk '{print $1}' "$work/$tool.t" | median)"
      eval "cpu_$tool=$(awk '{print $2}' "$work/$tool.t" | median)"
    else
      eval "wall_$tool=; cpu_$tool="
    fi
  done
  pair_ratio=
  [ -s "$work/ref.t" ] || return 0
  pair_ratio=$(paste -d' ' "$work/vqx.t" "$work/ref.t" |
    awk '$2 > 0 {printf "%.4f\n", $4 / $2}' | median)
}

table() {
  echo "| size | threads | family | vqx wall s | vqx CPU s | reference wall s | reference CPU s | ref / vqx | vqx kernel ms/f | reference kernel ms/f | kernel ratio |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for size in $sizes; do
    case "$size" in
      1080p) pair=P3; n=$frames ;;
      4k) pair=P8; n=$(((frames + 3) / 4)) ;;
      *) echo "bench/cpu.sh: unknown size '$size' (1080p or 4k)" >&2; exit 2 ;;
    esac
    for side in ref dist; do
      "$to_y4m" "$corpus/$(clip_of "$pair" "$side")" "$work/one.y4m"
      loop_y4m "$work/one.y4m" "$work/$side.y4m" "$n"
    done
    rm -f "$work/one.y4m"
    for threads in $threads_list; do
      measure floor "$threads"
      floor_vqx=$cpu_vqx floor_ref=$cpu_ref
      for family in $families; do
        echo "bench/cpu.sh: $size threads $threads $family" >&2
        measure "$family" "$threads"
        awk -v s="$size" -v t="$threads" -v f="$family" -v n="$n" \
          -v wv="$wall_vqx" -v cv="$cpu_vqx" -v fv="$floor_vqx" \
          -v wr="$wall_ref" -v cr="$cpu_ref" -v fr="$floor_ref" -v pr="$pair_ratio" 'BEGIN {
            mv = 1000 * (cv - fv) / n
            if (wr == "") { printf "| %s | %s | %s | %.2f | %.2f | | | | %.1f | | |\n", s, t, f, wv, cv, mv; exit }
            mr = 1000 * (cr - fr) / n
            kratio = mv > 0 ? sprintf("%.2f", mr / mv) : "-"
            ratio = pr != "" ? sprintf("%.2f", pr) : "-"
            printf "| %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %s | %.1f | %.1f | %s |\n",
              s, t, f, wv, cv, wr, cr, ratio, mv, mr, kratio }'
      done
    done
  done
}

cpu_name=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
{
  echo "CPU: ${cpu_name:-unknown}, $(nproc) cores; $("$vqx" --version 2>/dev/null | head -1); reference: ${ref:-none}${ref_args:+ $ref_args}${vqx_args:+; vqx options: $vqx_args}"
  echo
  table
} | if [ -n "$out" ]; then tee "$out"; else cat; fi
