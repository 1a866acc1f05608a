/**
 * What frame detection reads of a scene: every drawn vertex at rest in scene space (a skinned mesh
 * where its joints draw it; an unskinned mesh's vertices no triangle with an area draws left out, as
 * the fit leaves them: `drawn_vertices.ts`), and where the parts each kind of name points to lie —
 * left and right, tail and wing surfaces, nose, propeller and fin parts — by the nearest named node
 * above each vertex (a skinned vertex: its dominant joint's). A mesh holding a non-finite coordinate
 * is left out, as the fit leaves it.
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import { type GatheredPositions, placePositions } from "./geometry.ts";
import { gatherDrawn } from "./drawn_vertices.ts";
import { gatherSkinnedRest } from "./bone_geometry.ts";
import { undrawnSkinned } from "./skinned_drawn.ts";
import { IDENTITY, type Mat4, multiply, type Vec3 } from "./transform.ts";
import { type FileWords, isRigHelperName, matchPanelName, sideFromName, tokenize } from "./vocabulary.ts";
import { sceneWords } from "./file_words.ts";
import { firstCopyApart } from "./copy_centres.ts";
import { debrisNodes } from "./detect_panels_debris.ts";
import { panelName } from "./panel_names.ts";

const NOSE_TOKENS: ReadonlySet<string> = new Set([
  "nose",
  "cockpit",
  "canopy",
  "radome",
  "pitot",
  "windshield",
  "windscreen",
]);
/**
 * Propeller parts: forward on a tractor, but at the tail on a pusher (a flying wing's, a Long-EZ's),
 * so like elevators they are no sure name for the nose.
 */
const PROP_TOKENS: ReadonlySet<string> = new Set(["prop", "propeller", "spinner"]);
/** Words that make a rotor or propeller word a helicopter's main rotor (`MainRotor`, `Rotor_Main`). */
const MAIN_WORDS: ReadonlySet<string> = new Set(["main", "principal"]);
/** Words that make it a tail rotor (`TailRotor`, `Tail_Prop`, `rotor de cola`). */
const TAIL_WORDS: ReadonlySet<string> = new Set(["tail", "cola", "queue", "coda", "heck"]);
/** Rotor and propeller words a main or tail word qualifies. */
const ROTOR_WORDS: ReadonlySet<string> = new Set(["rotor", "rotors", "blade", "blades", "prop", "propeller"]);
/** Glued names of a main rotor or what only a main rotor has. */
const MAIN_ROTOR_TOKENS: ReadonlySet<string> = new Set([
  "mainrotor",
  "hauptrotor",
  "rotorhead",
  "rotorhub",
  "swashplate",
]);
/** Glued names of a tail rotor. */
const TAIL_ROTOR_TOKENS: ReadonlySet<string> = new Set(["tailrotor", "heckrotor", "fenestron"]);

/**
 * What a helicopter part's tokens name: its main rotor (above the cabin), its tail rotor or tail
 * boom (at the tail), or nothing. A bare `Rotor` or `Blades` says nothing here (an airplane's
 * propeller is named so too); `Tail_Prop` is a tail rotor, no propeller.
 */
export function rotorPart(tokens: readonly string[]): "main" | "tail" | "boom" | undefined {
  const rotor = tokens.some((t) => ROTOR_WORDS.has(t));
  const tail = tokens.some((t) => TAIL_WORDS.has(t));
  if (tokens.some((t) => MAIN_ROTOR_TOKENS.has(t))) return "main";
  if (tokens.some((t) => TAIL_ROTOR_TOKENS.has(t)) || rotor && tail) return "tail";
  if (rotor && tokens.some((t) => MAIN_WORDS.has(t))) return "main";
  if (tokens.includes("tailboom") || tail && tokens.includes("boom")) return "boom";
  return undefined;
}

const FIN_TOKENS: ReadonlySet<string> = new Set(["fin", "vertical", "vert", "vstab"]);
const TAIL_KINDS: ReadonlySet<string> = new Set(["elevator", "stabilator", "rudder", "ruddervator"]);
const WING_KINDS: ReadonlySet<string> = new Set(["aileron", "flap", "slat", "spoiler", "leading_edge_flap"]);

/**
 * Most points the cloud keeps. A scene drawing more (one 65,535-vertex mesh drawn by 2,000 nodes: 131
 * million) keeps every n-th vertex, counted across its meshes in turn: the shape measures read shares,
 * ranges and an occupancy grid, which a million evenly taken points give as all of them do. That
 * scene's whole cloud took 6.2 GB and most of five minutes; the name cues still sum every vertex.
 */
export const MAX_POINTS = 1_000_000;

/** Sum of positions and vertex count of the meshes one hint names. */
export class Centroid {
  sum: Vec3 = [0, 0, 0];
  count = 0;
  add(positions: Float64Array, count: number) {
    this.addSum(sumOf(positions, count), count);
  }
  /** Adds `count` vertices whose positions sum to `sum`. */
  addSum(sum: Vec3, count: number) {
    this.sum = [this.sum[0] + sum[0], this.sum[1] + sum[1], this.sum[2] + sum[2]];
    this.count += count;
  }
  get value(): Vec3 {
    return [this.sum[0] / this.count, this.sum[1] / this.count, this.sum[2] / this.count];
  }
}

/** The sum of `count` positions. */
function sumOf(positions: Float64Array, count: number): Vec3 {
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < count * 3; i += 3) {
    x += positions[i];
    y += positions[i + 1];
    z += positions[i + 2];
  }
  return [x, y, z];
}

/**
 * The sum of `count` positions of mesh space moved by `m`, with the arithmetic of `placePositions`
 * and in the order of {@link sumOf}: the same bits as summing the moved positions, none kept.
 */
function movedSum(local: Float64Array, count: number, m: Mat4): Vec3 {
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < count * 3; i += 3) {
    const a = local[i], b = local[i + 1], c = local[i + 2];
    x += m[0] * a + m[4] * b + m[8] * c + m[12];
    y += m[1] * a + m[5] * b + m[9] * c + m[13];
    z += m[2] * a + m[6] * b + m[10] * c + m[14];
  }
  return [x, y, z];
}

interface Hints {
  kind?: string;
  side?: string;
  nose: boolean;
  prop: boolean;
  fin: boolean;
  rotor?: "main" | "tail" | "boom";
}

/**
 * The hints a node's name, or its nearest named ancestor's, gives; sides read with the file's `words`
 * (`Lotka_P` beside `Lotka_L` is right).
 */
function hintsOf(node: Node, words: FileWords): Hints {
  const out: Hints = {
    nose: false,
    prop: false,
    fin: false,
  };
  for (let at: Node | null = node; at; at = at.getParentNode()) {
    // A placeholder node (`$ColladaAutoName$_7`, `Component#3`) is called by its mesh's name.
    const name = panelName(at).name;
    if (!name || isRigHelperName(name)) continue;
    const tokens = tokenize(name, words);
    out.kind ??= matchPanelName(name, words)?.kind;
    const side = sideFromName(name, words);
    if (side === "left" || side === "right") out.side ??= side;
    out.nose ||= tokens.some((t) => NOSE_TOKENS.has(t));
    out.rotor ??= rotorPart(tokens);
    // A tail rotor named `Tail_Prop` is no propeller.
    out.prop ||= out.rotor !== "tail" && tokens.some((t) => PROP_TOKENS.has(t));
    out.fin ||= tokens.some((t) => FIN_TOKENS.has(t)) || out.kind === "rudder";
  }
  return out;
}

/** A mesh's drawn vertices in its own space, whether all are finite, and how many were left out. */
type LocalCloud = GatheredPositions & { readonly finite: boolean; readonly undrawn: number };

/** How many vertices a mesh node holds: its primitives' distinct position accessors' counts. */
function heldVertices(node: Node): number {
  const accessors = new Set(node.getMesh()!.listPrimitives().map((p) => p.getAttribute("POSITION")));
  let count = 0;
  for (const accessor of accessors) count += accessor?.getCount() ?? 0;
  return count;
}

/** Every `every`-th vertex of `positions`, counting on from `before` vertices already passed. */
function everyNth(positions: Float64Array, every: number, before: number): Float64Array {
  if (every === 1) return positions;
  const first = (every - (before % every)) % every, count = positions.length / 3;
  const kept = new Float64Array(Math.max(0, Math.ceil((count - first) / every)) * 3);
  for (let v = first, at = 0; v < count; v += every, at += 3) {
    kept.set(positions.subarray(v * 3, v * 3 + 3), at);
  }
  return kept;
}

/** The positions of each dominant joint's vertices (−1: those no joint dominates). */
function jointPieces(positions: Float64Array, dominant: Int32Array): Map<number, Float64Array> {
  const counts = new Map<number, number>();
  for (const j of dominant) counts.set(j, (counts.get(j) ?? 0) + 1);
  const pieces = new Map([...counts].map(([j, n]) => [j, { at: 0, positions: new Float64Array(n * 3) }]));
  dominant.forEach((j, v) => {
    const piece = pieces.get(j)!;
    piece.positions.set(positions.subarray(v * 3, v * 3 + 3), piece.at);
    piece.at += 3;
  });
  return new Map([...pieces].map(([j, piece]) => [j, piece.positions]));
}

/** A scene's points and the centroids of what its names say (see the module). */
export interface NamedCloud {
  /** Every vertex (every n-th past {@link MAX_POINTS}), x y z after x y z. */
  readonly points: Float64Array;
  /**
   * The points without those of meshes named as a main rotor (`MainRotor`, `Rotor_Main`,
   * `Hauptrotor`), when any are and 8 points or more are left; else undefined.
   */
  readonly body?: Float64Array;
  /** The count of `points`. */
  readonly total: number;
  readonly left: Centroid;
  readonly right: Centroid;
  readonly tail: Centroid;
  readonly wing: Centroid;
  readonly nose: Centroid;
  readonly prop: Centroid;
  readonly fin: Centroid;
  readonly all: Centroid;
  /** Helicopter parts by name: the main rotor, the tail rotor and the tail boom. */
  readonly mainRotor: Centroid;
  readonly tailRotor: Centroid;
  readonly boom: Centroid;
  /** The tail surface kinds named (`elevator`, `rudder`, …). */
  readonly tailKinds: ReadonlySet<string>;
}

/**
 * The scene's points (at most `maxPoints`) and name cues, or undefined when it draws fewer than 8
 * vertices.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 *
 * const cloud = namedCloud(new Document());
 * if (cloud && cloud.left.count) console.log("left named at", cloud.left.value);
 * ```
 */
export function namedCloud(doc: Document, maxPoints: number = MAX_POINTS): NamedCloud | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const meshNodes: Node[] = [];
  const stack = [...(scene?.listChildren() ?? [])];
  // Copies of the aircraft laid out apart (a showcase's levels of detail stacked or side by side) read
  // as one odd shape: the frame is the first copy's (copies.ts).
  // Damage copies lying apart as debris, each turned its own way, are no part of the aircraft's shape.
  const only = firstCopyApart(doc), debris = debrisNodes(doc);
  const words = sceneWords(doc);
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.getMesh() && (!only || only.has(node)) && !debris.has(node)) meshNodes.push(node);
    stack.push(...node.listChildren());
  }
  const parts: Float64Array[] = [];
  // Which parts a main rotor's name covers (their points are left out of `body`).
  const rotorParts: boolean[] = [];
  let total = 0, passed = 0;
  const left = new Centroid(), right = new Centroid(), tail = new Centroid(), wing = new Centroid();
  const tailKinds = new Set<string>();
  const nose = new Centroid(), prop = new Centroid(), fin = new Centroid(), all = new Centroid();
  const mainRotor = new Centroid(), tailRotor = new Centroid(), boom = new Centroid();
  const addHints = (node: Node, sum: Vec3, count: number): void => {
    const hints = hintsOf(node, words);
    if (hints.side === "left") left.addSum(sum, count);
    if (hints.side === "right") right.addSum(sum, count);
    if (hints.kind && TAIL_KINDS.has(hints.kind)) {
      tail.addSum(sum, count);
      tailKinds.add(hints.kind);
    }
    if (hints.kind && WING_KINDS.has(hints.kind)) wing.addSum(sum, count);
    if (hints.nose) nose.addSum(sum, count);
    if (hints.prop) prop.addSum(sum, count);
    if (hints.fin) fin.addSum(sum, count);
    if (hints.rotor) ({ main: mainRotor, tail: tailRotor, boom })[hints.rotor].addSum(sum, count);
  };
  // Unskinned meshes' vertices in mesh space, gathered once per mesh and morph weights: one mesh drawn
  // by 2,000 nodes was gathered (and 1.5 MB allocated) 2,000 times, though only every n-th vertex is kept.
  const gathered = new Map<Mesh, Map<string, LocalCloud>>();
  const localOf = (node: Node) => {
    const mesh = node.getMesh()!, weights = JSON.stringify(node.getWeights());
    const byWeights = gathered.get(mesh) ?? gathered.set(mesh, new Map()).get(mesh)!;
    let local = byWeights.get(weights);
    if (!local) {
      // Vertices no triangle draws (a loose vertex at the model's origin, the wing's in a surface's
      // shared buffer, a guide edge's run past the span) are no part of the aircraft's shape.
      const found = gatherDrawn(node, IDENTITY, { descend: false, local: true });
      byWeights.set(weights, local = { ...found, finite: allFinite(found.positions) });
    }
    return local;
  };
  // Vertices no triangle draws are left out of the count that sets how many are skipped, as out of
  // the cloud: where every vertex is drawn, the same points as before. A skinned mesh's are what its
  // rest leaves out (a deleted face's corners, weighted still, or the rest of a rip's shared buffer).
  const every = Math.ceil(
    meshNodes.reduce(
      (n, node) =>
        n + heldVertices(node) - (node.getSkin() ? undrawnSkinned(node.getMesh()!) : localOf(node).undrawn),
      0,
    ) /
      maxPoints,
  ) || 1;
  for (const node of meshNodes) {
    // A skinned mesh is where its joints draw it, each joint's vertices named by the joint.
    const skinned = gatherSkinnedRest(node, IDENTITY);
    let kept: Float64Array, count: number, sum: Vec3;
    if (skinned) {
      if (!allFinite(skinned.positions)) continue;
      ({ count } = skinned);
      kept = everyNth(skinned.positions, every, passed);
      sum = sumOf(skinned.positions, count);
    } else {
      const local = localOf(node);
      const matrix = multiply(IDENTITY, node.getWorldMatrix());
      ({ count } = local);
      sum = movedSum(local.positions, count, matrix);
      // A coordinate moved to NaN or infinity makes the sum so.
      if (!local.finite || !sum.every(Number.isFinite)) continue;
      const sample = everyNth(local.positions, every, passed);
      kept = new Float64Array(sample.length);
      placePositions(sample, sample.length / 3, matrix, kept);
    }
    parts.push(kept);
    rotorParts.push(hintsOf(node, words).rotor === "main");
    passed += count;
    total += kept.length / 3;
    all.addSum(sum, count);
    if (!skinned) addHints(node, sum, count);
    else {
      for (const [joint, piece] of jointPieces(skinned.positions, skinned.dominant)) {
        addHints(joint >= 0 ? skinned.joints[joint] : node, sumOf(piece, piece.length / 3), piece.length / 3);
      }
    }
  }
  if (total < 8) return undefined;
  const points = joined(parts);
  const bodyParts = parts.filter((_, k) => !rotorParts[k]);
  const rotorless = bodyParts.length < parts.length ? joined(bodyParts) : undefined;
  const body = rotorless && rotorless.length >= 3 * 8 ? rotorless : undefined;
  return {
    points,
    body,
    total,
    left,
    right,
    tail,
    wing,
    nose,
    prop,
    fin,
    all,
    mainRotor,
    tailRotor,
    boom,
    tailKinds,
  };
}

/** The arrays one after the other in one array. */
function joined(parts: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

/** True when no coordinate is NaN or infinite (such a mesh is left out, as the fit leaves it). */
function allFinite(values: Float64Array): boolean {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] * 0;
  return sum === 0;
}
