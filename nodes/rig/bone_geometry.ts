/**
 * The geometry a skin bone moves: the vertices of every mesh skinned to it whose weight on the bone
 * is dominant, skinned to where they are drawn at rest (world = Σ wᵢ·(jointWorldᵢ·IBMᵢ)·v, weights
 * renormalised), and the triangles made only of such vertices — the bone's surface, which
 * {@link fitHinge} slices at its span stations exactly as it does a mesh panel's. Vertices dominated
 * by one of the bone's descendant joints (a trim tab's bone) are left to that bone. Vertices no
 * triangle with an area draws are no part of any bone's geometry (see {@link drawnVertices}).
 *
 * @module
 */
import type { Document, Node, Primitive, Skin } from "@gltf-transform/core";
import { type GatheredPositions, gatherPositions, primitiveTriangles, subtreeNodes } from "./geometry.ts";
import { getPart } from "./part_extras.ts";
import { activeMorphs, addMorphs, blendSkinned, influenceSets, jointMatrices } from "./skin_blend.ts";
import { drawnVertices, idOf, keptTriangles, vertexKey } from "./skinned_drawn.ts";
import { type Mat4, multiply } from "./transform.ts";

/** A vertex belongs to a bone when at least this share of its skin weight is on it. */
export const DOMINANT_WEIGHT = 0.5;

/** The nodes listed as joints by any skin of the document. */
export function skinJoints(doc: Document): Set<Node> {
  return new Set(doc.getRoot().listSkins().flatMap((skin) => skin.listJoints()));
}

/**
 * The geometry a panel moves, transformed by `frame`: a skin bone's dominant skinned vertices, else
 * the meshes under the node.
 */
export function panelPositions(doc: Document, node: Node, frame: Mat4, poses?: SkinPoses): GatheredPositions {
  return getPart(node)?.driven_by === "skin"
    ? gatherBonePositions(doc, node, frame, { poses })
    : gatherPositions(node, frame);
}

/**
 * Each skin's joint matrices in one frame, worked out once for all the bones a node run gathers:
 * per bone, every joint's world matrix was composed again, quadratic in a skin's panel bones (2,000
 * of them took 5 s in `rig.fit_hinge` and 4 s in `rig.assign_side`). Valid while the joints keep
 * their place: for one pass over the panels, not across a change to the hierarchy.
 */
export class SkinPoses {
  readonly #bySkin = new Map<Skin, Float64Array>();
  constructor(readonly frame: Mat4) {}

  /** `frame × jointWorld × inverseBind` for every joint of `skin`, 16 numbers each. */
  of(skin: Skin): Float64Array {
    let matrices = this.#bySkin.get(skin);
    if (!matrices) this.#bySkin.set(skin, matrices = jointMatrices(skin, this.frame));
    return matrices;
  }
}

/**
 * Positions (transformed by `frame`) of the rest-pose skinned vertices dominated by `bone`, over
 * every mesh node skinned with a skin that lists it; with `triangles: true`, also every triangle
 * whose three vertices are among them (indices into `positions`). `poses` (in `frame`) keeps each
 * skin's joint matrices for the next bone.
 *
 * @example
 * ```ts
 * const { positions, count } = gatherBonePositions(doc, nodeNamed("aileron_L"), aircraftMatrix(frame));
 * ```
 */
export function gatherBonePositions(
  doc: Document,
  bone: Node,
  frame: Mat4,
  options: { triangles?: boolean; poses?: SkinPoses } = {},
): GatheredPositions {
  if (options.poses && options.poses.frame !== frame) throw new Error("skin poses of another frame");
  const chunks: Float64Array[] = [];
  const triangleChunks: Uint32Array[] = [];
  let total = 0;
  const descendants = new Set(subtreeNodes(bone).slice(1));
  const meshNodes = doc.getRoot().listNodes().filter((n) => n.getMesh() && n.getSkin());
  for (const skin of doc.getRoot().listSkins()) {
    const joints = skin.listJoints();
    if (!joints.includes(bone)) continue;
    const skinMatrices = options.poses?.of(skin) ?? jointMatrices(skin, frame);
    // 1: the bone, 2: one of its descendants, 0: another joint.
    const role = Uint8Array.from(joints, (j) => j === bone ? 1 : descendants.has(j) ? 2 : 0);
    for (const node of meshNodes) {
      if (node.getSkin() !== skin) continue;
      const mesh = node.getMesh()!;
      const weights = node.getWeights().length ? node.getWeights() : mesh.getWeights();
      const shown = drawnVertices(mesh);
      // Primitives over the same vertices (positions, influences, morph targets) share their skinned
      // positions, and the same index list over them adds no triangles, as in gatherPositions.
      const gathered = new Map<string, { base: number; kept: Int32Array } | undefined>();
      const drawn = new Set<string>();
      for (const primitive of mesh.listPrimitives()) {
        const vertices = vertexKey(primitive);
        if (!gathered.has(vertices)) {
          const { positions: chunk, kept } = skinnedDominant(
            primitive,
            weights,
            skinMatrices,
            role,
            shown?.get(vertices),
          );
          gathered.set(vertices, chunk.length ? { base: total, kept } : undefined);
          chunks.push(chunk);
          total += chunk.length / 3;
        }
        const entry = gathered.get(vertices);
        const triangles = `${vertices} ${idOf(primitive.getIndices())} ${primitive.getMode()}`;
        if (!entry || !options.triangles || drawn.has(triangles)) continue;
        drawn.add(triangles);
        triangleChunks.push(keptTriangles(primitive, entry.kept, entry.base, mesh.getName()));
      }
    }
  }
  const positions = new Float64Array(total * 3);
  let offset = 0;
  for (const chunk of chunks) {
    positions.set(chunk, offset);
    offset += chunk.length;
  }
  if (!options.triangles) return { positions, count: total };
  const triangles = new Uint32Array(triangleChunks.reduce((sum, chunk) => sum + chunk.length, 0));
  offset = 0;
  for (const chunk of triangleChunks) {
    triangles.set(chunk, offset);
    offset += chunk.length;
  }
  return { positions, count: total, triangles };
}

/**
 * Skinned positions (xyz triples) of a primitive's vertices dominated by the joint with role 1 (and
 * drawn, where `drawn` is given: see {@link drawnVertices}), and for every vertex of the primitive
 * its index among them (−1 when it is not the joint's).
 */
function skinnedDominant(
  primitive: Primitive,
  morphWeights: readonly number[],
  skinMatrices: Float64Array,
  role: Uint8Array,
  drawn?: Uint8Array,
): { positions: Float64Array; kept: Int32Array } {
  const none = { positions: new Float64Array(0), kept: new Int32Array(0) };
  const position = primitive.getAttribute("POSITION");
  if (!position || position.getType() !== "VEC3") return none;
  const count = position.getCount();
  const sets = influenceSets(primitive, count);
  if (sets.length === 0) return none;
  const kept = new Int32Array(count).fill(-1);
  const morphs = activeMorphs(primitive, morphWeights, count);
  const array = position.getArray();
  const fast = array instanceof Float32Array && !position.getNormalized() && array.length >= count * 3;
  const jointCount = role.length;
  const out = new Float64Array(count * 3);
  let written = 0;
  const p = [0, 0, 0], d = [0, 0, 0];
  // Per-vertex weight on each joint, summed over sets (a joint may appear twice); reset after use.
  const perJoint = new Float64Array(jointCount);
  const touched: number[] = [];
  const s = skinMatrices;
  for (let i = 0; i < count; i++) {
    // A deleted face's corner keeps its vertex-group weights (Blender's Delete › Only Faces, a rip's
    // shared buffer): weighted to the bone, drawn by nothing, no part of what the bone turns.
    if (drawn && !drawn[i]) continue;
    // Most vertices are not the bone's: a first pass over the raw influences rules them out cheaply.
    let sum = 0, ownRaw = 0;
    for (const { joints, weights } of sets) {
      for (let k = i * 4; k < i * 4 + 4; k++) {
        const j = joints[k], w = weights[k];
        if (!(w > 0) || !(j >= 0 && j < jointCount)) continue;
        sum += w;
        if (role[j] === 1) ownRaw += w;
      }
    }
    if (!(ownRaw >= DOMINANT_WEIGHT * sum) || !(sum > 0)) continue;
    for (const { joints, weights } of sets) {
      for (let k = i * 4; k < i * 4 + 4; k++) {
        const j = joints[k], w = weights[k];
        if (!(w > 0) || !(j >= 0 && j < jointCount)) continue;
        if (perJoint[j] === 0) touched.push(j);
        perJoint[j] += w;
      }
    }
    let own = 0, descendant = 0;
    for (const j of touched) {
      if (role[j] === 1) own = perJoint[j] / sum;
      else if (role[j] === 2) descendant = Math.max(descendant, perJoint[j] / sum);
    }
    if (own >= DOMINANT_WEIGHT && descendant < DOMINANT_WEIGHT) {
      if (fast) {
        p[0] = array[i * 3];
        p[1] = array[i * 3 + 1];
        p[2] = array[i * 3 + 2];
      } else {
        position.getElement(i, p);
      }
      addMorphs(p, morphs, i, d);
      kept[i] = written / 3;
      blendSkinned(p, touched, perJoint, sum, s, out, written);
      written += 3;
    }
    for (const j of touched) perJoint[j] = 0;
    touched.length = 0;
  }
  return { positions: out.slice(0, written), kept };
}

/** A skinned mesh node's vertices where its joints draw them at rest, and the joint each belongs to. */
export interface SkinnedRest extends GatheredPositions {
  /** Per vertex, the index (in `joints`) of the joint holding at least half its weight, else −1. */
  readonly dominant: Int32Array;
  /** The skin's joints. */
  readonly joints: readonly Node[];
  /** How many of the mesh's vertices were left out: no triangle with an area draws them. */
  readonly undrawn: number;
}

/**
 * Every vertex of a skinned mesh node (its own mesh, not its children's) that a triangle with an area
 * draws ({@link drawnVertices}), where the renderer draws it at rest — Σ wᵢ·(jointWorldᵢ·IBMᵢ)·v,
 * transformed by `frame` — not where the node's own transform would put the unskinned positions
 * (glTF ignores a skinned node's transform, and a converter that puts the skinned node at the root
 * leaves the armature's unit and axes in the inverse bind matrices). A vertex with no usable influence
 * is placed by the node, as unskinned. Undefined when the node has no skin or no mesh.
 */
export function gatherSkinnedRest(
  node: Node,
  frame: Mat4,
  options: { triangles?: boolean; poses?: SkinPoses } = {},
): SkinnedRest | undefined {
  const skin = node.getSkin(), mesh = node.getMesh();
  if (!skin || !mesh) return undefined;
  if (options.poses && options.poses.frame !== frame) throw new Error("skin poses of another frame");
  const joints = skin.listJoints();
  const skinMatrices = options.poses?.of(skin) ?? jointMatrices(skin, frame);
  const unskinned = multiply(frame, node.getWorldMatrix());
  const weights = node.getWeights().length ? node.getWeights() : mesh.getWeights();
  const shown = drawnVertices(mesh);
  const chunks: { positions: Float64Array; dominant: Int32Array }[] = [];
  const triangleChunks: Uint32Array[] = [];
  const gathered = new Map<string, { base: number; kept?: Int32Array }>();
  const drawn = new Set<string>();
  let total = 0, undrawn = 0;
  for (const primitive of mesh.listPrimitives()) {
    const position = primitive.getAttribute("POSITION");
    if (!position || position.getType() !== "VEC3") continue;
    const vertices = vertexKey(primitive);
    let entry = gathered.get(vertices);
    if (!entry) {
      const chunk = skinnedRestOf(
        primitive,
        weights,
        skinMatrices,
        joints.length,
        unskinned,
        shown?.get(vertices),
      );
      gathered.set(vertices, entry = { base: total, kept: chunk.kept });
      chunks.push(chunk);
      total += chunk.dominant.length;
      undrawn += position.getCount() - chunk.dominant.length;
    }
    const triangles = `${vertices} ${idOf(primitive.getIndices())} ${primitive.getMode()}`;
    if (!options.triangles || drawn.has(triangles)) continue;
    drawn.add(triangles);
    triangleChunks.push(
      entry.kept
        ? keptTriangles(primitive, entry.kept, entry.base, mesh.getName())
        : primitiveTriangles(primitive, entry.base, position.getCount(), mesh.getName()),
    );
  }
  const positions = new Float64Array(total * 3), dominant = new Int32Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    positions.set(chunk.positions, offset * 3);
    dominant.set(chunk.dominant, offset);
    offset += chunk.dominant.length;
  }
  if (!options.triangles) return { positions, count: total, dominant, joints, undrawn };
  const triangles = new Uint32Array(triangleChunks.reduce((sum, chunk) => sum + chunk.length, 0));
  offset = 0;
  for (const chunk of triangleChunks) {
    triangles.set(chunk, offset);
    offset += chunk.length;
  }
  return { positions, count: total, triangles, dominant, joints, undrawn };
}

/**
 * {@link gatherSkinnedRest} for one primitive's vertices: those `drawn` marks (all without it), and
 * `kept`, each vertex's index among them (−1 when left out), where some were left out.
 */
function skinnedRestOf(
  primitive: Primitive,
  morphWeights: readonly number[],
  s: Float64Array,
  jointCount: number,
  unskinned: Mat4,
  drawn?: Uint8Array,
): { positions: Float64Array; dominant: Int32Array; kept?: Int32Array } {
  const position = primitive.getAttribute("POSITION")!;
  const count = position.getCount();
  const sets = influenceSets(primitive, count);
  const morphs = activeMorphs(primitive, morphWeights, count);
  let shown = count;
  if (drawn) { for (let i = 0; i < count; i++) shown -= drawn[i] ? 0 : 1; }
  const kept = shown < count ? new Int32Array(count).fill(-1) : undefined;
  const out = new Float64Array(shown * 3), dominant = new Int32Array(shown).fill(-1);
  const perJoint = new Float64Array(jointCount);
  const touched: number[] = [];
  const p = [0, 0, 0], d = [0, 0, 0];
  for (let i = 0, at = 0; i < count; i++) {
    if (kept) {
      if (!drawn![i]) continue;
      kept[i] = at;
    }
    position.getElement(i, p);
    addMorphs(p, morphs, i, d);
    let sum = 0;
    for (const { joints, weights } of sets) {
      for (let k = i * 4; k < i * 4 + 4; k++) {
        const j = joints[k], w = weights[k];
        if (!(w > 0) || !(j >= 0 && j < jointCount)) continue;
        if (perJoint[j] === 0) touched.push(j);
        perJoint[j] += w;
        sum += w;
      }
    }
    if (sum > 0) {
      for (const j of touched) if (perJoint[j] / sum >= DOMINANT_WEIGHT) dominant[at] = j;
      blendSkinned(p, touched, perJoint, sum, s, out, at * 3);
    } else {
      const m = unskinned;
      out[at * 3] = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
      out[at * 3 + 1] = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
      out[at * 3 + 2] = m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14];
    }
    for (const j of touched) perJoint[j] = 0;
    touched.length = 0;
    at++;
  }
  return kept ? { positions: out, dominant, kept } : { positions: out, dominant };
}
