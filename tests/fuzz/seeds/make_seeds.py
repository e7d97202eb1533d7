#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/seeds/<target>/).

Run from anywhere: python3 tests/fuzz/seeds/make_seeds.py. Deterministic; the
libav seeds need `ffmpeg` (they are kept in the repo, so only regenerating
them does). Every seed is small (a few KB at most): libFuzzer mutates them.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def write(target, name, data):
    d = os.path.join(HERE, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def plane_sizes(w, h, chroma):
    cw, ch = (w + 1) // 2, (h + 1) // 2
    return {
        "420": [(w, h), (cw, ch), (cw, ch)],
        "422": [(w, h), (cw, h), (cw, h)],
        "444": [(w, h), (w, h), (w, h)],
        "400": [(w, h)],
    }[chroma]


def payload(w, h, chroma, bpc, seed, alpha=False):
    out = bytearray()
    x = seed * 2654435761 & 0xFFFFFFFF
    planes = plane_sizes(w, h, chroma) + ([(w, h)] if alpha else [])
    for pw, ph in planes:
        for i in range(pw * ph):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            v = (i * 7 + (x >> 16)) % (1 << bpc)
            out += struct.pack("<H", v) if bpc > 8 else bytes([v])
    return bytes(out)


def y4m(header, frames):
    out = ("YUV4MPEG2 " + header + "\n").encode()
    for fh, data in frames:
        out += ("FRAME" + fh + "\n").encode() + data
    return out


def y4m_seeds():
    write("y4m", "420_8x8_2frames.y4m",
          y4m("W8 H8 F25:1 Ip A1:1 C420jpeg XYSCSS=420JPEG",
              [("", payload(8, 8, "420", 8, 1)), ("", payload(8, 8, "420", 8, 2))]))
    write("y4m", "420p10_5x3_odd.y4m",
          y4m("W5 H3 F30000:1001 C420p10 XCOLORRANGE=LIMITED", [("", payload(5, 3, "420", 10, 3))]))
    write("y4m", "422_4x2.y4m", y4m("W4 H2 C422", [(" Ixyz", payload(4, 2, "422", 8, 4))]))
    write("y4m", "444p12_3x3.y4m", y4m("W3 H3 C444p12 It", [("", payload(3, 3, "444", 12, 5))]))
    write("y4m", "444p16_2x2.y4m", y4m("W2 H2 C444p16", [("", payload(2, 2, "444", 16, 6))]))
    write("y4m", "444alpha_2x2.y4m", y4m("W2 H2 C444alpha", [("", payload(2, 2, "444", 8, 7, True))]))
    write("y4m", "mono_4x4.y4m", y4m("W4 H4 Cmono", [("", payload(4, 4, "400", 8, 8))]))
    write("y4m", "mono16_2x2.y4m", y4m("W2 H2 Cmonop16", [("", payload(2, 2, "400", 16, 9))]))
    write("y4m", "yscss_422.y4m", y4m("W2 H2 XYSCSS=422", [("", payload(2, 2, "422", 8, 10))]))
    write("y4m", "no_frames.y4m", y4m("W16 H16", []))
    write("y4m", "truncated_frame.y4m", y4m("W8 H8", [("", payload(8, 8, "420", 8, 11)[:40])]))
    write("y4m", "huge_header.y4m", y4m("W16384 H16384 C444p16", [("", b"\0" * 16)]))
    write("y4m", "sample_above_depth.y4m", y4m("W2 H2 C420p10", [("", b"\xff" * 12)]))
    write("y4m", "c411.y4m", y4m("W4 H4 C411", []))


def raw_seeds():
    def params(w, h, bpc, fmt):
        return struct.pack("<HHBB", w, h, bpc, ["420", "422", "444", "400"].index(fmt))
    write("raw", "420_8x8_2frames", params(8, 8, 8, "420") + payload(8, 8, "420", 8, 1) * 2)
    write("raw", "420p10_5x3", params(5, 3, 10, "420") + payload(5, 3, "420", 10, 2))
    write("raw", "422p12_3x2", params(3, 2, 12, "422") + payload(3, 2, "422", 12, 3))
    write("raw", "444p16_2x2", params(2, 2, 16, "444") + payload(2, 2, "444", 16, 4))
    write("raw", "400_4x4", params(4, 4, 8, "400") + payload(4, 4, "400", 8, 5))
    write("raw", "truncated", params(8, 8, 8, "420") + payload(8, 8, "420", 8, 6)[:50])
    write("raw", "huge", params(65535, 65535, 8, "444") + b"\0" * 8)
    write("raw", "above_depth", params(2, 2, 9, "400") + b"\xff" * 8)


def trimmed_model(path, n_sv=3):
    with open(os.path.join(REPO, "models", path)) as f:
        m = json.load(f)
    md = m["model_dict"]
    lines = md["model"].split("\n")
    sv = lines.index("SV")
    head = [l if not l.startswith("total_sv") else "total_sv %d" % n_sv for l in lines[:sv + 1]]
    md["model"] = "\n".join(head + lines[sv + 1:sv + 1 + n_sv]) + "\n"
    m.pop("param_dict", None)
    md.pop("feature_dict", None)
    return m


def model_seeds():
    def put(name, flags, obj):
        write("model_json", name, bytes([flags]) + json.dumps(obj, indent=1).encode())
    put("vmaf_v0.6.1_3sv.json", 0, trimmed_model("vmaf_v0.6.1.json"))
    put("vmaf_v0.6.1neg_3sv_overloads.json", 4 | 8, trimmed_model("vmaf_v0.6.1neg.json"))
    put("vmaf_float_3sv_noclip.json", 1, trimmed_model("vmaf_float_v0.6.1.json"))
    hfr = trimmed_model("vmaf_v1.0.16_hfr/vmaf_v1.0.16_hfr_5d0h.json", 2)
    put("hfr_chroma_correction.json", 2, hfr)
    knots = trimmed_model("vmaf_v0.6.1.json", 2)
    knots["model_dict"]["score_transform"] = {"enabled": True, "p0": None, "p1": 1.0,
                                               "knots": [[0, 0], [50, 60], [100, 100]],
                                               "out_lte_in": "false"}
    put("knots_transform.json", 0, knots)
    none_norm = trimmed_model("vmaf_v0.6.1.json", 2)
    none_norm["model_dict"]["norm_type"] = "none"
    put("norm_none.json", 0, none_norm)
    boot = {}
    for i in range(3):
        member = trimmed_model("vmaf_v0.6.1.json", 2)
        member["model_dict"]["model_type"] = "BOOTSTRAP_LIBSVMNUSVR"
        boot[str(i)] = member
    put("bootstrap_3.json", 0, boot)
    residue = {}
    for i in range(2):
        member = trimmed_model("vmaf_float_v0.6.1.json", 1)
        member["model_dict"]["model_type"] = "RESIDUEBOOTSTRAP_LIBSVMNUSVR"
        residue[str(i)] = member
    put("residue_bootstrap_2.json", 3, residue)


def cli_seeds():
    def put(name, args):
        write("cli", name, b"\0".join(a.encode() for a in args))
    put("y4m", ["-r", "ref.y4m", "-d", "dist.y4m"])
    put("raw_json", ["-r", "r.yuv", "-d", "d.yuv", "-w", "1920", "-h", "1080", "-p", "420",
                     "-b", "10", "--json", "-o", "out.json", "--threads", "4"])
    put("models", ["--reference", "a", "--distorted", "b", "-m", "version=vmaf_v0.6.1neg",
                   "-m", "version=vmaf_4k_v0.6.1:name=4k", "--feature", "psnr", "--precision", "max",
                   "--subsample", "2", "--frame_cnt", "10", "--frame_skip_ref", "1",
                   "--frame_skip_dist", "2", "-q"])
    put("features_only", ["-r", "a", "-d", "b", "-n", "--feature", "adm=debug=true", "--csv",
                          "--backend", "cpu", "--gpu", "1"])
    put("help", ["--help"])
    put("version", ["-v"])
    put("bad", ["-r", "a", "-d", "b", "--xml", "--sub", "--precision", "18", "-w", "-1"])


def spec_seeds():
    def put(name, pick, lines):
        write("specs", name, bytes([pick]) + "\n".join(lines).encode())
    put("vmaf", 0, ["m version=vmaf_v0.6.1"])
    put("neg_4k", 1, ["m version=vmaf_v0.6.1neg:name=neg", "m version=vmaf_4k_v0.6.1:name=4k"])
    put("overloads", 2, ["m version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.0:adm.adm_enhn_gain_limit=1.1:disable_clip"])
    put("psnr_ssim", 4, ["f psnr", "f float_ssim", "f float_ms_ssim", "f ciede"])
    put("adm_debug", 1 | 8, ["f adm=debug=true:adm_enhn_gain_limit=1.2", "f vif=vif_kernelscale=0.5"])
    put("motion", 2 | 16, ["f motion=motion_force_zero=true", "f float_motion", "f float_vif", "f float_adm"])
    put("cambi", 1 | 4, ["f cambi=tvi_threshold=0.019:topk=0.6", "f psnr_hvs", "f float_moment", "f float_ansnr"])
    put("cambi_opts", 1, ["f cambi=enc_width=32:enc_height=32:src_width=64:src_height=64:window_size=9:max_log_contrast=3:eotf=pq:full_ref=true"])
    put("psnr_opts", 0 | 4, ["f psnr=enable_chroma=false:enable_mse=true:enable_apsnr=true:reduced_hbd_peak=true:min_sse=0.5"])
    put("motion_opts", 2, ["f motion=motion_five_frame_window=true:motion_moving_average=true:motion_blend_factor=0.5:motion_fps_weight=2"])
    put("speed", 1 | 24, ["f speed_chroma", "f speed_temporal", "f float_psnr"])
    put("bad", 0, ["f adm=nope=1", "m version=nope", "f =x", "m path=x.json:name=y"])


def libav_seeds():
    for f in ["ffv1_64x48_420p8.mkv", "ffv1_33x17_420p10.mkv", "ffv1_16x16_bgr0.mkv"]:
        shutil.copy(os.path.join(REPO, "tests", "data", "io", f), os.path.join(HERE, "libav", f))
    if shutil.which("ffmpeg") is None:
        print("ffmpeg not found: keeping the libav seeds there are", file=sys.stderr)
        return
    common = ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1"]
    jobs = [
        ("rawvideo_8x8_yuv420p.nut", "testsrc2=size=8x8:rate=5", ["-frames:v", "2", "-pix_fmt", "yuv420p", "-c:v", "rawvideo"]),
        ("rawvideo_6x4_yuv444p12.nut", "testsrc2=size=6x4:rate=5", ["-frames:v", "1", "-pix_fmt", "yuv444p12le", "-c:v", "rawvideo"]),
        ("rawvideo_4x4_gray16.nut", "testsrc2=size=4x4:rate=5", ["-frames:v", "2", "-pix_fmt", "gray16le", "-c:v", "rawvideo"]),
        ("ffv1_8x8_yuv422p.mov", "testsrc2=size=8x8:rate=5", ["-frames:v", "2", "-pix_fmt", "yuv422p", "-c:v", "ffv1"]),
        ("ffv1_8x8_yuva420p.mkv", "testsrc2=size=8x8:rate=5", ["-frames:v", "1", "-pix_fmt", "yuva420p", "-c:v", "ffv1"]),
        ("mpeg4_16x16.mp4", "testsrc2=size=16x16:rate=5", ["-frames:v", "3", "-pix_fmt", "yuv420p", "-c:v", "mpeg4"]),
        ("gray_8x8.png", "testsrc2=size=8x8:rate=5", ["-frames:v", "1", "-pix_fmt", "gray", "-c:v", "png"]),
        ("nv12_8x8.nut", "testsrc2=size=8x8:rate=5", ["-frames:v", "1", "-pix_fmt", "nv12", "-c:v", "rawvideo"]),
        ("y4m_8x8.y4m", "testsrc2=size=8x8:rate=5", ["-frames:v", "2", "-pix_fmt", "yuv420p"]),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, src, args in jobs:
            out = os.path.join(tmp, name)
            cmd = (["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", src] + args +
                   common + [out])
            if name.endswith(".y4m"):
                cmd[-1:-1] = ["-f", "yuv4mpegpipe"]
            subprocess.run(cmd, check=True)
            shutil.copy(out, os.path.join(HERE, "libav", name))


def main():
    for t in ["y4m", "raw", "model_json", "cli", "specs", "libav"]:
        os.makedirs(os.path.join(HERE, t), exist_ok=True)
    y4m_seeds()
    raw_seeds()
    model_seeds()
    cli_seeds()
    spec_seeds()
    libav_seeds()


if __name__ == "__main__":
    main()
