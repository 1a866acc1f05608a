/**
 * Scenes turned into another frame, as real files face: every perpendicular forward × up pair of
 * scene axes, and the rotation taking the design frame (−Z forward, +Y up) there.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { mat3, quat } from "gl-matrix";
import { axisVector } from "../../../nodes/rig/frame.ts";
import { cross, type Quat, type Vec3 } from "../../../nodes/rig/transform.ts";
import { AXES, type Axis } from "../../../runtime/scene/source.ts";
import { ok as assert } from "node:assert/strict";
import { detectFrame } from "../../../nodes/rig/frame_detect.ts";
import { addGroup } from "./fixtures.ts";
import { type ClassSample, classScene } from "./surface_classes.ts";

/** Every perpendicular (forward, up) pair of scene axes. */
export const FRAMES: [Axis, Axis][] = AXES.flatMap((f) =>
  AXES.filter((u) => u[1] !== f[1]).map((u): [Axis, Axis] => [f, u])
);

/** The frames of real files: any of the six forwards, with +Y or +Z up. */
export const FILE_FRAMES: [Axis, Axis][] = FRAMES.filter(([, up]) => up === "+Y" || up === "+Z");

/** The rotation taking the design frame (−Z forward, +Y up) to `forward`/`up`. */
export function rotationTo(forward: Axis, up: Axis): Quat {
  const z = axisVector(forward).map((v) => -v) as Vec3, y = axisVector(up), x = cross(y, z);
  const q = quat.fromMat3(quat.create(), mat3.fromValues(...x, ...y, ...z));
  return [...q].map((v) => Math.round(v * 1e6) / 1e6) as Quat;
}

/**
 * A quarter of the 24 frames for sample `index`: each of the six forwards once, with the up the index
 * picks, so four samples in a row meet every frame.
 */
export function quarterFrames(index: number): [Axis, Axis][] {
  return FRAMES.filter((_, f) => f % 4 === index % 4);
}

/** Puts the scene's top-level nodes under one turned group and drops any recorded frame. */
export function turn(doc: Document, forward: Axis, up: Axis): Document {
  const scene = doc.getRoot().getDefaultScene()!;
  const children = scene.listChildren();
  const group = addGroup(doc, undefined, "Turned", { rotation: rotationTo(forward, up) });
  for (const child of children) group.addChild(child);
  scene.setExtras({});
  return doc;
}

/**
 * Right/wrong × good/weak of the frames found for the samples turned to all 24 frames (or those
 * `framesOf` gives sample `i`); a wrong frame must be weak (asserted, naming the sample and the reasons).
 */
export function frameTally(
  samples: readonly ClassSample[],
  framesOf: (index: number) => readonly [Axis, Axis][] = () => FRAMES,
): Record<string, number> {
  const out: Record<string, number> = {};
  samples.forEach((sample, i) => {
    for (const [forward, up] of framesOf(i)) {
      const frame = detectFrame(turn(classScene(sample), forward, up))!;
      const right = frame.forward === forward && frame.up === up;
      assert(
        right || frame.confidence === "weak",
        `#${i} ${sample.description} ${forward}/${up}: ${frame.forward}/${frame.up} judged good\n` +
          frame.reasons.join("\n"),
      );
      const key = `${right ? "right" : "wrong"} ${frame.confidence}`;
      out[key] = (out[key] ?? 0) + 1;
    }
  });
  return out;
}
