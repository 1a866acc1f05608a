"""Imports GLBs with Blender 3.4's glTF importer and reports, per file, what a user would meet: the
importer's exception (and its traceback's last line), the mesh objects, materials and bones that came in,
and whether any object's world matrix or any mesh vertex is NaN or infinite in Blender's 32-bit floats,
with the largest world-space extent (`tests/clients/survivor_census.ts` compares these with the file).

    blender -b --factory-startup --python scripts/blender_survivors.py -- A.glb [B.glb ...]

Prints one line "PARTGRAPH_SURVIVOR {json}" per file, in order.
"""
import json
import math
import os
import sys
import traceback

RESULT = "PARTGRAPH_SURVIVOR "


def report(result):
    print(RESULT + json.dumps(result), flush=True)


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_numpy import ready  # noqa: E402

ready(report)

import bpy  # noqa: E402
import numpy as np  # noqa: E402


def finite_matrix(matrix):
    return all(math.isfinite(v) for row in matrix for v in row)


def census():
    bad_matrices = []
    bad_vertices = []
    low = np.full(3, np.inf)
    high = np.full(3, -np.inf)
    meshes = 0
    for obj in bpy.data.objects:
        if not finite_matrix(obj.matrix_world):
            bad_matrices.append(obj.name)
            continue
        if obj.type != "MESH" or obj.data is None:
            continue
        meshes += 1
        count = len(obj.data.vertices)
        if not count:
            continue
        co = np.empty(count * 3, dtype=np.float32)
        obj.data.vertices.foreach_get("co", co)
        co = co.reshape(-1, 3)
        if not np.isfinite(co).all():
            bad_vertices.append(obj.name)
            continue
        world = np.array(obj.matrix_world, dtype=np.float64)
        moved = co.astype(np.float64) @ world[:3, :3].T + world[:3, 3]
        if not np.isfinite(moved).all():
            bad_vertices.append(obj.name)
            continue
        low = np.minimum(low, moved.min(axis=0))
        high = np.maximum(high, moved.max(axis=0))
    extent = float((high - low).max()) if meshes and np.isfinite(low).all() else 0.0
    return {
        "mesh_objects": meshes,
        "objects": len(bpy.data.objects),
        "materials": sorted(m.name for m in bpy.data.materials),
        "bones": sum(len(o.data.bones) for o in bpy.data.objects if o.type == "ARMATURE"),
        "bad_matrices": bad_matrices,
        "bad_vertices": bad_vertices,
        "extent": extent,
    }


argv = sys.argv[sys.argv.index("--") + 1:]
for path in argv:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        bpy.ops.import_scene.gltf(filepath=path)
    except Exception as error:  # the importer's own failure is the finding
        last = traceback.format_exc().strip().split("\n")[-1]
        report({"error": f"{type(error).__name__}: {str(error)[-600:]}", "last": last})
        continue
    try:
        report(census())
    except Exception as error:
        report({"error": f"census: {type(error).__name__}: {error}"})
