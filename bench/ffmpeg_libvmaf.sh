#!/usr/bin/env bash
# FFmpeg's libvmaf filter on VQX's libvmaf against the same FFmpeg on the
# reference libvmaf (issue 15's speed item): one ffmpeg program (Debian 12's
# FFmpeg 5.1, built or taken from the cache by tests/capi/ffmpeg_build.sh
# against VQX's libvmaf install), run with LD_LIBRARY_PATH naming either
# VQX's libvmaf.so.3 or the reference's, in alternating pairs (PAIRS pairs;
# the library run first alternates from pair to pair). Each run is
#   ffmpeg -i DIST -i REF -lavfi "[0:v][1:v]libvmaf=n_threads=N:
#          model=version=vmaf_v0.6.1:log_fmt=json:log_path=..." -f null -
# on the P3 pair of the corpus (1920x1080 8-bit 4:2:0). Prints a Markdown
# table: median and min wall seconds, frames per second (of the median),
# the reference's median over VQX's (above 1: VQX is faster), and the pooled
# VMAF of every run, which must agree between the libraries (within 1e-4)
# so that both did the same work. A last row times FFmpeg alone on the same
# inputs (decoding both to the null muxer, no filter), once in each pair:
# what part of a run is not libvmaf's.
#
# Usage: bench/ffmpeg_libvmaf.sh REF_LIBVMAF [CORPUS_DIR]
#   REF_LIBVMAF: a folder holding the reference's libvmaf.so.3 (a meson
#     build's src/), an install prefix (lib/ or lib/<multiarch>/ under it) or
#     a meson build folder (src/ under it)
#   CORPUS_DIR: default $VQX_CORPUS, else /work/shared/corpus
#   PAIRS=n (default 5)  THREADS="2 1" (n_threads values, a row each)
#   CLIP=P3 (the corpus pair: ref/CLIP_*.mkv and dist/CLIP_*.mkv)
#   LOOP=n  each input looped n more times (-stream_loop; default 0)
#   BUILD=build/release (the VQX build with -DVQX_LIBVMAF_COMPAT=ON)
#   VQX_FFMPEG_CACHE: the FFmpeg cache (ffmpeg_build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
ref_arg=$1
corpus=${2:-${VQX_CORPUS:-/work/shared/corpus}}
pairs=${PAIRS:-5}
threads=${THREADS:-"2 1"}
clip=${CLIP:-P3}
loop=${LOOP:-0}
build=${BUILD:-build/release}
die() { echo "bench/ffmpeg_libvmaf.sh: $*" >&2; exit 2; }

# --- The two libraries ---------------------------------------------------------
if [ -e "$ref_arg/libvmaf.so.3" ]; then
  ref_lib=$(realpath "$ref_arg")
else
  found=$(find "$ref_arg/lib" "$ref_arg/lib64" "$ref_arg/src" -maxdepth 2 -name libvmaf.so.3 2>/dev/null | head -1 || true)
  [ -n "$found" ] || die "no libvmaf.so.3 in $ref_arg, its lib/, lib/<multiarch>/ or (a meson build) src/"
  ref_lib=$(realpath "$(dirname "$found")")
fi
[ -f "$build/libvmaf.so.3" ] || [ -n "$(find "$build" -maxdepth 3 -name libvmaf.so.3 2>/dev/null | head -1)" ] ||
  die "no libvmaf.so.3 in $build (cmake --preset release -DVQX_LIBVMAF_COMPAT=ON; cmake --build --preset release --target vqx_libvmaf)"

work=$(mktemp -d "${TMPDIR:-/tmp}/vqx_ffbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" --component libvmaf >"$work/install.log"
vqx_lib=$(realpath "$(dirname "$(find "$prefix" -name libvmaf.so.3 | head -1)")")
ffmpeg=$(bash tests/capi/ffmpeg_build.sh "$prefix" | tail -1)
[ -x "$ffmpeg" ] || die "no ffmpeg from tests/capi/ffmpeg_build.sh"

# --- The pair --------------------------------------------------------------------
ref=$(find "$corpus/ref" -maxdepth 1 -name "${clip}_*.mkv" | head -1)
dist=$(find "$corpus/dist" -maxdepth 1 -name "${clip}_*.mkv" | head -1)
if [ -z "$ref" ] || [ -z "$dist" ]; then die "no $clip pair under $corpus/ref and $corpus/dist"; fi
cat "$ref" "$dist" >/dev/null  # in the page cache before the first run

# The libvmaf.so.3 that ld.so loads for ffmpeg with LIBDIR first in
# LD_LIBRARY_PATH, as ldd says and as a run with LD_DEBUG=libs shows.
check_lib() {
  local dir=$1 by_ldd by_run
  by_ldd=$(LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ldd "$ffmpeg" | awk '/libvmaf\.so\.3/ {print $3}')
  by_run=$(LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} LD_DEBUG=libs "$ffmpeg" -hide_banner -version 2>&1 >/dev/null |
           sed -n 's/.*calling init: \(.*libvmaf\.so\.3\)$/\1/p' | head -1)
  [ "$(realpath "$by_ldd")" = "$(realpath "$dir/libvmaf.so.3")" ] ||
    die "with $dir, ldd resolves libvmaf.so.3 to '$by_ldd'"
  [ "$(realpath "$by_run")" = "$(realpath "$dir/libvmaf.so.3")" ] ||
    die "with $dir, ffmpeg loaded '$by_run' (LD_DEBUG=libs)"
  echo "$by_run"
}
vqx_loaded=$(check_lib "$vqx_lib")
ref_loaded=$(check_lib "$ref_lib")

calc() { awk "BEGIN {printf \"%.9f\\n\", $1}"; }
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
minimum() { sort -g | head -1; }
# run NAME LIBDIR THREADS: one timed run; appends its wall seconds to
# $work/NAME.THREADS.s and its pooled VMAF (JSON log) to $work/NAME.THREADS.vmaf
run() {
  local name=$1 dir=$2 t=$3 log=$work/$1.$3.json start end
  local in=()
  [ "$loop" = 0 ] || in=(-stream_loop "$loop")
  start=$(date +%s.%N)
  LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$ffmpeg" -hide_banner -nostdin -v error \
    "${in[@]}" -i "$dist" "${in[@]}" -i "$ref" \
    -lavfi "[0:v][1:v]libvmaf=n_threads=$t:model=version=vmaf_v0.6.1:log_fmt=json:log_path=$log" \
    -f null - >/dev/null 2>"$work/$name.$t.err" ||
    { cat "$work/$name.$t.err" >&2; die "ffmpeg failed with $dir"; }
  end=$(date +%s.%N)
  calc "$end - $start" >>"$work/$name.$t.s"
  /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("%.6f %d" % (d["pooled_metrics"]["vmaf"]["mean"], len(d["frames"])))' "$log" >>"$work/$name.$t.vmaf"
}

# decode: FFmpeg alone, both inputs decoded to the null muxer
decode() {
  local in=() start end
  [ "$loop" = 0 ] || in=(-stream_loop "$loop")
  start=$(date +%s.%N)
  LD_LIBRARY_PATH=$vqx_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$ffmpeg" -hide_banner -nostdin -v error \
    "${in[@]}" -i "$dist" "${in[@]}" -i "$ref" -map 0:v -map 1:v -f null - >/dev/null 2>&1 ||
    die "ffmpeg failed decoding the pair"
  end=$(date +%s.%N)
  calc "$end - $start" >>"$work/decode.s"
}

for t in $threads; do
  # one run each first, untimed: the libraries and the models read once
  run vqx "$vqx_lib" "$t"
  run ref "$ref_lib" "$t"
  rm -f "$work"/*."$t".s "$work"/*."$t".vmaf
  for p in $(seq "$pairs"); do
    if [ $((p % 2)) = 1 ]; then
      run vqx "$vqx_lib" "$t"; run ref "$ref_lib" "$t"
    else
      run ref "$ref_lib" "$t"; run vqx "$vqx_lib" "$t"
    fi
    [ "$t" != "${threads%% *}" ] || decode
  done
done

# --- The table ---------------------------------------------------------------------
cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
frames=$(awk '{print $2; exit}' "$work/vqx.${threads%% *}.vmaf")
w_h=$(basename "$ref" | sed -n 's/.*_\([0-9]*x[0-9]*\)_.*/\1/p')
echo "ffmpeg -i $(basename "$dist") -i $(basename "$ref") -lavfi \"[0:v][1:v]libvmaf=n_threads=N:model=version=vmaf_v0.6.1:log_fmt=json:log_path=...\" -f null -"
echo "$clip ($w_h, $frames frames$([ "$loop" = 0 ] || echo ", each input looped $loop times")); $(LD_LIBRARY_PATH=$vqx_lib "$ffmpeg" -version | head -1 | cut -d' ' -f1-3)"
echo "VQX: $vqx_loaded (the libvmaf component of $build, installed there)"
echo "reference: $ref_loaded"
echo "$cpu, $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs; $pairs alternating pairs"
echo
echo "| n_threads | libvmaf | median s | min s | fps | ref / VQX (median) | pooled VMAF |"
echo "|---|---|---|---|---|---|---|"
status=0
for t in $threads; do
  vqx_med=$(median <"$work/vqx.$t.s")
  ref_med=$(median <"$work/ref.$t.s")
  for name in vqx ref; do
    med=$(median <"$work/$name.$t.s")
    ratio="-"
    [ "$name" = ref ] || ratio=$(printf '%.2f' "$(calc "$ref_med / $vqx_med")")
    scores=$(awk '{print $1}' "$work/$name.$t.vmaf" | sort -u | tr '\n' ' ')
    label=VQX
    [ "$name" = vqx ] || label=reference
    printf '| %s | %s | %.3f | %.3f | %.1f | %s | %s |\n' "$t" "$label" "$med" \
      "$(minimum <"$work/$name.$t.s")" "$(calc "$frames / $med")" "$ratio" "${scores% }"
  done
  # the same work: every run's pooled VMAF within 1e-4 of every other's
  if ! cat "$work/vqx.$t.vmaf" "$work/ref.$t.vmaf" |
       awk 'NR == 1 {lo = hi = $1} {if ($1 < lo) lo = $1; if ($1 > hi) hi = $1} END {exit !(hi - lo <= 1e-4)}'; then
    echo "n_threads=$t: the pooled VMAF differs between the runs by more than 1e-4" >&2
    status=1
  fi
done
med=$(median <"$work/decode.s")
printf '| - | none: FFmpeg decoding both inputs, no filter | %.3f | %.3f | %.1f | - | - |\n' "$med" \
  "$(minimum <"$work/decode.s")" "$(calc "$frames / $med")"
exit $status
