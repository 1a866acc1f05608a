"""Imports GLBs with Blender's glTF importer and checks each against what the file declares.

Run by scripts/interop.ts:  blender -b --factory-startup --python scripts/blender_check.py -- FILE.glb EXPECT.json [FILE.glb EXPECT.json ...]
Prints one line "PARTGRAPH_INTEROP {json}" per file, in order, with the problems found and what was
checked. Each file starts from Blender's factory settings, as it would in a Blender of its own: one
process checks them all, as a Blender start costs more than most checks.
"""
import json
import os
import re
import math
import sys

RESULT = "PARTGRAPH_INTEROP "


def report(result):
    print(RESULT + json.dumps(result), flush=True)


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_numpy import ready  # noqa: E402

ready(report)

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


BLEND_METHODS = {"OPAQUE": "OPAQUE", "BLEND": "BLEND", "MASK": "CLIP"}


def image_feeding(socket, depth=0, channel=None):
    """The Image Texture node whose output reaches `socket` through the node links, and the channel
    (a Separate Color output's name) it passes through; (None, None) when none does."""
    if depth > 8 or not socket.is_linked:
        return None, None
    for link in socket.links:
        node = link.from_node
        if node.type == "TEX_IMAGE":
            return node, channel
        via = link.from_socket.name if node.type in ("SEPARATE_COLOR", "SEPRGB") else channel
        for source in node.inputs:
            found = image_feeding(source, depth + 1, via)
            if found[0]:
                return found
    return None, None


def check_material(entry, problems, checked):
    """The material draws with the file's alpha mode; a textured clear coat drives the Principled BSDF's coat."""
    material = bpy.data.materials.get(entry["name"])
    if material is None:
        problems.append(f"material '{entry['name']}': not imported")
        return
    want = BLEND_METHODS.get(entry["alphaMode"], "OPAQUE")
    if material.blend_method != want:
        problems.append(f"material '{material.name}': blend method {material.blend_method}, expected {want}")
    else:
        checked["blend_methods"] = checked.get("blend_methods", 0) + 1
    coat = entry.get("clearcoat")
    if coat:
        checked["clearcoat_textures"] = checked.get("clearcoat_textures", 0) + check_coat(
            material, coat["texture"], coat["roughness"], problems)


def check_coat(material, textured, rough_textured, problems):
    """How many of the coat's amount and roughness a texture feeds as it should (problems for the rest)."""
    bsdf = next((n for n in material.node_tree.nodes if n.type == "BSDF_PRINCIPLED"), None)
    if bsdf is None:
        problems.append(f"material '{material.name}': no Principled BSDF for its clear coat")
        return 0
    fed = 0
    # KHR_materials_clearcoat: the coat's amount is the texture's red, its roughness the green.
    for socket, wanted, want_channel in (("Clearcoat", textured, "Red"),
                                         ("Clearcoat Roughness", rough_textured, "Green")):
        if not wanted:
            continue
        image, channel = image_feeding(bsdf.inputs[socket])
        if image is None:
            problems.append(f"material '{material.name}': its BSDF's {socket} input is not fed by a texture")
        elif channel != want_channel:
            problems.append(f"material '{material.name}': {socket} reads the texture's {channel}, "
                            f"not its {want_channel}")
        elif image.image is None or image.image.colorspace_settings.name != "Non-Color":
            problems.append(f"material '{material.name}': the {socket} texture is not read as non-colour data")
        else:
            fed += 1
    return fed


def check_wants(wants, problems, checked):
    """What the case means Blender to show, known from its input (not read from the checked file)."""
    blocks = {k.name: k for m in bpy.data.meshes if m.shape_keys for k in m.shape_keys.key_blocks}
    for name, value in wants.get("shapeKeys", {}).items():
        block = blocks.get(name)
        if block is None or abs(block.value - value) > 1e-6:
            got = "missing" if block is None else f"{block.value:.6g}"
            problems.append(f"shape key '{name}': {got}, wanted {value:.6g}")
        else:
            checked["wanted"] = checked.get("wanted", 0) + 1
    for name, method in wants.get("blend", {}).items():
        material = bpy.data.materials.get(name)
        if material is None or material.blend_method != method:
            problems.append(f"material '{name}': blend method "
                            f"{material and material.blend_method}, wanted {method}")
        else:
            checked["wanted"] = checked.get("wanted", 0) + 1
    for name in wants.get("clearcoat", []):
        material = bpy.data.materials.get(name)
        if material is None:
            problems.append(f"material '{name}': not imported, wanted with a clear coat")
        elif check_coat(material, True, True, problems) == 2:
            checked["wanted"] = checked.get("wanted", 0) + 1
    for name in wants.get("fixed", []):
        obj = bpy.data.objects.get(name)
        chain = []
        while obj is not None:
            chain.append(obj)
            obj = obj.parent
        turning = [o.name for o in chain if o.get("ctrl_type")]
        if not chain or turning:
            problems.append(f"object '{name}': {'missing' if not chain else f'under the pivot {turning[0]}'}, "
                            f"wanted fixed")
        else:
            checked["wanted"] = checked.get("wanted", 0) + 1


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


def check_file(glb, expect_path):
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
    # An object Blender renamed on import (`limb.001`): a name clash export.gltf let through.
    for name in objects:
        if re.search(r"\.\d{3}$", name) and name not in expect["nodes"]:
            problems.append(f"object '{name}': renamed by Blender on import (a name clash)")

    for entry in expect["morphs"]:
        obj = objects.get(entry["node"])
        if obj is not None and obj.type in ("EMPTY", "ARMATURE"):
            # A skinned mesh node a clip keys: Blender's importer keeps the node as an empty (or names the
            # armature after it) and puts its mesh on a new object under the armature, named after the
            # mesh, which export.gltf names apart from the nodes ("limb" -> mesh "limb_1", not "limb.001").
            obj = next((o for o in bpy.data.objects if o.type == "MESH" and skinned(o)
                        and o.name == entry.get("mesh")), obj)
        keys = obj.data.shape_keys if obj is not None and obj.type == "MESH" else None
        names = [k.name for k in keys.key_blocks][1:] if keys else []
        if names != entry["targets"]:
            problems.append(f"mesh of '{entry['node']}': shape keys {names[:4]}... "
                            f"expected {entry['targets'][:4]}...")
        else:
            checked["shape_keys"] += len(names)
            # The importer sets each key's value to the weight the file draws it at.
            for name, weight in zip(names, entry.get("weights", [])):
                value = keys.key_blocks[name].value
                if abs(value - weight) > 1e-6:
                    problems.append(f"shape key '{name}' of '{entry['node']}': value {value:.6g}, "
                                    f"the file's weight {weight:.6g}")
                else:
                    checked["weights"] = checked.get("weights", 0) + 1

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

    for entry in expect.get("materials", []):
        check_material(entry, problems, checked)

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

    check_wants(expect.get("wants") or {}, problems, checked)

    report({"problems": problems, "checked": checked})


def main():
    args = sys.argv[sys.argv.index("--") + 1:]
    for glb, expect_path in zip(args[0::2], args[1::2]):
        check_file(glb, expect_path)


main()
