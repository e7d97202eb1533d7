#!/usr/bin/env bash
# FFmpeg 5.1's libvmaf filter (Debian 12's source package) on VQX's libvmaf:
# installs the libvmaf component of a VQX build into a temporary prefix,
# builds or takes the cached minimal FFmpeg against it (ffmpeg_build.sh),
# and checks its JSON logs against the goldens (ffmpeg_check.py).
#   ffmpeg_test.sh BUILD_DIR WORK_DIR SUBSET_DIR CORPUS_DIR VQX_CLI
# CORPUS_DIR: the corpus (VQX_CORPUS overrides it); a missing one is left out.
# Exit code 77 (skipped): FFmpeg's source cannot be fetched, or no data.
# VQX_FFMPEG_REQUIRED=1 (CI) turns those skips into failures.
set -euo pipefail
build=$1 work=$2 subset=$3 corpus=${VQX_CORPUS:-$4} cli=$5
here=$(cd "$(dirname "$0")" && pwd)
skip() {
  if [[ ${VQX_FFMPEG_REQUIRED:-0} == 1 ]]; then
    echo "FAIL (VQX_FFMPEG_REQUIRED=1): $*"
    exit 1
  fi
  echo "SKIP: $*"
  exit 77
}
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" --component libvmaf >"$work/install.log"
lib=$(dirname "$(find "$prefix" -name 'libvmaf.so.3' | head -1)")

status=0
ffmpeg=$(bash "$here/ffmpeg_build.sh" "$prefix" | tail -1) || status=$?
if ((status == 77)); then skip "FFmpeg's source package could not be fetched (see above)"; fi
((status == 0)) || { echo "the FFmpeg build failed"; exit 1; }
# The FFmpeg build records libvmaf by its SONAME only: the library of this
# VQX build is the one found at run time.
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
resolved=$(ldd "$ffmpeg" | awk '/libvmaf.so.3/ {print $3}')
[[ $(realpath "$resolved") == $(realpath "$lib/libvmaf.so.3") ]] ||
  { echo "ffmpeg resolves libvmaf.so.3 to '$resolved', not $lib"; exit 1; }
echo "ffmpeg: $ffmpeg (libvmaf: $resolved)"
# A sanitizer build's libvmaf needs its runtimes loaded first in the
# (uninstrumented) ffmpeg: they are preloaded into the ffmpeg runs only.
preload=$(ldd "$lib/libvmaf.so.3" | awk '$1 ~ /^lib(a|ub)san\.so/ {printf "%s ", $3}')
if [[ -n $preload ]]; then
  export VQX_FFMPEG_PRELOAD=${preload% }
  echo "sanitizer runtimes preloaded into ffmpeg: $VQX_FFMPEG_PRELOAD"
fi
[[ -d $corpus ]] || corpus=-
status=0
/usr/bin/python3 "$here/ffmpeg_check.py" "$ffmpeg" "$work/runs" "$subset" "$corpus" "$cli" || status=$?
if ((status == 77)); then skip "no 8-bit pair to run"; fi
exit $status
