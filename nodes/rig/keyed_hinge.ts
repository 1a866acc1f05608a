/**
 * A panel's hinge as its own animation keys it. Flight Simulator aircraft animate every control
 * surface (the sim plays a clip to deflect it), and so do many showcase models: each key turns the
 * surface about the line its author hinged it on. That line is the author's own statement of the
 * hinge, exact where a fit to the geometry is an inference; a clip that is no turn about one line
 * (a Fowler flap running out along its tracks, a scale or a wobble) states no hinge.
 *
 * Every key of the node's rotation channels, with its translation at the same time in the same
 * clip, is a rigid motion from the rest pose in the parent's space, `x ↦ R(x − t₀) + t`. A hinge
 * with axis `a` through `p` is such a motion for every key with `R` about `a` and
 * `(I − R) p = t − R t₀`; the axis is the keys' common one, and `p` the least-squares solution over
 * all keys (the node's own origin when it only turns).
 *
 * @module
 */
import type { Accessor, AnimationChannel, AnimationSampler, Node } from "@gltf-transform/core";
import type { FitJudgement } from "./fit_confidence.ts";
import type { HingeFit } from "./hinge_fit.ts";
import {
  addScaled,
  cross,
  dot,
  length,
  linearDeterminant,
  type Mat4,
  normalize,
  type Quat,
  quatConjugate,
  quatMultiply,
  quatRotate,
  sub,
  transformDirection,
  transformPoint,
  type Vec3,
} from "./transform.ts";

/** The line a panel's animation turns it about, in world space. */
export interface KeyedHinge {
  /** A point on the hinge line. */
  readonly origin: Vec3;
  /** Unit direction of the hinge line. */
  readonly axis: Vec3;
  /** The clips that key it, by name (or `#index`). */
  readonly clips: readonly string[];
  /** Keys that turn it from rest. */
  readonly keys: number;
  /**
   * Least and greatest turn from rest about `axis` (world, right-hand rule), degrees (the rest, 0,
   * included): a turn keyed under a mirrored parent is the opposite one in the world.
   */
  readonly degrees: readonly [number, number];
  /** Largest distance of a key's motion from a turn about the line, in world units. */
  readonly residual: number;
}

/** What a panel's animation says about its hinge. */
export type KeyedHingeResult =
  | { readonly hinge: KeyedHinge }
  /** Keyed, but not a turn about one line: why, for the warning. */
  | { readonly notHinge: string };

/** A turn smaller than this (degrees) keys no axis. */
const LEAST_TURN = 0.5;
/** Keys whose axes stray further than this (degrees) from their mean turn about no single line. */
const AXIS_SPREAD = 1;

/**
 * The hinge `panel`'s animation keys: the rotation channels of the panel node, or of the one node
 * under it that is animated and holds all its meshes. Undefined when nothing turns it.
 */
export function keyedHinge(panel: Node): KeyedHingeResult | undefined {
  const animated = animatedNode(panel);
  if (!animated || "notHinge" in animated) return animated;
  const { node, channels } = animated;
  if (channels.some((c) => c.getTargetPath() === "scale" || c.getTargetPath() === "weights")) {
    return { notHinge: `its animation also scales or morphs '${node.getName()}'` };
  }
  const restRotation = node.getRotation() as Quat;
  const restTranslation = node.getTranslation() as Vec3;
  const undoRest = quatConjugate(restRotation);
  const motions: { turn: Quat; translation: Vec3 }[] = [];
  const clips = new Set<string>();
  for (const channel of channels) {
    if (channel.getTargetPath() !== "rotation") continue;
    const sampler = channel.getSampler();
    const times = sampler?.getInput()?.getArray();
    if (!sampler || !times) continue;
    const moves = channels.find((c) =>
      c.getTargetPath() === "translation" && sameClip(c, channel) && c.getSampler()?.getInput()
    );
    times.forEach((time, key) => {
      const rotation = normalizeQuat(keyValue(sampler, key, 4) as Quat);
      const translation = moves ? sampleAt(moves.getSampler()!, time) : restTranslation;
      motions.push({ turn: quatMultiply(rotation, undoRest), translation });
    });
    clips.add(clipName(channel));
  }
  const turning = motions
    .map((motion) => ({ ...motion, ...axisAngle(motion.turn) }))
    .filter(({ degrees }) => degrees > LEAST_TURN);
  if (!turning.length) return undefined;
  let mean: Vec3 = [0, 0, 0];
  for (const { axis } of turning) {
    const sign = dot(axis, turning[0].axis) < 0 ? -1 : 1;
    mean = [mean[0] + sign * axis[0], mean[1] + sign * axis[1], mean[2] + sign * axis[2]];
  }
  const axis = normalize(mean);
  const spread = Math.max(...turning.map((t) => degreesBetween(t.axis, axis)));
  if (spread > AXIS_SPREAD) {
    return {
      notHinge: `its animation turns '${node.getName()}' about axes up to ${
        spread.toFixed(1)
      }° off their mean`,
    };
  }
  // (I − R) p = t − R t₀ for every key, least squares; along the axis p stays at t₀'s height.
  const normal = outer(axis, axis);
  const rhs = scale(axis, dot(axis, restTranslation));
  const rows = turning.map(({ turn, translation }) => {
    const rotate = (v: Vec3) => quatRotate(turn, v);
    return {
      a: (v: Vec3) => sub(v, rotate(v)),
      b: sub(translation, rotate(restTranslation)),
    };
  });
  for (const { a, b } of rows) {
    // AᵀA and Aᵀb, column by column: A eₖ is column k of A.
    const columns = [[1, 0, 0], [0, 1, 0], [0, 0, 1]].map((e) => a(e as Vec3));
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) normal[i][j] += dot(columns[i], columns[j]);
      rhs[i] += dot(columns[i], b);
    }
  }
  const point = solve3(normal, rhs);
  if (!point) return { notHinge: `its animation's turns of '${node.getName()}' fix no line` };
  const parentWorld = node.getParentNode()?.getWorldMatrix();
  const toWorld = (p: Vec3) => parentWorld ? transformPoint(parentWorld, p) : p;
  // How far each key's motion of the line's point strays from the turn, in world units.
  const residual = Math.max(
    ...rows.map(({ a, b }) => {
      const miss = sub(a(point), b);
      return length(parentWorld ? transformDirection(parentWorld, miss) : miss);
    }),
  );
  const worldAxis = normalize(parentWorld ? transformDirection(parentWorld, axis) : axis);
  const mirrored = parentWorld ? linearDeterminant(parentWorld) < 0 : false;
  const signed = turning.map((t) => (dot(t.axis, axis) < 0 !== mirrored ? -t.degrees : t.degrees));
  return {
    hinge: {
      origin: toWorld(point),
      axis: worldAxis,
      clips: [...clips],
      keys: turning.length,
      degrees: [Math.min(0, ...signed), Math.max(0, ...signed)],
      residual,
    },
  };
}

/**
 * The node whose channels move `panel`: the panel itself when any channel targets it; else the one
 * animated node under it that holds every mesh under it; a clip moving several parts of it, or a
 * part and not the rest, keys no single hinge.
 */
function animatedNode(
  panel: Node,
): { node: Node; channels: AnimationChannel[] } | { notHinge: string } | undefined {
  const own = channelsOf(panel);
  if (own.length) return { node: panel, channels: own };
  const below: Node[] = [];
  const meshes: Node[] = [];
  const walk = (node: Node) => {
    for (const child of node.listChildren()) {
      if (channelsOf(child).length) below.push(child);
      if (child.getMesh()) meshes.push(child);
      walk(child);
    }
  };
  walk(panel);
  if (!below.length) return undefined;
  if (below.length > 1) {
    return { notHinge: `its animation moves ${below.length} nodes under it, not the panel as one` };
  }
  const [node] = below;
  const holds = (mesh: Node) => {
    for (let at: Node | null = mesh; at && at !== panel; at = at.getParentNode()) {
      if (at === node) return true;
    }
    return false;
  };
  if (panel.getMesh() || !meshes.every(holds)) {
    return { notHinge: `its animation moves '${node.getName()}', only part of it` };
  }
  return { node, channels: channelsOf(node) };
}

/** The animation channels targeting `node`. */
function channelsOf(node: Node): AnimationChannel[] {
  return node.listParents().filter((parent): parent is AnimationChannel =>
    parent.propertyType === "AnimationChannel" && (parent as AnimationChannel).getTargetNode() === node
  );
}

/** True when two channels belong to the same animation. */
function sameClip(a: AnimationChannel, b: AnimationChannel): boolean {
  const clipOf = (c: AnimationChannel) => c.listParents().find((p) => p.propertyType === "Animation");
  return clipOf(a) === clipOf(b);
}

function clipName(channel: AnimationChannel): string {
  const clip = channel.listParents().find((p) => p.propertyType === "Animation");
  return clip?.getName() || "unnamed";
}

/** Key `key`'s value (a cubic spline's middle element: the value between its tangents). */
function keyValue(sampler: AnimationSampler, key: number, size: number): number[] {
  const output = sampler.getOutput() as Accessor;
  const index = sampler.getInterpolation() === "CUBICSPLINE" ? 3 * key + 1 : key;
  return output.getElement(index, new Array(size).fill(0));
}

/** A translation channel's value at `time` (linear between keys; a step holds the one before). */
function sampleAt(sampler: AnimationSampler, time: number): Vec3 {
  const times = sampler.getInput()!.getArray()!;
  let after = 0;
  while (after < times.length && times[after] < time) after++;
  if (after < times.length && times[after] === time) return keyValue(sampler, after, 3) as Vec3;
  if (after === 0) return keyValue(sampler, 0, 3) as Vec3;
  if (after === times.length) return keyValue(sampler, times.length - 1, 3) as Vec3;
  const before = keyValue(sampler, after - 1, 3);
  if (sampler.getInterpolation() === "STEP") return before as Vec3;
  const next = keyValue(sampler, after, 3);
  const f = (time - times[after - 1]) / (times[after] - times[after - 1]);
  return [0, 1, 2].map((k) => before[k] + f * (next[k] - before[k])) as Vec3;
}

function normalizeQuat(q: Quat): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** A rotation's axis and angle (degrees, 0–180). */
function axisAngle(q: Quat): { axis: Vec3; degrees: number } {
  const [x, y, z, w] = q[3] < 0 ? q.map((v) => -v) : q;
  const half = Math.acos(Math.min(1, w));
  const s = Math.sin(half);
  return {
    axis: s > 1e-9 ? normalize([x / s, y / s, z / s]) : [1, 0, 0],
    degrees: (2 * half * 180) / Math.PI,
  };
}

function degreesBetween(a: Vec3, b: Vec3): number {
  return (Math.atan2(length(cross(a, b)), Math.abs(dot(a, b))) * 180) / Math.PI;
}

function outer(a: Vec3, b: Vec3): number[][] {
  return a.map((ai) => b.map((bj) => ai * bj));
}

function scale(a: Vec3, s: number): number[] {
  return a.map((v) => v * s);
}

/** The solution of a 3×3 system by Cramer's rule, or undefined when it is (nearly) singular. */
function solve3(m: number[][], b: number[]): Vec3 | undefined {
  const det = (c: number[][]) =>
    c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) -
    c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0]) +
    c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0]);
  const d = det(m);
  if (!(Math.abs(d) > 1e-12)) return undefined;
  const column = (k: number) => m.map((row, i) => row.map((v, j) => (j === k ? b[i] : v)));
  return [det(column(0)) / d, det(column(1)) / d, det(column(2)) / d];
}

/** Keys may stray from a turn about one line by this share of the panel's chord (float keys, rounding). */
const MAX_RESIDUAL = 0.05;
/** A keyed line further than this (degrees) from the span, or … */
const MAX_AXIS_DEGREES = 30;
/** … further than this share of the chord from the geometry's hinge, is no deflection of the surface. */
const MAX_OFFSET = 0.5;
/**
 * Within these (degrees, share of the chord) the keyed line and the geometry's confirm each other;
 * further apart, one of them is wrong and the shape alone cannot say which.
 */
const AGREE_DEGREES = 2;
const AGREE_OFFSET = 0.05;

/** The range of motion a panel's clips key: least and greatest turn about `axisWorld`, degrees. */
export interface KeyedRange {
  readonly degrees: readonly [number, number];
  /** The world axis the degrees turn about (right-hand rule). */
  readonly axisWorld: Vec3;
  readonly clips: readonly string[];
}

/** What {@link keyedFit} made of a panel's animation. */
export type KeyedFit =
  | {
    readonly fit: HingeFit;
    readonly judgement: FitJudgement;
    /** Set when the keyed line is used: why. */
    readonly why?: string;
    /** Set when the keyed line is used: the range its clips turn it through (see {@link KeyedRange}). */
    readonly range?: KeyedRange;
  }
  | { readonly warning: string };

/**
 * The panel's fit as its own animation bears on it, given `fit` and `judged`, its geometry's (in
 * aircraft frame `toAircraft`). Where the line the clip turns it about agrees with the geometry's
 * hinge, the keyed line (through the point nearest the geometry's at mid-span) is the hinge, good,
 * whatever doubts the shape alone left: the author's exact line, confirmed by the shape. Where they
 * disagree the geometry's fit stands, weak, naming both — a clip keyed about the wrong point (the
 * surface's centre, say) and a fit gone wrong look alike, and only the user can tell — unless the
 * geometry gave no hinge (failed), when the keyed line is the better guess (weak). A clip that is no
 * turn about one line, or turns it about a line that is no deflection of it (across its span, or far
 * off its chord), is named in a warning and the geometry's fit stands as judged. Undefined when
 * nothing keys the panel.
 */
export function keyedFit(
  panel: Node,
  fit: HingeFit,
  judged: FitJudgement,
  toAircraft: Mat4,
): KeyedFit | undefined {
  const result = keyedHinge(panel);
  if (!result) return undefined;
  const standing = "its hinge is fitted to its geometry";
  if ("notHinge" in result) return { warning: `${result.notHinge}; ${standing}` };
  const { hinge } = result;
  const unit = length(transformDirection(toAircraft, [1, 0, 0]));
  const share = (distance: number) => Math.round((100 * distance) / fit.chord);
  if (!(hinge.residual * unit <= MAX_RESIDUAL * fit.chord)) {
    return {
      warning: `its animation moves it along a track, not about one line (keys up to ${
        share(hinge.residual * unit)
      } % of its chord off any); ${standing}`,
    };
  }
  const origin = transformPoint(toAircraft, hinge.origin);
  let axis = normalize(transformDirection(toAircraft, hinge.axis));
  if (dot(axis, fit.axis) < 0) axis = [-axis[0], -axis[1], -axis[2]];
  const degrees = degreesBetween(axis, fit.axis);
  const onLine = addScaled(origin, axis, dot(sub(fit.origin, origin), axis));
  const offset = length(sub(fit.origin, onLine));
  const clips = hinge.clips.map((clip) => `'${clip}'`).join(", ");
  const apart = `${degrees.toFixed(1)}° and ${share(offset)} % of its chord`;
  if (degrees > MAX_AXIS_DEGREES || offset > MAX_OFFSET * fit.chord) {
    return {
      warning: `its animation (${clips}) turns it about a line ${apart} from its fitted hinge, ` +
        `no deflection of it; ${standing}`,
    };
  }
  const why = `the line its own animation (${clips}, ${hinge.keys} keys) turns it about`;
  const range: KeyedRange = { degrees: hinge.degrees, axisWorld: hinge.axis, clips: hinge.clips };
  if (degrees <= AGREE_DEGREES && offset <= AGREE_OFFSET * fit.chord) {
    return {
      fit: { ...fit, origin: onLine, axis },
      judgement: { ...judged, confidence: "good", reasons: [] },
      why,
      range,
    };
  }
  if (judged.confidence === "failed") {
    const reason = `its geometry gave no hinge; its animation (${clips}) keys one ${apart} from that guess`;
    return {
      fit: { ...fit, origin: onLine, axis },
      judgement: { ...judged, confidence: "weak", reasons: [reason] },
      why,
      range,
    };
  }
  const reason = `its animation (${clips}) turns it about a line ${apart} from this fit`;
  return { fit, judgement: { ...judged, confidence: "weak", reasons: [...judged.reasons, reason] } };
}
