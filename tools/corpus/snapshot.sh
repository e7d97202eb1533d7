#!/usr/bin/env bash
# Replays every run the reference made on the corpus (the --feature and -m
# arguments of the command lines recorded in manifest.json) with a given vqx
# binary, writing each output as JSON with every digit (--precision max) to
# OUT_DIR/<pair>.<run>.json. A change that must not change any number (a
# refactor) is checked by comparing a snapshot taken before it with one taken
# after it: `cmp` per file, or `diff -r` (docs/architecture.md).
#
#   tools/corpus/snapshot.sh build/release/vqx /tmp/before [corpus_dir]
set -euo pipefail
vqx=$(realpath "$1")
out=$(mkdir -p "$2" && realpath "$2")
corpus=$(realpath "${3:-${VQX_CORPUS:-$(dirname "$0")/../../../shared/corpus}}")
py=/usr/bin/python3  # Debian's interpreter (scripts name the one they use)

# One line per run: name, reference file, distorted file, then the arguments.
"$py" - "$corpus" > "$out/.runs" <<'PY'
import json, shlex, sys
root = sys.argv[1]
m = json.load(open(f"{root}/manifest.json"))
for pair, p in m["pairs"].items():
    ref, dist = m["clips"][p["ref"]]["file"], m["clips"][p["dist"]]["file"]
    for run, g in p["goldens"].items():
        if g.get("status") != "ok":
            continue
        toks = shlex.split(g["cli"])
        args = []
        for i, t in enumerate(toks[:-1]):
            if t in ("--feature", "-m", "--model"):
                args += [t, toks[i + 1]]
        print("\t".join([f"{pair}.{run}", f"{root}/{ref}", f"{root}/{dist}"] + args))
PY
n=0
while IFS=$'\t' read -r -a f; do
  "$vqx" -r "${f[1]}" -d "${f[2]}" --threads 2 -q --json --precision max \
    -o "$out/${f[0]}.json" "${f[@]:3}" > /dev/null
  sed -i '/^  "fps": /d' "$out/${f[0]}.json"  # the speed of this run: not a result
  n=$((n + 1))
done < "$out/.runs"
rm "$out/.runs"
echo "snapshot: $n runs written to $out"
