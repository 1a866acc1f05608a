/**
 * A compound's animation scripts as glTF animations, one per script (named after it), on the
 * pivots `constraints.resolve` built: a revolute joint's angle θ turns its `<part>_joint` pivot
 * (rest · about-X(θ), which is Freelancer's `T(t)·Q(axis, θ)·R`), a prismatic joint's offset d
 * slides it (`t + axis·d`), and a sphere joint's rotation q is its `<part>_joint_x` pivot's rotation
 * (`T(t)·q·R`: the other two pivots rest as the identity they compose to). Keys are linear, as in
 * the game; values are not clamped to the joint's limits (retail scripts exceed them).
 *
 * Without pivots (`pivots: false`) the part node is the pivot: its keys are the turn composed on the
 * left of its rest rotation, `Q(axis, θ)·R`, the keys LancerEdit's importer reads back as a Rev map.
 *
 * What the game's data does not settle is left out with a warning naming the script and the map:
 * loose joints and object maps (their composition is not established), cylinder joints (the format
 * has no two-float channel), fixed joints, and maps whose data does not fit their joint.
 *
 * @module
 */
import type { Animation, Document, Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../runtime/node.ts";
import type { AnimationMapRecord, AnimationScriptRecord } from "./codec/animation.ts";
import type { ConstraintRecord } from "./codec/constraints.ts";
import { aboutX, multiply, type Quat, rotate } from "./codec/transform.ts";
import { hasDirection, slideLength } from "./joint_checks.ts";
import type { ResolvedJoint } from "./resolver_run.ts";

/** Adds one glTF animation per script that drives any joint of `joints`. */
export function animateJoints(
  doc: Document,
  scripts: readonly AnimationScriptRecord[],
  records: readonly ConstraintRecord[],
  joints: readonly ResolvedJoint[],
  warn: WarningSink,
): void {
  const key = (parent: string, child: string) => `${parent.toLowerCase()}\0${child.toLowerCase()}`;
  const recordOf = new Map(records.map((r) => [key(r.parent, r.child), r]));
  const jointOf = new Map(joints.map((j) => [j.part.toLowerCase(), j]));
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  for (const script of scripts) {
    const planned: { record: ConstraintRecord; map: AnimationMapRecord; channel: Channel }[] = [];
    // Maps of parts no joint joins (a mod removed the bay doors, kept their animation): one warning per
    // script naming them all, not one per map (a capital ship's script has dozens).
    const unjoined: AnimationMapRecord[] = [];
    for (const map of script.maps) {
      const skip = (why: string) =>
        warn(`animation '${script.name}', map of '${map.child ?? map.parent}': ${why}`);
      if (map.map === "object") {
        skip("object maps (the root's own motion) are not converted: how they compose is not established");
        continue;
      }
      const record = recordOf.get(key(map.parent, map.child!));
      if (!record) {
        unjoined.push(map);
        continue;
      }
      const joint = jointOf.get(record.child.toLowerCase());
      const channel = joint && channelOf(record, joint, map);
      if (typeof channel === "string" || !channel) {
        skip(channel ?? `a ${record.kind} joint cannot be animated`);
        continue;
      }
      planned.push({ record, map, channel });
    }
    if (unjoined.length === 1) {
      const [map] = unjoined;
      warn(
        `animation '${script.name}', map of '${map.child}': no joint joins '${map.parent}' to '${map.child}'`,
      );
    } else if (unjoined.length) {
      const pairs = unjoined.map((m) => `'${m.parent}' to '${m.child}'`);
      const named = pairs.slice(0, 8).join(", ") + (pairs.length > 8 ? ` and ${pairs.length - 8} more` : "");
      warn(
        `animation '${script.name}': ${unjoined.length} maps drive parts no joint joins (${named}); ` +
          "they are skipped, the script's other maps play",
      );
    }
    // A script holds one map per part; where it holds more, the game applies them in order, so the
    // last one's value is what shows (and glTF allows one channel per node and path).
    const last = new Map<Node, Map<string, number>>();
    planned.forEach(({ channel }, i) => {
      const paths = last.get(channel.node) ?? new Map<string, number>();
      last.set(channel.node, paths.set(channel.path, i));
    });
    let animation: Animation | undefined;
    planned.forEach(({ record, map, channel }, i) => {
      if (last.get(channel.node)!.get(channel.path) !== i) {
        warn(
          `animation '${script.name}', map of '${map.child}': a later map of the script drives the same ` +
            "joint, and the game applies maps in order; this one is skipped",
        );
        return;
      }
      animation ??= doc.createAnimation(script.name);
      const sampler = doc.createAnimationSampler()
        .setInterpolation("LINEAR")
        .setInput(
          doc.createAccessor(`${script.name}.${record.child}.time`, buffer).setType("SCALAR")
            .setArray(new Float32Array(map.times)),
        )
        .setOutput(
          doc.createAccessor(`${script.name}.${record.child}.${channel.path}`, buffer)
            .setType(channel.path === "rotation" ? "VEC4" : "VEC3").setArray(channel.values),
        );
      animation.addSampler(sampler).addChannel(
        doc.createAnimationChannel().setTargetNode(channel.node).setTargetPath(channel.path).setSampler(
          sampler,
        ),
      );
    });
  }
}

/** What one map drives: a pivot's rotation or translation, and its output values. */
interface Channel {
  readonly node: Node;
  readonly path: "rotation" | "translation";
  readonly values: Float32Array<ArrayBuffer>;
}

/** The pivot, path and output values one map drives, or why it cannot. */
function channelOf(
  record: ConstraintRecord,
  joint: ResolvedJoint,
  map: AnimationMapRecord,
): Channel | string {
  const dof = joint.dofs[0];
  const count = map.times.length;
  // glTF wants strictly increasing times as stored (float32): keys closer than that merge.
  const times = Float32Array.from(map.times);
  if (times.some((t, i) => i > 0 && !(t > times[i - 1]))) {
    return "key times closer than a float32 tells apart";
  }
  const out = new Float32Array(count * (record.kind === "pris" ? 3 : 4));
  // A part that is its own pivot (no pivot nodes) keeps its rest rotation below the turn.
  const after = (q: Quat) => dof.after ? multiply(q, dof.after) : q;
  switch (record.kind) {
    case "rev":
    case "pris": {
      if (!map.values) {
        return `a ${record.kind} joint takes angle keys (type 0x01), found type 0x${map.type.toString(16)}`;
      }
      if (record.kind === "rev") {
        // An axis with no direction turns nothing in the game: the part stays at rest.
        const held = !hasDirection(record.axis);
        map.values.forEach((angle, i) =>
          out.set(after(multiply(dof.restRotation, aboutX(held ? 0 : angle))), i * 4)
        );
        return { node: dof.node, path: "rotation", values: out };
      }
      // Freelancer slides by axis·d: an axis longer than 1 slides farther.
      // (Below a sheared part, farther still: the shear stretches the axis, `dof.slideScale`.)
      const axis = rotate(dof.restRotation, [slideLength(record.axis) * (dof.slideScale ?? 1), 0, 0]);
      map.values.forEach((d, i) => out.set(dof.restTranslation.map((c, k) => c + axis[k] * d), i * 3));
      return { node: dof.node, path: "translation", values: out };
    }
    case "sphere": {
      if (!map.rotations || map.positions) {
        return `a sphere joint takes rotation keys alone, found type 0x${map.type.toString(16)}`;
      }
      for (let i = 0; i < count; i++) out.set(after(map.rotations.slice(i * 4, i * 4 + 4) as Quat), i * 4);
      return { node: dof.node, path: "rotation", values: out };
    }
    case "loose":
      return "loose joints are not converted: how their keys compose is not established";
    case "cyl":
      return "cylinder joints cannot be animated (the format has no channel of their two values)";
    default:
      return "a fixed joint cannot be animated";
  }
}
