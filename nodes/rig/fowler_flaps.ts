/**
 * Fowler flaps: an airliner's or business jet's flap that runs aft along tracks (in canoe fairings
 * under the wing) and turns as it goes. One node carries one motion, and the rig gives a flap its turn
 * about its forward edge, which is what a flap group's angle drives; the run aft is left out. A flap
 * named `Fowler`, or riding on two or more tracks drawn under it (objects named as tracks, track
 * fairings or canoes, each island long along the flow, from about its forward edge to past its middle),
 * is one: its travel aft is not modelled, and a warning says so and how to declare it. Before, such a
 * flap was rigged as a plain one without a word.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { gatherPositions, IndexOutOfRangeError } from "./geometry.ts";
import type { HingeFit } from "./hinge_fit.ts";
import { isPart } from "./part_extras.ts";
import { dot, type Mat4, normalize, sub, type Vec3 } from "./transform.ts";
import { symmetricEigen3 } from "./eigen3.ts";
import { tokenize } from "./vocabulary.ts";
import { disjointSets } from "./disjoint_sets.ts";

/** Name tokens of a flap's tracks and the fairings about them. */
const TRACK_TOKENS: ReadonlySet<string> = new Set([
  "track",
  "tracks",
  "fairing",
  "fairings",
  "canoe",
  "canoes",
]);

/** One island of a track object (a canoe fairing, a track), in the aircraft frame. */
export interface TrackIsland {
  /** The object it belongs to. */
  readonly name: string;
  /** Its points (aircraft frame). */
  readonly points: readonly Vec3[];
}

/**
 * The islands (connected pieces) of every mesh node named as a flap track, track fairing or canoe that
 * is no part and hangs under none, in the aircraft frame.
 */
export function listTrackIslands(doc: Document, toAircraft: Mat4): TrackIsland[] {
  const out: TrackIsland[] = [];
  for (const node of doc.getRoot().listNodes()) {
    if (!node.getMesh() || node.getSkin() || isPart(node) || !isTrackName(node)) continue;
    let gathered;
    try {
      gathered = gatherPositions(node, toAircraft, { descend: false, triangles: true });
    } catch (error) {
      if (!(error instanceof IndexOutOfRangeError)) throw error;
      continue;
    }
    for (
      const island of islands(gathered.positions, gathered.count, gathered.triangles ?? new Uint32Array())
    ) {
      out.push({ name: node.getName(), points: island });
    }
  }
  return out;
}

/** Whether a node (or its mesh) is named as a flap track, track fairing or canoe, and not under a part. */
function isTrackName(node: Node): boolean {
  for (let n: Node | null = node; n; n = n.getParentNode()) if (isPart(n)) return false;
  const tokens = [...tokenize(node.getName()), ...tokenize(node.getMesh()?.getName() ?? "")];
  return tokens.some((t) => TRACK_TOKENS.has(t));
}

/**
 * The connected pieces of a mesh (triangles sharing a vertex, or a place: an unwelded mesh's corners),
 * each as its finite points: one object may draw every canoe under a wing.
 */
function islands(positions: ArrayLike<number>, count: number, triangles: ArrayLike<number>): Vec3[][] {
  const sets = disjointSets(count);
  const at = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const key = `${positions[3 * i]},${positions[3 * i + 1]},${positions[3 * i + 2]}`;
    const first = at.get(key);
    if (first === undefined) at.set(key, i);
    else sets.join(first, i);
  }
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    sets.join(triangles[t], triangles[t + 1]), sets.join(triangles[t], triangles[t + 2]);
  }
  const pieces = new Map<number, Vec3[]>();
  for (let i = 0; i < count; i++) {
    const p: Vec3 = [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]];
    if (!p.every(Number.isFinite)) continue;
    const root = sets.find(i);
    if (!pieces.has(root)) pieces.set(root, []);
    pieces.get(root)!.push(p);
  }
  return [...pieces.values()];
}

/**
 * Why a flap is a Fowler flap (named so, or on tracks drawn under it), with the tracks' names; else
 * undefined. `fit` is its hinge fit (aircraft frame).
 *
 * @example
 * ```ts
 * fowlerFlap(flapNode, fit, listTrackIslands(doc, toAircraft))?.why; // "it rides on 2 tracks ('Canoe_1_L', …)"
 * ```
 */
export function fowlerFlap(
  node: Node,
  fit: HingeFit,
  tracks: readonly TrackIsland[],
): { why: string; tracks: string[]; along?: Vec3 } | undefined {
  const named = [...tokenize(node.getName()), ...tokenize(node.getMesh()?.getName() ?? "")]
    .some((t) => t.includes("fowler"));
  const under = tracks.filter((island) => carries(island, fit));
  const names = [...new Set(under.map((island) => island.name))];
  const onTracks = under.length >= 2;
  if (!named && !onTracks) return undefined;
  const shown = names.slice(0, 3).map((n) => `'${n}'`).join(", ") + (names.length > 3 ? ", …" : "");
  const why = named
    ? `named a Fowler flap${onTracks ? ` on ${under.length} tracks (${shown})` : ""}`
    : `it rides on ${under.length} tracks drawn under it (${shown}), as a Fowler flap does`;
  return { why, tracks: names, ...(onTracks ? { along: trackDirection(under) } : {}) };
}

/**
 * The way tracks run, aft (aircraft frame): the mean of each island's longest principal axis, each
 * signed aft (a canoe slopes down aft along the lower skin, as its track does).
 */
function trackDirection(islands: readonly TrackIsland[]): Vec3 {
  const sum: Vec3 = [0, 0, 0];
  for (const { points } of islands) {
    const mean = [0, 1, 2].map((k) => points.reduce((s, p) => s + p[k], 0) / points.length);
    const c = [0, 0, 0, 0, 0, 0]; // xx, xy, xz, yy, yz, zz
    for (const p of points) {
      const d = [p[0] - mean[0], p[1] - mean[1], p[2] - mean[2]];
      c[0] += d[0] * d[0], c[1] += d[0] * d[1], c[2] += d[0] * d[2];
      c[3] += d[1] * d[1], c[4] += d[1] * d[2], c[5] += d[2] * d[2];
    }
    const axis = symmetricEigen3(c[0], c[1], c[2], c[3], c[4], c[5]).vectors[2];
    const sign = axis[0] < 0 ? -1 : 1;
    for (let k = 0; k < 3; k++) sum[k] += sign * axis[k];
  }
  return normalize(sum);
}

/**
 * Whether a track island runs under a flap along the flow: within its span, long along the flow
 * (2.5 times its width at least), from near its forward edge (or ahead of it) to past its middle.
 */
function carries(island: TrackIsland, fit: HingeFit): boolean {
  let sLo = Infinity, sHi = -Infinity, cLo = Infinity, cHi = -Infinity;
  // Along the chord from the hinge at the point's own station: a swept hinge runs aft along the span.
  const alongSpan = dot(fit.axis, fit.span),
    sweep = Math.abs(alongSpan) > 1e-9 ? dot(fit.axis, fit.chordDir) / alongSpan : 0;
  for (const p of island.points) {
    const d = sub(p, fit.origin);
    const s = dot(d, fit.span), c = dot(d, fit.chordDir) - s * sweep;
    sLo = Math.min(sLo, s), sHi = Math.max(sHi, s), cLo = Math.min(cLo, c), cHi = Math.max(cHi, c);
  }
  const half = fit.spanLength / 2;
  const within = sLo >= -half - 0.05 * fit.spanLength && sHi <= half + 0.05 * fit.spanLength;
  return within && cHi - cLo >= 2.5 * (sHi - sLo) && cLo <= 0.25 * fit.chord && cHi >= 0.5 * fit.chord;
}
