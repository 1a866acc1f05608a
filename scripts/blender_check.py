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


def clip_frames():
    """Every third frame of the scene's range, and its last."""
    scene = bpy.context.scene
    frames = list(range(scene.frame_start, scene.frame_end + 1, 3))
    return frames + [scene.frame_end] if frames[-1] != scene.frame_end else frames


def clip_poses(names, frames):
    """World matrices of the named objects at each frame, as the scene plays its animation."""
    scene = bpy.context.scene
    poses = []
    for frame in frames:
        scene.frame_set(frame)
        poses.append({n: bpy.data.objects[n].matrix_world.copy() for n in names if n in bpy.data.objects})
    scene.frame_set(frames[0])
    return poses


def check_clip(source_poses, frames, problems):
    """The checked file plays its clip as the source file plays its own."""
    size = extent(world_vertices()) or 1.0
    worst, compared = 0.0, 0
    for frame, want in zip(frames, source_poses):
        got = clip_poses(list(want), [frame])[0]
        for name, matrix in want.items():
            if name not in got:
                problems.append(f"clip: object '{name}' of the source is missing")
                return 0
            worst = max(worst, max(abs(a - b) for ra, rb in zip(matrix, got[name]) for a, b in zip(ra, rb)))
            compared += 1
    if worst > 1e-5 * size:
        problems.append(f"clip: an animated object is {worst:.3g} off the source's pose (extent {size:.3g})")
    return compared


def main():
    args = sys.argv[sys.argv.index("--") + 1:]
    glb, expect_path = args[0], args[1]
    with open(expect_path) as f:
        expect = json.load(f)
    clip = expect.get("clip")
    source_poses, frames = [], []
    if clip:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        bpy.ops.import_scene.gltf(filepath=clip["source"])
        frames = clip_frames()
        source_poses = clip_poses(clip["nodes"], frames)
        moved = max((abs(a - b) for p in source_poses for n, m in p.items()
                     for ra, rb in zip(m, source_poses[0][n]) for a, b in zip(ra, rb)), default=0.0)
        if moved == 0.0:
            report({"problems": ["clip: the source's animation moves nothing in Blender"], "checked": {}})
            return
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
        if obj is not None and obj.type == "EMPTY":
            # A skinned mesh node: Blender's importer keeps the node as an empty and puts its mesh on a
            # new object under the armature, named after the node ("limb" -> "limb.001").
            obj = next((o for o in bpy.data.objects if o.type == "MESH" and skinned(o)
                        and o.name.rsplit(".", 1)[0] == entry["node"]), obj)
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

    if clip:
        checked["clip_poses"] = check_clip(source_poses, frames, problems)

    report({"problems": problems, "checked": checked})


main()
