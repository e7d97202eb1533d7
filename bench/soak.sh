#!/usr/bin/env bash
# Soak test (docs/reliability.md): `vqx` scores a 20000-frame 640x360 pair
# generated on the fly (Y4M through two pipes, no disk space), and the peak
# RSS (VmHWM) is recorded at 1000, 5000, 10000, 15000 and 20000 frames. Fails
# if the peak at the end is 10 % or more above the peak at 1000 frames.
# Takes a few minutes (about 100 s of scoring on 2 cores).
#
#   bench/soak.sh [--frames N] [--threads T] [--width W --height H] [--vqx PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/vqx
for a in "$@"; do
  if [ "${prev:-}" = --vqx ]; then bin=$a; fi
  prev=$a
done
if [ ! -x "$bin" ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release --target vqx_cli
fi
have_vqx=0
for a in "$@"; do [ "$a" = --vqx ] && have_vqx=1; done
if ((have_vqx)); then
  exec python3 bench/soak.py "$@"
fi
exec python3 bench/soak.py --vqx "$bin" "$@"
