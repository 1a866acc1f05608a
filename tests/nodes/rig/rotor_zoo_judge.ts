/**
 * How the rig did on a `rotor_zoo.ts` aircraft: each part's shaft, centre and kind against the truth,
 * and which nodes it made spinning parts of.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { SpinningKind } from "../../../nodes/rig/spinning_names.ts";
import { axisErrorDegrees, distanceToLine } from "./fixtures.ts";
import type { RigResult } from "./pipeline.ts";
import type { ZooPart } from "./rotor_zoo.ts";

/** How the rig did on one part: wrong axis (> 2°), wrong centre (> 2 % of the radius off the shaft), wrong kind. */
export function judgeZoo(result: RigResult, truth: ZooPart) {
  if (truth.twoInOne) {
    const split = judgeSplit(result, truth);
    if (split) {
      const { confidence, problems, kind, part } = split;
      return { found: true as const, confidence, problems, degrees: 0, kind, part };
    }
  }
  const found = truth.members
    ? result.report.parts.find((p) => holdsAll(result, p.panel ?? p.name, truth.members!))
    : result.report.parts.find((p) => p.panel === truth.name || p.name === truth.name);
  if (!found || !found.hinge) return { found: false as const, confidence: "none", problems: ["not rigged"] };
  const mixed = truth.notWith?.filter((m) => holdsAll(result, found.panel ?? found.name, [m])) ?? [];
  const axis = found.hinge.world.axis;
  const degrees = axisErrorDegrees(axis, truth.axis);
  const offset = distanceToLine(truth.centre, found.hinge.world.origin, axis) / truth.radius;
  const problems: string[] = mixed.length ? [`holds another rotor's ${mixed.join(", ")}`] : [];
  if (degrees > 2) problems.push(`axis ${degrees.toFixed(1)}° off`);
  if (offset > 0.02) problems.push(`centre ${(offset * 100).toFixed(1)} % off`);
  if (!truth.kinds.includes(found.kind as SpinningKind)) problems.push(`kind ${found.kind}`);
  const confidence = (found.fit as { confidence?: string } | null)?.confidence ?? "none";
  const reasons = (found.fit as { reasons?: string[] } | null)?.reasons ?? [];
  if (truth.twoInOne && (confidence === "good" || !reasons.some((r) => /two rotors/.test(r)))) {
    problems.push("two counter-rotating rotors in one object, not said");
  }
  return { found: true as const, confidence, problems, degrees, kind: found.kind, part: found };
}

/** True when the node named `name` in the rigged scene holds (or is) every one of `members`. */
function holdsAll(result: RigResult, name: string, members: readonly string[]): boolean {
  const node = result.scene.getRoot().listNodes().find((n) => n.getName() === name);
  if (!node) return false;
  const names = new Set<string>();
  const visit = (n: Node) => (names.add(n.getName()), n.listChildren().forEach(visit));
  visit(node);
  return members.every((m) => names.has(m));
}

/** The nodes the rig made spinning parts of, by name (what `still` must not be among). */
export function spinningNames(result: RigResult): string[] {
  return result.report.parts.filter((p) => ["propeller", "main_rotor", "tail_rotor"].includes(p.kind))
    .map((p) => p.panel ?? p.name);
}

/**
 * A joined pair split in two (`<name>_Front`/`_Rear` or `_Upper`/`_Lower`): each half judged as its
 * own rotor, on its own disc (its origin nearer its own centre than the other's); undefined when the
 * rig left it whole.
 */
function judgeSplit(result: RigResult, truth: ZooPart) {
  const halves = [["Front", "Rear"], ["Upper", "Lower"]].map((pair) =>
    pair.map((h) => result.report.parts.find((p) => (p.panel ?? p.name) === `${truth.name}_${h}`))
  ).find((pair) => pair.every((p) => p));
  if (!halves) return undefined;
  const problems: string[] = [];
  const confidences: string[] = [];
  halves.forEach((found, k) => {
    const centre = truth.pairCentres![k], other = truth.pairCentres![1 - k];
    const axis = found!.hinge!.world.axis, origin = found!.hinge!.world.origin;
    const degrees = axisErrorDegrees(axis, truth.axis);
    if (degrees > 2) problems.push(`${found!.panel} axis ${degrees.toFixed(1)}° off`);
    if (distanceToLine(centre, origin, axis) / truth.radius > 0.02) {
      problems.push(`${found!.panel} centre off`);
    }
    const d = (c: readonly number[]) => Math.hypot(...c.map((v, i) => v - origin[i]));
    if (d(centre) >= d(other)) problems.push(`${found!.panel} on the other rotor's disc`);
    if (!truth.kinds.includes(found!.kind as SpinningKind)) {
      problems.push(`${found!.panel} kind ${found!.kind}`);
    }
    confidences.push((found!.fit as { confidence?: string } | null)?.confidence ?? "none");
  });
  const confidence = confidences.every((c) => c === "good")
    ? "good"
    : confidences.includes("failed")
    ? "failed"
    : "weak";
  return {
    found: true as const,
    confidence,
    problems,
    degrees: 0,
    kind: halves[0]!.kind,
    part: halves[0]!,
  };
}
