"""Draws the best count over time of `polycover design` runs as an SVG (log scale).

Usage: python3 docs/design-curve.py LABEL=CURVE.csv ... > docs/design-curve.svg

Reads the files `design --curve FILE` writes (`seconds,faults,solutions,kind`, a line at
each improvement of the best score) and draws the solutions against the seconds, one
step line per file: dashed while the count is an estimate (`about`) or stopped at its
cap (`at-least`), solid once it is exact. States that still break a shape rule are left
out (their count is of another puzzle family). `docs/design-curves.sh` runs the designs
and this script.
"""

import csv
import math
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


def points(path):
    with open(path, newline="") as f:
        return [
            (float(r["seconds"]), max(int(r["solutions"]), 1), r["kind"] == "exact")
            for r in csv.DictReader(f)
            if r["faults"] == "0"
        ]


def main():
    series = []
    for arg in sys.argv[1:]:
        label, path = arg.split("=", 1)
        series.append((label, points(path)))
    w, h, left, bottom, top, right = 720, 400, 70, 50, 30, 20
    t_max = max((t for _, ps in series for t, _, _ in ps), default=1.0) or 1.0
    n_max = max((n for _, ps in series for _, n, _ in ps), default=10)
    decades = max(1, math.ceil(math.log10(n_max)))
    # Seconds on a log scale too: the first minute and the last matter alike.
    t_min = 0.1
    span = math.log10(max(t_max, 1.0) / t_min)

    def x(t):
        return left + (w - left - right) * math.log10(max(t, t_min) / t_min) / span

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
        svg.append(f'<text x="{left - 6}" y="{yy + 4}" text-anchor="end">{10**d:,}</text>')
    t = t_min
    while t <= max(t_max, 1.0) * 1.0001:
        svg.append(f'<text x="{x(t):.1f}" y="{h - bottom + 16}" text-anchor="middle">{t:g}</text>')
        t *= 10
    svg.append(f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">seconds (log scale)</text>')
    svg.append(
        f'<text x="16" y="{h / 2}" transform="rotate(-90 16 {h / 2})" '
        'text-anchor="middle">solutions up to rotation (best so far)</text>'
    )
    for i, (label, ps) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        for j in range(1, len(ps)):
            (t0, n0, _), (t1, n1, exact) = ps[j - 1], ps[j]
            dash = "" if exact else ' stroke-dasharray="4 3"'
            svg.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} '
                f'points="{x(t0):.1f},{y(n0):.1f} {x(t1):.1f},{y(n0):.1f} '
                f'{x(t1):.1f},{y(n1):.1f}"/>'
            )
        svg.append(
            f'<text x="{w - right - 4}" y="{top + 16 * (i + 1)}" text-anchor="end" '
            f'fill="{colour}">{label}</text>'
        )
    svg.append("</svg>")
    print("\n".join(svg))


main()
