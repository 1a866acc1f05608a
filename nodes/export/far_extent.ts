/**
 * Meshes a written file places absurdly far out: a mesh node whose world-space bounds reach past
 * {@link FAR_METRES} from the origin. A damaged coordinate (a Carnivores point or a glTF position read
 * from mutated bytes as 3·10²⁸), an overflowing scale or a unit gone wrong all load in Blender and
 * three.js without a complaint, and the viewer frames the whole scene: the model becomes an invisible
 * speck. Measured with real imports (`scripts/survivor_clients_sweep.ts`): fuzz survivors of 3df and glb
 * reached both clients with extents of 10¹⁷–10³⁸ m and no word. The file is valid and is written as it is
 * (moving a coordinate would hide the damage); the warning names the node and mesh so the user can look.
 *
 * @module
 */
import { mat4 } from "gl-matrix";

/** Half of 100 km: no model a user means reaches this far from its origin. */
export const FAR_METRES = 5e4;

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** The largest magnitude of a normalized integer component type (glTF's componentType codes). */
const NORMALIZED_MAX: Record<number, number> = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 };

/**
 * One warning per mesh node of `json` (a written file's JSON) whose world-space bounds (its POSITION
 * accessors' `min`/`max` through the node's world matrix) reach past {@link FAR_METRES}. A skinned mesh is
 * drawn by its joints: its bounds go through each joint's world matrix times its inverse bind matrix
 * (read from `bin`, the GLB's binary chunk; without it, the mesh's own bounds alone), so a damaged inverse bind
 * matrix that throws the skin far out is named too (a joint no vertex weighs may make this say so of a
 * skin that draws near: the message says "may").
 *
 * @example
 * farMeshes({ nodes: [{ name: "Body", mesh: 0, scale: [1e30, 1, 1] }], scenes: [{ nodes: [0] }], … });
 * // ["mesh 'Body' of node 'Body' reaches 1.00e+30 m from the origin (past 50 km): …"]
 */
export function farMeshes(json: Json, bin?: Uint8Array): string[] {
  const nodes: Json[] = json.nodes ?? [];
  const worlds = new Map<number, mat4>();
  const visit = (index: number, parent: mat4, depth: number) => {
    const node = nodes[index];
    // A cycle or absurd depth is the validator's to refuse; the output got here valid, so this is a guard.
    if (!node || depth > nodes.length || worlds.has(index)) return;
    const world = mat4.multiply(mat4.create(), parent, local(node));
    worlds.set(index, world);
    for (const child of node.children ?? []) visit(child, world, depth + 1);
  };
  const roots = new Set<number>((json.scenes ?? []).flatMap((s: Json) => s.nodes ?? []));
  for (const root of roots) visit(root, mat4.create(), 0);
  const out: string[] = [];
  for (const [index, world] of [...worlds].sort((a, b) => a[0] - b[0])) {
    const node = nodes[index];
    if (node.mesh === undefined) continue;
    const skin = json.skins?.[node.skin];
    // A skinned mesh is drawn by its joints, not its node (glTF ignores the node's transform).
    const reach = skin
      ? Math.max(...skinMatrices(json, skin, worlds, bin).map((m) => meshReach(json, node.mesh, m)))
      : meshReach(json, node.mesh, world);
    if (reach > FAR_METRES) {
      const mesh = json.meshes[node.mesh];
      const what = skin
        ? "a damaged coordinate, inverse bind matrix, scale or unit"
        : "a damaged coordinate, scale or unit";
      out.push(
        `mesh '${mesh.name ?? `#${node.mesh}`}' of node '${node.name ?? `#${index}`}' ${
          skin ? "may reach" : "reaches"
        } ` +
          `${reach.toExponential(2)} m from the origin (past ${
            FAR_METRES / 1000
          } km): ${what}; Blender and ` +
          "three.js frame the whole scene, so the rest shows as a speck",
      );
    }
  }
  return out;
}

/** Each joint's world matrix times its inverse bind matrix; the identity alone without the binary data. */
function skinMatrices(json: Json, skin: Json, worlds: Map<number, mat4>, bin?: Uint8Array): mat4[] {
  const accessor = json.accessors?.[skin.inverseBindMatrices];
  const view = json.bufferViews?.[accessor?.bufferView];
  const joints: number[] = skin.joints ?? [];
  // Without inverse bind matrices, each is the identity: the joints' own world matrices draw the skin.
  if (skin.inverseBindMatrices === undefined) return joints.map((j) => worlds.get(j) ?? mat4.create());
  if (!bin || !accessor || !view || accessor.componentType !== 5126 || accessor.sparse) {
    return [mat4.create()];
  }
  const start = bin.byteOffset + (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
  if (start + 64 * joints.length > bin.byteOffset + bin.byteLength) return [mat4.create()];
  const data = new DataView(bin.buffer, start, 64 * joints.length);
  return joints.map((joint, j) => {
    const inverse = mat4.create();
    for (let k = 0; k < 16; k++) inverse[k] = data.getFloat32(64 * j + 4 * k, true);
    return mat4.multiply(mat4.create(), worlds.get(joint) ?? mat4.create(), inverse);
  });
}

function local(node: Json): mat4 {
  if (node.matrix) return mat4.clone(node.matrix);
  return mat4.fromRotationTranslationScale(
    mat4.create(),
    node.rotation ?? [0, 0, 0, 1],
    node.translation ?? [0, 0, 0],
    node.scale ?? [1, 1, 1],
  );
}

/** The farthest any corner of the mesh's primitives' position bounds lies from the origin under `world`. */
function meshReach(json: Json, meshIndex: number, world: mat4): number {
  let reach = 0;
  for (const primitive of json.meshes?.[meshIndex]?.primitives ?? []) {
    const accessor = json.accessors?.[primitive.attributes?.POSITION];
    if (!accessor?.min || !accessor?.max) continue;
    const scale = accessor.normalized ? NORMALIZED_MAX[accessor.componentType] ?? 1 : 1;
    for (let corner = 0; corner < 8; corner++) {
      const p = [0, 1, 2].map((k) => ((corner >> k) & 1 ? accessor.max[k] : accessor.min[k]) / scale);
      const x = world[0] * p[0] + world[4] * p[1] + world[8] * p[2] + world[12];
      const y = world[1] * p[0] + world[5] * p[1] + world[9] * p[2] + world[13];
      const z = world[2] * p[0] + world[6] * p[1] + world[10] * p[2] + world[14];
      // A corner that overflows is as far as it gets.
      reach = Math.max(reach, Number.isFinite(x + y + z) ? Math.hypot(x, y, z) : Infinity);
    }
  }
  return reach;
}
