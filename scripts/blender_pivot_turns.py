"""Turns every HINGE_auto_* pivot of a rigged GLB in Blender and measures how far its part lands from
the ideal rigid rotation about the pivot's world hinge (relative to the model's size).

    blender -b --python-use-system-env --python scripts/blender_pivot_turns.py -- model.glb [matrix|rotation_x]

`matrix` turns each pivot by multiplying its local matrix by a rotation about X (any rig); `rotation_x`
sets its Euler X to the angle (a zero_rest rig, whose pivots have identity rotation at rest). Angles:
+20°, min and max. Debian's Blender 3.4 importer needs numpy with `np.bool` (PYTHONPATH may point at
a numpy built for Blender's Python).
"""
import math
import sys

import numpy as np

np.bool = bool  # Blender 3.4's glTF importer still uses the alias newer numpy removed.
import bpy  # noqa: E402
from mathutils import Matrix, Vector  # noqa: E402

path, mode = sys.argv[-2], sys.argv[-1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path)
layer = bpy.context.view_layer


def positions():
    """World positions of every vertex of every unskinned mesh object."""
    layer.update()
    out = {}
    for o in bpy.context.scene.objects:
        if o.type == "MESH" and not any(m.type == "ARMATURE" for m in o.modifiers):
            world = o.matrix_world.copy()
            out[o.name] = [world @ v.co for v in o.data.vertices]
    return out


rest = positions()
points = [p for ps in rest.values() for p in ps]
low = Vector([min(p[k] for p in points) for k in range(3)])
high = Vector([max(p[k] for p in points) for k in range(3)])
size = (high - low).length
pivots = [
    o for o in bpy.context.scene.objects
    if o.get("ctrl_type") == "rotation" and o.name.startswith("HINGE_auto_")
]
worst, worst_name, others, off_count = 0.0, "", 0.0, 0
for pivot in pivots:
    world = pivot.matrix_world.copy()
    origin, axis = world.translation.copy(), world.col[0].to_3d().normalized()
    sense = -1 if world.to_3x3().determinant() < 0 else 1
    under = {c.name for c in pivot.children_recursive}
    saved = pivot.matrix_basis.copy()
    off = 0.0
    for degrees in (20, pivot.get("min"), pivot.get("max")):
        angle = math.radians(degrees)
        if mode == "rotation_x":
            pivot.rotation_mode = "XYZ"
            pivot.rotation_euler.x = angle
        else:
            pivot.matrix_basis = saved @ Matrix.Rotation(angle, 4, "X")
        now = positions()
        turn = Matrix.Rotation(sense * angle, 3, axis)
        for name, ps in rest.items():
            for p, q in zip(ps, now[name]):
                ideal = turn @ (p - origin) + origin if name in under else p
                d = (q - ideal).length / size
                if name in under:
                    off = max(off, d)
                else:
                    others = max(others, d)
        pivot.matrix_basis = saved
    off_count += off > 6e-5
    if off > worst:
        worst, worst_name = off, pivot.name
if mode == "rotation_x":
    moved = [p.name for p in pivots if max(abs(a) for a in p.rotation_euler) > 1e-6]
    print("RESULT pivots with a non-zero rest rotation:", moved)
print(f"RESULT {path} ({mode}): {len(pivots)} pivots, worst {worst:.3g} of the model size ({worst_name}), "
      f"{off_count} off by more than 6e-5, others moved {others:.3g}, model size {size:.3f}")
