#!/usr/bin/env bash
# Builds VQX (release) and scores the bundled sample pair with vmaf_v0.6.1.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
cmake --build --preset release --target vqx_cli
sample=tests/data/corpus_subset
./build/release/vqx -r $sample/P9_tiny_176x144_420p8.y4m -d $sample/P9_tiny_176x144_420p8__x264-crf45.y4m \
  --json -o build/release/sample.json
echo "per-frame scores: build/release/sample.json"
