/**
 * Where a glTF hierarchy cannot draw a DSON node as Daz does: DSON composes a node's world rotation
 * and world scale separately (`global_rotation = parent.global_rotation · O·R·O⁻¹`, `global_scale =
 * parent.global_scale · O·S·g·O⁻¹`, world = T·rotation·scale; formats B.6, the spec's node transform as
 * Diffeomorphic reads it), so a parent's uneven scale stretches a turned child along the child's own
 * turned axes. A glTF child takes its parent's whole matrix instead, scale before its turn: the same
 * only while the turn keeps the parent's scale axes (or the scale is even). The two cannot be made
 * equal by a glTF node's TRS (it would need a shear), so such nodes are named, with how far off.
 *
 * @module
 */
import type { SceneNode } from "./model.ts";
import { eulerQuat } from "./rest_pose.ts";

type M3 = number[][];

/**
 * Below this (a fraction of the node's size, 0.05 %: 1 mm on a 2 m figure) the two compositions are
 * one: Daz writes scales to 6 decimals.
 */
const SAME = 5e-4;

const mul = (a: M3, b: M3): M3 =>
  a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j] + row[1] * b[1][j] + row[2] * b[2][j]));
const transpose = (a: M3): M3 => [0, 1, 2].map((i) => [a[0][i], a[1][i], a[2][i]]);
const diagonal = (d: readonly number[]): M3 =>
  [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? d[i] : 0)));
const IDENTITY: M3 = diagonal([1, 1, 1]);

/** The rotation matrix (rows) of Euler degrees in `order`. */
function rotation(degrees: readonly number[], order: string): M3 {
  const [x, y, z, w] = eulerQuat(degrees, order);
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

/** The largest column length of `a − b`: how far apart (per unit of size) they carry a point. */
function apart(a: M3, b: M3): number {
  let most = 0;
  for (let j = 0; j < 3; j++) {
    most = Math.max(most, Math.hypot(a[0][j] - b[0][j], a[1][j] - b[1][j], a[2][j] - b[2][j]));
  }
  return most;
}

/** What composing a node needs: its parent's index, frame and pose channels (cm, degrees). */
export type ComposedNode = Pick<
  SceneNode,
  "key" | "parent" | "orientation" | "rotation" | "rotationOrder" | "scale" | "generalScale" | "inheritsScale"
>;

/** A node drawn otherwise than DSON's composition, and how far off per unit of its size. */
export interface UnevenlyScaled {
  readonly node: number;
  /** The nearest ancestor with an uneven scale. */
  readonly scaledBy: number;
  readonly off: number;
}

/**
 * The nodes (first where the compositions part; their descendants follow them) whose world linear
 * part as the glTF hierarchy composes it (each node's `O·R·S·O⁻¹` after its parent's, `scales` the
 * scale each glTF node was given, `inheritsScale` undone as build_scene.ts does) differs from DSON's.
 * A node that does not inherit an uneven parent scale is left out: build_scene.ts names it already.
 *
 * @example
 * ```ts
 * for (const u of unevenlyScaled(dson.nodes, scales)) warn(`'${dson.nodes[u.node].key}' …`);
 * ```
 */
export function unevenlyScaled(
  nodes: readonly ComposedNode[],
  scales: readonly (readonly number[])[],
): UnevenlyScaled[] {
  const drawn: M3[] = [], rotations: M3[] = [], stretches: M3[] = [], own: M3[] = [];
  const parted: boolean[] = [];
  const out: UnevenlyScaled[] = [];
  // Parents first (a node may be listed before its parent): each node after the chain above it.
  const done = new Set<number>();
  for (let start = 0; start < nodes.length; start++) {
    const chain: number[] = [];
    for (let i = start; i >= 0 && !done.has(i) && !chain.includes(i); i = nodes[i].parent) chain.push(i);
    for (const i of chain.reverse()) {
      done.add(i);
      const node = nodes[i];
      const o = rotation(node.orientation, "XYZ"), back = transpose(o);
      const turn = mul(o, rotation(node.rotation, node.rotationOrder));
      const r = mul(turn, back);
      const s = mul(mul(o, diagonal(node.scale.map((v) => v * node.generalScale))), back);
      own[i] = s;
      const p = node.parent >= 0 && drawn[node.parent] ? node.parent : -1;
      drawn[i] = mul(p >= 0 ? drawn[p] : IDENTITY, mul(turn, mul(diagonal(scales[i]), back)));
      rotations[i] = p >= 0 ? mul(rotations[p], r) : r;
      const inherited = p < 0
        ? IDENTITY
        : node.inheritsScale
        ? stretches[p]
        : mul(stretches[p], inverse(own[p]));
      stretches[i] = mul(inherited, s);
      const off = apart(drawn[i], mul(rotations[i], stretches[i]));
      parted[i] = off > SAME;
      // Named once, where the compositions part; not inheriting an uneven scale is said where it is built.
      if (!parted[i] || (p >= 0 && parted[p]) || !node.inheritsScale) continue;
      let scaledBy = p;
      while (scaledBy >= 0 && even(nodes[scaledBy])) scaledBy = nodes[scaledBy].parent;
      out.push({ node: i, scaledBy, off });
    }
  }
  out.sort((a, b) => a.node - b.node);
  return out;
}

/** True when the node's own scale is the same on every axis. */
function even(node: ComposedNode): boolean {
  const [x, y, z] = node.scale;
  return x === y && y === z;
}

/** The inverse of a symmetric scale matrix (identity when it has none: a zero scale). */
function inverse(a: M3): M3 {
  const [[a0, a1, a2], [b0, b1, b2], [c0, c1, c2]] = a;
  const det = a0 * (b1 * c2 - b2 * c1) - a1 * (b0 * c2 - b2 * c0) + a2 * (b0 * c1 - b1 * c0);
  if (!det) return IDENTITY;
  return [
    [(b1 * c2 - b2 * c1) / det, (a2 * c1 - a1 * c2) / det, (a1 * b2 - a2 * b1) / det],
    [(b2 * c0 - b0 * c2) / det, (a0 * c2 - a2 * c0) / det, (a2 * b0 - a0 * b2) / det],
    [(b0 * c1 - b1 * c0) / det, (a1 * c0 - a0 * c1) / det, (a0 * b1 - a1 * b0) / det],
  ];
}

/**
 * One warning naming the nodes of {@link unevenlyScaled} (the first three, and how many more), each
 * with the uneven scale above it and how far off it is drawn.
 */
export function unevenScaleWarning(
  nodes: readonly ComposedNode[],
  uneven: readonly UnevenlyScaled[],
  who = "dson",
): string {
  const named = uneven.slice(0, 3).map(({ node, scaledBy, off }) => {
    const above = scaledBy >= 0 ? nodes[scaledBy] : undefined;
    const by = above
      ? `under '${above.key}' (scale ${above.scale.map((v) => +v.toFixed(4)).join(", ")})`
      : "under an uneven scale";
    return `'${nodes[node].key}' ${by}, up to ${+(off * 100).toPrecision(2)}% of its size off`;
  });
  const more = uneven.length > 3 ? ` and ${uneven.length - 3} more` : "";
  return `${who}: ${uneven.length} node(s) turned under an unevenly scaled parent cannot be drawn as Daz ` +
    "draws them: DSON composes world rotation and world scale apart (global_scale), so the parent's " +
    "stretch runs along the child's own turned axes; a glTF child takes it along its parent's axes, a " +
    `shear no glTF node holds. Drawn as glTF composes them (their descendants with them): ${
      named.join("; ")
    }${more}`;
}
