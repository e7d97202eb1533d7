#!/usr/bin/env bash
# Records what the reference libvmaf 3.2.0 gives under FFmpeg 5.1's libvmaf
# filter on the corpus's pairs above 8 bits, where FFmpeg 5.1 hands libvmaf
# half-copied rows and the goldens do not apply (docs/capi.md, "10-bit
# pairs"). The files it writes, tests/data/ffmpeg51_libvmaf320/PAIR.json
# (the log's frames and pooled metrics), are what CApi.FFmpeg compares
# VQX's log with, frame by frame, as it compares 8-bit pairs with goldens.
#
# The ffmpeg is the test's own (tests/capi/ffmpeg_build.sh, built against
# VQX's libvmaf install) run with LD_LIBRARY_PATH naming the reference's
# libvmaf.so.3, as bench/ffmpeg_libvmaf.sh does; the filter options are the
# test's: log_fmt=json, n_threads=2, model=version=vmaf_v0.6.1.
#
# Usage: tests/capi/ffmpeg_reference_logs.sh REF_LIBDIR [CORPUS_DIR]
#   REF_LIBDIR: the folder holding the reference's libvmaf.so.3 (built
#     outside the repository from Netflix/vmaf tag v3.2.0 with meson)
#   CORPUS_DIR: default $VQX_CORPUS, else ../shared/corpus
#   BUILD=build/release (a VQX build with -DVQX_LIBVMAF_COMPAT=ON)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
ref_lib=$(realpath "$1")
corpus=${2:-${VQX_CORPUS:-../shared/corpus}}
build=${BUILD:-build/release}
out=tests/data/ffmpeg51_libvmaf320
[ -e "$ref_lib/libvmaf.so.3" ] || { echo "no libvmaf.so.3 in $ref_lib" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/vqx_ffref.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --component libvmaf >"$work/install.log"
ffmpeg=$(bash tests/capi/ffmpeg_build.sh "$work/prefix" | tail -1)
loaded=$(LD_LIBRARY_PATH=$ref_lib ldd "$ffmpeg" | awk '/libvmaf\.so\.3/ {print $3}')
[ "$(realpath "$loaded")" = "$(realpath "$ref_lib/libvmaf.so.3")" ] ||
  { echo "ffmpeg would load '$loaded', not the reference" >&2; exit 1; }

mkdir -p "$out"
/usr/bin/python3 - "$ffmpeg" "$ref_lib" "$corpus" "$out" "$work" <<'PY'
import json, os, subprocess, sys
ffmpeg, ref_lib, corpus, out, work = sys.argv[1:6]
m = json.load(open(os.path.join(corpus, "manifest.json")))
env = dict(os.environ, LD_LIBRARY_PATH=ref_lib)
version = subprocess.run([ffmpeg, "-hide_banner", "-version"], capture_output=True, text=True,
                         env=env).stdout.splitlines()[0]
for pid, p in sorted(m["pairs"].items()):
    if p["pix_fmt"] in ("yuv420p", "yuv422p", "yuv444p"):
        continue  # 8-bit: the goldens apply
    dist = os.path.join(corpus, m["clips"][p["dist"]]["file"])
    ref = os.path.join(corpus, m["clips"][p["ref"]]["file"])
    log = os.path.join(work, pid + ".json")
    graph = ("[0:v][1:v]libvmaf=log_fmt=json:log_path=%s:n_threads=2:model=version=vmaf_v0.6.1"
             % log)
    subprocess.run([ffmpeg, "-nostdin", "-hide_banner", "-i", dist, "-i", ref, "-lavfi", graph,
                    "-f", "null", "-"], check=True, capture_output=True, env=env)
    with open(log) as f:
        run = json.load(f)
    kept = {"made_by": "tests/capi/ffmpeg_reference_logs.sh: libvmaf %s (reference) under %s, "
                       "model=version=vmaf_v0.6.1, n_threads=2" % (run.get("version"), version),
            "pair": pid, "frames": run["frames"], "pooled_metrics": run["pooled_metrics"]}
    with open(os.path.join(out, pid + ".json"), "w") as f:
        json.dump(kept, f, indent=1)
        f.write("\n")
    print("%s: %d frames, vmaf mean %.6f -> %s" % (pid, len(run["frames"]),
          run["pooled_metrics"]["vmaf"]["mean"], os.path.join(out, pid + ".json")))
PY
