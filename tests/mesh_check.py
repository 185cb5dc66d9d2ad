"""Reads STL and 3MF files with trimesh, an independent mesh library, and prints one JSON
object per solid: whether it is watertight and consistently wound, its volume, bounds,
triangle count and Euler number. The Rust tests (tests/mesh.rs) judge the numbers.

Usage: mesh_check.py FILE...  (a .3mf gives one line per object, named by the file's
object names; an .stl gives one line, named by the file)."""

import json
import sys

import trimesh


def describe(name, mesh):
    return {
        "name": name,
        "watertight": bool(mesh.is_watertight),
        "winding_consistent": bool(mesh.is_winding_consistent),
        "volume": float(mesh.volume),
        "bounds": mesh.bounds.tolist(),
        "triangles": int(len(mesh.faces)),
        "euler": int(mesh.euler_number),
    }


def main():
    for path in sys.argv[1:]:
        if path.endswith(".3mf"):
            scene = trimesh.load(path, file_type="3mf", force="scene")
            for node in scene.graph.nodes_geometry:
                transform, geometry = scene.graph[node]
                mesh = scene.geometry[geometry].copy()
                mesh.apply_transform(transform)
                print(json.dumps(describe(geometry, mesh)))
        else:
            # process=False: no merging or repair, so what is judged is what was written
            # (STL repeats each vertex per triangle: those are merged by position alone).
            mesh = trimesh.load(path, file_type="stl", process=False)
            mesh.merge_vertices(merge_tex=True, merge_norm=True)
            print(json.dumps(describe(path, mesh)))


if __name__ == "__main__":
    main()
