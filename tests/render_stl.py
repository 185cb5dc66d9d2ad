"""Draws STL files as one PNG: each file's triangles, read by trimesh, seen from above at
an angle, flat-shaded and painted far to near (the guide's picture of the printed
pieces is made this way from `export --format stl`). Each file gets its own hue.

Usage: render_stl.py OUT.png FILE.stl..."""

import colorsys
import sys

import numpy as np
import trimesh
from PIL import Image, ImageDraw

WIDTH, HEIGHT, SUPERSAMPLE = 960, 600, 3


def view_matrix(azimuth, elevation):
    a, e = np.radians(azimuth), np.radians(elevation)
    turn = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    # Tilt so that the plate (z = 0) is seen from above at `elevation` degrees.
    tilt = np.array([[1, 0, 0], [0, np.sin(e), np.cos(e)], [0, -np.cos(e), np.sin(e)]])
    return tilt @ turn


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    view = view_matrix(-35, 35)
    light = np.array([0.35, -0.45, 0.82])
    light /= np.linalg.norm(light)
    triangles = []  # (depth, points in view space, rgb)
    for k, path in enumerate(paths):
        mesh = trimesh.load(path, file_type="stl", process=False)
        hue = (k * 0.618034) % 1.0
        base = np.array(colorsys.hsv_to_rgb(hue, 0.55, 0.95))
        for face, normal in zip(mesh.triangles, mesh.face_normals):
            v = face @ view.T
            n = view @ normal
            if n[2] <= 0:  # facing away from the eye (which looks down -z in view space)
                continue
            shade = 0.35 + 0.65 * max(0.0, float(normal @ light))
            triangles.append((float(v[:, 2].mean()), v, tuple(int(255 * c * shade) for c in base)))
    if not triangles:
        sys.exit("no triangle faces the eye")
    pts = np.concatenate([t[1] for t in triangles])
    lo, hi = pts[:, :2].min(axis=0), pts[:, :2].max(axis=0)
    scale = 0.92 * min(WIDTH / (hi[0] - lo[0]), HEIGHT / (hi[1] - lo[1])) * SUPERSAMPLE
    centre = (lo + hi) / 2
    image = Image.new("RGB", (WIDTH * SUPERSAMPLE, HEIGHT * SUPERSAMPLE), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for _, v, rgb in sorted(triangles, key=lambda t: t[0]):
        xy = [
            (WIDTH * SUPERSAMPLE / 2 + (p[0] - centre[0]) * scale,
             HEIGHT * SUPERSAMPLE / 2 - (p[1] - centre[1]) * scale)
            for p in v
        ]
        draw.polygon(xy, fill=rgb, outline=rgb)
    image.resize((WIDTH, HEIGHT), Image.LANCZOS).save(out)


if __name__ == "__main__":
    main()
