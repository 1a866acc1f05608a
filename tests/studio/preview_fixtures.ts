/**
 * Models for the 3D preview as users have them, made by code: many `ctrl_type` parts (some in
 * groups, some without limits, as spinning propellers and Freelancer `Rev` joints without limits
 * come), names with HTML characters, right-to-left script and emoji, and files that fail to load.
 *
 * @module
 */
import { Document, type Node } from "@gltf-transform/core";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";

/** One part of {@link partsGlb}: a node with a small box mesh and its `ctrl_type` extras. */
export interface PartNode {
  name: string;
  extras: Record<string, unknown>;
  /** Where it sits (model units). */
  at: [number, number, number];
}

/** A GLB of {@link partsDoc}. */
export async function partsGlb(parts: readonly PartNode[]): Promise<Uint8Array> {
  return await writeGlb(partsDoc(parts), { generator: "partgraph studio test" });
}

/** A document of a root node `Airframe` holding one unit box per part, each part's node carrying its extras. */
export function partsDoc(parts: readonly PartNode[]): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const positions = new Float32Array([
    ...[0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0],
    ...[0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1],
  ]).map((v) => v - 0.5);
  const indices = new Uint16Array([
    ...[0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4],
    ...[2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3],
  ]);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", doc.createAccessor().setBuffer(buffer).setType("VEC3").setArray(positions))
    .setIndices(doc.createAccessor().setBuffer(buffer).setType("SCALAR").setArray(indices))
    .setMaterial(doc.createMaterial("paint").setBaseColorFactor([0.8, 0.8, 0.8, 1]));
  const box = doc.createMesh("box").addPrimitive(primitive);
  const root = doc.createNode("Airframe");
  for (const part of parts) {
    const node: Node = doc.createNode(part.name).setTranslation(part.at).setMesh(box).setExtras(part.extras);
    root.addChild(node);
  }
  doc.createScene("scene").addChild(root);
  return doc;
}

/**
 * `count` parts on a grid, 1.5 units apart: every tenth in one of `groups` groups (`g0`…), every
 * seventh without limits (no `min`/`max`, as a spinning part comes), the rest ±20°.
 */
export function manyParts(count: number, groups = 5): PartNode[] {
  const side = Math.ceil(Math.sqrt(count));
  return Array.from({ length: count }, (_, i) => {
    const extras: Record<string, unknown> = { ctrl_type: "rotation", unit: "deg" };
    if (i % 7 !== 3) Object.assign(extras, { min: -20, max: 20 });
    if (i % 10 === 0) extras.group = `g${(i / 10) % groups}`;
    return { name: `Panel_${i}`, extras, at: [(i % side) * 1.5, 0, Math.floor(i / side) * 1.5] };
  });
}

/**
 * Parts whose names a page could mistake for markup or lay out wrongly: HTML tags and an attribute
 * breaker, right-to-left script, emoji; with an unbounded rotor, a one-sided limit and an unbounded
 * slide.
 */
export const AWKWARD_PARTS: readonly PartNode[] = [
  { name: "<b>bold</b>", extras: { ctrl_type: "rotation", unit: "deg", min: -10, max: 10 }, at: [0, 0, 0] },
  {
    name: `"><img src=x onerror="document.title='pwned'">`,
    extras: { ctrl_type: "rotation", unit: "deg", min: -5, max: 5, group: "<i>g</i>" },
    at: [2, 0, 0],
  },
  { name: "جناح_أيسر", extras: { ctrl_type: "rotation", unit: "deg", min: -15, max: 15 }, at: [4, 0, 0] },
  { name: "🚁 rotor", extras: { ctrl_type: "rotation", unit: "deg" }, at: [6, 0, 0] },
  { name: "Hatch", extras: { ctrl_type: "rotation", unit: "deg", min: 0 }, at: [8, 0, 0] },
  { name: "Boom", extras: { ctrl_type: "translation", unit: "m" }, at: [10, 0, 0] },
];

/** `glb` cut to its first `keep` bytes (a download that stopped short). */
export const truncated = (glb: Uint8Array, keep: number): Uint8Array => glb.slice(0, keep);

/** A Freelancer `.cmp` (UTF) whose header points its node tree past the end of the file. */
export function damagedUtf(cmp: Uint8Array): Uint8Array {
  const bytes = cmp.slice();
  // UTF header: "UTF ", version, then the node tree's offset (u32 at byte 8).
  new DataView(bytes.buffer).setUint32(8, bytes.length + 4096, true);
  return bytes;
}

/**
 * A deeply parented model: `depth` nodes, each the child of the one before (as a Freelancer compound's
 * chain of parts or a glTF exported with every node parented to the last), each a small box a step
 * along X from its parent; `parts` of them (every `depth / parts`-th, the first included) are
 * `ctrl_type` rotations of ±20°.
 */
export function chainDoc(depth: number, parts = 0): Document {
  const doc = partsDoc([]);
  const box = doc.getRoot().listMeshes()[0];
  const every = parts ? Math.max(1, Math.floor(depth / parts)) : Infinity;
  let parent = doc.getRoot().listNodes()[0];
  for (let i = 0; i < depth; i++) {
    const node = doc.createNode(`Link_${i}`).setTranslation([0.05, 0, 0]).setScale([0.99, 0.99, 0.99]);
    if (i % 50 === 0) node.setMesh(box);
    if (i % every === 0) node.setExtras({ ctrl_type: "rotation", unit: "deg", min: -20, max: 20 });
    parent.addChild(node);
    parent = node;
  }
  return doc;
}

/** A node of {@link treeDoc}: a unit box where it sits, its extras, and its children. */
export interface TreeNode {
  name: string;
  at: [number, number, number];
  extras?: Record<string, unknown>;
  children?: readonly TreeNode[];
}

/** A document of a root node `Airframe` holding `nodes` as nested, each a unit box. */
export function treeDoc(nodes: readonly TreeNode[]): Document {
  const doc = partsDoc([]);
  const box = doc.getRoot().listMeshes()[0];
  const add = (parent: Node, spec: TreeNode) => {
    const node = doc.createNode(spec.name).setTranslation(spec.at).setMesh(box).setExtras(spec.extras ?? {});
    parent.addChild(node);
    for (const child of spec.children ?? []) add(node, child);
  };
  for (const spec of nodes) add(doc.getRoot().listNodes()[0], spec);
  return doc;
}

const rotation = (extras: Record<string, unknown>) => ({ ctrl_type: "rotation", unit: "deg", ...extras });

/**
 * Parts as real files have them: a `Flap` on each wing and two `Tab`s under one of them (same names
 * under different parents, and under one), a gear door declared open at rest (`rest: 102`, 0…120°), a
 * slide at rest half out, and joints with degenerate limits — `min == max` (0 and 10), the wrong way
 * round, not numbers (`null`, as a NaN is written to JSON, and a string), and far too large (±1e30).
 */
export const REAL_SHAPED: readonly TreeNode[] = [
  {
    name: "Wing_L",
    at: [-4, 0, 0],
    children: [
      { name: "Flap", at: [0, 0, 1.5], extras: rotation({ min: -30, max: 30, rest: 10 }) },
      { name: "Tab", at: [-1.5, 0, 1.5], extras: rotation({ min: -5, max: 5 }) },
      { name: "Tab", at: [1.5, 0, 1.5], extras: rotation({ min: -5, max: 5 }) },
    ],
  },
  {
    name: "Wing_R",
    at: [4, 0, 0],
    children: [{ name: "Flap", at: [0, 0, 1.5], extras: rotation({ min: -30, max: 30 }) }],
  },
  { name: "GearDoor", at: [0, -2, 0], extras: rotation({ min: 0, max: 120, rest: 102 }) },
  { name: "Ram", at: [0, 2, 0], extras: { ctrl_type: "translation", unit: "m", min: 0, max: 1, rest: 0.5 } },
  { name: "Locked", at: [0, 4, 0], extras: rotation({ min: 0, max: 0 }) },
  { name: "LockedAt10", at: [0, 6, 0], extras: rotation({ min: 10, max: 10 }) },
  { name: "Swapped", at: [0, 8, 0], extras: rotation({ min: 30, max: -10 }) },
  { name: "NotNumbers", at: [0, 10, 0], extras: rotation({ min: null, max: "25" }) },
  { name: "Huge", at: [0, 12, 0], extras: rotation({ min: -1e30, max: 1e30 }) },
];
