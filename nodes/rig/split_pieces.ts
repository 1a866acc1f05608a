/**
 * One mesh, two surfaces: a panel whose geometry is disconnected pieces on both sides of the centre
 * line (`Elevons` drawn as one object) is not one centre panel. Its node is split in two — the
 * original node keeps the left pieces (renamed `<name>_L`), a new sibling `<name>_R` with the same
 * transform, extras and materials takes the right ones, each mesh holding only its own vertices — and
 * each becomes a panel with its side.
 * Where that cannot be done safely (children under the node, morph targets, a skin bone, a piece
 * across the centre line) it is warned about and left whole; so is one connected piece reaching well
 * out on both sides (a V planform), which is fitted as one centre panel.
 *
 * @module
 */
import type { Document, Node, Primitive } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { gatherPositions } from "./geometry.ts";
import { getPart, setPart } from "./part_extras.ts";
import type { Mat4 } from "./transform.ts";

const TRIANGLES = 4;

/** Lateral extent of the pieces of a panel's mesh, and which vertices belong to which piece. */
interface Pieces {
  /** Piece index of every vertex (welded by position), −1 for vertices in no triangle. */
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
    // One connected piece reaching well out on both sides: a V or a one-piece surface, fitted as one.
    const spanning = pieces.lateral.some((p) => p.min < -0.25 * width && p.max > 0.25 * width) &&
      2 * width >= 0.5 * Math.max(range(gathered.positions, 0), range(gathered.positions, 1));
    if (spanning) {
      ctx.warn(
        `panel '${node.getName()}' (${part.kind}) is one connected piece spanning both sides of the centre ` +
          "line: rigged as one centre panel on one hinge line; if its halves move apart (a V planform, " +
          "left and right surfaces), split it into a left and a right object",
        { panel: node.getName() },
      );
    }
    return undefined;
  }
  const why = sideOf.includes("across")
    ? "a piece of it crosses the centre line"
    : node.listChildren().length
    ? "it has child nodes"
    : node.getMesh()!.listPrimitives().some((p) =>
        p.listTargets().length || p.getMode() !== TRIANGLES ||
        p.getAttribute("POSITION")?.getType() !== "VEC3"
      )
    ? "its mesh has morph targets or is not a plain triangle list"
    : undefined;
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

/** The range of one coordinate of `xyz` triples. */
function range(positions: Float64Array, k: number): number {
  let min = Infinity, max = -Infinity;
  for (let i = k; i < positions.length; i += 3) {
    min = Math.min(min, positions[i]);
    max = Math.max(max, positions[i]);
  }
  return max - min;
}

/** Connected pieces of a triangle mesh, vertices welded by position (seams split vertices). */
function connectedPieces(positions: Float64Array, count: number, triangles: Uint32Array): Pieces {
  const root = new Int32Array(count).map((_, i) => i);
  const find = (i: number): number => {
    while (root[i] !== i) i = root[i] = root[root[i]];
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a), rb = find(b);
    if (ra !== rb) root[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const byPosition = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const key = `${positions[3 * i]},${positions[3 * i + 1]},${positions[3 * i + 2]}`;
    const first = byPosition.get(key);
    if (first === undefined) byPosition.set(key, i);
    else union(first, i);
  }
  const used = new Uint8Array(count);
  for (let t = 0; t < triangles.length; t += 3) {
    union(triangles[t], triangles[t + 1]);
    union(triangles[t], triangles[t + 2]);
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
 * whose primitives share the original attributes and materials with their own indices.
 */
function splitNode(doc: Document, node: Node, pieceOf: Int32Array, sideOf: readonly string[]): Node {
  const mesh = node.getMesh()!;
  const name = node.getName();
  const halves = {
    left: doc.createMesh(`${mesh.getName()}_L`),
    right: doc.createMesh(`${mesh.getName()}_R`),
  };
  let base = 0;
  for (const primitive of mesh.listPrimitives()) {
    const vertices = primitive.getAttribute("POSITION")!.getCount();
    const indices = primitive.getIndices()?.getArray();
    const lists = { left: [] as number[], right: [] as number[] };
    const n = indices ? indices.length : vertices;
    for (let t = 0; t + 2 < n; t += 3) {
      const a = indices ? indices[t] : t;
      const side = sideOf[pieceOf[base + a]] as "left" | "right";
      lists[side].push(a, indices ? indices[t + 1] : t + 1, indices ? indices[t + 2] : t + 2);
    }
    for (const side of ["left", "right"] as const) {
      if (lists[side].length) halves[side].addPrimitive(copyWithIndices(doc, primitive, lists[side]));
    }
    base += vertices;
  }
  halves.left.setExtras({ ...mesh.getExtras() });
  halves.right.setExtras({ ...mesh.getExtras() });
  const right = doc.createNode(`${name}_R`)
    .setTranslation(node.getTranslation())
    .setRotation(node.getRotation())
    .setScale(node.getScale())
    .setExtras(structuredClone(node.getExtras()))
    .setMesh(halves.right);
  const parent = node.getParentNode();
  if (parent) parent.addChild(right);
  else {for (const scene of doc.getRoot().listScenes()) {
      if (scene.listChildren().includes(node)) scene.addChild(right);
    }}
  node.setName(`${name}_L`).setMesh(halves.left);
  return right;
}

/** A copy of a primitive holding only the vertices `list`'s triangles use (attributes compacted). */
function copyWithIndices(doc: Document, primitive: Primitive, list: number[]): Primitive {
  const copy = doc.createPrimitive().setMode(TRIANGLES).setMaterial(primitive.getMaterial());
  const keep = [...new Set(list)].sort((a, b) => a - b);
  const renumber = new Map(keep.map((old, i) => [old, i]));
  const buffer = primitive.getAttribute("POSITION")!.getBuffer() ?? doc.getRoot().listBuffers()[0];
  for (const semantic of primitive.listSemantics()) {
    const source = primitive.getAttribute(semantic)!;
    const array = source.getArray()!;
    const size = source.getElementSize();
    const out = new (array.constructor as new (n: number) => typeof array)(keep.length * size);
    keep.forEach((old, i) => out.set(array.subarray(old * size, old * size + size), i * size));
    copy.setAttribute(
      semantic,
      doc.createAccessor(source.getName(), buffer).setType(source.getType()).setArray(out)
        .setNormalized(source.getNormalized()),
    );
  }
  const indices = doc.createAccessor(undefined, buffer).setType("SCALAR")
    .setArray(new Uint32Array(list.map((i) => renumber.get(i)!)));
  return copy.setIndices(indices);
}
