#!/usr/bin/env bash
# ctest bench_speed (label bench, VQX_BUILD_BENCH=ON): the speed table's
# parts on a small pair, here, without a GPU.
#  1. vqx_synth_y4m writes exactly the bytes its header promises (8 and 10
#     bits), and the content is not trivial: scored by vqx, motion is above
#     zero after the first frame, VIF below 1 and VMAF between 20 and 99.
#  2. bench/speed.sh prints a row with a rate for the command and the API on
#     the CPU, and cuda rows that say why they did not run (no device here,
#     or no backend in this build); with a reference (vqx standing in for
#     it), the paired CPU rows: both rates, vqx's ratio from three rounds.
#  3. vqx_gpu_bench's timed frames are matched source pairs (below).
# Usage: bench/speed_test.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/vqx_speed_test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

w=176 h=144 n=6
for bits in 8 10; do
  "$build/bench/vqx_synth_y4m" "$w" "$h" "$bits" "$n" "$work/ref.y4m" "$work/dist.y4m"
  bps=$((bits > 8 ? 2 : 1))
  chroma=$([ "$bits" = 8 ] && echo 420jpeg || echo "420p$bits")
  header="YUV4MPEG2 W$w H$h F25:1 Ip A1:1 C$chroma"
  for f in ref dist; do
    [ "$(head -n 1 "$work/$f.y4m")" = "$header" ] || fail "$f header: $(head -n 1 "$work/$f.y4m")"
    want=$((${#header} + 1 + n * (6 + bps * (w * h + 2 * (w / 2) * (h / 2)))))
    got=$(stat -c %s "$work/$f.y4m")
    [ "$got" = "$want" ] || fail "$bits-bit $f: $got bytes, expected $want"
  done
  cmp -s "$work/ref.y4m" "$work/dist.y4m" && fail "$bits-bit: distorted equals reference"
  "$build/vqx" -r "$work/ref.y4m" -d "$work/dist.y4m" --backend cpu -q --json -o "$work/out.json"
  /usr/bin/python3 - "$work/out.json" "$bits" <<'PY' || fail "$bits-bit: content check"
import json, sys
d = json.load(open(sys.argv[1]))
frames = d["frames"]
motion = [f["metrics"]["integer_motion2"] for f in frames]
vif = [f["metrics"]["integer_vif_scale0"] for f in frames]
vmaf = d["pooled_metrics"]["vmaf"]["mean"]
print(f"{sys.argv[2]}-bit: motion2 {motion}, vif_scale0 {vif[0]:.3f}, vmaf {vmaf:.2f}")
ok = all(m > 0.5 for m in motion[1:]) and all(v < 0.95 for v in vif) and 20 < vmaf < 99
sys.exit(0 if ok else 1)
PY
done

# 256 frames a CPU row (--cpu-frames 64, times 4 at this size): the steady rate
# is the N-frame run less the one-frame run, and at 64 frames (30 ms) a
# loaded machine's start-up noise could make the difference negative.
bash bench/speed.sh --build "$build" --sizes "${w}x$h" --bits 8 --cpu-frames 64 --gpu-frames 2 --runs 3 \
  --threads 2 >"$work/table.md" 2>"$work/log"
cat "$work/table.md"
grep -Eq "^\| vqx \| ${w}x$h \| 8 \| cpu \| 2 \| [0-9]+ \| [0-9]+\.[0-9] \|" "$work/table.md" ||
  fail "no vqx cpu row with a rate"
grep -Eq "^\| vqx API \| ${w}x$h \| 8 \| cpu \| 2 \| [0-9]+ \| [0-9]+\.[0-9] \|" "$work/table.md" ||
  fail "no vqx API cpu row with a rate"
grep -Eq "^\| vqx \| ${w}x$h \| 8 \| cuda \| 8 \| [0-9]+ \| skipped: .*cuda" "$work/table.md" ||
  fail "the cuda row does not say why it was skipped"
# The paired CPU rows (--ref-cpu): vqx stands in for the reference (it takes
# the vmaf command's flags), so both rows have a rate, and vqx's "× reference"
# is the median of the rounds' ratios of two runs of one program: near 1.
vqx_path=$(cd "$build" && pwd)/vqx
cat >"$work/stand_in_vmaf" <<EOF
#!/bin/sh
exec "$vqx_path" --backend cpu "\$@"
EOF
chmod +x "$work/stand_in_vmaf"
bash bench/speed.sh --build "$build" --backend cpu --sizes "${w}x$h" --bits 8 --cpu-frames 64 \
  --runs 3 --threads 2 --ref-cpu "$work/stand_in_vmaf" --out "$work/paired.md" >/dev/null 2>"$work/log"
cat "$work/paired.md"
grep -Eq "^\| reference \| ${w}x$h \| 8 \| cpu \| 2 \| [0-9]+ \| [0-9]+\.[0-9] \|" "$work/paired.md" ||
  fail "no reference cpu row with a rate"
ratio=$(sed -nE "s/^\| vqx \| ${w}x$h \| 8 \| cpu \| 2 \| [0-9]+ \| [0-9.]+ \| ([0-9.]+)x paired \|.*/\1/p" \
  "$work/paired.md")
[ -n "$ratio" ] || fail "no paired ratio in the vqx cpu row"
awk -v r="$ratio" 'BEGIN {exit !(r > 0.25 && r < 4)}' || fail "paired ratio $ratio of vqx against itself"
[ "$(grep -c "^paired ratios (vqx / reference), ${w}x$h 8-bit cpu threads 2: [0-9.]* [0-9.]* [0-9.]* $" \
  "$work/paired.md.runs")" = 1 ] || fail "the rounds' ratios are not in the runs file"
# 3. The API rows' timed frames are the sources' own pairs: with 8 threads
#    the pool gives pictures back out of order, and the benchmark must still
#    hand the context a reference with its own distortion. The timed frames'
#    mean PSNR lies within the four source pairs' PSNRs (before the
#    forty-second session it paired pictures as they came: 21.7 to 29.8 dB
#    where the pairs score 34.35 +- 0.01).
"$build/bench/vqx_synth_y4m" "$w" "$h" 8 4 "$work/ref.y4m" "$work/dist.y4m"
"$build/vqx" -r "$work/ref.y4m" -d "$work/dist.y4m" --backend cpu --feature psnr -n -q --json \
  -o "$work/psnr.json"
mean=$("$build/bench/gpu/vqx_gpu_bench" --backend cpu --threads 8 --input "$work/ref.y4m" \
  "$work/dist.y4m" --input-frames 4 --frames 64 --feature psnr --mean psnr_y |
  sed -nE 's/^mean psnr_y ([0-9.]+)$/\1/p')
[ -n "$mean" ] || fail "vqx_gpu_bench printed no mean psnr_y"
/usr/bin/python3 - "$work/psnr.json" "$mean" <<'PY' || fail "the API's timed frames are not the source pairs"
import json, sys
v = [f["metrics"]["psnr_y"] for f in json.load(open(sys.argv[1]))["frames"]]
mean = float(sys.argv[2])
print(f"source pairs' psnr_y {min(v):.4f} .. {max(v):.4f}, the timed frames' mean {mean:.4f}")
sys.exit(0 if min(v) - 1e-4 <= mean <= max(v) + 1e-4 else 1)
PY
echo "bench_speed: passed"
