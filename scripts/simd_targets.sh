#!/usr/bin/env bash
# Every CPU kernel target tested (docs/architecture.md, "CPU kernels: targets,
# dispatch and floating point"). For each x86-64 target VQX ships
# (cmake/CpuTargets.cmake: x86-64, x86-64-v3, x86-64-v4), a per-target build
# in build/target-<target>: the release preset with -DVQX_CPU_TARGET=<target>,
# whose kernels are compiled for that target alone, exactly as the release
# build's clone for it. Only the library and the kernel and corpus test
# binaries are built; the unit tests (the kernels against their reference
# forms) and the golden tests (CorpusParity, OracleRun, the bundled subset,
# ...) run where this CPU can execute the target. A target it cannot execute
# is compiled and reported as skipped, with the reason.
#
# Usage: scripts/simd_targets.sh [--ci] [TARGET...]   (default: every target)
#   --ci  as scripts/test.sh calls it, right after the release suite: the
#         target this CPU runs best is the clone the release build's loader
#         picked there, so the release suite has tested it already, and the
#         targets above it are compiled already, as the release build's
#         clones; only the targets below it get builds of their own.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

ci=0
if [ "${1:-}" = "--ci" ]; then
  ci=1
  shift
fi
read -r -a shipped <<<"$(cmake -P cmake/CpuTargets.cmake 2>&1)"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${shipped[@]}")

# What each level adds (the x86-64 psABI levels, as /proc/cpuinfo names the
# features; x86-64-v2's are part of v3's requirement).
declare -A level_flags=(
  [x86-64]=""
  [x86-64-v2]="cx16 lahf_lm popcnt pni sse4_1 sse4_2 ssse3"
  [x86-64-v3]="avx avx2 bmi1 bmi2 f16c fma abm movbe xsave"
  [x86-64-v4]="avx512f avx512bw avx512cd avx512dq avx512vl"
)
cpu_flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
cpu_name=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')

# The features of `target` (and the levels below it) this CPU lacks.
missing_flags() {
  local levels=(x86-64) missing=() l f
  case $1 in
    x86-64-v3) levels+=(x86-64-v2 x86-64-v3) ;;
    x86-64-v4) levels+=(x86-64-v2 x86-64-v3 x86-64-v4) ;;
  esac
  for l in "${levels[@]}"; do
    for f in ${level_flags[$l]}; do
      [[ $cpu_flags == *" $f "* ]] || missing+=("$f")
    done
  done
  echo "${missing[*]}"
}

# The instructions a build's kernels may hold: a baseline build none with
# ymm or zmm registers (AVX), an x86-64-v3 one ymm but no zmm (AVX-512), an
# x86-64-v4 one zmm. Checked on the library, so that a target's build is
# known to be that target's. The kernels written with Highway are left out:
# every build compiles them for each of Highway's targets (their functions
# are in namespaces N_AVX2, N_SSE4, ...) and their tests run each target the
# CPU has in one binary (tests/unit/simd_targets.hpp).
check_isa() {
  local target=$1 lib=$2 asm ymm zmm
  asm=$(objdump -d --no-show-raw-insn "$lib" |
    awk '/^[0-9a-f]+ <.*>:$/ { highway = ($0 ~ /N_(AVX2|AVX3|AVX3_DL|AVX3_ZEN4|SSE4|SSSE3|SCALAR|EMU128)/) }
         !highway')
  ymm=$(grep -c '%ymm' <<<"$asm" || true)
  zmm=$(grep -c '%zmm' <<<"$asm" || true)
  case $target in
    x86-64) [ "$ymm" -eq 0 ] && [ "$zmm" -eq 0 ] ;;
    x86-64-v3) [ "$ymm" -gt 0 ] && [ "$zmm" -eq 0 ] ;;
    x86-64-v4) [ "$zmm" -gt 0 ] ;;
  esac || {
    echo "simd_targets: $target: $lib holds $ymm ymm and $zmm zmm instructions: not a $target build" >&2
    return 1
  }
  echo "simd_targets: $target: the library holds $ymm ymm and $zmm zmm instructions, as a $target build should"
}

# The level of the clones the loader picks here (1, 3 or 4): GCC's own
# check, as target_clones' resolvers make it (__builtin_cpu_supports, from
# CPUID), not /proc/cpuinfo's flag names, which a hypervisor may leave out:
# the Zen 5 of 2026-12-04 lists no "abm", yet its loader picks the
# x86-64-v4 clones, and a check by names had it test the baseline's tests
# as "the clone the loader picks" and build no other target.
loader_level() {
  local probe rc=0
  probe=$(mktemp -d)
  cat >"$probe/level.c" <<'C'
int main(void) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4")) return 4;
  if (__builtin_cpu_supports("x86-64-v3")) return 3;
  return 1;
}
C
  cc -O0 -o "$probe/level" "$probe/level.c"
  "$probe/level" || rc=$?
  rm -rf "$probe"
  echo "$rc"
}
level_of() {  # as cmake/CpuTargets.cmake reads it: the -vN suffix, else 1
  if [[ $1 =~ -v([0-9])$ ]]; then echo "${BASH_REMATCH[1]}"; else echo 1; fi
}
cpu_level=$(loader_level)

# The best shipped target this CPU runs (for --ci).
best=x86-64
for t in "${shipped[@]}"; do
  [ "$(level_of "$t")" -le "$cpu_level" ] && best=$t
done

summary=()
for t in "${targets[@]}"; do
  lacks=""
  if [ "$(level_of "$t")" -gt "$cpu_level" ]; then
    lacks=$(missing_flags "$t")
    [ -n "$lacks" ] || lacks="$t, by its CPUID"
  fi
  if [ "$ci" = 1 ] && [ "$t" = "$best" ]; then
    summary+=("$t: tested by the release suite (the clone the loader picks on this CPU)")
    continue
  fi
  if [ "$ci" = 1 ] && [ -n "$lacks" ]; then
    summary+=("$t: skipped: this CPU ($cpu_name) cannot execute $t code (no $lacks); compiled as the release build's clones")
    continue
  fi
  dir=build/target-$t
  start=$(date +%s)
  cmake --preset release -B "$dir" -DVQX_CPU_TARGET="$t" >/dev/null
  cmake --build "$dir" -j "$jobs" --target vqx_unit_tests vqx_golden_tests
  check_isa "$t" "$dir/libvqx.a"
  built=$(($(date +%s) - start))
  if [ -n "$lacks" ]; then
    summary+=("$t: built ($built s); tests skipped: this CPU ($cpu_name) cannot execute $t code (no $lacks)")
    continue
  fi
  ctest --test-dir "$dir" -j "$jobs" -L '^(unit|golden)$' --output-on-failure
  summary+=("$t: built ($built s), unit and golden tests passed ($(($(date +%s) - start - built)) s)")
done

echo "simd_targets: CPU: $cpu_name"
for line in "${summary[@]}"; do echo "simd_targets: $line"; done
