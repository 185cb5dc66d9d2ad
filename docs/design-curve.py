"""Draws the best count over time of `polycover design` runs as an SVG (log scale).

Usage: python3 docs/design-curve.py LABEL=STDERR.log ... > docs/design-curve.svg

Reads the `c design: T s, best N solution(s), ...` lines that `design` writes to
standard error (a line at each improvement and every 10 s) and draws N against T, one
step line per log.
"""

import math
import re
import sys

LINE = re.compile(r"^c design: ([0-9.]+) s, best (?:at least )?([0-9]+) solution")
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]


def points(path):
    out = []
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if m and "breaking" not in line:
                out.append((float(m.group(1)), int(m.group(2))))
    return out


def main():
    series = []
    for arg in sys.argv[1:]:
        label, path = arg.split("=", 1)
        series.append((label, points(path)))
    w, h, left, bottom, top, right = 640, 360, 70, 50, 30, 20
    t_max = max(t for _, ps in series for t, _ in ps) or 1.0
    n_max = max(n for _, ps in series for _, n in ps)
    decades = max(1, math.ceil(math.log10(n_max)))

    def x(t):
        return left + (w - left - right) * t / t_max

    def y(n):
        return h - bottom - (h - bottom - top) * math.log10(max(n, 1)) / decades

    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2}" y="18" text-anchor="middle">'
        "polycover design: best count of solutions over time</text>",
    ]
    for d in range(decades + 1):
        yy = y(10**d)
        svg.append(f'<line x1="{left}" y1="{yy}" x2="{w - right}" y2="{yy}" stroke="#ddd"/>')
        svg.append(f'<text x="{left - 6}" y="{yy + 4}" text-anchor="end">{10**d}</text>')
    for k in range(6):
        t = t_max * k / 5
        svg.append(f'<text x="{x(t)}" y="{h - bottom + 16}" text-anchor="middle">{t:.0f}</text>')
    svg.append(f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">seconds</text>')
    svg.append(
        f'<text x="16" y="{h / 2}" transform="rotate(-90 16 {h / 2})" '
        'text-anchor="middle">solutions up to rotation (best so far)</text>'
    )
    for i, (label, ps) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        path = []
        for j, (t, n) in enumerate(ps):
            if j:
                path.append(f"{x(t):.1f},{y(ps[j - 1][1]):.1f}")
            path.append(f"{x(t):.1f},{y(n):.1f}")
        svg.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
            f'points="{" ".join(path)}"/>'
        )
        svg.append(
            f'<text x="{w - right - 4}" y="{top + 16 * (i + 1)}" text-anchor="end" '
            f'fill="{colour}">{label}</text>'
        )
    svg.append("</svg>")
    print("\n".join(svg))


main()
