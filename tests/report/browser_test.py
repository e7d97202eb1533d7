#!/usr/bin/python3
"""`vqx report`'s page opened in headless Chromium (docs/report.md).

    browser_test.py VQX_CLI SUBSET_DIR WORK_DIR

Makes a report of three runs of the bundled corpus subset (a vqx run of P9,
the reference's JSON of P9, and the reference's P1a, copied under a file
name holding markup), then starts Chromium twice: --dump-dom (the DOM as the
browser built it) must hold, for every metric, a line chart and a histogram
with one non-empty path per run, and a worst-frames table of N rows per run,
and no element from the file name; --screenshot must be a PNG of the window's
size showing each run's colour. Exit 77 (skipped) when Chromium is absent:
scripts/setup.sh installs it, so CI always runs this.
"""
import html.parser
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

METRICS = ["vmaf_v0.6.1", "integer_adm2", "integer_vif_scale0", "integer_motion2"]
WORST = 4
COLOURS = [(0x1F, 0x77, 0xB4), (0xD6, 0x27, 0x28), (0x2C, 0xA0, 0x2C)]  # svg_chart.cpp
WINDOW = (1200, 1600)
HOSTILE = "<img src=x onerror=document.title=1>.json"


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)
    if r.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (cmd[0], r.returncode, r.stderr.strip()[-2000:]))
    return r.stdout


def chromium(browser, profile, *args):
    # A fresh profile; nothing of the browser's own fetched (the page
    # fetches nothing either).
    cmd = [browser, "--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--disable-extensions", "--user-data-dir=" + profile]
    if os.geteuid() == 0:
        cmd.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return run(cmd + list(args))


class Dom(html.parser.HTMLParser):
    """The charts (metric, kind -> path d per run), the worst tables' row
    counts, every tag seen and the title."""

    def __init__(self):
        super().__init__()
        self.charts = {}
        self.worst_rows = []
        self.tags = set()
        self.title = ""
        self._chart = None
        self._in_worst = False
        self._in_tbody = False
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        if tag == "svg" and "chart" in a.get("class", "").split():
            kind = a["class"].split()[1]
            self._chart = self.charts.setdefault((a["data-metric"], kind), [])
        elif tag == "path" and self._chart is not None and "run" in a.get("class", ""):
            self._chart.append(a.get("d", ""))
        elif tag == "table" and a.get("class") == "worst":
            self._in_worst = True
            self.worst_rows.append(0)
        elif tag == "tbody" and self._in_worst:
            self._in_tbody = True
        elif tag == "tr" and self._in_tbody:
            self.worst_rows[-1] += 1
        elif tag == "title" and self._chart is None:
            self._in_title = True

    def handle_endtag(self, tag):
        if tag == "svg":
            self._chart = None
        elif tag == "table":
            self._in_worst = self._in_tbody = False
        elif tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("FAIL: %s is not a PNG" % path)
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                sys.exit("FAIL: unexpected PNG format (depth %d, colour type %d)" % (depth, colour))
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            upleft = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - upleft
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else upleft
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        previous = line
    return width, height, rows, channels


def main():
    cli, subset, work = sys.argv[1:4]
    browser = find_chromium()
    if browser is None:
        print("SKIP: no chromium on PATH (scripts/setup.sh installs Debian's chromium)")
        return 77
    os.makedirs(work, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=work)
    try:
        vqx_run = os.path.join(tmp, "vqx-P9.json")
        run([cli, "-r", os.path.join(subset, "P9_tiny_176x144_420p8.y4m"),
             "-d", os.path.join(subset, "P9_tiny_176x144_420p8__x264-crf45.y4m"),
             "-m", "version=vmaf_v0.6.1:name=vmaf_v0.6.1", "--json", "-q", "-o", vqx_run])
        hostile = os.path.join(tmp, HOSTILE)
        shutil.copyfile(os.path.join(subset, "P1a.models.json"), hostile)
        page = os.path.join(tmp, "report.html")
        args = [cli, "report", vqx_run, os.path.join(subset, "P9.models.json"), hostile,
                "--worst", str(WORST), "--title", "browser test", "-o", page]
        for m in METRICS:
            args += ["--metric", m]
        run(args)

        # 1. The DOM as Chromium built it.
        profile = os.path.join(tmp, "profile")
        dom = Dom()
        dom.feed(chromium(browser, profile, "--dump-dom", "file://" + page))
        failures = []
        for metric in METRICS:
            for kind in ("line", "histogram"):
                paths = dom.charts.get((metric, kind))
                if paths is None:
                    failures.append("no %s chart for %s" % (kind, metric))
                    continue
                if len(paths) != 3 or not all(re.match(r"M[0-9.]+ [0-9.]+L", d) for d in paths):
                    failures.append("%s %s: paths %r" % (metric, kind, [d[:40] for d in paths]))
        if len(dom.charts) != 2 * len(METRICS):
            failures.append("%d charts for %d metrics" % (len(dom.charts), len(METRICS)))
        if dom.worst_rows != [WORST] * 3:
            failures.append("worst-frames rows %r, expected %d per run" % (dom.worst_rows, WORST))
        if "img" in dom.tags or dom.title.strip() != "browser test":
            failures.append("the file name's markup became part of the page")

        # 2. The screenshot: the window's size, each run's colour drawn.
        shot = os.path.join(tmp, "shot.png")
        chromium(browser, profile, "--screenshot=" + shot,
                 "--window-size=%d,%d" % WINDOW, "file://" + page)
        width, height, rows, channels = png_pixels(shot)
        if (width, height) != WINDOW:
            failures.append("screenshot %dx%d, expected %dx%d" % ((width, height) + WINDOW))
        # Pixels of each run's colour (as bytes in the rows: fast, and a
        # blank or unstyled page has none): its swatches (12x12 px each, in
        # every table) and its lines and outlines. The vqx run's lines lie
        # under the reference's (equal values): its swatches must do.
        counts = [0] * len(COLOURS)
        for line in rows:
            if channels == 4:
                line = bytes(b for i, b in enumerate(line) if i % 4 != 3)
            for i, c in enumerate(COLOURS):
                counts[i] += bytes(line).count(bytes(c))
        for i, n in enumerate(counts):
            if n < 500:
                failures.append("run %d's colour on %d pixels only" % (i, n))
        if failures:
            for f in failures:
                print("FAIL: " + f)
            return 1
        print("ok: %d metrics x 2 charts with 3 non-empty paths each, %d worst rows per run, "
              "screenshot %dx%d with the runs' colours on %s pixels" %
              (len(METRICS), WORST, width, height, counts))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
