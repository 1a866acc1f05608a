/**
 * One mesh, two surfaces: a panel whose geometry is disconnected pieces on both sides of the centre
 * line (`Elevons` drawn as one object) is not one centre panel. Its node is split in two — the
 * original node keeps the left pieces (renamed `<name>_L`), a new sibling `<name>_R` with the same
 * transform, extras and materials takes the right ones, each mesh holding only its own vertices — and
 * each becomes a panel with its side.
 * Where that cannot be done safely (children under the node, morph targets, a skin bone, a piece
 * across the centre line) it is warned about and left whole. One connected piece reaching well out
 * on both sides (a V planform) is cut at the plane of symmetry instead (`split_centre.ts`).
 *
 * @module
 */
import type { Document, Node, TypedArray } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { gatherPositions } from "./geometry.ts";
import { disjointSets } from "./disjoint_sets.ts";
import { drawsArea } from "./drawn_vertices.ts";
import { emptyHalves, primitiveFromList, splitNodeInTwo, whyNotSplittable } from "./mesh_halves.ts";
import { getPart, setPart } from "./part_extras.ts";
import { splitAtCentrePlane } from "./split_centre.ts";
import { mirrorPartnerOf } from "./mirror_image.ts";
import type { Mat4 } from "./transform.ts";

/** glTF's mode of a plain triangle list: the only one {@link splitNode} divides. */
const TRIANGLE_LIST = 4;

/** Lateral extent of the pieces of a panel's mesh, and which vertices belong to which piece. */
export interface Pieces {
  /** Piece index of every vertex (welded by position), −1 for vertices in no triangle with an area. */
  readonly pieceOf: Int32Array;
  /** Per piece: lateral (aircraft left) minimum and maximum. */
  readonly lateral: { min: number; max: number }[];
}

/**
 * Splits a panel node whose mesh is disconnected pieces on both sides of the centre line; returns
 * the new right-hand node, or undefined when the node is one surface or cannot be split (warned).
 */
export function splitTwoPieceMesh(
  doc: Document,
  node: Node,
  toAircraft: Mat4,
  ctx: RunContext,
): Node | undefined {
  const part = getPart(node)!;
  if (part.driven_by === "skin" || !node.getMesh()) return undefined;
  const gathered = gatherPositions(node, toAircraft, { descend: false, triangles: true });
  const pieces = connectedPieces(gathered.positions, gathered.count, gathered.triangles!);
  const width = Math.max(...pieces.lateral.map((p) => Math.max(Math.abs(p.min), Math.abs(p.max))), 0);
  const band = 0.02 * width;
  const sideOf = pieces.lateral.map((p) => p.min > -band ? "left" : p.max < band ? "right" : "across");
  if (!sideOf.includes("left") || !sideOf.includes("right")) {
    // One connected piece reaching well out on both sides: a V (cut in two) or a one-piece surface.
    const spanning = pieces.lateral.some((p) => p.min < -0.25 * width && p.max > 0.25 * width) &&
      2 * width >=
        0.5 *
          Math.max(
            range(gathered.positions, pieces.pieceOf, 0),
            range(gathered.positions, pieces.pieceOf, 1),
          );
    // One side of a mirrored pair (a V-tail's ruddervator, its root across the plane as the two meet)
    // is one surface, its partner the other side: nothing to cut (fin_horns.ts V-tails were warned).
    if (spanning && mirrorPartnerOf(node, doc.getRoot().listNodes(), toAircraft)) return undefined;
    return spanning ? splitAtCentrePlane(doc, node, toAircraft, ctx) : undefined;
  }
  const across = sideOf.includes("across");
  // A piece across the centre line in one side of a mirrored pair is its root: one surface with its
  // horns or brackets (fin_horns.ts V-tails, horns merged as pieces of their own, were warned).
  if (across && mirrorPartnerOf(node, doc.getRoot().listNodes(), toAircraft)) return undefined;
  const why = across ? "a piece of it crosses the centre line" : whyNotSplittable(node, { guides: true });
  if (why) {
    ctx.warn(
      `panel '${node.getName()}' (${part.kind}) is ${pieces.lateral.length} separate pieces on both sides of ` +
        `the centre line — two surfaces, not one centre panel — but is left whole because ${why}; ` +
        "split it into a left and a right object",
    );
    return undefined;
  }
  const name = node.getName();
  const right = splitNode(doc, node, pieces.pieceOf, sideOf);
  setPart(node, { ...part, side: "left" });
  setPart(right, { ...part, side: "right" });
  ctx.warn(
    `panel '${name}' (${part.kind}) was two separate surfaces on both sides of the centre line: ` +
      `split into '${node.getName()}' and '${right.getName()}'`,
  );
  return right;
}

/**
 * The range of coordinate `k` of the `xyz` triples in a piece: what is drawn, not a stray vertex at the
 * origin nor the rest of a vertex buffer the whole aircraft shares.
 */
function range(positions: Float64Array, pieceOf: Int32Array, k: number): number {
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < pieceOf.length; i++) {
    if (pieceOf[i] < 0) continue;
    min = Math.min(min, positions[3 * i + k]);
    max = Math.max(max, positions[3 * i + k]);
  }
  return max - min;
}

/**
 * Connected pieces of a triangle mesh, vertices welded by position (seams split vertices). A triangle
 * without an area (collapsed onto a point or a line: an exporter's leftover at the origin) draws no
 * piece and joins none.
 */
export function connectedPieces(positions: Float64Array, count: number, triangles: Uint32Array): Pieces {
  const { find, join } = disjointSets(count);
  const byPosition = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const key = `${positions[3 * i]},${positions[3 * i + 1]},${positions[3 * i + 2]}`;
    const first = byPosition.get(key);
    if (first === undefined) byPosition.set(key, i);
    else join(first, i);
  }
  const used = new Uint8Array(count);
  for (let t = 0; t < triangles.length; t += 3) {
    if (!drawsArea(positions, triangles[t], triangles[t + 1], triangles[t + 2])) continue;
    join(triangles[t], triangles[t + 1]);
    join(triangles[t], triangles[t + 2]);
    used[triangles[t]] = used[triangles[t + 1]] = used[triangles[t + 2]] = 1;
  }
  const pieceOf = new Int32Array(count).fill(-1);
  const index = new Map<number, number>();
  const lateral: { min: number; max: number }[] = [];
  for (let i = 0; i < count; i++) {
    if (!used[i]) continue;
    const r = find(i);
    let piece = index.get(r);
    if (piece === undefined) {
      piece = lateral.length;
      index.set(r, piece);
      lateral.push({ min: Infinity, max: -Infinity });
    }
    pieceOf[i] = piece;
    const z = positions[3 * i + 2];
    lateral[piece].min = Math.min(lateral[piece].min, z);
    lateral[piece].max = Math.max(lateral[piece].max, z);
  }
  return { pieceOf, lateral };
}

/**
 * Gives `node` the triangles of its left pieces and a new sibling the right ones; each gets a new mesh
 * whose primitives hold their own vertices, with the original materials. Lines or points beside the
 * triangles (a modeller's guide edges) stay whole with `node`: they draw no surface to divide.
 */
export function splitNode(doc: Document, node: Node, pieceOf: Int32Array, sideOf: readonly string[]): Node {
  const mesh = node.getMesh()!;
  const halves = emptyHalves(doc, mesh);
  let base = 0;
  for (const primitive of mesh.listPrimitives()) {
    const vertices = primitive.getAttribute("POSITION")!.getCount();
    if (primitive.getMode() !== TRIANGLE_LIST) {
      halves.left.addPrimitive(primitive.clone());
      base += vertices;
      continue;
    }
    const indices = primitive.getIndices()?.getArray();
    const lists = { left: [] as number[], right: [] as number[] };
    const n = indices ? indices.length : vertices;
    for (let t = 0; t + 2 < n; t += 3) {
      const a = indices ? indices[t] : t,
        b = indices ? indices[t + 1] : t + 1,
        c = indices ? indices[t + 2] : t + 2;
      // A triangle with no area goes with a corner's piece; one whose corners are in none draws nothing.
      const piece = [a, b, c].map((v) => pieceOf[base + v]).find((p) => p >= 0);
      if (piece === undefined) continue;
      lists[sideOf[piece] as "left" | "right"].push(a, b, c);
    }
    const arrays = new Map<string, TypedArray>(
      primitive.listSemantics().map((semantic) => [semantic, primitive.getAttribute(semantic)!.getArray()!]),
    );
    for (const side of ["left", "right"] as const) {
      if (lists[side].length) {
        halves[side].addPrimitive(primitiveFromList(doc, primitive, arrays, lists[side]));
      }
    }
    base += vertices;
  }
  return splitNodeInTwo(doc, node, halves);
}
