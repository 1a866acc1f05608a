/**
 * `scene.uninstance` — expands `EXT_mesh_gpu_instancing` into plain nodes: each instance of a node's
 * instanced mesh becomes a child node `<name>_<i>` carrying the mesh, with the instance's
 * translation, rotation and scale (the extension applies them in the node's local space, so the
 * child draws exactly where the instance did). For clients that cannot read the extension:
 * Blender 3.4's importer refuses a file that requires it, and glTF-Transform's `optimize` and
 * gltfpack's `-mi` write it for repeated meshes (rivets, seats, wheels).
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { lazyRun } from "../../runtime/lazy_run.ts";

/** `scene.uninstance` node definition. */
export const sceneUninstance = defineNode({
  type: "scene.uninstance",
  version: 1,
  doc: "Expands EXT_mesh_gpu_instancing: each instance becomes a child node <name>_<i> carrying the " +
    "mesh with the instance's transform, for clients that cannot read the extension (Blender 3.4's " +
    "importer); the extension is dropped.",
  inputs: { scene: { type: "scene", doc: "A scene, e.g. a decoded glTF-Transform `optimize` output." } },
  outputs: { scene: { type: "scene", doc: "The scene without GPU instancing." } },
  params: {
    enabled: {
      type: "boolean",
      default: true,
      doc: "Expand the instances (false passes the scene through, so a graph input can leave the choice " +
        "to its user).",
    },
  },
  run: lazyRun(new URL("./uninstance_run.ts", import.meta.url)),
});
