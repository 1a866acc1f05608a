"""Builds seeded aircraft in Blender 3.4 and exports each with its glTF exporter, as a user would.

Run by tests/nodes/decode/gltf_blender_exports_test.ts:
    blender -b --factory-startup --python gltf_blender_aircraft.py -- OUT_DIR SEED [SEED ...]
Writes OUT_DIR/blender_<seed>.glb and OUT_DIR/blender_<seed>.json (each part's truth in glTF's frame:
world bounds, base colour or texture colour, emission, UV set, unlit); prints "PARTGRAPH_SKIP <why>"
when Blender's Python lacks numpy, which its exporter needs.

Each aircraft: parts of seeded sizes and places under a turned, scaled empty `Aircraft`, names with
dots (`Aileron.L`), packed image textures (one read through a second UV map, `Baked`), an emissive
material of strength 4 (KHR_materials_emissive_strength), a shadeless canopy (a Background shader:
KHR_materials_unlit), and the right aileron a linked duplicate of the left mirrored by scale.
"""
import json
import os
import random
import sys

try:
    import numpy  # noqa: F401
except ImportError:
    print("PARTGRAPH_SKIP Blender's Python has no numpy, which its glTF exporter needs", flush=True)
    sys.exit(0)

import bmesh  # noqa: E402
import bpy  # noqa: E402
from mathutils import Matrix, Vector  # noqa: E402

NAMES = ["Fuselage", "Wing", "Aileron.L", "Aileron.R", "Elevator", "Rudder", "Flap.L", "Flap.R"]
# Blender's Z up to glTF's Y up, as its exporter turns every position.
TO_GLTF = Matrix(((1, 0, 0), (0, 0, 1), (0, -1, 0)))


def image_of(rgba, name):
    image = bpy.data.images.new(name, 4, 4, alpha=True)
    image.pixels = list(rgba) * 16
    image.pack()
    return image


def principled(name, base, texture, emission, uv_map):
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes = material.node_tree
    bsdf = nodes.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = base
    if texture is not None:
        node = nodes.nodes.new("ShaderNodeTexImage")
        node.image = image_of(texture, name + "_img")
        nodes.links.new(node.outputs["Color"], bsdf.inputs["Base Color"])
        if uv_map:
            uv = nodes.nodes.new("ShaderNodeUVMap")
            uv.uv_map = uv_map
            nodes.links.new(uv.outputs["UV"], node.inputs["Vector"])
    if emission is not None:
        bsdf.inputs["Emission"].default_value = emission
        bsdf.inputs["Emission Strength"].default_value = 4.0
    return material


def shadeless(name, colour):
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes = material.node_tree
    nodes.nodes.remove(nodes.nodes["Principled BSDF"])
    background = nodes.nodes.new("ShaderNodeBackground")
    background.inputs["Color"].default_value = colour
    nodes.links.new(background.outputs["Background"], nodes.nodes["Material Output"].inputs["Surface"])
    return material


def aircraft(seed, out_dir):
    rng = random.Random(seed)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    root = bpy.data.objects.new("Aircraft", None)
    scene.collection.objects.link(root)
    root.rotation_euler = (0, 0, rng.randrange(4) * 1.5707963267948966)
    root.scale = (0.5 + rng.randrange(4) / 4,) * 3
    truth = {}
    for i, name in enumerate(NAMES[:4 + rng.randrange(5)]):
        size = (0.2 + rng.random() * 2, 0.2 + rng.random() * 1.5, 0.05 + rng.random() * 0.3)
        mesh = bpy.data.meshes.new(name + "_mesh")
        built = bmesh.new()
        bmesh.ops.create_cube(built, size=1.0)
        for v in built.verts:
            v.co = Vector((v.co.x * size[0], v.co.y * size[1], v.co.z * size[2]))
        built.to_mesh(mesh)
        built.free()
        mesh.uv_layers.new(name="UVMap")
        uv_map = "Baked" if i == 1 else None
        if uv_map:
            mesh.uv_layers.new(name=uv_map)
        obj = bpy.data.objects.new(name, mesh)
        scene.collection.objects.link(obj)
        obj.parent = root
        obj.location = (rng.random() * 8 - 4, rng.random() * 8 - 4, rng.random() * 2)
        base = (rng.random(), rng.random(), rng.random(), 1.0)
        texture = (rng.random(), rng.random(), rng.random(), 1.0) if rng.random() < 0.6 else None
        emission = (0.5, 0.25, 0.0, 1.0) if i == 4 else None
        if i == 0:
            mesh.materials.append(shadeless(name + "_canopy", base))
            texture = None
        else:
            mesh.materials.append(principled(name + "_mat", base, texture, emission, uv_map))
        # The texture's colour as its PNG stores it (bytes), or the base colour factor.
        colour = [round(v * 255) / 255 for v in texture] if texture else list(base)
        truth[name] = {"colour": colour, "unlit": i == 0, "uv": ("1" if uv_map else "0") if texture else "",
                       "emissive": [e * 4.0 for e in emission[:3]] if emission else [0, 0, 0]}
    if "Aileron.R" in truth:
        # The right aileron: the left one's mesh, mirrored by scale.
        right = bpy.data.objects["Aileron.R"]
        right.data = bpy.data.objects["Aileron.L"].data
        right.scale = (-1, 1, 1)
        truth["Aileron.R"] = truth["Aileron.L"]
    bpy.context.view_layer.update()
    parts = []
    for name, drawn in truth.items():
        obj = bpy.data.objects[name]
        points = [TO_GLTF @ (obj.matrix_world @ v.co) for v in obj.data.vertices]
        parts.append({"name": name, "min": [min(p[k] for p in points) for k in range(3)],
                      "max": [max(p[k] for p in points) for k in range(3)], **drawn})
    glb = os.path.join(out_dir, "blender_%d.glb" % seed)
    bpy.ops.export_scene.gltf(filepath=glb, export_format="GLB")
    with open(os.path.join(out_dir, "blender_%d.json" % seed), "w") as out:
        json.dump(parts, out)


args = sys.argv[sys.argv.index("--") + 1:]
for seed in args[1:]:
    aircraft(int(seed), args[0])
print("PARTGRAPH_MADE", flush=True)
