"""Imports GLBs with Blender 3.4's glTF importer and lists what came in, for the caller to compare with
what each file declares (`tests/clients/blender_census.ts`).

    blender -b --factory-startup --python scripts/blender_census.py -- A.glb [B.glb ...]

Prints one line "PARTGRAPH_CENSUS {json}" per file, in order: the importer's error, or its objects
(name, type, data name, shape keys and their values, mesh attributes), bones, images (name and size), the image
texture nodes of materials that hold no image, materials and actions.
"""
import json
import os
import sys

RESULT = "PARTGRAPH_CENSUS "


def report(result):
    print(RESULT + json.dumps(result), flush=True)


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_numpy import ready  # noqa: E402

ready(report)

import bpy  # noqa: E402


def census():
    objects = []
    for obj in bpy.data.objects:
        entry = {"name": obj.name, "type": obj.type, "data": obj.data.name if obj.data else None}
        if obj.type == "MESH":
            keys = obj.data.shape_keys
            entry["shape_keys"] = [k.name for k in keys.key_blocks][1:] if keys else []
            # The values a user sees on this object: the node's (or mesh's) morph weights as imported.
            entry["shape_values"] = [round(k.value, 4) for k in keys.key_blocks][1:] if keys else []
            entry["attributes"] = [a.name for a in obj.data.attributes]
            entry["uv"] = [uv.name for uv in obj.data.uv_layers]
        objects.append(entry)
    empty_textures = []
    for material in bpy.data.materials:
        if not material.node_tree:
            continue
        for node in material.node_tree.nodes:
            if node.type == "TEX_IMAGE" and node.image is None:
                empty_textures.append(material.name)
    return {
        "objects": objects,
        "bones": [b.name for o in bpy.data.objects if o.type == "ARMATURE" for b in o.data.bones],
        "images": [{"name": i.name, "size": list(i.size)} for i in bpy.data.images
                   if i.type == "IMAGE"],
        "empty_textures": empty_textures,
        "materials": [m.name for m in bpy.data.materials],
        "actions": [a.name for a in bpy.data.actions],
    }


argv = sys.argv[sys.argv.index("--") + 1:]
for path in argv:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        bpy.ops.import_scene.gltf(filepath=path)
    except Exception as error:  # the importer's own failure is the finding
        report({"error": f"{type(error).__name__}: {error}"})
        continue
    report(census())
