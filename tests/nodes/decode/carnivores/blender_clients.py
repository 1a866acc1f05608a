"""Imports Carnivores outputs with Blender 3.4's glTF importer and lists what a user sees of them, for
`clients_test.ts` to judge against what each source model means.

    blender -b --factory-startup --python blender_clients.py -- A.glb A.json [B.glb B.json ...]

Each JSON names the texels to probe ({"texels": [[x, y], ...]}, rows counted from the top as the file
stores them). Prints one line "PARTGRAPH_CARNIVORES {json}" per file, in order: the importer's error,
or each mesh object's polygons per material, each material's blend method and back-face culling, each
action's frame range, the scene's frame rate, and the alpha of the probed texels in every image.
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


def main():
    args = sys.argv[sys.argv.index("--") + 1:]
    for glb, side in zip(args[0::2], args[1::2]):
        with open(side) as f:
            texels = json.load(f)["texels"]
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
                "fps": bpy.context.scene.render.fps, "images": images})


main()
