#!/usr/bin/env python3
"""Plot `crdtnote-bench scaling --json` output as an SVG (Python standard library only).

Usage:
    .build/release/crdtnote-bench scaling --json > /tmp/scaling.json
    python3 Benchmarks/plot_scaling.py /tmp/scaling.json Docs/scaling.svg

Also accepts `crdtnote-bench all --json` output (uses its "scaling" member).
Left panel: merge time against edits per side k (log-log), one line per note size n.
Right panel: merge time / (k * log2 n), flat when merging costs O(k log n).
"""
import json
import math
import sys
from xml.sax.saxutils import escape

COLORS = ["#1b6ca8", "#d1495b", "#edae49", "#00798c", "#6a4c93", "#52a447"]
W, H = 960, 450
PANEL_W, PANEL_H = 380, 300
MARGIN_L, MARGIN_T = 80, 86


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if "scaling" in data:
        data = data["scaling"]
    return data


def series(points):
    by_n = {}
    for p in points:
        by_n.setdefault(p["n"], []).append(p)
    for n in by_n:
        by_n[n].sort(key=lambda p: p["k"])
    return dict(sorted(by_n.items()))


def fmt_count(v):
    if v >= 1_000_000:
        return f"{v / 1_000_000:g}M"
    if v >= 1_000:
        return f"{v / 1_000:g}k"
    return f"{v:g}"


def log_ticks(lo, hi):
    ticks = []
    e = math.floor(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        if 10 ** e >= lo / 1.0001:
            ticks.append(10 ** e)
        e += 1
    return ticks


class Panel:
    def __init__(self, x0, y0, xs, ys, xlog, ylog):
        self.x0, self.y0 = x0, y0
        self.xlog, self.ylog = xlog, ylog
        tx = (lambda v: math.log10(v)) if xlog else (lambda v: v)
        ty = (lambda v: math.log10(v)) if ylog else (lambda v: v)
        self.tx, self.ty = tx, ty
        self.xmin, self.xmax = tx(min(xs)), tx(max(xs))
        ylo, yhi = min(ys), max(ys)
        if ylog:
            self.ymin, self.ymax = math.floor(ty(ylo)), math.ceil(ty(yhi))
        else:
            self.ymin, self.ymax = 0.0, yhi * 1.1
        if self.xmax == self.xmin:
            self.xmax += 1
        if self.ymax == self.ymin:
            self.ymax += 1

    def px(self, v):
        return self.x0 + (self.tx(v) - self.xmin) / (self.xmax - self.xmin) * PANEL_W

    def py(self, v):
        return self.y0 + PANEL_H - (self.ty(v) - self.ymin) / (self.ymax - self.ymin) * PANEL_H


def draw_panel(out, panel, by_n, key, title, ylabel, yticks):
    x0, y0 = panel.x0, panel.y0
    out.append(f'<rect x="{x0}" y="{y0}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#999"/>')
    out.append(f'<text x="{x0 + PANEL_W / 2}" y="{y0 - 12}" text-anchor="middle" font-weight="bold">{escape(title)}</text>')
    ks = sorted({p["k"] for pts in by_n.values() for p in pts})
    for k in ks:
        x = panel.px(k)
        out.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + PANEL_H}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{y0 + PANEL_H + 18}" text-anchor="middle">{fmt_count(k)}</text>')
    for t in yticks:
        y = panel.py(t)
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + PANEL_W}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end">{t:g}</text>')
    out.append(f'<text x="{x0 + PANEL_W / 2}" y="{y0 + PANEL_H + 38}" text-anchor="middle">concurrent edits per side, k</text>')
    out.append(f'<text transform="translate({x0 - 55},{y0 + PANEL_H / 2}) rotate(-90)" text-anchor="middle">{escape(ylabel)}</text>')
    for i, (n, pts) in enumerate(by_n.items()):
        color = COLORS[i % len(COLORS)]
        coords = " ".join(f"{panel.px(p['k']):.1f},{panel.py(p[key]):.1f}" for p in pts)
        out.append(f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="2"/>')
        for p in pts:
            out.append(f'<circle cx="{panel.px(p["k"]):.1f}" cy="{panel.py(p[key]):.1f}" r="3" fill="{color}"/>')


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: plot_scaling.py SCALING.json OUT.svg\n")
        return 2
    data = load(argv[1])
    by_n = series(data["points"])
    if not by_n:
        sys.stderr.write("no points in the input\n")
        return 1
    ks = [p["k"] for pts in by_n.values() for p in pts]
    ms = [p["merge_ms"] for pts in by_n.values() for p in pts]
    norm = [p["ns_per_op_log2n"] for pts in by_n.values() for p in pts]

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           'font-family="Helvetica, Arial, sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           '<text x="20" y="24" font-size="15" font-weight="bold">crdtnote merge scaling '
           '(two replicas, k random edits each, merge one into the other)</text>']
    left = Panel(MARGIN_L, MARGIN_T, ks, ms, True, True)
    draw_panel(out, left, by_n, "merge_ms", "merge time (ms, log-log)", "merge ms",
               log_ticks(10 ** left.ymin, 10 ** left.ymax))
    right = Panel(MARGIN_L + PANEL_W + 90, MARGIN_T, ks, norm, True, False)
    step = 10 ** math.floor(math.log10(right.ymax / 2 or 1))
    yticks = [i * step for i in range(0, int(right.ymax / step) + 1)]
    if len(yticks) > 8:
        yticks = yticks[::2]
    draw_panel(out, right, by_n, "ns_per_op_log2n", "merge time / (k·log2 n)", "ns per (op · log2 n)", yticks)
    # Legend
    for i, n in enumerate(by_n):
        lx, y = 20 + i * 150, 48
        out.append(f'<line x1="{lx}" y1="{y - 4}" x2="{lx + 22}" y2="{y - 4}" stroke="{COLORS[i % len(COLORS)]}" stroke-width="3"/>')
        out.append(f'<text x="{lx + 28}" y="{y}">n = {fmt_count(n)} scalars</text>')
    fit = data.get("fit")
    if fit:
        out.append(f'<text x="20" y="{H - 12}">least-squares fit: merge_ms ≈ {fit["a_ns_per_scalar"]:.3g} ns × n + '
                   f'{fit["b_ns_per_op_log2n"]:.3g} ns × k·log2 n</text>')
    out.append("</svg>")
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
