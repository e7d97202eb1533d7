#!/usr/bin/env bash
# The files vmaf_write_output() wrote in CApi.Golden are the vqx CLI's, byte
# for byte, for the same pair, models and features (the fps line aside: it
# is a measured speed).
#   same_files_as_cli.sh VQX_CLI DATA_DIR MODELS_DIR OUT_DIR
set -euo pipefail
cli=$1 data=$2 models=$3 out=$4
ref=$data/P9_tiny_176x144_420p8.y4m
dist=$data/P9_tiny_176x144_420p8__x264-crf45.y4m
if [[ ! -f $ref || ! -f $dist ]]; then
  echo "SKIP: the P9 pair of the corpus subset is not there"
  exit 77
fi
# What capi_test.c's test_golden() registers, as the CLI says it.
args=(--model version=vmaf_v0.6.1:name=vmaf_v0.6.1
      --model "path=$models/vmaf_4k_v0.6.1.json:name=vmaf_4k_v0.6.1"
      --model version=vmaf_v0.6.1:name=vmaf_v0.6.1neg:vif.vif_enhn_gain_limit=1.0:adm.adm_enhn_gain_limit=1.00
      --model version=vmaf_b_v0.6.3:name=vmaf_b_v0.6.3
      --feature adm=debug=true --feature float_ssim --threads 2)
status=0
for fmt in xml json csv sub; do
  "$cli" -r "$ref" -d "$dist" "${args[@]}" -o "$out/cli.$fmt" "--$fmt" >/dev/null
  if ! diff <(grep -v 'fps' "$out/cli.$fmt") <(grep -v 'fps' "$out/out.$fmt") >"$out/diff.$fmt"; then
    echo "$fmt: the API's file differs from the CLI's:"
    head -20 "$out/diff.$fmt"
    status=1
  else
    echo "$fmt: identical ($(wc -l <"$out/out.$fmt") lines)"
  fi
done
exit $status
