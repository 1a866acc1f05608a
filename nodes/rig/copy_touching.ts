/**
 * Aircraft touching each other, told apart by shape (`copy_places.ts` finds the touching group; names
 * cannot tell whose an object is). Each aircraft is mirror-symmetric about its own centre line, so the
 * group's centre lines are where two kinds of evidence agree: objects named as left and right of one
 * thing (`Aileron_L`, `aileron.r`, however spelt) whose boxes are each other's mirror image — the same
 * fore-and-aft and height ranges, the same width, set either side of one line — and objects named with
 * no side (a fuselage, a fin, a rudder) standing centred on that line. A left object of one aircraft
 * mirrored onto another's right object finds a line no fuselage stands on, and is no centre line.
 *
 * Each object takes the centre line of its closest mirror image, or, named with no side, the one it stands
 * centred on; an object the geometry gives no one line (its partner missing, paired about two lines,
 * an asymmetric aerial) is left out: the rig reads it about the group's middle and judges it weak, as
 * before.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { Mat4 } from "./transform.ts";
import { type Bounds, type BoundsCache, meshBounds } from "./mesh_bounds.ts";
import { sidedName } from "./copy_names.ts";

/** How far evidence may disagree, as a fraction of the group's largest extent, and still be one line. */
const AGREE = 0.015;

/** A drawn object of the group, in the aircraft frame. */
interface Drawn {
  readonly node: Node;
  readonly box: Bounds;
  /** Its lateral middle (aircraft +left). */
  readonly middle: number;
}

/**
 * Per node of a touching group (`nodes`, in the scene; `toAircraft` the aircraft frame), the lateral
 * position of its own aircraft's centre line where the geometry tells it (see the module doc); empty when
 * it shows none. One line found is one aircraft's, whose objects it tells; the others' stay untold.
 *
 * @example
 * ```ts
 * const lines = touchingCentres(group.nodes, toAircraft); // Map { Aileron_L → 8.1, aileron.l → -8.3, … }
 * ```
 */
export function touchingCentres(
  nodes: ReadonlySet<Node>,
  toAircraft: Mat4,
  cache: BoundsCache = new Map(),
): Map<Node, number> {
  const drawn: Drawn[] = [];
  for (const node of nodes) {
    const box = node.getMesh() ? meshBounds([node], toAircraft, cache) : undefined;
    if (box) drawn.push({ node, box, middle: (box.min[2] + box.max[2]) / 2 });
  }
  const all = meshBounds(drawn.map((d) => d.node), toAircraft, cache);
  if (!all) return new Map();
  const tol = AGREE * Math.max(...[0, 1, 2].map((k) => all.max[k] - all.min[k]));
  const pairs = mirrorPairs(drawn, tol);
  const unsided = drawn.filter((d) => !sidedName(d.node.getName()));
  // A line where a mirror pair and an object with no side agree; its place is the pairs' median.
  const lines = clusters(pairs.map((p) => p.centre), tol)
    .filter((c) => unsided.some((d) => Math.abs(d.middle - median(c)) <= tol))
    .map(median);
  if (!lines.length) return new Map();
  const near = (x: number) => lines.filter((c) => Math.abs(c - x) <= tol);
  // Each object takes the line of its closest mirror image; paired about two lines nearly as closely
  // (a line-up's outer aircraft's tailplanes, mirrored about the middle one's line), it takes none.
  const best = new Map<Node, { line: number; misfit: number }[]>();
  for (const pair of pairs) {
    const [line] = near(pair.centre);
    if (line === undefined) continue;
    for (const node of [pair.left, pair.right]) {
      const fits = best.get(node) ?? best.set(node, []).get(node)!;
      const same = fits.find((f) => f.line === line);
      if (same) same.misfit = Math.min(same.misfit, pair.misfit);
      else fits.push({ line, misfit: pair.misfit });
    }
  }
  const out = new Map<Node, number>();
  for (const [node, fits] of best) {
    const [first, second] = fits.sort((a, b) => a.misfit - b.misfit);
    if (!second || second.misfit > 2 * first.misfit + 1e-3 * tol) out.set(node, first.line);
  }
  for (const d of unsided) {
    const at = near(d.middle);
    if (at.length === 1) out.set(d.node, at[0]);
  }
  // A group node takes its drawn descendants' line when they share one.
  for (const node of nodes) {
    if (node.getMesh()) continue;
    const below = new Set<number>();
    const walk = (n: Node): void => {
      const line = out.get(n);
      if (line !== undefined) below.add(line);
      else if (n.getMesh()) below.add(NaN);
      n.listChildren().forEach(walk);
    };
    node.listChildren().forEach(walk);
    if (below.size === 1 && !below.has(NaN)) out.set(node, [...below][0]);
  }
  return out;
}

/**
 * The pairs of objects named as left and right of one thing whose boxes mirror each other about one
 * lateral line (same fore-and-aft and height ranges and width, within `tol`), with that line.
 */
function mirrorPairs(drawn: readonly Drawn[], tol: number) {
  const bySide = new Map<string, { left: Drawn[]; right: Drawn[] }>();
  for (const d of drawn) {
    const key = sidedName(d.node.getName());
    const side = key?.endsWith("|left") ? "left" : key?.endsWith("|right") ? "right" : undefined;
    if (!side) continue;
    const thing = key!.slice(0, key!.lastIndexOf("|"));
    const entry = bySide.get(thing) ?? bySide.set(thing, { left: [], right: [] }).get(thing)!;
    entry[side].push(d);
  }
  const width = (b: Bounds) => b.max[2] - b.min[2];
  const pairs: { left: Node; right: Node; centre: number; misfit: number }[] = [];
  for (const { left, right } of bySide.values()) {
    for (const l of left) {
      for (const r of right) {
        const misfit = Math.max(
          Math.abs(width(l.box) - width(r.box)),
          ...[0, 1].flatMap((k) => [l.box.min[k] - r.box.min[k], l.box.max[k] - r.box.max[k]].map(Math.abs)),
        );
        // Left of the line it is mirrored about (+left): a name's side agrees with the shape.
        if (misfit <= tol && l.middle > r.middle) {
          pairs.push({ left: l.node, right: r.node, centre: (l.middle + r.middle) / 2, misfit });
        }
      }
    }
  }
  return pairs;
}

/** `xs` in runs no further apart than `tol` from one to the next. */
function clusters(xs: readonly number[], tol: number): number[][] {
  const sorted = [...xs].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const x of sorted) {
    const last = out.at(-1);
    if (last && x - last.at(-1)! <= tol) last.push(x);
    else out.push([x]);
  }
  return out;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b), half = s.length >> 1;
  return s.length % 2 ? s[half] : (s[half - 1] + s[half]) / 2;
}
