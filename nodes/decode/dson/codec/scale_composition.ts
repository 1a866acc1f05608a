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
  /** False for a node that does not inherit scale (`inherits_scale: false`). */
  readonly inherits: boolean;
}

/**
 * The nodes (first where the compositions part; their descendants follow them) whose world linear
 * part as the glTF hierarchy composes it (each node's `O·R·S·O⁻¹` after its parent's, `scales` the
 * scale each glTF node was given, `inheritsScale` undone as build_scene.ts and {@link fitUninherited}
 * do) differs from DSON's.
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
  const out: UnevenlyScaled[] = [];
  const parted: boolean[] = [];
  compose(nodes, (i, p, m) => {
    const node = nodes[i];
    const off = apart(m.drawn(scales[i]), m.target);
    parted[i] = off > SAME;
    // Named once, where the compositions part (a node that does not inherit scale too: its nearest
    // scale is fitted by fitUninherited, and what is left is a shear).
    if (!parted[i] || (p >= 0 && parted[p])) return scales[i];
    let scaledBy = p;
    while (scaledBy >= 0 && even(nodes[scaledBy])) scaledBy = nodes[scaledBy].parent;
    out.push({ node: i, scaledBy, off, inherits: node.inheritsScale });
    return scales[i];
  });
  out.sort((a, b) => a.node - b.node);
  return out;
}

/** What {@link fitUninherited} gives: every node's glTF scale, and the factors it fitted. */
export interface FittedScales {
  readonly scales: [number, number, number][];
  /** Per fitted node: the factor its glTF scale carries beyond its own (DSON) scale, per axis. */
  readonly factors: Map<number, [number, number, number]>;
}

/**
 * The glTF scale of each node that does not inherit scale (`inherits_scale: false`) and sits under an
 * uneven scale (its parent's own, or the chain's above): Daz leaves out the parent's own scale and
 * stretches the node by the chain's world scale along its own turned axes; a glTF child takes its
 * parent's whole matrix. Each axis of the node's scale is the one that brings that axis of its glTF
 * world matrix nearest to Daz's (least squares, its turn kept): exact when the turn keeps the uneven
 * axes (an unposed bone in its parent's frame, or turned by right angles), else the nearest, and
 * {@link unevenlyScaled} names what is left. A node that inherits scale, turned across an uneven
 * stretch above it, takes the same fit only where it is exact (turned by right angles so that the
 * stretch's axes map onto its own; decode.dson v69), and is otherwise drawn as glTF composes it and
 * named. Other nodes keep `scales` (as built); so do those for which `refit` is false.
 *
 * @example
 * ```ts
 * const { scales: fitted, factors } = fitUninherited(dson.nodes, scales);
 * ```
 */
export function fitUninherited(
  nodes: readonly ComposedNode[],
  scales: readonly (readonly number[])[],
  refit: (node: number) => boolean = () => true,
): FittedScales {
  const out = scales.map((s) => [s[0], s[1], s[2]] as [number, number, number]);
  const factors = new Map<number, [number, number, number]>();
  compose(nodes, (i, p, m) => {
    const node = nodes[i];
    if (p < 0 || !refit(i) || !m.unevenAbove) return out[i];
    // A node that inherits scale is drawn right as glTF composes it unless turned across the stretch.
    if (node.inheritsScale && apart(m.drawn(out[i]), m.target) <= SAME) return out[i];
    // Column j of the glTF world (its turn kept) against Daz's: drawn·O·R·e_j·s_j ≈ target·O·e_j.
    const a = mul(m.drawnOf(p), m.turn), b = mul(m.target, m.orientation);
    const factor = [0, 1, 2].map((j) => {
      const aa = a[0][j] * a[0][j] + a[1][j] * a[1][j] + a[2][j] * a[2][j];
      const ab = a[0][j] * b[0][j] + a[1][j] * b[1][j] + a[2][j] * b[2][j];
      return aa > 0 ? ab / aa : 1;
    }) as [number, number, number];
    // One that inherits takes the fit only where it is exact (turned by right angles across the
    // stretch, decode.dson v69); elsewhere it stays as composed and is named (v67): a nearest scale
    // would move a node drawn as every glTF reader composes it for no exact gain.
    if (node.inheritsScale && apart(m.drawn(factor), m.target) > SAME) return out[i];
    // Recorded apart from the node's own scale, which a preset reads back and may change.
    const own = node.scale.map((v) => v * node.generalScale);
    const ownFactor = factor.map((f, j) => (own[j] !== 0 ? f / own[j] : 1)) as [number, number, number];
    factors.set(i, ownFactor);
    out[i] = factor;
    return out[i];
  });
  return { scales: out, factors };
}

/** One node's matrices as {@link compose} hands them over. */
interface Composed {
  /** The node's `O·R`, its glTF turn in its own frame. */
  readonly turn: M3;
  /** The node's `O`. */
  readonly orientation: M3;
  /** DSON's world linear part of the node (its rotation after its scale, both world). */
  readonly target: M3;
  /** The glTF world linear part of the node, given the scale its glTF node takes. */
  drawn(scale: readonly number[]): M3;
  /** A node's glTF world linear part (composed already: a parent). */
  drawnOf(node: number): M3;
  /**
   * True when the DSON scale above the node is uneven: its parent's own, or what it inherits (by the
   * written scales: their matrices carry the float32 turns' rounding).
   */
  readonly unevenAbove: boolean;
}

/**
 * Walks the nodes parents first (a node may be listed before its parent), composing each node's DSON
 * world linear part and, with the scale `visit` returns for it, its glTF one. Each node's glTF part is
 * `O·R·S·O⁻¹` after its parent's, the same frame as DSON's (the rest frames cancel).
 */
function compose(
  nodes: readonly ComposedNode[],
  visit: (node: number, parent: number, m: Composed) => readonly number[],
): void {
  const drawn: M3[] = [], rotations: M3[] = [], stretches: M3[] = [], own: M3[] = [];
  // Whether what a node inherits, and its world scale, stretch one way more than another.
  const unevenInherited: boolean[] = [], unevenStretch: boolean[] = [];
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
      own[i] = mul(mul(o, diagonal(node.scale.map((v) => v * node.generalScale))), back);
      const p = node.parent >= 0 && drawn[node.parent] ? node.parent : -1;
      rotations[i] = p >= 0 ? mul(rotations[p], r) : r;
      const inherited = p < 0
        ? IDENTITY
        : node.inheritsScale
        ? stretches[p]
        : mul(stretches[p], inverse(own[p]));
      stretches[i] = mul(inherited, own[i]);
      // Not inheriting drops the parent's own scale from its world scale: what the parent inherited.
      unevenInherited[i] = p >= 0 && (node.inheritsScale ? unevenStretch[p] : unevenInherited[p]);
      unevenStretch[i] = unevenInherited[i] || !even(node);
      const target = mul(rotations[i], stretches[i]);
      const glTF = (scale: readonly number[]) =>
        mul(p >= 0 ? drawn[p] : IDENTITY, mul(turn, mul(diagonal(scale), back)));
      const scale = visit(i, p, {
        turn,
        orientation: o,
        target,
        drawn: glTF,
        drawnOf: (n) => drawn[n],
        unevenAbove: p >= 0 && (unevenInherited[i] || !even(nodes[p])),
      });
      drawn[i] = glTF(scale);
    }
  }
}

/**
 * True when the node's own scale is the same on every axis, to a part in 10⁸: Daz writes scales to 6
 * decimals, and a scale read back from a glTF node over its fit (`dsonScales`) carries rounding.
 */
function even(node: ComposedNode): boolean {
  const [x, y, z] = node.scale;
  const tiny = 1e-8 * Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  return Math.abs(x - y) <= tiny && Math.abs(y - z) <= tiny;
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
 * The warnings naming the nodes of {@link unevenlyScaled} (the first three, and how many more), each
 * with the uneven scale above it and how far off it is drawn: one for nodes that inherit scale, one
 * for nodes that do not (drawn with {@link fitUninherited}'s nearest scale).
 *
 * @example
 * ```ts
 * for (const message of unevenScaleWarnings(dson.nodes, uneven)) warn(message);
 * ```
 */
export function unevenScaleWarnings(
  nodes: readonly ComposedNode[],
  uneven: readonly UnevenlyScaled[],
  who = "dson",
): string[] {
  const out: string[] = [];
  const inheriting = uneven.filter((u) => u.inherits), not = uneven.filter((u) => !u.inherits);
  if (inheriting.length) {
    out.push(
      `${who}: ${inheriting.length} node(s) turned under an unevenly scaled parent cannot be drawn as Daz ` +
        "draws them: DSON composes world rotation and world scale apart (global_scale), so the parent's " +
        "stretch runs along the child's own turned axes; a glTF child takes it along its parent's axes, a " +
        `shear no glTF node holds. Drawn as glTF composes them (their descendants with them): ${
          named(nodes, inheriting)
        }`,
    );
  }
  if (not.length) {
    out.push(
      `${who}: ${not.length} node(s) that do not inherit scale (inherits_scale: false), turned under an ` +
        "unevenly scaled parent or chain, cannot be drawn as Daz draws them: Daz leaves out the parent's " +
        "own scale and stretches the node by the chain's world scale along its own turned axes; a glTF " +
        "child takes its parent's whole matrix, and undoing the stretch across its turn is a shear no glTF " +
        `node holds. Drawn with the nearest scale (their descendants with them): ${named(nodes, not)}`,
    );
  }
  return out;
}

/** The first three of `uneven` named with what scales them and how far off, and how many more. */
function named(nodes: readonly ComposedNode[], uneven: readonly UnevenlyScaled[]): string {
  const first = uneven.slice(0, 3).map(({ node, scaledBy, off }) => {
    const above = scaledBy >= 0 ? nodes[scaledBy] : undefined;
    const by = above
      ? `under '${above.key}' (scale ${above.scale.map((v) => +v.toFixed(4)).join(", ")})`
      : "under an uneven scale";
    return `'${nodes[node].key}' ${by}, up to ${+(off * 100).toPrecision(2)}% of its size off`;
  });
  return first.join("; ") + (uneven.length > 3 ? ` and ${uneven.length - 3} more` : "");
}
