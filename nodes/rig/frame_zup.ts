/**
 * An exporter's turn of a Z-up file to glTF's Y up: Blender 2.79's Khronos exporter and COLLADA2GLTF
 * (from a Z_UP `.dae`) put the whole scene under one root node turned ±90° about X, so the file's +Z —
 * the modeller's up in a Z-up tool — is the scene's ±Y. A hint for up where the shape tells none
 * (nothing says the model was built upright), never a sure one.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";

/**
 * The sign along the scene's Y of the file's +Z, when the scene is one root node, without a mesh,
 * whose rotation turns +Z onto ±Y (a Z-up file turned Y-up on export); undefined otherwise.
 */
export function zUpRoot(doc: Document): 1 | -1 | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const roots = scene?.listChildren() ?? [];
  if (roots.length !== 1 || roots[0].getMesh() || !roots[0].listChildren().length) return undefined;
  const m = roots[0].getMatrix();
  // Column 2 (where +Z goes), normalised against the node's scale (Assimp's 0.01 root).
  const z = [m[8], m[9], m[10]], length = Math.hypot(z[0], z[1], z[2]);
  if (!(length > 0) || Math.abs(z[1]) < 0.999 * length) return undefined;
  return z[1] > 0 ? 1 : -1;
}
