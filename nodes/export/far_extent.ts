/**
 * Meshes a written file places absurdly far out: a mesh node whose world-space bounds reach past
 * {@link FAR_METRES} from the origin. A damaged coordinate (a Carnivores point or a glTF position read
 * from mutated bytes as 3·10²⁸), an overflowing scale or a unit gone wrong all load in Blender and
 * three.js without a complaint, and the viewer frames the whole scene: the model becomes an invisible
 * speck. Measured with real imports (`scripts/survivor_clients_sweep.ts`): fuzz survivors of 3df and glb
 * reached both clients with extents of 10¹⁷–10³⁸ m and no word. The file is valid and is written as it is
 * (moving a coordinate would hide the damage); the warning names the node and mesh so the user can look.
 * A model placed at map coordinates is far from the origin on purpose, and compact: it is told apart by
 * where the rest of the scene lies (`farMeshes`).
 *
 * @module
 */
import { mat4 } from "gl-matrix";
import { skinMatrices } from "./far_skin.ts";

/** Half of 100 km: no model a user means reaches this far from its origin. */
export const FAR_METRES = 5e4;

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** The largest magnitude of a normalized integer component type (glTF's componentType codes). */
const NORMALIZED_MAX: Record<number, number> = { 5120: 127, 5121: 255, 5122: 32767, 5123: 65535 };

/**
 * Beyond this no map coordinate lies (geocentric ECEF about 6.4·10⁶ m, Web Mercator ±2.0·10⁷ m, UTM with
 * the zone before the easting, EPSG:4647, up to 6.1·10⁷ m): a scene this far out is damaged, however
 * compact.
 */
export const MAP_METRES = 1e8;

/** One mesh node's world-space bounds (non-finite when a corner overflows). */
interface Placed {
  readonly index: number;
  readonly node: Json;
  readonly skinned: boolean;
  readonly min: number[];
  readonly max: number[];
}

/**
 * One warning per mesh node of `json` (a written file's JSON) that reaches past {@link FAR_METRES} from
 * the scene's body: its world-space bounds (its POSITION accessors' `min`/`max` through the node's world
 * matrix) far from the origin and from where the rest of the scene lies (the median of the mesh nodes'
 * centres), or past {@link MAP_METRES} from the origin. A model placed at map coordinates (a building or
 * an airfield at its UTM or geocentric position, as GIS and sim-scenery exports write it) is far but
 * compact: its meshes lie within 50 km of one another and are not named (one note says where the
 * body lies, since one damaged transform above every mesh looks the same); a few meshes far from a
 * compact body, or a mesh spanning more than 100 km, are. A skinned mesh is drawn by its joints: its
 * bounds go through each weighted joint's world matrix times its inverse bind matrix (`far_skin.ts`,
 * read from `bin`, the GLB's binary chunk; without it, the mesh's own bounds alone), so a damaged
 * inverse bind matrix that throws the skin far out is named too ("may": the bounds are the mesh's whole
 * box under each joint).
 *
 * @example
 * farMeshes({ nodes: [{ name: "Body", mesh: 0, scale: [1e30, 1, 1] }], scenes: [{ nodes: [0] }], … });
 * // ["mesh 'Body' of node 'Body' reaches 1.00e+30 m from the origin (past 50 km): …"]
 */
export function farMeshes(json: Json, bin?: Uint8Array): string[] {
  const nodes: Json[] = json.nodes ?? [];
  const worlds = new Map<number, mat4>();
  const identity = matrixPool();
  const visit = (index: number, parent: mat4, depth: number) => {
    const node = nodes[index];
    // A cycle or absurd depth is the validator's to refuse; the output got here valid, so this is a guard.
    if (!node || depth > nodes.length || worlds.has(index)) return;
    const world = mat4.multiply(identity(), parent, local(node, identity()));
    worlds.set(index, world);
    for (const child of node.children ?? []) visit(child, world, depth + 1);
  };
  const roots = new Set<number>((json.scenes ?? []).flatMap((s: Json) => s.nodes ?? []));
  for (const root of roots) visit(root, identity(), 0);
  const placed: Placed[] = [];
  for (const [index, world] of [...worlds].sort((a, b) => a[0] - b[0])) {
    const node = nodes[index];
    if (node.mesh === undefined) continue;
    const skin = json.skins?.[node.skin];
    // A skinned mesh is drawn by its joints, not its node (glTF ignores the node's transform).
    const matrices = skin ? skinMatrices(json, skin, json.meshes?.[node.mesh], worlds, bin) : [world];
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    let bounded = false;
    for (const m of matrices) bounded = meshBounds(json, node.mesh, m, min, max) || bounded;
    if (bounded) placed.push({ index, node, skinned: !!skin, min, max });
  }
  // Nearly every scene has no mesh out there: then no body to find (three sorts of every mesh's centre).
  const reaches = placed.map((p) => farthest(p, ORIGIN));
  if (!reaches.some((reach) => reach > FAR_METRES)) return [];
  const centre = bodyCentre(placed, reaches);
  const out: string[] = [];
  let body = 0;
  for (const [i, p] of placed.entries()) {
    const reach = reaches[i];
    if (reach <= FAR_METRES) continue;
    const fromBody = farthest(p, centre);
    // Part of a compact body placed far out, at map coordinates: meant so.
    if (fromBody <= FAR_METRES && reach <= MAP_METRES) {
      body++;
      continue;
    }
    const mesh = json.meshes[p.node.mesh];
    const what = p.skinned
      ? "a damaged coordinate, inverse bind matrix, scale or unit"
      : "a damaged coordinate, scale or unit";
    const said = reach > MAP_METRES
      ? `past ${FAR_METRES / 1000} km, and past any map coordinate`
      : `past ${FAR_METRES / 1000} km, and ${fromBody.toExponential(2)} m from the rest of the scene`;
    out.push(
      `mesh '${mesh.name ?? `#${p.node.mesh}`}' of node '${p.node.name ?? `#${p.index}`}' ${
        p.skinned ? "may reach" : "reaches"
      } ${reach.toExponential(2)} m from the origin (${said}): ${what}; Blender and ` +
        "three.js frame the whole scene, so the rest shows as a speck",
    );
  }
  // One word, not an alarm: a scene moved out whole by one damaged transform looks the same.
  if (body) {
    const at = centre.map((v) => Math.round(v)).join(", ");
    out.push(
      `the scene lies ${Math.round(Math.hypot(...centre) / 1000)} km out as one compact body ` +
        `(${body} mesh node(s) about (${at}), within ${FAR_METRES / 1000} km of one another): a model ` +
        "placed at map coordinates (UTM, geocentric, Web Mercator), as GIS and sim-scenery exports write " +
        "one, is written so; if this one is not, a transform above them all is damaged",
    );
  }
  return out;
}

/**
 * Where the scene's body lies: per axis, the median of the centres of the mesh nodes within
 * {@link MAP_METRES} (of two middle values, the one nearer the origin), so that a few damaged meshes do not
 * move it; the origin when there are none.
 */
function bodyCentre(placed: readonly Placed[], reaches: readonly number[]): number[] {
  bodyCentres.count++;
  const sane = placed.filter((_, i) => reaches[i] <= MAP_METRES);
  if (!sane.length) return [0, 0, 0];
  return [0, 1, 2].map((k) => {
    const values = sane.map((p) => (p.min[k] + p.max[k]) / 2).sort((a, b) => a - b);
    const low = values[(values.length - 1) >> 1], high = values[values.length >> 1];
    return Math.abs(low) <= Math.abs(high) ? low : high;
  });
}

/** How many times {@link farMeshes} worked out where a scene's body lies (a count for tests). */
export const bodyCentres = { count: 0 };

const ORIGIN: readonly number[] = [0, 0, 0];

/** The farthest corner of a mesh node's bounds from `point` (infinite when a corner overflowed). */
function farthest(p: Placed, point: readonly number[]): number {
  const { min, max } = p;
  for (let k = 0; k < 3; k++) if (!Number.isFinite(min[k]) || !Number.isFinite(max[k])) return Infinity;
  // Per axis without a list each: this runs for every mesh node of every export.
  const d0 = Math.max(Math.abs(min[0] - point[0]), Math.abs(max[0] - point[0]));
  const d1 = Math.max(Math.abs(min[1] - point[1]), Math.abs(max[1] - point[1]));
  const d2 = Math.max(Math.abs(min[2] - point[2]), Math.abs(max[2] - point[2]));
  return Math.hypot(d0, d1, d2);
}

/**
 * A source of identity matrices of float32, as `mat4.create` makes them, cut from shared blocks:
 * `mat4.create` allocates a buffer per matrix, 3–5 µs each in Deno (most of this check's time on a
 * batch of 1,700 nodes), where a view into a block costs a tenth of that; the arithmetic is the same.
 */
function matrixPool(): () => mat4 {
  const BLOCK = 256;
  let block = new Float32Array(0), used = 0;
  return () => {
    if (used === block.length) block = new Float32Array(16 * BLOCK), used = 0;
    const matrix = block.subarray(used, used += 16);
    matrix[0] =
      matrix[5] =
      matrix[10] =
      matrix[15] =
        1;
    return matrix;
  };
}

/** A node's local matrix, written into `out` (an identity matrix of float32). */
function local(node: Json, out: mat4): mat4 {
  if (node.matrix) return mat4.copy(out, node.matrix);
  return mat4.fromRotationTranslationScale(
    out,
    node.rotation ?? [0, 0, 0, 1],
    node.translation ?? [0, 0, 0],
    node.scale ?? [1, 1, 1],
  );
}

/**
 * Widens `min`/`max` by the corners of the mesh's primitives' position bounds under `world`; whether any
 * primitive had bounds.
 */
function meshBounds(json: Json, meshIndex: number, world: mat4, min: number[], max: number[]): boolean {
  let bounded = false;
  for (const primitive of json.meshes?.[meshIndex]?.primitives ?? []) {
    const accessor = json.accessors?.[primitive.attributes?.POSITION];
    if (!accessor?.min || !accessor?.max) continue;
    bounded = true;
    const scale = accessor.normalized ? NORMALIZED_MAX[accessor.componentType] ?? 1 : 1;
    const { min: low, max: high } = accessor;
    for (let corner = 0; corner < 8; corner++) {
      // The corner's coordinates as numbers, not an array per corner (eight per primitive of a ship).
      const p0 = (corner & 1 ? high[0] : low[0]) / scale;
      const p1 = (corner & 2 ? high[1] : low[1]) / scale;
      const p2 = (corner & 4 ? high[2] : low[2]) / scale;
      for (let k = 0; k < 3; k++) {
        // A corner that overflows is as far as it gets.
        const v = world[k] * p0 + world[4 + k] * p1 + world[8 + k] * p2 + world[12 + k];
        const c = Number.isFinite(v) ? v : Infinity;
        min[k] = Math.min(min[k], Number.isFinite(v) ? v : -Infinity), max[k] = Math.max(max[k], c);
      }
    }
  }
  return bounded;
}
