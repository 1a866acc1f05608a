"""Imports Carnivores outputs with Blender 3.4's glTF importer and lists what a user sees of them, for
`clients_test.ts` to judge against what each source model means.

    blender -b --factory-startup --python blender_clients.py -- A.glb A.json [B.glb B.json ...]

Each JSON names the texels to probe ({"texels": [[x, y], ...]}, rows counted from the top as the file
stores them) and the times (seconds) at which to pose each clip ({"poses": {"clip0": [0, 0.5]}}). Prints one line "PARTGRAPH_CARNIVORES {json}" per file, in order: the importer's error,
or each mesh object's polygons per material, each material's blend method and back-face culling, each
action's frame range, the scene's frame rate, the alpha of the probed texels in every image, and each
morphed mesh's rest and posed vertices (world space) at the asked times of each clip.
"""
import json
import os
import sys

RESULT = "PARTGRAPH_CARNIVORES "


def report(result):
    print(RESULT + json.dumps(result), flush=True)


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../scripts"))
from blender_numpy import ready  # noqa: E402

ready(report)

import bpy  # noqa: E402


def probe(image, texels):
    """Alpha of each texel (x, row from the top); Blender stores rows bottom-up."""
    width, height = image.size
    pixels = image.pixels[:]
    return [pixels[((height - 1 - y) * width + x) * 4 + 3] for x, y in texels if x < width and y < height]


def poses(wanted):
    """Each shape-keyed mesh's rest vertices, and its vertices at the asked times of each clip's action."""
    scene = bpy.context.scene
    out = []
    for obj in bpy.data.objects:
        keys = obj.data.shape_keys if obj.type == "MESH" else None
        if keys is None or keys.animation_data is None:
            continue
        rest = [list(obj.matrix_world @ v.co) for v in obj.data.vertices]
        clips = {}
        for name, times in wanted.items():
            # The importer names a clip's action '<clip>_<object>' (and may put all but one in NLA tracks).
            action = next((a for a in bpy.data.actions if a.name.startswith(name + "_")
                           and any(c.data_path.startswith("key_blocks") for c in a.fcurves)), None)
            if action is None:
                continue
            keys.animation_data.action = action
            for track in keys.animation_data.nla_tracks:
                track.mute = True
            posed = []
            for seconds in times:
                frame = seconds * scene.render.fps
                scene.frame_set(int(frame // 1), subframe=frame % 1)
                evaluated = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
                mesh = evaluated.to_mesh()
                posed.append([list(evaluated.matrix_world @ v.co) for v in mesh.vertices])
                evaluated.to_mesh_clear()
            clips[name] = posed
        out.append({"name": obj.name, "rest": rest, "clips": clips})
    return out


def main():
    args = sys.argv[sys.argv.index("--") + 1:]
    for glb, side in zip(args[0::2], args[1::2]):
        with open(side) as f:
            asked = json.load(f)
        texels = asked["texels"]
        bpy.ops.wm.read_factory_settings(use_empty=True)
        try:
            bpy.ops.import_scene.gltf(filepath=glb)
        except Exception as error:  # the importer's own failure is the finding
            report({"error": f"{type(error).__name__}: {error}"})
            continue
        objects = []
        for obj in bpy.data.objects:
            if obj.type != "MESH":
                continue
            polys = {}
            for poly in obj.data.polygons:
                material = obj.data.materials[poly.material_index] if obj.data.materials else None
                name = material.name if material else ""
                polys[name] = polys.get(name, 0) + 1
            chain, at = [], obj
            while at is not None:
                chain.append(at.name)
                at = at.parent
            objects.append({"name": obj.name, "data": obj.data.name, "chain": chain, "polys": polys})
        materials = {m.name: {"blend": m.blend_method, "cull": m.use_backface_culling} for m in bpy.data.materials}
        actions = [{"name": a.name, "range": list(a.frame_range)} for a in bpy.data.actions]
        images = [{"name": i.name, "size": list(i.size), "alpha": probe(i, texels)} for i in bpy.data.images]
        report({"objects": objects, "materials": materials, "actions": actions,
                "fps": bpy.context.scene.render.fps, "images": images, "poses": poses(asked.get("poses", {}))})


main()
