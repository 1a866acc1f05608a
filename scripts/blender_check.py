"""Imports one GLB with Blender's glTF importer and checks it against what the file declares.

Run by scripts/interop.ts:  blender -b --factory-startup --python scripts/blender_check.py -- FILE.glb EXPECT.json
Prints one line "PARTGRAPH_INTEROP {json}" with the problems found and what was checked.
"""
import json
import math
import sys

RESULT = "PARTGRAPH_INTEROP "


def report(result):
    print(RESULT + json.dumps(result), flush=True)


try:
    import numpy as np
except ImportError:
    report({"skip": "Blender's Python has no numpy, which its glTF importer needs "
                    "(Debian: apt install python3-numpy, or set PARTGRAPH_BLENDER_PYTHONPATH)"})
    sys.exit(0)
# Debian's numpy has dropped np.bool, which Blender 3.4's glTF importer still uses.
if not hasattr(np, "bool"):
    np.bool = bool

import bpy  # noqa: E402
from mathutils import Matrix, Quaternion  # noqa: E402

TURN_DEGREES = 20.0


def world_vertices():
    depsgraph = bpy.context.evaluated_depsgraph_get()
    out = {}
    for obj in bpy.data.objects:
        if obj.type != "MESH":
            continue
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        out[obj.name] = [evaluated.matrix_world @ v.co for v in mesh.vertices]
        evaluated.to_mesh_clear()
    return out


def extent(vertices):
    points = [p for values in vertices.values() for p in values]
    if not points:
        return 0.0
    lo = [min(p[k] for p in points) for k in range(3)]
    hi = [max(p[k] for p in points) for k in range(3)]
    return math.dist(lo, hi)


def skinned(obj):
    return any(m.type == "ARMATURE" for m in obj.modifiers)


def check_turn(pivot, problems):
    """Turns an object pivot 20 degrees about its local X; its subtree must turn rigidly, nothing else move."""
    before = world_vertices()
    size = extent(before) or 1.0
    frame = pivot.matrix_world.copy()
    turn = frame @ Matrix.Rotation(math.radians(TURN_DEGREES), 4, "X") @ frame.inverted()
    mode = pivot.rotation_mode
    pivot.rotation_mode = "QUATERNION"
    rest = pivot.rotation_quaternion.copy()
    pivot.rotation_quaternion = rest @ Quaternion((1, 0, 0), math.radians(TURN_DEGREES))
    bpy.context.view_layer.update()
    after = world_vertices()
    pivot.rotation_quaternion = rest
    pivot.rotation_mode = mode
    bpy.context.view_layer.update()
    subtree = {pivot.name} | {c.name for c in pivot.children_recursive}
    moved, worst = 0, 0.0
    for name, old in before.items():
        obj = bpy.data.objects[name]
        if skinned(obj) and name not in subtree:
            continue  # driven by bones, not by this object's hierarchy
        follows = name in subtree
        for p, q in zip(old, after[name]):
            ideal = turn @ p if follows else p
            worst = max(worst, (ideal - q).length)
            moved += 1 if follows else 0
    if worst > 1e-5 * size:
        problems.append(f"pivot {pivot.name}: a vertex is {worst:.3g} off its ideal place after a "
                        f"{TURN_DEGREES:g} degree turn about local X (extent {size:.3g})")
    return moved


def main():
    args = sys.argv[sys.argv.index("--") + 1:]
    glb, expect_path = args[0], args[1]
    with open(expect_path) as f:
        expect = json.load(f)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        bpy.ops.import_scene.gltf(filepath=glb)
    except Exception as error:  # the importer's own failure is the finding
        report({"problems": [f"import failed: {type(error).__name__}: {error}"], "checked": {}})
        return
    problems = []
    checked = {"objects": 0, "shape_keys": 0, "actions": 0, "properties": 0, "turns": 0, "bone_pivots": 0}
    objects = {o.name: o for o in bpy.data.objects}
    bones = {b.name for o in bpy.data.objects if o.type == "ARMATURE" for b in o.data.bones}

    for name in expect["nodes"]:
        if name in objects or name in bones:
            checked["objects"] += 1
        else:
            problems.append(f"node '{name}': no Blender object or bone has that name")

    for entry in expect["morphs"]:
        obj = objects.get(entry["node"])
        keys = obj.data.shape_keys if obj is not None and obj.type == "MESH" else None
        names = [k.name for k in keys.key_blocks][1:] if keys else []
        if names != entry["targets"]:
            problems.append(f"mesh of '{entry['node']}': shape keys {names[:4]}... "
                            f"expected {entry['targets'][:4]}...")
        else:
            checked["shape_keys"] += len(names)

    actions = [a.name for a in bpy.data.actions]
    for name in expect["animations"]:
        if any(name in action for action in actions):
            checked["actions"] += 1
        else:
            problems.append(f"animation '{name}': no action among {actions[:6]}")

    for part in expect["pivots"]:
        name = part["node"]
        if name in bones and name not in objects:
            checked["bone_pivots"] += 1  # bones are re-oriented by the importer; their turn is not checked
            continue
        obj = objects.get(name)
        if obj is None:
            continue  # already reported above
        for key, value in part["extras"].items():
            got = obj.get(key)
            if hasattr(got, "to_list"):
                got = got.to_list()
            same = (isinstance(value, (int, float)) and isinstance(got, (int, float))
                    and abs(got - value) <= 1e-9 * max(1.0, abs(value))) or got == value
            if not same:
                problems.append(f"pivot '{name}': custom property {key} = {got!r}, expected {value!r}")
            else:
                checked["properties"] += 1
        if part["extras"].get("ctrl_type") == "rotation":
            check_turn(obj, problems)
            checked["turns"] += 1

    # Each embedded PNG is an image Blender can read: its size, and pixels that are not all black.
    checked["images"] = 0
    for width, height in expect.get("images", []):
        image = next((i for i in bpy.data.images if tuple(i.size) == (width, height)), None)
        if image is None:
            problems.append(f"image {width}x{height}: none among {[tuple(i.size) for i in bpy.data.images]}")
        elif not any(image.pixels[:4 * width * height]):
            problems.append(f"image {image.name}: every pixel is zero")
        else:
            checked["images"] += 1

    report({"problems": problems, "checked": checked})


main()
