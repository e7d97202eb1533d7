#!/usr/bin/python3
"""FFmpeg 5.1's libvmaf filter on VQX's libvmaf against the goldens.

Runs `ffmpeg -i dist -i ref -lavfi "[0:v][1:v]libvmaf=log_fmt=json:..."` on
8-bit pairs (the bundled corpus subset; the corpus when it is there) with one
model, two models and the filter's feature= option, and compares the JSON log
(libvmaf's format, values printed with %.6f) with the goldens:
  * integer features (integer_*, VMAF_integer_feature_*, psnr_y): the printed
    text equals the golden rounded to 6 decimals (%.6f), i.e. exact at the
    printed precision;
  * vmaf_v0.6.1 / vmaf_v0.6.1neg: within 1e-9 of the full-precision golden,
    plus half a unit of the 6th decimal (the print);
  * float features (float_ssim, float_ms_ssim, and the float model features):
    relative 1e-5 (tests/golden/oracle_runs_test.cpp), plus the print.
Per frame and pooled (min, max, mean, harmonic_mean), and FFmpeg's own
"VMAF score: %f" line (the pooled mean). On the subset the feature= run is
compared with the vqx CLI's JSON for the same pair and features (the subset
has no feature goldens; the CLI is checked against them elsewhere).

  ffmpeg_check.py FFMPEG WORK_DIR SUBSET_DIR CORPUS_DIR|- VQX_CLI|-
VQX_FFMPEG_PRELOAD: LD_PRELOAD for the ffmpeg runs (sanitizer runtimes).
VQX_FFMPEG_PAIRS: a comma-separated list of corpus pairs to run (all 8-bit ones
by default).
"""
import json
import os
import re
import subprocess
import sys
import time

ffmpeg, work, subset, corpus, cli = sys.argv[1:6]
os.makedirs(work, exist_ok=True)
failures = []
# A sanitizer build's libvmaf in an uninstrumented FFmpeg: the sanitizer
# runtimes preloaded into ffmpeg only (VQX_FFMPEG_PRELOAD, set by CMake).
ffmpeg_env = dict(os.environ)
if os.environ.get("VQX_FFMPEG_PRELOAD"):
    ffmpeg_env["LD_PRELOAD"] = os.environ["VQX_FFMPEG_PRELOAD"]
checked = {"values": 0, "runs": 0}


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def is_integer_feature(name):
    return (name.startswith("integer_") or name.startswith("VMAF_integer_feature")
            or name in ("psnr_y", "psnr_cb", "psnr_cr"))


def close(name, text, golden):
    """True when the printed value `text` matches the golden double."""
    ours = float(text)
    decimals = len(text.split(".")[1]) if "." in text else 0
    if is_integer_feature(name):
        return ours == float("%.*f" % (decimals, golden))
    slack = 0.5 * 10.0 ** -decimals * (1 + 1e-12)
    if name.startswith("vmaf"):
        return abs(ours - golden) <= 1e-9 + slack
    return abs(ours - golden) <= 1e-5 * abs(golden) + slack


def load_text(path):
    """The JSON with every number kept as its printed text."""
    with open(path) as f:
        return json.load(f, parse_float=str, parse_int=str)


def run_ffmpeg(tag, dist, ref, options, expect_failure=False):
    log = os.path.join(work, tag + ".json")
    graph = "[0:v][1:v]libvmaf=log_fmt=json:log_path=%s:n_threads=2:%s" % (log, options)
    cmd = [ffmpeg, "-nostdin", "-hide_banner", "-i", dist, "-i", ref, "-lavfi", graph, "-f", "null", "-"]
    start = time.time()
    env = dict(ffmpeg_env)
    if expect_failure and "VQX_FFMPEG_PRELOAD" in env:
        # FFmpeg 5.1 leaks on this error path: when vmaf_read_pictures fails,
        # its do_vmaf returns without unreferencing the two pictures (which
        # stay the caller's on an error, in libvmaf as here) and the frames.
        # Leak checking is off for this run only; other reports still fail.
        env["ASAN_OPTIONS"] = "detect_leaks=0" + (":" + env["ASAN_OPTIONS"] if env.get("ASAN_OPTIONS") else "")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    seconds = time.time() - start
    if "Sanitizer" in p.stderr:
        fail("%s: a sanitizer report: %s" % (tag, p.stderr[-3000:]))
        return None, None
    if expect_failure:
        if p.returncode == 0:
            fail("%s: ffmpeg succeeded where libvmaf fails" % tag)
        else:
            print("%s: ffmpeg failed, as with libvmaf: %s" % (tag, "; ".join(
                l for l in p.stderr.splitlines() if "libvmaf ERROR" in l)))
            checked["runs"] += 1
        return None, None
    if p.returncode != 0:
        fail("%s: ffmpeg exited %d: %s" % (tag, p.returncode, p.stderr[-1500:]))
        return None, None
    scores = re.findall(r"VMAF score: (\S+)", p.stderr)
    print("%s: ffmpeg ran in %.2f s" % (tag, seconds))
    checked["runs"] += 1
    return load_text(log), scores


def compare(tag, out, golden, names, frames, pooled, scores_line=None, score_name=None):
    """names: {name in our log: name in the golden}."""
    got = out["frames"]
    if len(got) != len(golden["frames"]) and pooled:
        fail("%s: %d frames, the golden has %d" % (tag, len(got), len(golden["frames"])))
        return
    for i in range(frames):
        ours, gold = got[i]["metrics"], golden["frames"][i]["metrics"]
        for n, g in names.items():
            if n not in ours:
                fail("%s: frame %d lacks %s" % (tag, i, n))
                continue
            checked["values"] += 1
            if not close(g, ours[n], gold[g]):
                fail("%s: frame %d %s: ours %s, golden (%s) %.17g" % (tag, i, n, ours[n], g, gold[g]))
    if pooled:
        for n, g in names.items():
            for stat in ("min", "max", "mean", "harmonic_mean"):
                o = out["pooled_metrics"].get(n, {}).get(stat)
                gv = golden["pooled_metrics"][g][stat]
                checked["values"] += 1
                if o is None or not close(g, o, gv):
                    fail("%s: pooled %s %s: ours %s, golden %.17g" % (tag, n, stat, o, gv))
        if scores_line is not None:
            want = "%f" % golden["pooled_metrics"][score_name]["mean"]
            if scores_line != [want] and not all(close(score_name, s, golden["pooled_metrics"][score_name]["mean"]) for s in scores_line):
                fail("%s: ffmpeg printed VMAF score %s, golden mean %s" % (tag, scores_line, want))


def model_names(out, golden, renames):
    """Every metric our log has that the golden has too, with renames."""
    names = {}
    for n in out["frames"][0]["metrics"]:
        g = renames.get(n, n)
        if g in golden["frames"][0]["metrics"]:
            names[n] = g
    for n in renames:
        if n not in names:
            fail("no %s in the log" % n)
    return names


def check_pair(pid, dist, ref, models_golden, features_golden, frames, pooled):
    gm = json.load(open(models_golden))
    # One model, as the filter's default names it ("vmaf").
    out, scores = run_ffmpeg(pid + ".one_model", dist, ref, "model=version=vmaf_v0.6.1")
    if out:
        names = model_names(out, gm, {"vmaf": "vmaf_v0.6.1"})
        compare(pid + ".one_model", out, gm, names, frames, pooled, scores, "vmaf_v0.6.1")
        print("%s.one_model: compared %s" % (pid, ", ".join(sorted(names))))
    # Two models in one context, named by the model option (FFmpeg's
    # escaping: '|' separates models, '\:' keeps the ':' inside the option).
    out, scores = run_ffmpeg(pid + ".two_models", dist, ref,
                             r"model=version=vmaf_v0.6.1\\:name=a|version=vmaf_v0.6.1neg\\:name=b")
    if out:
        names = model_names(out, gm, {"a": "vmaf_v0.6.1", "b": "vmaf_v0.6.1neg"})
        compare(pid + ".two_models", out, gm, names, frames, pooled)
        print("%s.two_models: compared %s" % (pid, ", ".join(sorted(names))))
    # The feature= option, with the default model.
    feats = ["psnr", "float_ssim", "float_ms_ssim"]
    tag = pid + ".features"
    w, h = map(int, re.search(r"_(\d+)x(\d+)_", os.path.basename(ref)).groups())
    if min(w, h) < 176:
        # MS-SSIM's five scales with the 11x11 window need 176x176 at least:
        # libvmaf 3.2.0 refuses smaller pictures (its float_ms_ssim init
        # returns -EINVAL, and the golden has no float_ms_ssim); so must VQX,
        # and FFmpeg then fails. The run goes on without float_ms_ssim.
        _, _ = run_ffmpeg(tag + ".ms_ssim_refused", dist, ref, "feature=name=float_ms_ssim", expect_failure=True)
        feats.remove("float_ms_ssim")
    out, scores = run_ffmpeg(tag, dist, ref, "feature=" + "|".join("name=" + f for f in feats))
    if not out:
        return
    want = {"psnr_y", "psnr_cb", "psnr_cr", "vmaf"} | {f for f in feats if f != "psnr"}
    missing = want - set(out["frames"][0]["metrics"])
    if missing:
        fail("%s: the log lacks %s" % (tag, sorted(missing)))
    if features_golden:
        gf = json.load(open(features_golden))
        fnames = {n: n for n in ("psnr_y", "psnr_cb", "psnr_cr", "float_ssim", "float_ms_ssim")
                  if n in out["frames"][0]["metrics"]}
        compare(tag, out, gf, fnames, frames, pooled)
        names = model_names(out, gm, {"vmaf": "vmaf_v0.6.1"})
        compare(tag, out, gm, names, frames, pooled, scores, "vmaf_v0.6.1")
        print("%s: compared %s with %s, vmaf and %d model features with %s" %
              (tag, ", ".join(fnames), os.path.basename(features_golden), len(names) - 1,
               os.path.basename(models_golden)))
    elif cli != "-":
        # The vqx CLI, same pair, same model and features as the filter
        # registers them, same order (feature=name=psnr passes no option:
        # psnr_cb and psnr_cr are on, as in libvmaf).
        ref_json = os.path.join(work, tag + ".cli.json")
        cmd = [cli, "-r", ref, "-d", dist, "--model", "version=vmaf_v0.6.1:name=vmaf",
               "--feature", "psnr", "--feature", "float_ssim"] + (
               ["--feature", "float_ms_ssim"] if "float_ms_ssim" in feats else []) + [ "--threads", "2", "--json", "-o", ref_json]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            fail("%s: the vqx CLI exited %d: %s" % (tag, p.returncode, p.stderr[-800:]))
            return
        c = load_text(ref_json)
        cframes = [f["metrics"] for f in c["frames"]]
        if [f["metrics"] for f in out["frames"]] != cframes or out["pooled_metrics"] != c["pooled_metrics"]:
            fail("%s: ffmpeg's log differs from the vqx CLI's (%s)" % (tag, ref_json))
        else:
            checked["values"] += sum(len(f) for f in cframes)
            print("%s: per-frame and pooled values identical to the vqx CLI's (%d frames, %s)" %
                  (tag, len(cframes), ", ".join(c["frames"][0]["metrics"])))
        # And the model's values with the golden.
        names = model_names(out, gm, {"vmaf": "vmaf_v0.6.1"})
        compare(tag, out, gm, names, frames, pooled, scores, "vmaf_v0.6.1")


# Above 8 bits FFmpeg 5.1's filter hands libvmaf pictures of which only the
# first half of each row is copied (memcpy of w bytes for w 16-bit samples),
# so the goldens do not apply. What libvmaf 3.2.0 gives under the same
# FFmpeg 5.1 (the same ffmpeg program run on the reference library) is
# recorded by tests/capi/ffmpeg_reference_logs.sh in REFERENCE_LOGS/PAIR.json:
# VQX's log must equal it frame by frame, with the goldens' tolerances.
REFERENCE_LOGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                              "ffmpeg51_libvmaf320")


def reference_log(pid):
    path = os.path.join(REFERENCE_LOGS, pid + ".json")
    return json.load(open(path)) if os.path.exists(path) else None


def check_10bit(pid, dist, ref, reference):
    tag = "corpus.%s.one_model_10bit" % pid
    out, scores = run_ffmpeg(tag, dist, ref, "model=version=vmaf_v0.6.1")
    if out is None:
        return
    names = {n: n for n in reference["frames"][0]["metrics"]}
    compare(tag, out, reference, names, len(reference["frames"]), True, scores, "vmaf")
    print("%s: %d frames of %s compared with libvmaf 3.2.0 under the same FFmpeg 5.1" %
          (tag, len(reference["frames"]), ", ".join(sorted(names))))


def main():
    ran = 0
    manifest = os.path.join(subset, "manifest.json")
    sub = json.load(open(manifest)) if os.path.exists(manifest) else {"pairs": {}}
    for pid, p in sorted(sub["pairs"].items()):
        ref, dist = os.path.join(subset, p["ref"]), os.path.join(subset, p["dist"])
        if not (os.path.exists(ref) and os.path.exists(dist)):
            print("subset %s: not there" % pid)
            continue
        frames = p["frames"] - (1 if p["truncated"] else 0)
        check_pair("subset." + pid, dist, ref, os.path.join(subset, p["golden"]), None,
                   frames, not p["truncated"])
        ran += 1
    if corpus != "-" and os.path.exists(os.path.join(corpus, "manifest.json")):
        m = json.load(open(os.path.join(corpus, "manifest.json")))
        only = os.environ.get("VQX_FFMPEG_PAIRS")
        for pid, p in sorted(m["pairs"].items()):
            if only and pid not in only.split(","):
                continue
            if p["pix_fmt"] not in ("yuv420p", "yuv422p", "yuv444p"):
                dist = os.path.join(corpus, m["clips"][p["dist"]]["file"])
                ref = os.path.join(corpus, m["clips"][p["ref"]]["file"])
                reference = reference_log(pid)
                if reference is not None:
                    check_10bit(pid, dist, ref, reference)
                    ran += 1
                else:
                    fail("corpus %s: %s, not 8-bit, and no log of the reference under FFmpeg 5.1 in "
                         "%s (tests/capi/ffmpeg_reference_logs.sh makes it)" %
                         (pid, p["pix_fmt"], REFERENCE_LOGS))
                continue
            fp = os.path.join(corpus, "golden_fullprec")
            check_pair("corpus." + pid, os.path.join(corpus, m["clips"][p["dist"]]["file"]),
                       os.path.join(corpus, m["clips"][p["ref"]]["file"]),
                       os.path.join(fp, pid + ".models.json"), os.path.join(fp, pid + ".features.json"),
                       p["frames"], True)
            ran += 1
    else:
        print("corpus: not there (set VQX_CORPUS): only the bundled subset was run")
    print("%d pairs, %d ffmpeg runs, %d values compared, %d failures" %
          (ran, checked["runs"], checked["values"], len(failures)))
    if ran == 0:
        print("SKIP: no pair to run")
        return 77
    return 1 if failures else 0


sys.exit(main())
