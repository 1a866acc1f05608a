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
import type { Accessor, Document, Mesh, Node, Primitive, Skin } from "@gltf-transform/core";
import { drawsArea } from "./drawn_vertices.ts";
import {
  type GatheredPositions,
  gatherPositions,
  IndexOutOfRangeError,
  primitiveTriangles,
  subtreeNodes,
} from "./geometry.ts";
import { getPart } from "./part_extras.ts";
import { IDENTITY, type Mat4, multiply } from "./transform.ts";

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

/** A number per accessor (and 0 for none), for keys naming which accessors a primitive draws. */
const accessorIds = new WeakMap<Accessor, number>();
let lastAccessorId = 0;
function idOf(accessor: Accessor | null): number {
  if (!accessor) return 0;
  const known = accessorIds.get(accessor);
  if (known !== undefined) return known;
  accessorIds.set(accessor, ++lastAccessorId);
  return lastAccessorId;
}

/** The accessors a primitive's skinned vertices come from: positions, influences and morph targets. */
function vertexKey(primitive: Primitive): string {
  const semantics = primitive.listSemantics().filter((s) => /^(POSITION|JOINTS_\d+|WEIGHTS_\d+)$/.test(s));
  const own = semantics.sort().map((s) => `${s}=${idOf(primitive.getAttribute(s))}`);
  const targets = primitive.listTargets().map((t) => idOf(t.getAttribute("POSITION")));
  return `${own.join(",")};${targets.join(",")}`;
}

/**
 * The triangles of a primitive whose three vertices were kept (`kept[i]`: the vertex's index among
 * the kept ones, −1 if not kept), renumbered to the kept vertices and offset by `base`. A triangle
 * with a vertex on another bone is not this bone's surface: it stretches as the bones move apart.
 */
function keptTriangles(primitive: Primitive, kept: Int32Array, base: number, meshName: string): Uint32Array {
  const all = primitiveTriangles(primitive, 0, kept.length, meshName);
  const out = new Uint32Array(all.length);
  let written = 0;
  for (let t = 0; t < all.length; t += 3) {
    const a = kept[all[t]], b = kept[all[t + 1]], c = kept[all[t + 2]];
    if (a < 0 || b < 0 || c < 0) continue;
    out[written++] = base + a;
    out[written++] = base + b;
    out[written++] = base + c;
  }
  return out.slice(0, written);
}

/** `frame × jointWorld × inverseBind` for every joint of a skin, 16 numbers each. */
function jointMatrices(skin: Skin, frame: Mat4): Float64Array {
  const joints = skin.listJoints();
  const inverseBind = skin.getInverseBindMatrices();
  const usable = inverseBind && inverseBind.getType() === "MAT4" && inverseBind.getCount() >= joints.length;
  const out = new Float64Array(joints.length * 16);
  const element = new Array<number>(16).fill(0);
  joints.forEach((joint, j) => {
    const ibm = usable ? inverseBind.getElement(j, element) : IDENTITY;
    out.set(multiply(frame, multiply(joint.getWorldMatrix(), ibm)), j * 16);
  });
  return out;
}

/** One JOINTS_n/WEIGHTS_n pair as flat arrays, four influences per vertex. */
interface InfluenceSet {
  readonly joints: ArrayLike<number>;
  readonly weights: ArrayLike<number>;
}

/**
 * The JOINTS_n/WEIGHTS_n pairs of a primitive that match its vertex count, as flat arrays: the
 * accessors' own arrays when they hold plain values, else decoded once (normalized weights).
 */
function influenceSets(primitive: Primitive, count: number): InfluenceSet[] {
  const sets: InfluenceSet[] = [];
  for (let n = 0;; n++) {
    const joints = primitive.getAttribute(`JOINTS_${n}`);
    const weights = primitive.getAttribute(`WEIGHTS_${n}`);
    if (!joints || !weights) break;
    if (joints.getCount() !== count || weights.getCount() !== count) continue;
    if (joints.getType() !== "VEC4" || weights.getType() !== "VEC4") continue;
    sets.push({ joints: flatVec4(joints, count), weights: flatVec4(weights, count) });
  }
  return sets;
}

function flatVec4(accessor: Accessor, count: number): ArrayLike<number> {
  const array = accessor.getArray();
  if (array && !accessor.getNormalized() && array.length >= count * 4) return array;
  const out = new Float64Array(count * 4);
  const element = [0, 0, 0, 0];
  for (let i = 0; i < count; i++) out.set(accessor.getElement(i, element), i * 4);
  return out;
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

/**
 * How many of `mesh`'s vertices (over its primitives' distinct vertex sets) {@link gatherSkinnedRest}
 * leaves out: no triangle with an area draws them. From the judged marks, placing no vertex.
 */
export function undrawnSkinned(mesh: Mesh): number {
  const marks = drawnVertices(mesh);
  if (!marks) return 0;
  let undrawn = 0;
  for (const mark of marks.values()) for (let i = 0; i < mark.length; i++) undrawn += mark[i] ? 0 : 1;
  return undrawn;
}

/** How many times a skinned mesh's drawn vertices were judged ({@link drawnVertices}): work a test may count. */
export const skinDrawnWork = { judged: 0 };

/** A mesh's judged vertices, and the arrays they were judged from (a changed array judges anew). */
const DRAWN_VERTICES = new WeakMap<Mesh, { from: unknown[]; marks: Map<string, Uint8Array> | undefined }>();

/**
 * Per vertex set of `mesh` (its primitives' {@link vertexKey}), which vertices a triangle with an
 * area ({@link drawsArea}, in the mesh's own space) of any of its primitives draws; undefined — every
 * vertex kept — where the mesh draws no area at all (points, lines), a position is not finite or an
 * index points past its vertices (their own checks name those, as drawn_vertices.ts leaves them).
 * Real skinned files carry weighted vertices nothing draws: Blender's Delete › Only Faces and Only
 * Edges & Faces leave a deleted face's corners with their vertex-group weights, which its glTF
 * exporter writes (Loose Points, Loose Edges) as a primitive of points or lines with JOINTS_0 and
 * WEIGHTS_0; a rip keeps them in the vertex list, and shares one skinned buffer across meshes. A set
 * no area draws (the points' own) is all left out. Judged once per mesh while its arrays stay.
 */
function drawnVertices(mesh: Mesh): Map<string, Uint8Array> | undefined {
  const primitives = mesh.listPrimitives();
  const from = primitives.flatMap((p) => [
    p.getAttribute("POSITION")?.getArray(),
    p.getIndices()?.getArray(),
    p.getMode(),
  ]);
  const known = DRAWN_VERTICES.get(mesh);
  if (known && known.from.length === from.length && known.from.every((a, i) => a === from[i])) {
    return known.marks;
  }
  skinDrawnWork.judged++;
  const marks = judgeDrawn(primitives, mesh.getName());
  DRAWN_VERTICES.set(mesh, { from, marks });
  return marks;
}

/** {@link drawnVertices}, judged. */
function judgeDrawn(primitives: Primitive[], meshName: string): Map<string, Uint8Array> | undefined {
  const marks = new Map<string, Uint8Array>();
  const read = new Map<string, Float64Array>();
  let any = false;
  for (const primitive of primitives) {
    const position = primitive.getAttribute("POSITION");
    if (!position || position.getType() !== "VEC3") continue;
    const vertices = vertexKey(primitive), count = position.getCount();
    let p = read.get(vertices);
    if (!p) {
      p = new Float64Array(count * 3);
      const element = [0, 0, 0];
      for (let i = 0; i < count; i++) p.set(position.getElement(i, element), i * 3);
      for (let i = 0; i < p.length; i++) if (!Number.isFinite(p[i])) return undefined;
      read.set(vertices, p);
      marks.set(vertices, new Uint8Array(count));
    }
    let triangles: Uint32Array;
    try {
      triangles = primitiveTriangles(primitive, 0, count, meshName);
    } catch (error) {
      if (!(error instanceof IndexOutOfRangeError)) throw error;
      return undefined;
    }
    const mark = marks.get(vertices)!;
    for (let t = 0; t + 2 < triangles.length; t += 3) {
      const a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
      if (!drawsArea(p, a, b, c)) continue;
      mark[a] = mark[b] = mark[c] = 1;
      any = true;
    }
  }
  if (!any) return undefined;
  // Where every vertex is drawn the gathering is as it was: no marks to look at.
  for (const [vertices, mark] of marks) if (mark.every((m) => m === 1)) marks.delete(vertices);
  return marks;
}

/** The primitive's morph targets that move its positions at `weights` (a weight per target). */
function activeMorphs(
  primitive: Primitive,
  weights: readonly number[],
  count: number,
): { delta: Accessor; weight: number }[] {
  const morphs: { delta: Accessor; weight: number }[] = [];
  primitive.listTargets().forEach((target, t) => {
    const delta = target.getAttribute("POSITION");
    const weight = weights[t] ?? 0;
    if (delta && weight !== 0 && delta.getCount() === count) morphs.push({ delta, weight });
  });
  return morphs;
}

/** Adds vertex `i`'s morph displacements to `p` (`d` is scratch). */
function addMorphs(
  p: number[],
  morphs: readonly { delta: Accessor; weight: number }[],
  i: number,
  d: number[],
) {
  for (const { delta, weight } of morphs) {
    delta.getElement(i, d);
    p[0] += weight * d[0];
    p[1] += weight * d[1];
    p[2] += weight * d[2];
  }
}

/**
 * Writes Σ (perJoint[j] / sum) · S_j · p over the `touched` joints into `out` at `at`: the vertex
 * where its joints draw it (`s` holds each joint's skinning matrix, column-major, 16 per joint).
 */
function blendSkinned(
  p: readonly number[],
  touched: readonly number[],
  perJoint: Float64Array,
  sum: number,
  s: Float64Array,
  out: Float64Array,
  at: number,
): void {
  let x = 0, y = 0, z = 0;
  for (const j of touched) {
    const w = perJoint[j] / sum, m = j * 16;
    x += w * (s[m] * p[0] + s[m + 4] * p[1] + s[m + 8] * p[2] + s[m + 12]);
    y += w * (s[m + 1] * p[0] + s[m + 5] * p[1] + s[m + 9] * p[2] + s[m + 13]);
    z += w * (s[m + 2] * p[0] + s[m + 6] * p[1] + s[m + 10] * p[2] + s[m + 14]);
  }
  out[at] = x;
  out[at + 1] = y;
  out[at + 2] = z;
}
