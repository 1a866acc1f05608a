/**
 * Animation channels for rig tests, as a file's own clip would animate its control surfaces: linear,
 * step and cubic-spline keys of translation, rotation and scale, and the demo fighter with four of
 * its surfaces animated that way.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { quatMultiply, type Vec3 } from "../../../nodes/rig/transform.ts";
import { runNode } from "../../support/context.ts";
import { axisAngle } from "./fixtures.ts";
import { nodeNamed } from "./pipeline.ts";

/** A glTF sampler interpolation. */
export type Interpolation = "LINEAR" | "STEP" | "CUBICSPLINE";

/** Key times of every channel (seconds); the clip runs to the last. */
export const TIMES = [0, 0.4, 1.1, 1.5, 2];

/** Adds a channel animating `node`'s `path` through `values` (one per key, tangents made up for cubic). */
export function animate(
  doc: Document,
  node: Node,
  path: "translation" | "rotation" | "scale",
  values: number[][],
  interpolation: Interpolation,
): void {
  const animation = doc.getRoot().listAnimations()[0] ?? doc.createAnimation("clip");
  const buffer = doc.getRoot().listBuffers()[0];
  const keys = interpolation === "CUBICSPLINE"
    ? values.flatMap((v, i) => [v.map((x) => x * 0.1 * (i + 1)), v, v.map((x) => -x * 0.05 * i)])
    : values;
  const sampler = doc.createAnimationSampler()
    .setInterpolation(interpolation)
    .setInput(doc.createAccessor("", buffer).setType("SCALAR").setArray(new Float32Array(TIMES)))
    .setOutput(
      doc.createAccessor("", buffer).setType(path === "rotation" ? "VEC4" : "VEC3")
        .setArray(new Float32Array(keys.flat())),
    );
  animation.addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler),
  );
}

/** Rotations turning the rest one about `axis` by each of `degrees`. */
export function turns(node: Node, axis: Vec3, degrees: number[]): number[][] {
  return degrees.map((d) => quatMultiply(axisAngle(axis, d), node.getRotation()));
}

/** Offsets of the rest translation, scaled by each of `amounts`. */
export function moves(node: Node, offset: Vec3, amounts: number[]): number[][] {
  return amounts.map((a) => node.getTranslation().map((t, k) => t + a * offset[k]));
}

/** The demo fighter with animated surfaces: every path and interpolation, one surface a channel each. */
export async function animatedFighter(): Promise<Document> {
  const doc = (await runNode(demoFighter, {})).scene;
  const node = (name: string) => nodeNamed(doc, name);
  animate(
    doc,
    node("LeftAileron"),
    "rotation",
    turns(node("LeftAileron"), [1, 0, 0], [0, 12, -20, 5, 0]),
    "LINEAR",
  );
  animate(doc, node("Flap.L"), "rotation", turns(node("Flap.L"), [0.6, 0.8, 0], [0, 8, 30, 30, 10]), "STEP");
  animate(
    doc,
    node("Flap.L"),
    "translation",
    moves(node("Flap.L"), [0, -0.1, 0.3], [0, 0.5, 1, 1, 0]),
    "LINEAR",
  );
  animate(
    doc,
    node("Rudder"),
    "rotation",
    turns(node("Rudder"), [0, 1, 0], [0, 15, -15, 20, 0]),
    "CUBICSPLINE",
  );
  animate(
    doc,
    node("Rudder"),
    "translation",
    moves(node("Rudder"), [0.02, 0, 0.01], [0, 1, 2, 1, 0]),
    "CUBICSPLINE",
  );
  animate(
    doc,
    node("Stabilator_Stbd"),
    "scale",
    [[1, 1, 1], [1, 1.2, 1], [1, 1, 1.1], [1, 1, 1], [1, 1, 1]],
    "LINEAR",
  );
  animate(
    doc,
    node("Stabilator_Stbd"),
    "rotation",
    turns(node("Stabilator_Stbd"), [0, 0, 1], [0, -10, 10, 0, 0]),
    "LINEAR",
  );
  return doc;
}

/** The surfaces {@link animatedFighter} animates. */
export const FIGHTER_ANIMATED = ["LeftAileron", "Flap.L", "Rudder", "Stabilator_Stbd"];
