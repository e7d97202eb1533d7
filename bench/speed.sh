#!/usr/bin/env bash
# The speed users see (issue 10): frames per second of the vqx command and of
# the API (vqx_gpu_bench), per resolution, bit depth and backend, side by side
# with the reference libvmaf command when a path to it is given, against the
# targets; one Markdown table (docs/performance.md, "One speed table").
#
# Per size and depth, a synthetic 8/10/12-bit 4:2:0 Y4M pair (vqx_synth_y4m:
# a panning texture, the distorted with panning noise added, so that VIF, ADM
# and motion do real work) is written once into /dev/shm (else $TMPDIR or
# /tmp) and removed after its rows. vmaf_v0.6.1 throughout. Each row:
#   vqx / reference command: steady state, (N - 1) / (t_N - t_1), from the
#     medians of RUNS wall-clock runs of N frames and of 1 frame (--frame_cnt;
#     the 1-frame run is the fixed cost: loading, the device, first pictures);
#   API: the same steady state from vqx_gpu_bench's own timing (frames
#     already in memory, first timed frame to the end of flush) of N frames
#     and of 1 frame, medians of RUNS runs each; its frames are the pair's
#     first 16 (api_sources; --input), so that it scores the content the command rows
#     read (its own synthetic pictures cost the CPU rows about 20 % more at
#     4K: docs/performance.md, "The command against the API on 16 threads").
# Rows of a backend the build or the machine lacks are skipped, and the table
# says why. Needs bash, awk and coreutils only (it runs on the device machine).
#
# Usage: bench/speed.sh [options]
#   --build DIR        where vqx, bench/gpu/vqx_gpu_bench, bench/vqx_synth_y4m
#                      are (default build/release; a VQX_BUILD_BENCH=ON build)
#   --backend LIST     "cpu cuda" (default), or one of them
#   --threads N        worker threads of the CPU rows (default: the cores, at
#                      most 16)
#   --gpu-threads N    worker threads of the GPU rows (default 8)
#   --sizes LIST       default "3840x2160 1920x1080"
#   --bits LIST        default "8 10 12"
#   --cpu-bits LIST    the depths of the CPU rows (default: --bits)
#   --runs N           runs per row, the median taken (default 3)
#   --gpu-frames N     frames per GPU command row at 3840x2160 (default 250)
#   --api-frames N     frames per GPU API row at 3840x2160 (default 1500: the
#                      API reads no file, and at about 2000 fps 250 frames
#                      are 0.13 s, of which the first frames' warm-up is a
#                      sixth)
#   --cpu-frames N     frames per CPU row at 3840x2160 (default 128: with 32,
#                      the 1-frame run's spread, a tenth of a second, moved
#                      the 16-thread ratio to the reference from 1.65x to
#                      1.98x); smaller sizes get more, in proportion to the
#                      pixels, at most 4x
#   --ref-cpu PATH     the reference's `vmaf` command (a CPU build); vqx's
#                      CPU runs then alternate with its runs, and vqx's row
#                      gives the median of the rounds' ratios (paired)
#   --ref-cuda PATH    the reference's `vmaf` built with enable_cuda
#   --budget S         start no row after S seconds (0: no limit); the rows
#                      left are listed as not run (the device call's limit)
#   --out FILE         also write the table (and the raw times, FILE.runs) there
# Rows run 8-bit first (both sizes), then 10, then 12; progress on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build/release
backends="cpu cuda"
cores=$(nproc)
threads=$((cores < 16 ? cores : 16))
gpu_threads=8
# The API rows score the pair's first this many frame pairs, in memory.
api_sources=16
sizes="3840x2160 1920x1080"
depths="8 10 12"
cpu_depths=""
budget=0
runs=3
gpu_frames=250
api_frames=1500
cpu_frames=128
ref_cpu=""
ref_cuda=""
out=""
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || { echo "bench/speed.sh: $1 needs a value" >&2; exit 2; }
  case $1 in
    --build) build=$2 ;;
    --backend) backends=$2 ;;
    --threads) threads=$2 ;;
    --gpu-threads) gpu_threads=$2 ;;
    --sizes) sizes=$2 ;;
    --bits) depths=$2 ;;
    --cpu-bits) cpu_depths=$2 ;;
    --budget) budget=$2 ;;
    --runs) runs=$2 ;;
    --gpu-frames) gpu_frames=$2 ;;
    --api-frames) api_frames=$2 ;;
    --cpu-frames) cpu_frames=$2 ;;
    --ref-cpu) ref_cpu=$2 ;;
    --ref-cuda) ref_cuda=$2 ;;
    --out) out=$2 ;;
    *) echo "bench/speed.sh: unknown option $1 (see the comment at the top)" >&2; exit 2 ;;
  esac
  shift 2
done
[ -n "$cpu_depths" ] || cpu_depths=$depths
vqx=$build/vqx
api=$build/bench/gpu/vqx_gpu_bench
synth=$build/bench/vqx_synth_y4m
for b in "$vqx" "$synth" ${ref_cpu:+"$ref_cpu"} ${ref_cuda:+"$ref_cuda"}; do
  [ -x "$b" ] || { echo "bench/speed.sh: no program at $b" >&2; exit 2; }
done
# A CPU build of the reference takes --gpumask and ignores it: refuse it as
# the CUDA reference, whose rows would be CPU numbers.
if [ -n "$ref_cuda" ] && ! grep -qa vmaf_cuda_state_init "$ref_cuda"; then
  echo "bench/speed.sh: $ref_cuda is not a CUDA build of the reference (enable_cuda)" >&2
  exit 2
fi
[ -x "$api" ] || { echo "bench/speed.sh: no vqx_gpu_bench at $api: the API rows are skipped" >&2; api=""; }

# frames_at BASE W H: BASE frames at 3840x2160, more at smaller sizes in
# proportion to the pixels (at most 4x), fewer at larger ones (at least 8).
frames_at() {
  awk -v b="$1" -v p="$(($2 * $3))" 'BEGIN {
    k = 3840 * 2160 / p; if (k > 4) k = 4; n = int(b * k + 0.5); if (n < 8) n = 8; print n }'
}
has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }
# pair_frames W H: the frames of the pair at that size (its longest rows').
pair_frames() {
  local nc ng
  nc=$(frames_at "$cpu_frames" "$1" "$2")
  ng=$(frames_at "$gpu_frames" "$1" "$2")
  if has "$backends" cuda && [ "$ng" -gt "$nc" ]; then echo "$ng"; else echo "$nc"; fi
}
# pair_kb W H BITS N: KiB the pair takes, with 64 MiB to spare.
pair_kb() {
  local frame=$((($3 > 8 ? 2 : 1) * ($1 * $2 + 2 * (($1 + 1) / 2) * (($2 + 1) / 2)) + 6))
  echo $((2 * frame * $4 / 1024 + 65536))
}
free_kb() { df -Pk "$1" | awk 'NR == 2 {print $4}'; }

# /dev/shm when it holds the largest pair (a container's may be small),
# else $TMPDIR or /tmp.
largest=0
for size in $sizes; do
  for bits in $depths; do
    kb=$(pair_kb "${size%x*}" "${size#*x}" "$bits" "$(pair_frames "${size%x*}" "${size#*x}")")
    [ "$kb" -le "$largest" ] || largest=$kb
  done
done
tmp=${TMPDIR:-/tmp}
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(free_kb /dev/shm)" -ge "$largest" ]; then
  tmp=/dev/shm
fi
work=$(mktemp -d "$tmp/vqx_speed.XXXXXX")
trap 'rm -rf "$work"' EXIT
rows=$work/rows
raw=$work/runs
: >"$rows"
: >"$raw"
notes=()

now() { local t=${EPOCHREALTIME:-$(date +%s.%N)}; echo "${t/,/.}"; }
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# why: the first line the last run wrote on stderr, else its exit status.
why() {
  local line
  line=$(grep -v '^[[:space:]]*$' "$work/stderr" | head -n 1 | cut -c1-160 || true)
  echo "${line:-exit status $(cat "$work/rc")}"
}

# seconds CMD...: wall seconds of one run; the run's stderr is in
# $work/stderr; returns the command's status.
seconds() {
  local start end rc=0
  start=$(now)
  timeout 300 "$@" >/dev/null 2>"$work/stderr" || rc=$?
  end=$(now)
  echo "$rc" >"$work/rc"
  awk -v s="$start" -v e="$end" 'BEGIN {printf "%.6f\n", e - s}'
  return $rc
}

# row RUN SIZE BITS BACKEND THREADS FRAMES FPS [RATIO]: one line of the
# table's data (FPS is a number, or "skipped: why" / "failed: why"; RATIO,
# vqx's paired ratio to the reference: paired_cpu_rows).
row() {
  printf '%s|%s|%s|%s|%s|%s|%s|%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "${7//|//}" "${8:-}" >>"$rows"
}

# The reference's CUDA build falls back to the CPU when it finds no device
# (it says "using CPU" and carries on): that is not a CUDA row.
ran_elsewhere() {
  [ "$1" = reference ] && [ "$2" = cuda ] && grep -q "using CPU" "$work/stderr"
}

# steady_rate N T_N T_1: the steady state (N - 1) / (T_N - T_1), from the
# seconds of an N-frame run and of a 1-frame run.
steady_rate() {
  awk -v n="$1" -v f="$2" -v o="$3" 'BEGIN {
    d = f - o
    if (d <= 0) print "failed: the N-frame run was not slower than the 1-frame run"
    else printf "%.1f\n", (n - 1) / d }'
}

# first_run RUN BACKEND THREADS FRAMES W H BITS CMD...: a first 1-frame
# run, which says whether this backend runs here (else the row says why it
# was skipped, and the status is 1) and brings the program and the pair into
# the page cache.
first_run() {
  local run=$1 backend=$2 t=$3 n=$4 w=$5 h=$6 bits=$7
  shift 7
  if ! seconds "$@" --frame_cnt 1 >/dev/null; then
    row "$run" "${w}x$h" "$bits" "$backend" "$t" "$n" "skipped: $(why)"
    return 1
  fi
  if ran_elsewhere "$run" "$backend"; then
    row "$run" "${w}x$h" "$bits" "$backend" "$t" "$n" "skipped: it fell back to the CPU: $(why)"
    return 1
  fi
}

# one_round TAG FRAMES CMD...: a 1-frame and a FRAMES-frame run, their
# seconds appended to $work/TAG.one and $work/TAG.full.
one_round() {
  local tag=$1 n=$2
  shift 2
  seconds "$@" --frame_cnt 1 >>"$work/$tag.one" && seconds "$@" --frame_cnt "$n" >>"$work/$tag.full"
}

# finish_row RUN BACKEND THREADS FRAMES W H BITS TAG [RATIO]: the row from
# the medians of TAG's runs (RATIO: the paired ratio to the reference).
finish_row() {
  local run=$1 backend=$2 t=$3 n=$4 w=$5 h=$6 bits=$7 tag=$8 ratio=${9:-} one full
  one=$(median <"$work/$tag.one")
  full=$(median <"$work/$tag.full")
  echo "$run ${w}x$h ${bits}-bit $backend threads $t: $n frames $(tr '\n' ' ' <"$work/$tag.full")s; 1 frame $(tr '\n' ' ' <"$work/$tag.one")s" >>"$raw"
  row "$run" "${w}x$h" "$bits" "$backend" "$t" "$n" "$(steady_rate "$n" "$full" "$one")" "$ratio"
}

# command_row RUN BACKEND THREADS FRAMES W H BITS CMD...: the steady-state
# rate of a command (vqx or the reference) scoring the pair.
command_row() {
  local run=$1 backend=$2 t=$3 n=$4 w=$5 h=$6 bits=$7 i
  shift 7
  first_run "$run" "$backend" "$t" "$n" "$w" "$h" "$bits" "$@" || return 0
  : >"$work/cmd.one"
  : >"$work/cmd.full"
  for i in $(seq "$runs"); do
    one_round cmd "$n" "$@" || { row "$run" "${w}x$h" "$bits" "$backend" "$t" "$n" \
      "failed: $(why)"; return; }
  done
  finish_row "$run" "$backend" "$t" "$n" "$w" "$h" "$bits" cmd
}

# round_ratios: per round, vqx's steady rate over the reference's, (N - 1)
# / (t_N - t_1) each: the reference's t_N - t_1 over vqx's.
round_ratios() {
  paste -d' ' "$work/ref.one" "$work/ref.full" "$work/vqx.one" "$work/vqx.full" |
    awk '$2 > $1 && $4 > $3 {printf "%.3f\n", ($2 - $1) / ($4 - $3)}'
}

# paired_cpu_rows THREADS FRAMES W H BITS: vqx's and the reference's CPU
# rows (the commands in vqx_cmd and ref_cmd), their runs alternating round
# by round, the reference's 1 and N frames, then vqx's, so that both meet the
# same state of a shared machine (on the device machines the two programs'
# rates drift independently: a quarter between calls a minute apart,
# docs/performance.md). Besides each row's medians, vqx's row carries the
# median of the rounds' ratios (its steady rate over the reference's of the
# same round): the table's "× reference" and what "met?" reads.
paired_cpu_rows() {
  local t=$1 n=$2 w=$3 h=$4 bits=$5 i tag ratio="" ok_ref=1 ok_vqx=1
  first_run reference cpu "$t" "$n" "$w" "$h" "$bits" "${ref_cmd[@]}" || ok_ref=0
  first_run vqx cpu "$t" "$n" "$w" "$h" "$bits" "${vqx_cmd[@]}" || ok_vqx=0
  for tag in ref vqx; do : >"$work/$tag.one"; : >"$work/$tag.full"; done
  for i in $(seq "$runs"); do
    if [ "$ok_ref" = 1 ] && ! one_round ref "$n" "${ref_cmd[@]}"; then
      row reference "${w}x$h" "$bits" cpu "$t" "$n" "failed: $(why)"
      ok_ref=0
    fi
    if [ "$ok_vqx" = 1 ] && ! one_round vqx "$n" "${vqx_cmd[@]}"; then
      row vqx "${w}x$h" "$bits" cpu "$t" "$n" "failed: $(why)"
      ok_vqx=0
    fi
  done
  if [ "$ok_ref" = 1 ] && [ "$ok_vqx" = 1 ]; then
    ratio=$(round_ratios | median)
    echo "paired ratios (vqx / reference), ${w}x$h ${bits}-bit cpu threads $t: $(round_ratios |
      tr '\n' ' ')" >>"$raw"
  fi
  [ "$ok_ref" = 0 ] || finish_row reference cpu "$t" "$n" "$w" "$h" "$bits" ref
  [ "$ok_vqx" = 0 ] || finish_row vqx cpu "$t" "$n" "$w" "$h" "$bits" vqx "$ratio"
}

# api_row BACKEND THREADS FRAMES W H BITS: the steady-state rate through the
# API, (N - 1) / (t_N - t_1), as the command rows, from vqx_gpu_bench's own
# timing (frames already in memory, first timed frame to the end of flush) of
# N frames and of 1 frame: medians of RUNS runs of each. The 1-frame run is
# the pipeline's fill and first-frame work (recording a frame's launches).
api_row() {
  local backend=$1 t=$2 n=$3 w=$4 h=$5 bits=$6 i m line fps one full
  if [ -z "$api" ]; then
    row "vqx API" "${w}x$h" "$bits" "$backend" "$t" "$n" "skipped: no vqx_gpu_bench in $build"
    return
  fi
  : >"$work/api_full"
  : >"$work/api_one"
  for i in $(seq "$runs"); do
    for m in 1 "$n"; do
      local rc=0
      line=$(timeout 300 "$api" --backend "$backend" --threads "$t" --frames "$m" \
        --input "$work/ref.y4m" "$work/dist.y4m" --input-frames "$api_sources" --label speed \
        2>"$work/stderr") || rc=$?
      echo "$rc" >"$work/rc"
      if [ "$rc" != 0 ]; then
        if [ "$i" = 1 ] && [ "$m" = 1 ]; then
          row "vqx API" "${w}x$h" "$bits" "$backend" "$t" "$n" "skipped: $(why)"
        else
          row "vqx API" "${w}x$h" "$bits" "$backend" "$t" "$n" "failed: $(why)"
        fi
        return
      fi
      # A cuda run that the context put on the CPU would say backend=cpu.
      if [ "$backend" != cpu ] && ! grep -q "backend=$backend" <<<"$line"; then
        row "vqx API" "${w}x$h" "$bits" "$backend" "$t" "$n" "failed: did not run on $backend: $line"
        return
      fi
      fps=$(awk '{for (i = 2; i <= NF; ++i) if ($i == "fps") print $(i - 1)}' <<<"$line")
      # Seconds of the timed region: frames / fps.
      awk -v m="$m" -v f="$fps" 'BEGIN {printf "%.6f\n", m / f}' \
        >>"$work/$([ "$m" = 1 ] && echo api_one || echo api_full)"
    done
  done
  one=$(median <"$work/api_one")
  full=$(median <"$work/api_full")
  echo "vqx API ${w}x$h ${bits}-bit $backend threads $t: $n frames $(tr '\n' ' ' <"$work/api_full")s; 1 frame $(tr '\n' ' ' <"$work/api_one")s" >>"$raw"
  row "vqx API" "${w}x$h" "$bits" "$backend" "$t" "$n" \
    "$(steady_rate "$n" "$full" "$one")"
}

# spent: whether the time budget is spent (then the row is listed, not run).
spent() {
  [ "$budget" != 0 ] &&
    awk -v s="$started" -v e="$(now)" -v b="$budget" 'BEGIN {exit !(e - s > b)}'
}
# timed KIND ARGS...: KIND's row (command_row or api_row) unless the budget
# is spent.
timed() {
  local kind=$1
  shift
  if spent; then
    if [ "$kind" = api_row ]; then
      row "vqx API" "${4}x$5" "$6" "$1" "$2" "$3" "not run: the time budget ($budget s) was spent"
    elif [ "$kind" = paired_cpu_rows ]; then
      row vqx "${3}x$4" "$5" cpu "$1" "$2" "not run: the time budget ($budget s) was spent"
      row reference "${3}x$4" "$5" cpu "$1" "$2" "not run: the time budget ($budget s) was spent"
    else
      row "$1" "${5}x$6" "$7" "$2" "$3" "$4" "not run: the time budget ($budget s) was spent"
    fi
    return
  fi
  echo "bench/speed.sh: $(date -u +%H:%M:%S) $kind $*" | cut -c1-150 >&2
  "$kind" "$@"
}


started=$(now)
model=(--model version=vmaf_v0.6.1)
for bits in $depths; do
  for size in $sizes; do
    w=${size%x*} h=${size#*x}
    nc=$(frames_at "$cpu_frames" "$w" "$h")
    ng=$(frames_at "$gpu_frames" "$w" "$h")
    gpu_rows=0 cpu_rows=0
    has "$backends" cuda && gpu_rows=1
    has "$backends" cpu && has "$cpu_depths" "$bits" && cpu_rows=1
    [ $((gpu_rows + cpu_rows)) -gt 0 ] || continue
    n=$(pair_frames "$w" "$h")
    if spent; then
      notes+=("${size} ${bits}-bit: not run, the time budget ($budget s) was spent")
      continue
    fi
    need=$(pair_kb "$w" "$h" "$bits" "$n")
    free=$(free_kb "$work")
    if [ "$need" -gt "$free" ]; then
      notes+=("${size} ${bits}-bit: skipped, the pair needs $((need / 1024)) MiB and $tmp has $((free / 1024)) MiB free")
      continue
    fi
    echo "bench/speed.sh: $(date -u +%H:%M:%S) writing the ${size} ${bits}-bit pair, $n frames" >&2
    "$synth" "$w" "$h" "$bits" "$n" "$work/ref.y4m" "$work/dist.y4m"
    pair=(-r "$work/ref.y4m" -d "$work/dist.y4m")
    if [ "$gpu_rows" = 1 ]; then
      timed command_row "vqx" cuda "$gpu_threads" "$ng" "$w" "$h" "$bits" \
        "$vqx" "${pair[@]}" "${model[@]}" --backend cuda --threads "$gpu_threads" -q
      timed api_row cuda "$gpu_threads" "$(frames_at "$api_frames" "$w" "$h")" "$w" "$h" "$bits"
      [ -z "$ref_cuda" ] || timed command_row "reference" cuda "$gpu_threads" "$ng" "$w" "$h" \
        "$bits" "$ref_cuda" "${pair[@]}" "${model[@]}" --threads "$gpu_threads" -q
    fi
    if [ "$cpu_rows" = 1 ]; then
      vqx_cmd=("$vqx" "${pair[@]}" "${model[@]}" --backend cpu --threads "$threads" -q)
      if [ -n "$ref_cpu" ]; then
        ref_cmd=("$ref_cpu" "${pair[@]}" "${model[@]}" --threads "$threads" -q)
        timed paired_cpu_rows "$threads" "$nc" "$w" "$h" "$bits"
      else
        timed command_row "vqx" cpu "$threads" "$nc" "$w" "$h" "$bits" "${vqx_cmd[@]}"
      fi
      timed api_row cpu "$threads" "$nc" "$w" "$h" "$bits"
    fi
    rm -f "$work/ref.y4m" "$work/dist.y4m"
  done
done
elapsed=$(awk -v s="$started" -v e="$(now)" 'BEGIN {printf "%.0f", e - s}')

# The table: each row against its target (issue 10's, for 8-bit 4:2:0 input;
# at 10 and 12 bits the 8-bit target is shown in parentheses), and vqx's rows
# against the reference's row of the same size, depth and backend.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 || true)
table() {
  echo "vmaf_v0.6.1, synthetic 4:2:0 Y4M pairs in $tmp; $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $cores cores${gpu:+, $gpu}; median of $runs runs; $elapsed s in all"
  echo "every row: steady state (N - 1) / (t_N - t_1); command rows: wall time; API rows: vqx_gpu_bench's own timing (the pair's first $api_sources frames, in memory)"
  [ -z "$ref_cpu" ] || echo "CPU rows: vqx's runs alternate with the reference's; \"paired\": the median of the $runs rounds' ratios (vqx's steady rate over the reference's of the same round), which decides \"met?\""
  echo
  echo "| run | size | bits | backend | threads | frames | fps | × reference | target | met? |"
  echo "|---|---|---|---|---|---|---:|---:|---|---|"
  awk -F'|' '
    { run[NR] = $1; size[NR] = $2; bits[NR] = $3; be[NR] = $4; th[NR] = $5; fr[NR] = $6; fps[NR] = $7; pr[NR] = $8
      if ($1 == "reference" && $7 ~ /^[0-9.]+$/) ref[$2 "|" $3 "|" $4] = $7 }
    function num(v) { return v ~ /^[0-9.]+$/ }
    END {
      for (i = 1; i <= NR; ++i) {
        key = size[i] "|" bits[i] "|" be[i]
        ratio = "-"
        paired = pr[i] != ""
        if (paired) ratio = sprintf("%.2fx paired", pr[i])
        else if (run[i] != "reference" && num(fps[i]) && (key in ref)) ratio = sprintf("%.2fx", fps[i] / ref[key])
        goal = ""; need = 0
        if (run[i] == "vqx" && be[i] != "cpu") {
          if (size[i] == "3840x2160") need = 600; else if (size[i] == "1920x1080") need = 2000
          if (need) goal = ">= " need " fps"
        } else if (run[i] == "vqx API" && be[i] != "cpu") {
          if (size[i] == "3840x2160") need = 2000; else if (size[i] == "1920x1080") need = 6000
          if (need) goal = ">= " need " fps"
        } else if (run[i] == "vqx" && be[i] == "cpu") {
          goal = ">= 2x reference"
          if (key in ref) { need = 2 * ref[key]; goal = goal sprintf(" (%.1f fps)", need) }
        }
        met = "-"
        if (goal != "" && num(fps[i])) met = need ? (fps[i] >= need ? "yes" : "no") : "no reference"
        # A paired ratio decides: the medians of the runs may come from different rounds.
        if (goal != "" && paired) met = pr[i] >= 2 ? "yes" : "no"
        if (goal != "" && bits[i] != 8) { goal = "(" goal ")"; met = "(" met ")" }
        if (goal == "") goal = "-"
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", run[i], size[i], bits[i], be[i], th[i], fr[i], fps[i], ratio, goal, met
      }
    }' "$rows"
  for note in "${notes[@]+"${notes[@]}"}"; do echo "$note"; done
}
table
if [ -n "$out" ]; then
  table >"$out"
  cp "$raw" "$out.runs"
fi
