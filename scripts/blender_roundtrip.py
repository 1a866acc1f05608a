"""Imports GLBs with Blender's glTF importer and exports each again with its glTF exporter, as a user
editing partgraph's output in Blender does (default export settings: "+Y Up" on; "Include → Custom
Properties" as asked).

    blender -b --factory-startup --python scripts/blender_roundtrip.py -- IN.glb OUT.glb OPTIONS [IN OUT OPTIONS ...]

OPTIONS is `default`, or a comma list of changes to the defaults: `extras` turns "Include → Custom
Properties" on (export_extras, off by default in Blender 3.4), `keys` turns "Animation → Always Sample
Animations" off (export_force_sampling, on by default: clips are then baked at the scene's 24 fps),
`zup` turns "+Y Up" off (export_yup: the file is then written Z up), `lights` turns "Include →
Punctual Lights" on (export_lights, off by default), `extend=NAME` adds a surface as a user would before exporting: a copy of the object NAME called
NAME_Outer, moved one span along the hinge of its pivot HINGE_auto_NAME (toward +X) and parented to
the pivot's parent. Edits a user makes before exporting, each `NAME` an object and its
arguments `:`-separated: `move=NAME:DX:DY:DZ` adds to its location (Blender's axes, its parent's
space), `turn=NAME:DEGREES` turns it about its local Z, `apply=NAME:WHAT` applies its transform
(Ctrl+A; WHAT is `scale`, `rotation` or `all`), `scaleall=K` scales every top-level object by K
about the origin and applies the scale to every object (Ctrl+A → Scale with all selected),
`unparent=NAME` clears its parent keeping its transform (Alt+P), `reparent=NAME:PARENT` parents
it as Ctrl+P → Object does (keeping its transform through a parent inverse), `applyinverse=NAME`
applies its parent inverse (Object → Parent → Apply Parent Inverse), `rename=NAME:NEW`.
Several files go through one Blender process (it takes a second or two to start).
Prints one line "PARTGRAPH_ROUNDTRIP {json}" per file: its objects' names, or the error.
"""
import json
import os
import sys

RESULT = "PARTGRAPH_ROUNDTRIP "


def report(result):
    print(RESULT + json.dumps(result), flush=True)


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_numpy import ready  # noqa: E402

ready(report)

import bpy  # noqa: E402


def extend(name):
    """Copies the panel `name` one span further along its pivot's hinge, beside the pivot."""
    panel = bpy.data.objects[name]
    pivot = bpy.data.objects["HINGE_auto_" + name]
    axis = pivot.matrix_world.col[0].to_3d().normalized()
    axis = axis if axis.x >= 0 else -axis
    corners = [panel.matrix_world @ v.co for v in panel.data.vertices]
    span = max(c.dot(axis) for c in corners) - min(c.dot(axis) for c in corners)
    copy = panel.copy()
    copy.name = name + "_Outer"
    bpy.context.scene.collection.objects.link(copy)
    world = panel.matrix_world.copy()
    world.translation += axis * span
    copy.parent = pivot.parent
    copy.matrix_world = world


def only(name):
    """Selects the object `name` alone and makes it active, as a click in the viewport does."""
    bpy.ops.object.select_all(action="DESELECT")
    obj = bpy.data.objects[name]
    obj.select_set(True)
    bpy.context.view_layer.objects.active = obj
    return obj


def edit(option):
    """One user edit (see the module)."""
    import math
    key, _, value = option.partition("=")
    args = value.split(":")
    if key == "move":
        obj = bpy.data.objects[args[0]]
        obj.location = obj.location + __import__("mathutils").Vector([float(a) for a in args[1:4]])
    elif key == "turn":
        obj = bpy.data.objects[args[0]]
        obj.rotation_mode = "XYZ"
        obj.rotation_euler.z += math.radians(float(args[1]))
    elif key == "apply":
        only(args[0])
        # Meshes shared by mirrored objects refuse Apply: Object → Relations → Make Single User first.
        bpy.ops.object.make_single_user(object=True, obdata=True)
        bpy.ops.object.transform_apply(location=args[1] == "all", rotation=args[1] in ("rotation", "all"),
                                       scale=args[1] in ("scale", "all"))
    elif key == "scaleall":
        k = float(args[0])
        for obj in bpy.data.objects:
            if obj.parent is None:
                obj.location = obj.location * k
                obj.scale = obj.scale * k
        bpy.context.view_layer.update()
        bpy.ops.object.select_all(action="SELECT")
        bpy.context.view_layer.objects.active = bpy.data.objects[0]
        bpy.ops.object.make_single_user(object=True, obdata=True)
        bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    elif key == "unparent":
        only(args[0])
        bpy.ops.object.parent_clear(type="CLEAR_KEEP_TRANSFORM")
    elif key == "reparent":
        obj, parent = bpy.data.objects[args[0]], bpy.data.objects[args[1]]
        world = obj.matrix_world.copy()
        obj.parent = parent
        obj.matrix_parent_inverse = parent.matrix_world.inverted() @ world @ obj.matrix_basis.inverted()
    elif key == "applyinverse":
        only(args[0])
        bpy.ops.object.parent_inverse_apply()
    elif key == "rename":
        bpy.data.objects[args[0]].name = args[1]
    else:
        raise ValueError(f"unknown option {option}")
    bpy.context.view_layer.update()


def main():
    args = sys.argv[sys.argv.index("--") + 1:]
    for source, target, options in zip(args[0::3], args[1::3], args[2::3]):
        options = options.split(",")
        bpy.ops.wm.read_factory_settings(use_empty=True)
        try:
            bpy.ops.import_scene.gltf(filepath=source)
            for option in options:
                if option.startswith("extend="):
                    extend(option[len("extend="):])
                elif option not in ("extras", "keys", "zup", "lights", "default"):
                    edit(option)
            bpy.ops.export_scene.gltf(filepath=target, export_format="GLB", export_extras="extras" in options,
                                      export_force_sampling="keys" not in options,
                                      export_yup="zup" not in options, export_lights="lights" in options)
        except Exception as error:  # the tool's own failure is the finding
            report({"source": source, "error": f"{type(error).__name__}: {error}"})
            continue
        report({"source": source, "target": target, "objects": sorted(o.name for o in bpy.data.objects)})


main()
