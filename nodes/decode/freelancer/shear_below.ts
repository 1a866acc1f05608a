/**
 * What lies below a part whose `Cons` matrix is sheared (a hand edit's wrong-signed sine, a pasted
 * column). The game draws the nine floats as a matrix as stored, `W_child = W_parent·T(t)·R`, so the
 * shear carries on to every part, pivot and hardpoint below it; a glTF node holds translation, rotation
 * and scale only. The part node keeps the nearest rotation and scale Q·S of its matrix M, which leaves
 * `K = (Q·S)⁻¹·M` undone for everything in its frame. Each node below is placed where the stored
 * matrices put it (its translation t becomes K·t, exactly) and turned to the closest frame a node can
 * hold: a part or hardpoint takes the nearest rotation and scale of `K·R·S`, a pivot the turn that keeps
 * its axis where the game turns about it (K·axis), a slide's limits stretched by |K·axis| so it spans
 * what the game's does; what is still undone passes on to its children. Only the meshes lose the shear
 * (named in the part's warning).
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../runtime/scene/extras.ts";
import type { ConstraintRecord } from "./codec/constraints.ts";
import { readRotation } from "./codec/rotation.ts";
import { conjugate, multiply, type Quat, rotate, xOnto } from "./codec/transform.ts";

/** A part placed by a sheared matrix, as `restRotation` left it. */
export interface ShearedPart {
  readonly record: ConstraintRecord;
  readonly part: string;
  readonly node: Node;
  /** Rows of `K = (Q·S)⁻¹·M`: what the node's rotation and scale leave undone of the stored matrix. */
  readonly residual: readonly number[];
  /** The warning's start: `Fix constraint of part 'X' (byte N): rotation is …, not a rotation; drawn …`. */
  readonly said: string;
  /**
   * A rotation to within `rotation.ts`'s tolerance, off only by more than f32 noise (FLModelTool's
   * three-decimal rows): what lies below is placed by the stored matrix, without a warning.
   */
  readonly quiet?: boolean;
}

/** A pivot's new rest transform, for the joint's pose and animation. */
export interface MovedPivot {
  readonly rotation: Quat;
  readonly translation: number[];
  /**
   * How much farther the game slides per unit along the pivot's axis than the pivot's frame does
   * (`|K·axis|`): a slide's limits and keys are stretched by it, so it spans what the game's does.
   */
  readonly slide: number;
}

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/**
 * Places everything below each sheared part where the stored matrices put it, and warns once per
 * sheared part naming it and what was placed. Returns the pivots whose rest transform moved.
 */
export function placeBelowShears(sheared: readonly ShearedPart[], warn: WarningSink): Map<Node, MovedPivot> {
  const residual = new Map(sheared.map((s) => [s.node, s.residual]));
  const moved = new Map<Node, MovedPivot>();
  for (const s of sheared) {
    // A sheared part below another is placed by the walk from the topmost, its own residual included.
    if (ancestors(s.node).some((a) => residual.has(a))) continue;
    for (const child of s.node.listChildren()) carry(child, s.residual, residual, moved);
  }
  for (const s of sheared) {
    if (s.quiet) continue;
    const below = count(s.node);
    const placed = below.hardpoints + below.parts
      ? `; the ${
        [
          below.parts ? `${below.parts} part(s)` : "",
          below.hardpoints ? `${below.hardpoints} hardpoint(s)` : "",
        ].filter(Boolean).join(" and ")
      } below it are placed where the stored matrices put them, each turned to the closest frame a node holds`
      : "";
    warn(
      `${s.said}; the shear is lost on its mesh (glTF nodes hold translation, rotation and scale only)${placed}`,
    );
  }
  return moved;
}

/** Applies the undone `k` (rows) to `node`'s frame and passes on what it cannot hold. */
function carry(
  node: Node,
  k: readonly number[],
  residual: ReadonlyMap<Node, readonly number[]>,
  moved: Map<Node, MovedPivot>,
): void {
  const kind = kindOf(node);
  // A part's own LOD, wireframe and camera nodes draw the part: its shear is lost on them as on its mesh.
  if (!kind) return;
  const t = apply(k, node.getTranslation());
  const r = node.getRotation() as Quat, s = node.getScale();
  // The frame the game gives the node, in its parent's: K·R·S, and a sheared part's own residual after.
  const d = mulRows(k, mulRows(mulRows(quatRows(r), diag(s)), residual.get(node) ?? IDENTITY));
  let rotation: Quat, scale: [number, number, number];
  if (kind === "pivot") {
    // The smallest turn taking the pivot's axis onto K·axis: it turns about the axis the game turns about.
    const axis = rotate(r, [1, 0, 0]);
    const along = apply(k, axis);
    rotation = multiply(turnBetween(axis, along), r);
    scale = [s[0], s[1], s[2]];
    node.setTranslation(t as [number, number, number]).setRotation(rotation);
    const extras = node.getExtras() as { ctrl_type?: string; min?: number; max?: number };
    const slide = extras.ctrl_type === "translation" ? Math.hypot(along[0], along[1], along[2]) : 1;
    moved.set(node, { rotation, translation: t, slide });
    const part = getPartgraphExtras(node).part as Record<string, unknown> | undefined;
    const axisInParent = rotate(rotation, [1, 0, 0]).map((c) => Math.round(c * 1e9) / 1e9 || 0);
    const stretched = (v: unknown) => typeof v === "number" ? v * slide : v;
    if (slide !== 1) node.setExtras({ ...extras, min: stretched(extras.min), max: stretched(extras.max) });
    if (part) {
      const limits = slide !== 1 ? { min: stretched(part.min), max: stretched(part.max) } : {};
      setPartgraphExtras(node, { part: { ...part, ...limits, axis_in_parent: axisInParent } as never });
    }
  } else {
    ({ rotation, scale } = readRotation(d));
    node.setTranslation(t as [number, number, number]).setRotation(rotation).setScale(scale);
  }
  // Undone still: (R'·S')⁻¹·D.
  const next = mulRows(mulRows(diag(scale.map((v) => 1 / v)), transpose(quatRows(rotation))), d);
  for (const child of node.listChildren()) carry(child, next, residual, moved);
}

/** Hardpoints, pivots and parts are placed; other nodes draw their part. */
function kindOf(node: Node): "hardpoint" | "pivot" | "part" | undefined {
  if ((node.getExtras() as { hardpoint?: boolean }).hardpoint) return "hardpoint";
  const extras = getPartgraphExtras(node);
  if (extras.part) return "pivot";
  return extras.freelancer ? "part" : undefined;
}

function count(node: Node): { hardpoints: number; parts: number } {
  const out = { hardpoints: 0, parts: 0 };
  const walk = (n: Node) => {
    for (const child of n.listChildren()) {
      const kind = kindOf(child);
      if (kind === "hardpoint") out.hardpoints++;
      if (kind === "part") out.parts++;
      if (kind) walk(child);
    }
  };
  walk(node);
  return out;
}

function ancestors(node: Node): Node[] {
  const out: Node[] = [];
  for (let n = node.getParentNode(); n; n = n.getParentNode()) out.push(n);
  return out;
}

/** The smallest turn taking direction `from` onto direction `to` (identity when either is degenerate). */
function turnBetween(from: readonly number[], to: readonly number[]): Quat {
  const a = xOnto(from), b = xOnto(to);
  return multiply(b, conjugate(a));
}

/** Rows of the rotation of a unit quaternion. */
function quatRows(q: readonly number[]): number[] {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  ];
}

function diag(s: readonly number[]): number[] {
  return [s[0], 0, 0, 0, s[1], 0, 0, 0, s[2]];
}

function transpose(m: readonly number[]): number[] {
  return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];
}

function mulRows(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array(9).fill(0);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) for (let i = 0; i < 3; i++) out[3 * r + c] += a[3 * r + i] * b[3 * i + c];
  }
  return out;
}

function apply(m: readonly number[], p: readonly number[]): number[] {
  return [0, 1, 2].map((i) => m[3 * i] * p[0] + m[3 * i + 1] * p[1] + m[3 * i + 2] * p[2]);
}
