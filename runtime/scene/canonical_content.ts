/**
 * What the GLB and `.gltf` writers do to the JSON glTF-Transform's writer (or `glb_writer/`) gives
 * before it is written: morph targets named, near-default transforms kept, empty scene node lists
 * left out, extras sorted.
 *
 * @module
 */
import type { Document, GLTF } from "@gltf-transform/core";
import { keepNearDefaultTransforms } from "./near_defaults.ts";
import { sortExtras } from "./canonical_extras.ts";

/**
 * Names morph targets, keeps near-default transforms and sorts extras, in place (returns `json`, or the
 * root object that replaces it: `sortExtras`, and whether its extras hold a wide integer); `doc` is the input.
 * The names `outputJson` adds to extras later are text: they add no wide integer.
 */
export function canonicaliseContent(doc: Document, json: GLTF.IGLTF): { json: GLTF.IGLTF; wide: boolean } {
  nameMorphTargets(doc, json);
  keepNearDefaultTransforms(doc, json);
  omitEmptySceneNodes(json);
  const found = { wide: false };
  return { json: sortExtras(json, found), wide: found.wide };
}

/**
 * glTF-Transform writes a scene without children as `"nodes": []`, which glTF forbids (an empty
 * array; `nodes` is optional): a valid file with an empty scene (Blender writes one per empty
 * Blender scene) could not be exported. The property is left out instead.
 */
function omitEmptySceneNodes(json: GLTF.IGLTF): void {
  for (const scene of json.scenes ?? []) {
    // Unset, not deleted (which makes the object a dictionary): sortExtras then leaves the key out.
    if (scene.nodes?.length === 0) (scene as { nodes?: number[] }).nodes = undefined;
  }
}

/**
 * glTF-Transform writes `extras.targetNames` from the targets' own names, empty ones included, which
 * Blender's importer cannot take (`KeyError: key "" not found`) and three.js files under `""`. A mesh
 * whose targets are unnamed keeps the `targetNames` its extras carry (when they fit); any name still
 * empty becomes the target's index, as glTF-Transform names targets of files without names.
 */
function nameMorphTargets(doc: Document, json: GLTF.IGLTF): void {
  const meshes = doc.getRoot().listMeshes();
  json.meshes?.forEach((meshDef, m) => {
    const written = meshDef.extras?.targetNames;
    // A user's own `targetNames` that is not a list (a mesh without targets keeps its extras as given).
    if (!Array.isArray(written) || !written.some((name) => name === "")) return;
    const own = (meshes[m].getExtras() as { targetNames?: unknown }).targetNames;
    const fallback = Array.isArray(own) && own.length === written.length ? own : [];
    meshDef.extras!.targetNames = written.map((name, i) =>
      name || (typeof fallback[i] === "string" && fallback[i]) || String(i)
    );
  });
}
