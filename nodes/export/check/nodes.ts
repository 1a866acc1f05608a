/**
 * Nodes, scenes and skins of a written glTF: transforms (finite, unit rotations as the validator
 * measures them, in float32), a forest without loops or second parents, scenes of root nodes, skins
 * whose joints share a root that the skeleton (if any) is, and skinned meshes in scenes that hold
 * their joints.
 *
 * @module
 */
import { collection, indexList, int, type Json, keys, numbers, optionalInt, shaped } from "./json.ts";
import { type AccessorLayout, FLOAT } from "./layout.ts";
import type { MeshFacts } from "./mesh.ts";
import type { Plan, Usages } from "./plan.ts";
import { QUATERNION_TOLERANCE } from "./data.ts";
import { outside } from "./verdict.ts";

const NODE_KEYS = keys("camera", "children", "mesh", "skin", "translation", "rotation", "scale", "weights");
const SCENE_KEYS = keys("nodes");
const SKIN_KEYS = keys("inverseBindMatrices", "skeleton", "joints");

/** What animations need to know about nodes: each node's mesh, if any. */
export interface NodeFacts {
  readonly mesh?: number;
}

/** Reads nodes, scenes and skins; adds inverse-bind-matrix and skin-influence checks to `plan`. */
export function readNodes(
  root: Json,
  meshes: readonly MeshFacts[],
  accessors: readonly AccessorLayout[],
  cameras: number,
  usages: Usages,
  plan: Plan,
): NodeFacts[] {
  const list = collection(root, "nodes");
  const skinsList = collection(root, "skins");
  const parent = new Int32Array(list.length).fill(-1);
  const nodes = list.map((value, i): NodeFacts & { skin?: number } => {
    const pointer = `/nodes/${i}`;
    const node = shaped(value, pointer, NODE_KEYS);
    if (node.children !== undefined) {
      for (const child of indexList(node.children, `${pointer}/children`, list.length)) {
        if (parent[child] !== -1 || child === i) outside("node with two parents", `${pointer}/children`);
        parent[child] = i;
      }
    }
    if (node.translation !== undefined) numbers(node.translation, `${pointer}/translation`, 3);
    if (node.scale !== undefined) numbers(node.scale, `${pointer}/scale`, 3);
    if (node.rotation !== undefined) {
      const [x, y, z, w] = numbers(node.rotation, `${pointer}/rotation`, 4, -1, 1).map(Math.fround);
      if (Math.abs(1 - Math.sqrt(x * x + y * y + z * z + w * w)) > QUATERNION_TOLERANCE) {
        outside("rotation not unit", `${pointer}/rotation`);
      }
    }
    optionalInt(node.camera, `${pointer}/camera`, cameras);
    const mesh = optionalInt(node.mesh, `${pointer}/mesh`, meshes.length);
    const skin = optionalInt(node.skin, `${pointer}/skin`, skinsList.length);
    if (skin !== undefined && (mesh === undefined || !meshes[mesh].skinned)) {
      outside("skin without a skinned mesh", pointer);
    }
    if (node.weights !== undefined) {
      numbers(node.weights, `${pointer}/weights`, 0);
      if (mesh === undefined || (node.weights as number[]).length !== meshes[mesh].targets) {
        outside("node weights count", `${pointer}/weights`);
      }
    }
    return { mesh, skin };
  });
  // Loops: with one parent each, a node is in a loop when walking up never reaches a root.
  const rootOf = new Int32Array(list.length).fill(-1);
  for (let i = 0; i < list.length; i++) {
    let at = i, steps = 0;
    while (parent[at] !== -1 && rootOf[at] === -1) {
      at = parent[at];
      if (++steps > list.length) outside("node loop", `/nodes/${i}`);
    }
    const found = rootOf[at] !== -1 ? rootOf[at] : at;
    for (let n = i; n !== at; n = parent[n]) rootOf[n] = found;
    rootOf[at] = found;
  }

  const scenes = collection(root, "scenes");
  optionalInt(root.scene, "/scene", scenes.length);
  const sceneRoots = scenes.map((value, s) => {
    const pointer = `/scenes/${s}`;
    const scene = shaped(value, pointer, SCENE_KEYS);
    const roots = scene.nodes === undefined ? [] : indexList(scene.nodes, `${pointer}/nodes`, list.length);
    for (const n of roots) if (parent[n] !== -1) outside("scene node that is not a root", `${pointer}/nodes`);
    return new Set(roots);
  });

  const skins = skinsList.map((value, s) => {
    const pointer = `/skins/${s}`;
    const skin = shaped(value, pointer, SKIN_KEYS);
    const joints = indexList(skin.joints, `${pointer}/joints`, list.length);
    if (skin.inverseBindMatrices !== undefined) {
      const at = `${pointer}/inverseBindMatrices`;
      const index = int(skin.inverseBindMatrices, at, accessors.length);
      const accessor = accessors[index];
      usages.accessor(index, accessor, "ibm", at);
      if (accessor.type !== "MAT4" || accessor.componentType !== FLOAT || accessor.count < joints.length) {
        outside("inverse bind matrices format or count", at);
      }
      plan.inverseBinds.push({ accessor, pointer: at });
    }
    // The joints' common ancestors (each joint counting as its own): the validator wants one, and the
    // skeleton to be one of them.
    let common = ancestors(joints[0], parent);
    for (const joint of joints.slice(1)) {
      const mine = ancestors(joint, parent);
      common = new Set([...common].filter((n) => mine.has(n)));
    }
    if (!common.size) outside("joints without a common root", `${pointer}/joints`);
    const skeleton = optionalInt(skin.skeleton, `${pointer}/skeleton`, list.length);
    if (skeleton !== undefined && !common.has(skeleton)) outside("skeleton not a common root", pointer);
    return joints;
  });

  // A skinned mesh node and its skin's joints must be in the same scenes (their trees' roots).
  nodes.forEach((node, i) => {
    if (node.skin === undefined) return;
    for (const roots of sceneRoots) {
      if (!roots.has(rootOf[i])) continue;
      if (skins[node.skin].some((joint) => !roots.has(rootOf[joint]))) {
        outside("skinned mesh in a scene without its joints", `/nodes/${i}`);
      }
    }
  });

  // Skin influences: joint indices must be below the smallest joint count of the skins a mesh is used with.
  meshes.forEach((mesh, m) => {
    if (!mesh.skinned) return;
    let joints = -1;
    for (const node of nodes) {
      if (node.mesh === m && node.skin !== undefined) {
        const count = skins[node.skin].length;
        if (joints === -1 || count < joints) joints = count;
      }
    }
    if (joints < 1) return;
    for (const sets of mesh.influenceSets) plan.influences.push({ sets, maxJoint: joints - 1 });
  });
  return nodes;
}

/** A node and all its ancestors. */
function ancestors(node: number, parent: Int32Array): Set<number> {
  const out = new Set<number>();
  for (let at = node; at !== -1 && !out.has(at); at = parent[at]) out.add(at);
  return out;
}
