/**
 * A scene's root list as hand edits and exporters get it wrong: a child of another node listed as a
 * root too, and a root listed twice.
 *
 * @module
 */
import type { Checker, Json } from "./checker.ts";

/**
 * Leaves in `scene.nodes` each root once, and no node that has a parent, with a repair at
 * `/scenes/<i>/nodes` for each kind. `parent`: each node's parent (-1 for a root).
 *
 * Some exporters list every node in the scene, children too (SCENE_NON_ROOT_NODE): read as a root, a
 * child would leave its parent (as three.js moves it), breaking the hierarchy the file describes. A root
 * listed twice (pasted in again by a hand edit; glTF requires each once) is one node: three.js and
 * glTF-Transform add it once, while a reader making an object per entry draws it twice.
 */
export function checkSceneRoots(c: Checker, scene: Json, path: string, parent: readonly number[]): void {
  const roots = scene.nodes as number[] | undefined;
  if (!roots?.length) return;
  const children = roots.filter((node) => parent[node] !== -1);
  if (children.length) {
    scene.nodes = roots.filter((node) => parent[node] === -1);
    c.repaired(
      path,
      `${children.length} node(s) listed that are children of other nodes (nodes ${
        children.slice(0, 3).join(", ")
      }${children.length > 3 ? ", …" : ""}); left under their parents`,
    );
  }
  const listed = scene.nodes as number[];
  // Marks by node index (checked in range before), not a Set: a scene of a million roots is common
  // enough in city and CAD exports, and a Set of them costs more than the rest of the check.
  const seen = new Uint8Array(parent.length);
  let repeats = 0;
  for (const node of listed) {
    if (seen[node]) repeats++;
    else seen[node] = 1;
  }
  if (repeats === 0) return;
  const once = [...new Set(listed)];
  const twice = once.filter((node) => listed.indexOf(node) !== listed.lastIndexOf(node));
  scene.nodes = once;
  c.repaired(
    path,
    `${twice.slice(0, 3).map((node) => `node ${node}`).join(", ")}${twice.length > 3 ? ", …" : ""} listed ` +
      `more than once (${listed.length - once.length} repeat(s)); glTF lists each root once: read once, as ` +
      "three.js draws it (a reader making an object per entry draws it twice)",
  );
}

/**
 * Warns, at /scene, when the default scene has no nodes while another scene has some: viewers open the
 * default and show nothing (three.js's `gltf.scene` is empty), and the rig finds no part in it. A hand
 * edit of `"scene"`, or an exporter's empty scene left first, makes such files; which scene was meant
 * is unknown, so the file is kept as it is.
 */
export function warnEmptyDefaultScene(c: Checker): void {
  const scenes = c.list("scenes");
  // No `scene`: no default (three.js and Blender open the first).
  const main = (c.json.scene as number | undefined) ?? 0;
  if (!scenes[main] || (scenes[main].nodes as number[] | undefined)?.length) return;
  const full = scenes.findIndex((scene) => (scene.nodes as number[] | undefined)?.length);
  if (full < 0) return;
  const roots = (scenes[full].nodes as number[]).length;
  c.repaired(
    "/scene",
    `the default scene (scene ${main}) has no nodes, while scene ${full} has ${roots} root node(s): viewers ` +
      "open the default and show nothing (three.js's gltf.scene is empty); kept as the file has it",
  );
}
