/**
 * Copies of the whole aircraft in one file: a Sketchfab "showcase" lays its levels of detail out
 * side by side or stacked (`LOD0`, `LOD1`, `LOD2` groups; `Aileron_L_LOD1` name suffixes), each a
 * whole aircraft with its own centre line. Measured against the scene's one centre line, a copy
 * set beside it lies wholly on one side: its right-named panels were taken for mirrored duplicates
 * and given the left side, and its mirror partners were compared across the wrong plane (a hinge
 * "875 % of chord apart across the mirror", weak); stacked copies read as one tall shape, and
 * `"auto"` found no frame. Copies found here are read apart: each has its own centre line (sides,
 * mirror partners, frame checks) and the frame is found from the first alone.
 *
 * Copies are found by name, never by shape: sibling groups (below any wrapper nodes) that each hold a
 * whole aircraft's panels — a wing surface and a tail surface — with the same panels by kind and side,
 * or else objects carrying a level-of-detail number (`_LOD1`, `_lod2`, `LOD 0`) whose levels hold the
 * same panels. Copies drawn at one place (the usual export, or damage states) change nothing: only
 * copies lying apart are read apart.
 *
 * @module
 */
import type { Accessor, Document, Node } from "@gltf-transform/core";
import { subtreeNodes } from "./geometry.ts";
import { IDENTITY, type Mat4, multiply, transformPoint, type Vec3 } from "./transform.ts";
import { matchPanelName, sideFromName } from "./vocabulary.ts";

/** One copy of the aircraft: a label (its group's name or `LOD<n>`) and every node in it. */
export interface ModelCopy {
  readonly label: string;
  readonly nodes: ReadonlySet<Node>;
}

/** A box: lowest and highest corner. */
export interface Bounds {
  readonly min: Vec3;
  readonly max: Vec3;
}

/** Kinds on a wing, and kinds on a tail (an elevon is both: a flying wing's copies count). */
const WING_KINDS = new Set([
  "aileron",
  "flap",
  "slat",
  "spoiler",
  "leading_edge_flap",
  "elevon",
  "air_brake",
]);
const TAIL_KINDS = new Set([
  "elevator",
  "rudder",
  "stabilator",
  "ruddervator",
  "canard",
  "elevon",
  "drag_rudder",
]);

/** A level-of-detail number in a name: `_LOD1`, `.lod2`, `LOD 0`, `lod_3` (not glued to a word before). */
const LOD_NUMBER = /(?<![a-z])lod[\s_.-]?(\d+)(?!\d)/i;

/** Wrappers descended through looking for sibling copies (Sketchfab nests its models four deep). */
const MAX_DEPTH = 8;

/**
 * The panels a subtree's names give, by kind and side, as a sorted signature; empty when none.
 */
function signature(nodes: readonly Node[]): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    const match = matchPanelName(node.getName());
    if (match) out.push(`${match.kind}|${sideFromName(node.getName()) ?? ""}`);
  }
  return out.sort();
}

function wholeAircraft(panels: readonly string[]): boolean {
  const kinds = panels.map((p) => p.split("|")[0]);
  return kinds.some((k) => WING_KINDS.has(k)) && kinds.some((k) => TAIL_KINDS.has(k));
}

/**
 * The copies of the aircraft in the scene's default scene (see the module doc), or undefined when it
 * holds one.
 *
 * @example
 * ```ts
 * const copies = findCopies(doc); // [{ label: "LOD0", nodes }, { label: "LOD1", nodes }, …]
 * ```
 */
export function findCopies(doc: Document): ModelCopy[] | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return undefined;
  let level = scene.listChildren();
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const holding = level.map((node) => ({ node, panels: signature(subtreeNodes(node)) }))
      .filter((h) => h.panels.length > 0);
    if (holding.length === 1) {
      level = holding[0].node.listChildren();
      continue;
    }
    const alike = new Map<string, Node[]>();
    for (const { node, panels } of holding) {
      if (panels.length < 2 || !wholeAircraft(panels)) continue;
      const key = panels.join(",");
      alike.set(key, [...(alike.get(key) ?? []), node]);
    }
    const groups = [...alike.values()].filter((g) => g.length >= 2).sort((a, b) => b.length - a.length);
    if (groups.length) {
      // Two alike make copies; then every sibling holding a whole aircraft is one (a coarse level that
      // dropped its trim tabs), in the scene's order.
      const copies = holding.filter((h) => groups[0].includes(h.node) || wholeAircraft(h.panels));
      return copies.map(({ node }) => ({ label: node.getName(), nodes: new Set(subtreeNodes(node)) }));
    }
    break;
  }
  return copiesByLevelNumber(scene.listChildren().flatMap(subtreeNodes));
}

/** Copies by a level-of-detail number in the names: two levels or more holding the same panels. */
function copiesByLevelNumber(nodes: readonly Node[]): ModelCopy[] | undefined {
  const levels = new Map<number, Set<Node>>();
  for (const node of nodes) {
    const match = LOD_NUMBER.exec(node.getName());
    if (!match) continue;
    const level = levels.get(Number(match[1])) ??
      levels.set(Number(match[1]), new Set()).get(Number(match[1]))!;
    for (const n of subtreeNodes(node)) level.add(n);
  }
  if (levels.size < 2) return undefined;
  const signatures = [...levels.values()].map((nodes) => signature([...nodes]).join(","));
  const repeated = signatures.some((s, i) => s.split(",").length >= 2 && signatures.indexOf(s) !== i);
  if (!repeated) return undefined;
  return [...levels].sort(([a], [b]) => a - b)
    .filter(([, nodes]) => signature([...nodes]).length > 0)
    .map(([n, nodes]) => ({ label: `LOD${n}`, nodes }));
}

/**
 * The box around the drawn meshes of `nodes`, placed by `matrix` (scene → frame) times each node's
 * world matrix, from the corners of each accessor's own bounds (each read once per `cache`); undefined
 * when they draw nothing.
 */
export function meshBounds(
  nodes: Iterable<Node>,
  matrix: Mat4,
  cache = new Map<Accessor, Bounds | undefined>(),
): Bounds | undefined {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const node of nodes) {
    const accessors = node.getMesh()?.listPrimitives().map((p) => p.getAttribute("POSITION")) ?? [];
    const world = accessors.length ? multiply(matrix, node.getWorldMatrix()) : undefined;
    for (const accessor of accessors) {
      if (!accessor || accessor.getType() !== "VEC3") continue;
      if (!cache.has(accessor)) cache.set(accessor, accessorBounds(accessor));
      const box = cache.get(accessor);
      if (!box) continue;
      for (let corner = 0; corner < 8; corner++) {
        const p = transformPoint(world!, [0, 1, 2].map((k) => (corner >> k) & 1 ? box.max[k] : box.min[k]));
        for (let k = 0; k < 3; k++) {
          min[k] = Math.min(min[k], p[k]);
          max[k] = Math.max(max[k], p[k]);
        }
      }
    }
  }
  return min[0] <= max[0] ? { min, max } : undefined;
}

/** An accessor's own bounds (normalized integers read as the values they stand for), or undefined when it has none. */
function accessorBounds(accessor: Accessor): Bounds | undefined {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const element = [0, 0, 0];
  for (let i = 0; i < accessor.getCount(); i++) {
    accessor.getElement(i, element);
    for (let k = 0; k < 3; k++) {
      if (!Number.isFinite(element[k])) continue;
      if (element[k] < min[k]) min[k] = element[k];
      if (element[k] > max[k]) max[k] = element[k];
    }
  }
  return min[0] <= max[0] ? { min, max } : undefined;
}

/** True when the boxes overlap along axis `k` by less than half the narrower one. */
function apartAlong(a: Bounds, b: Bounds, k: number): boolean {
  const overlap = Math.min(a.max[k], b.max[k]) - Math.max(a.min[k], b.min[k]);
  return overlap < 0.5 * Math.min(a.max[k] - a.min[k], b.max[k] - b.min[k]);
}

/**
 * Per node of a copy, the lateral position (aircraft frame, +left) of its copy's centre line — the
 * middle of the copy's box across the span — when the copies lie apart across the span; undefined
 * when the scene holds one copy or its copies overlap there (one centre line, the scene's).
 */
export function copyCentreLines(doc: Document, toAircraft: Mat4): Map<Node, number> | undefined {
  const copies = findCopies(doc);
  if (!copies) return undefined;
  const cache = new Map<Accessor, Bounds | undefined>();
  const boxes = copies.map((copy) => meshBounds(copy.nodes, toAircraft, cache));
  const drawn = boxes.filter((b): b is Bounds => !!b);
  if (!drawn.some((a, i) => drawn.some((b, j) => j > i && apartAlong(a, b, 2)))) return undefined;
  const out = new Map<Node, number>();
  copies.forEach((copy, i) => {
    const box = boxes[i];
    if (box) { for (const node of copy.nodes) out.set(node, (box.min[2] + box.max[2]) / 2); }
  });
  return out;
}

/**
 * The nodes of the first copy when the scene's copies lie apart along some scene axis (side by side,
 * one behind another or stacked): the frame is found from it alone. Undefined otherwise.
 */
export function firstCopyApart(doc: Document): ReadonlySet<Node> | undefined {
  const copies = findCopies(doc);
  if (!copies) return undefined;
  const cache = new Map<Accessor, Bounds | undefined>();
  const boxes = copies.map((copy) => meshBounds(copy.nodes, IDENTITY, cache));
  const [first] = boxes;
  if (!first) return undefined;
  const apart = boxes.slice(1).some((b) => b && [0, 1, 2].some((k) => apartAlong(first, b, k)));
  return apart ? copies[0].nodes : undefined;
}
