/**
 * The Freelancer constraint resolver for `constraints.resolve`: builds the part tree from the `Cons`
 * records `decode.cmp` kept, and turns every movable joint into parts per the part contract — a
 * pivot node whose local +X is the joint axis (in the parent's frame), carrying `ctrl_type`, `axis`,
 * `unit`, `min`, `max`, `rest` and `extras.partgraph.part`. Rotating a pivot about its local X by θ
 * (or sliding along it) gives Freelancer's `T(t)·Q(axis, θ)·R` (or `T(t + axis·d)·R`).
 *
 * Pivots: Rev and Pris get `<part>_joint`; Cyl gets `<part>_joint` (turn) and `<part>_slide`; Sphere
 * and Loose get `<part>_joint_x`, `_joint_y`, `_joint_z` (turns about the parent's X, Y and Z, applied
 * in that order). Fix joints only place the part.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../runtime/node.ts";
import { extrasObject, getPartgraphExtras, isExtrasFlag } from "../../../runtime/scene/extras.ts";
import { sortedMerge } from "./codec/sorted_keys.ts";
import { mirroredRecords } from "./codec/reversed_limits.ts";
import { readCylLimits } from "./codec/cyl_limits.ts";
import type { ConstraintRecord } from "./codec/constraints.ts";
import type { AnimationScriptRecord } from "./codec/animation.ts";
import { animateJoints } from "./joint_animation.ts";
import { planHierarchy } from "./codec/hierarchy.ts";
import { aboutX, conjugate, degrees, multiply, type Quat, rotate, xOnto } from "./codec/transform.ts";
import { checkAxis, describeRecord, restRotation } from "./joint_checks.ts";
import { warnOffsets } from "./joint_offsets.ts";
import { placeBelowShears, type ShearedPart } from "./shear_below.ts";
import { lancerConstructExtras, partsAsPivots, warnNoPivots } from "./lancer_edit.ts";
import { fitForLancerEdit } from "./lancer_edit_fit.ts";

/** One degree of freedom of a resolved joint: a pivot node and how to drive it. */
export interface JointDof {
  readonly node: Node;
  readonly ctrl: "rotation" | "translation";
  /** Limits in degrees (rotation) or scene units (translation), min ≤ max. */
  readonly min: number;
  readonly max: number;
  readonly restRotation: Quat;
  readonly restTranslation: number[];
  /** A slide below a sheared part: scene units per unit the game slides, beyond the axis length (1). */
  readonly slideScale?: number;
  /** When the node is the part itself (no pivots): its rest rotation relative to the turn's frame. */
  readonly after?: Quat;
}

/** A resolved movable joint: the child part's name and its degrees of freedom, in pose order. */
export interface ResolvedJoint {
  readonly part: string;
  readonly kind: ConstraintRecord["kind"];
  readonly dofs: readonly JointDof[];
}

/** How to make one pivot node. */
interface PivotSpec {
  readonly ctrl: JointDof["ctrl"];
  /** Limits in degrees or units, in either order. */
  readonly min: number;
  readonly max: number;
  /** Rest transform relative to the parent. */
  readonly translation: number[];
  readonly rotation: Quat;
  /** Which degree of freedom this is (`rotation`, `translation`, `x`, `y`, `z`). */
  readonly dof: string;
}

/** Rotations taking +X onto +Y and onto +Z, for the three pivots of a ball joint. */
const X_ONTO_Y = xOnto([0, 1, 0]);
const X_ONTO_Z = xOnto([0, 0, 1]);
const IDENTITY: Quat = [0, 0, 0, 1];

/**
 * Resolves the joints of a decoded Freelancer scene in place and applies `pose`
 * (part or pivot name → degrees/units, arrays for multi-DOF joints).
 *
 * @example
 * ```ts
 * const joints = resolveFreelancerScene(copy, { Turret: 30 }, (m) => console.warn(m));
 * ```
 */
export function resolveFreelancerScene(
  doc: Document,
  pose: Readonly<Record<string, JsonValue>>,
  warn: WarningSink,
  pivots = true,
): ResolvedJoint[] {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return [];
  const sceneExtras = getPartgraphExtras(scene);
  if (isExtrasFlag(sceneExtras.resolved)) {
    warn("scene already resolved; constraints.resolve left it unchanged");
    return [];
  }
  const stored = Array.isArray(sceneExtras.constraints) ? sceneExtras.constraints : [];
  const records = stored.filter(isConstraintRecord);
  if (records.length !== stored.length) {
    warn(`${stored.length - records.length} malformed constraint record(s) in the scene extras ignored`);
  }
  const parts = new Map<string, Node>();
  for (const node of scene.listChildren()) {
    const info = getPartgraphExtras(node).freelancer as { object_name?: string } | undefined;
    if (info?.object_name !== undefined) parts.set(info.object_name.toLowerCase(), node);
  }
  const plan = planHierarchy([...parts.values()].map((n) => n.getName()), records, warn);
  let joints: ResolvedJoint[] = [];
  const mirrored = mirroredRecords(plan.joints);
  const sheared: ShearedPart[] = [];
  for (const record of plan.joints) {
    const parent = parts.get(record.parent.toLowerCase())!;
    const child = parts.get(record.child.toLowerCase())!;
    scene.removeChild(child);
    // LancerEdit's construct beside the part's partgraph, which gains its `constraint`: one new extras
    // object, keys in sorted order at every level as the written file has them, so the export writes
    // these very objects (`sorted_keys.ts`; was a copy of the extras, its partgraph and freelancer).
    const constraint = { at: record.at, kind: record.kind, parent: parent.getName() };
    child.setExtras(sortedMerge(extrasObject(child), {
      ...lancerConstructExtras(record),
      partgraph: sortedMerge(getPartgraphExtras(child), { constraint }),
    }));
    // Without pivots every part hangs where its record puts it at rest, as a Fix joint would (its axis
    // checked as its own kind's).
    if (!pivots) checkAxis(record, child.getName(), warn);
    const placed = pivots ? record : { ...record, kind: "fix" as const, axis: undefined };
    const joint = attach(doc, placed, parent, child, warn, sheared, mirrored.has(record));
    if (joint) joints.push(joint);
  }
  // Once every part hangs where it belongs: what is below a sheared part, placed as the game places it.
  const moved = placeBelowShears(sheared, warn);
  if (moved.size) {
    joints = joints.map((j) => ({
      ...j,
      dofs: j.dofs.map((d) => {
        const rest = moved.get(d.node);
        if (!rest) return d;
        const { slide } = rest;
        return {
          ...d,
          restRotation: rest.rotation,
          restTranslation: rest.translation,
          ...(slide !== 1 ? { min: d.min * slide, max: d.max * slide, slideScale: slide } : {}),
        };
      }),
    }));
  }
  warnOffsets(plan.joints, warn, pivots);
  // The scripts become glTF animations; their raw keys would only weigh the output down.
  const { animations, ...kept } = getPartgraphExtras(scene);
  // `resolved` among the others in sorted order (the export then keeps the object, as above).
  scene.setExtras({ ...scene.getExtras(), partgraph: sortedMerge(kept, { resolved: true }) });
  if (!pivots) {
    warnNoPivots(pose, warn);
    const selfJoints = partsAsPivots(plan.joints, parts);
    if (animations !== undefined) {
      if (isScriptList(animations)) animateJoints(doc, animations, plan.joints, selfJoints, warn);
      else warn("malformed animation scripts in the scene extras ignored");
    }
    fitForLancerEdit(doc, scene, plan.joints, parts, warn);
    return selfJoints;
  }
  applyPose(joints, plan.joints, pose, warn);
  if (animations !== undefined) {
    if (isScriptList(animations)) animateJoints(doc, animations, plan.joints, joints, warn);
    else warn("malformed animation scripts in the scene extras ignored");
  }
  return joints;
}

/** True for the shape `decode.cmp` stores its animation scripts in (scenes may come from edited files). */
function isScriptList(value: JsonValue): value is JsonValue & AnimationScriptRecord[] {
  const numbers = (v: JsonValue | undefined, per: number, count: number) =>
    Array.isArray(v) && v.length === per * count &&
    v.every((x) => typeof x === "number" && Number.isFinite(x));
  return Array.isArray(value) && value.every((script) => {
    const s = script as Record<string, JsonValue> | null;
    return s && typeof s === "object" && typeof s.name === "string" && Array.isArray(s.maps) &&
      s.maps.every((entry) => {
        const m = entry as Record<string, JsonValue> | null;
        if (!m || typeof m !== "object" || !Array.isArray(m.times)) return false;
        const count = m.times.length;
        return (m.map === "joint" || m.map === "object") && typeof m.parent === "string" &&
          (m.map === "object" || typeof m.child === "string") && typeof m.type === "number" &&
          count > 0 && numbers(m.times, 1, count) &&
          (m.values === undefined || numbers(m.values, 1, count)) &&
          (m.positions === undefined || numbers(m.positions, 3, count)) &&
          (m.rotations === undefined || numbers(m.rotations, 4, count));
      });
  });
}

/** True for a record shaped like {@link ConstraintRecord} (scenes may come from edited files). */
function isConstraintRecord(value: JsonValue): value is JsonValue & ConstraintRecord {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const r = value as Record<string, JsonValue>;
  const numbers = (v: JsonValue | undefined, n: number) =>
    Array.isArray(v) && v.length === n && v.every((x) => typeof x === "number" && Number.isFinite(x));
  const needsAxis = r.kind === "rev" || r.kind === "pris" || r.kind === "cyl";
  return typeof r.parent === "string" && typeof r.child === "string" && typeof r.at === "number" &&
    ["fix", "rev", "pris", "cyl", "sphere", "loose"].includes(r.kind as string) &&
    numbers(r.translation, 3) && numbers(r.rotation, 9) && (!needsAxis || numbers(r.axis, 3)) &&
    (r.kind !== "cyl" || numbers(r.limits, 4)) && (r.kind !== "sphere" || numbers(r.limits, 6)) &&
    [undefined, "turn_first", "slide_first"].includes(r.limit_order as string | undefined) &&
    (!(r.kind === "rev" || r.kind === "pris") || (typeof r.min === "number" && typeof r.max === "number"));
}

/** Places `child` under `parent` for one record, inserting pivot nodes for movable joints. */
function attach(
  doc: Document,
  record: ConstraintRecord,
  parent: Node,
  child: Node,
  warn: WarningSink,
  sheared: ShearedPart[],
  mirrored = false,
): ResolvedJoint | undefined {
  const t = record.translation;
  const name = child.getName();
  const r = restRotation(record, name, child, warn, sheared);
  const axisLength = checkAxis(record, name, warn);
  const dofs: JointDof[] = [];
  const pivot = (suffix: string, spec: PivotSpec) => {
    const { ctrl, translation, rotation } = spec;
    const node = doc.createNode(`${name}_${suffix}`)
      .setTranslation(translation as [number, number, number])
      .setRotation(rotation);
    const min = Math.min(spec.min, spec.max), max = Math.max(spec.min, spec.max);
    if (spec.min > spec.max && !mirrored) {
      // Retail stores min ≤ max; a reversed pair (a hand edit) is read as the range between them. A
      // mirrored copy of another record (its limits negated, not swapped) is read so without a word.
      const u = ctrl === "rotation" ? "°" : "";
      warn(
        `${describeRecord(record, name)}: ${spec.dof} limits stored as min ${spec.min}${u} > max ` +
          `${spec.max}${u}; read as ${min}${u}..${max}${u}`,
      );
    }
    const unit = ctrl === "rotation" ? "deg" : "m";
    // No `group`: the part contract means by it parts that move together (left and right ailerons),
    // and Freelancer has no such thing; a reader driving a group by one value would turn a Sphere's
    // three axes (or a Cyl's turn and slide) as one. The joint a pivot belongs to is `part.joint`.
    const axisInParent = rotate(rotation, [1, 0, 0]).map((c) => Math.round(c * 1e9) / 1e9 || 0);
    // A new node's extras, made with their keys in sorted order (the written file's): the export then
    // writes these very objects instead of sorted copies of them (three per pivot).
    node.setExtras({
      axis: "X",
      ctrl_type: ctrl,
      max,
      min,
      partgraph: {
        part: {
          axis_in_parent: axisInParent,
          ctrl_type: ctrl,
          dof: spec.dof,
          found_by: "constraint",
          joint: name,
          kind: record.kind,
          max,
          min,
          parent: parent.getName(),
          rest: 0,
          unit,
        },
      },
      rest: 0,
      unit,
    });
    dofs.push({ node, ctrl, min, max, restRotation: rotation, restTranslation: [...translation] });
    return node;
  };
  switch (record.kind) {
    case "fix":
      parent.addChild(child.setTranslation(t as [number, number, number]).setRotation(r));
      return undefined;
    case "rev":
    case "pris": {
      const a = xOnto(record.axis!);
      const rotation = record.kind === "rev";
      // Freelancer slides by axis·d, so a longer axis slides farther: the limits in units follow it. An
      // axis with no direction (length 0) moves nothing: limits 0..0.
      const [min, max] = axisLength === 0
        ? [0, 0]
        : rotation
        ? [degrees(record.min!), degrees(record.max!)]
        : [record.min! * axisLength, record.max! * axisLength];
      const p = pivot("joint", {
        ctrl: rotation ? "rotation" : "translation",
        min,
        max,
        translation: t,
        rotation: a,
        dof: rotation ? "rotation" : "translation",
      });
      parent.addChild(p);
      p.addChild(child.setTranslation([0, 0, 0]).setRotation(multiply(conjugate(a), r)));
      break;
    }
    case "cyl": {
      const a = xOnto(record.axis!);
      // decode.cmp decided the order over the file's Cyl records (and named the part when in doubt).
      const read = readCylLimits(record.limits!, record.limit_order);
      // An axis with no direction neither turns nor slides the part: limits 0..0.
      // (Its slide, like a Pris one, goes axis·d: the limits in units follow a longer axis.)
      const [[r0, r1], [s0, s1]] = axisLength === 0
        ? [[0, 0], [0, 0]]
        : [read.turn, read.slide.map((v) => v * axisLength)];
      const turn = pivot("joint", {
        ctrl: "rotation",
        min: degrees(r0),
        max: degrees(r1),
        translation: t,
        rotation: a,
        dof: "rotation",
      });
      const slide = pivot("slide", {
        ctrl: "translation",
        min: s0,
        max: s1,
        translation: [0, 0, 0],
        rotation: IDENTITY,
        dof: "translation",
      });
      parent.addChild(turn);
      turn.addChild(slide);
      slide.addChild(child.setTranslation([0, 0, 0]).setRotation(multiply(conjugate(a), r)));
      break;
    }
    case "sphere":
    case "loose": {
      // Loose joints are free; expose their three turns with full-circle limits.
      const limits = record.kind === "sphere"
        ? record.limits!.map(degrees)
        : [-180, 180, -180, 180, -180, 180];
      const turn = (axis: "x" | "y" | "z", at: number, translation: number[], rotation: Quat) =>
        pivot(`joint_${axis}`, {
          ctrl: "rotation",
          min: limits[at],
          max: limits[at + 1],
          translation,
          rotation,
          dof: axis,
        });
      const x = turn("x", 0, t, IDENTITY);
      const y = turn("y", 2, [0, 0, 0], X_ONTO_Y);
      const z = turn("z", 4, [0, 0, 0], multiply(conjugate(X_ONTO_Y), X_ONTO_Z));
      parent.addChild(x);
      x.addChild(y);
      y.addChild(z);
      z.addChild(child.setTranslation([0, 0, 0]).setRotation(multiply(conjugate(X_ONTO_Z), r)));
      break;
    }
  }
  return { part: name, kind: record.kind, dofs };
}

/** Sets joint values from `pose`, clamped to limits; unknown names and fixed joints are warned about. */
function applyPose(
  joints: readonly ResolvedJoint[],
  records: readonly ConstraintRecord[],
  pose: Readonly<Record<string, JsonValue>>,
  warn: WarningSink,
): void {
  const byPart = new Map(joints.map((j) => [j.part.toLowerCase(), j]));
  const byPivot = new Map(
    joints.flatMap((j) => j.dofs.map((d) => [d.node.getName().toLowerCase(), d] as const)),
  );
  const fixed = new Set(records.filter((r) => r.kind === "fix").map((r) => r.child.toLowerCase()));
  for (const key of Object.keys(pose).sort()) {
    const value = pose[key];
    const lower = key.toLowerCase();
    const values = typeof value === "number" ? [value] : Array.isArray(value) ? value : undefined;
    if (!values || values.some((v) => typeof v !== "number" || !Number.isFinite(v))) {
      warn(`pose '${key}': expected a number or an array of numbers, got ${JSON.stringify(value)}`);
      continue;
    }
    const joint = byPart.get(lower);
    const dofs = joint ? joint.dofs : byPivot.has(lower) ? [byPivot.get(lower)!] : undefined;
    if (!dofs) {
      warn(
        fixed.has(lower)
          ? `pose '${key}': a Fix joint is not movable`
          : `pose '${key}': no joint of that name`,
      );
      continue;
    }
    if (values.length > dofs.length) {
      warn(`pose '${key}': ${values.length} values for ${dofs.length} degree(s) of freedom`);
    }
    dofs.forEach((dof, i) => {
      if (i >= values.length) return;
      const wanted = values[i] as number;
      const v = Math.min(dof.max, Math.max(dof.min, wanted));
      if (v !== wanted) warn(`pose '${key}': ${wanted} clamped to ${v} (limits ${dof.min}..${dof.max})`);
      if (dof.ctrl === "rotation") {
        dof.node.setRotation(multiply(dof.restRotation, aboutX(v * Math.PI / 180)));
      } else {
        const axis = rotate(dof.restRotation, [1, 0, 0]);
        dof.node.setTranslation(
          dof.restTranslation.map((c, k) => c + axis[k] * v) as [number, number, number],
        );
      }
    });
  }
}
