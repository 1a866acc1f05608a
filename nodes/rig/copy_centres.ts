/**
 * Centre lines of copies of the aircraft lying apart (`copies.ts` finds the copies): each copy laid out
 * beside the others has its own plane of symmetry, drawn through its objects named as left and right of
 * one thing, else its box's middle; and the first copy alone gives the `"auto"` frame.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { subtreeNodes } from "./geometry.ts";
import { IDENTITY, type Mat4 } from "./transform.ts";
import { readingFile, sidedName } from "./copy_names.ts";
import { type Bounds, type BoundsCache, meshBounds } from "./mesh_bounds.ts";
import { sceneWords } from "./file_words.ts";
import { findCopies, type ModelCopy } from "./copies.ts";
import type { FileWords } from "./vocabulary.ts";

/** True when the boxes overlap along axis `k` by less than half the narrower one. */
export function apartAlong(a: Bounds, b: Bounds, k: number): boolean {
  const overlap = Math.min(a.max[k], b.max[k]) - Math.max(a.min[k], b.min[k]);
  return overlap < 0.5 * Math.min(a.max[k] - a.min[k], b.max[k] - b.min[k]);
}

/**
 * Per node of a copy, the lateral position (aircraft frame, +left) of its copy's centre line when the
 * copies lie apart across the span; undefined when the scene holds one copy or its copies overlap there
 * (one centre line, the scene's).
 */
export function copyCentreLines(doc: Document, toAircraft: Mat4): Map<Node, number> | undefined {
  return centreLinesOf(findCopies(doc), sceneWords(doc), toAircraft);
}

/**
 * {@link copyCentreLines} of copies already found (`copies.ts` findCopies) in a file of `words`
 * (`file_words.ts` sceneWords): a caller needing both for another look reads the scene once.
 */
export function centreLinesOf(
  copies: readonly ModelCopy[] | undefined,
  words: FileWords,
  toAircraft: Mat4,
): Map<Node, number> | undefined {
  return readingFile(words, () => centreLines(copies, toAircraft));
}

function centreLines(
  copies: readonly ModelCopy[] | undefined,
  toAircraft: Mat4,
): Map<Node, number> | undefined {
  if (!copies) return undefined;
  const cache: BoundsCache = new Map();
  const boxes = copies.map((copy) => meshBounds(copy.nodes, toAircraft, cache));
  const drawn = boxes.filter((b): b is Bounds => !!b);
  // Apart along any axis: copies in a grid whose rows are narrower than the span (one behind another,
  // set across by less than a wingspan) each keep their own centre line.
  const apart = (a: Bounds, b: Bounds) => [0, 1, 2].some((k) => apartAlong(a, b, k));
  if (!drawn.some((a, i) => drawn.some((b, j) => j > i && apart(a, b)))) return undefined;
  const out = new Map<Node, number>();
  copies.forEach((copy, i) => {
    const box = boxes[i];
    if (!box) return;
    const centre = pairedCentre(copy.nodes, toAircraft, cache) ?? (box.min[2] + box.max[2]) / 2;
    for (const node of copy.nodes) out.set(node, centre);
  });
  return out;
}

/**
 * A copy's centre line from the objects named as left and right of one thing (`Aileron_L` and
 * `Aileron_R`, `Wing_L` and `Wing_R`): the median of their middles, or undefined when none pair. Its
 * box's middle is no centre line when something reaches out on one side (a propeller blade standing
 * past a wing tip, a damaged copy's missing wing).
 */
export function pairedCentre(
  nodes: ReadonlySet<Node>,
  toAircraft: Mat4,
  cache: BoundsCache,
): number | undefined {
  const middles = pairedMiddles(nodes, toAircraft, cache).sort((x, y) => x - y);
  if (!middles.length) return undefined;
  const half = middles.length >> 1;
  return middles.length % 2 ? middles[half] : (middles[half - 1] + middles[half]) / 2;
}

/**
 * The lateral middles (aircraft frame) of each pair of objects among `nodes` named as left and right of
 * one thing (`Aileron_L` and `Aileron_R`), in no order: one copy's all lie on its centre line.
 */
export function pairedMiddles(
  nodes: ReadonlySet<Node>,
  toAircraft: Mat4,
  cache: BoundsCache,
): number[] {
  const bySide = new Map<string, Node | null>();
  for (const node of nodes) {
    const key = sidedName(node.getName());
    if (!key?.endsWith("|left") && !key?.endsWith("|right")) continue;
    bySide.set(key, bySide.has(key) ? null : node);
  }
  const middles: number[] = [];
  for (const [key, left] of bySide) {
    const right = key.endsWith("|left") ? bySide.get(key.replace(/\|left$/, "|right")) : undefined;
    if (!left || !right) continue;
    const [a, b] = [left, right].map((n) => meshBounds(subtreeNodes(n), toAircraft, cache));
    if (a && b) middles.push((a.min[2] + a.max[2] + b.min[2] + b.max[2]) / 4);
  }
  return middles;
}

/**
 * The nodes of the first copy when the scene's copies lie apart along some scene axis (side by side,
 * one behind another or stacked): the frame is found from it alone. Undefined otherwise.
 */
export function firstCopyApart(doc: Document): ReadonlySet<Node> | undefined {
  const copies = findCopies(doc);
  if (!copies) return undefined;
  const cache: BoundsCache = new Map();
  const boxes = copies.map((copy) => meshBounds(copy.nodes, IDENTITY, cache));
  const [first] = boxes;
  if (!first) return undefined;
  const apart = boxes.slice(1).some((b) => b && [0, 1, 2].some((k) => apartAlong(first, b, k)));
  return apart ? copies[0].nodes : undefined;
}
