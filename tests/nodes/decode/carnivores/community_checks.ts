/**
 * What the community-tool generator (`community_tools.ts`, `community_tools_wave2.ts`) expects of a
 * decode, and the probes of a decoded scene and the model pieces its cases are made of.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { Bone } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { addBox, type FaceSpec, texture } from "./fixtures.ts";

/** What a correct decode of a case gives. */
export type Expectation =
  | {
    readonly scene: true;
    /** A warning that must be given (none when undefined: the decode must be silent). */
    readonly warning?: RegExp;
    /**
     * What the decoded (and resolved) scene must hold; a message when it does not. `control` is the
     * decoded {@link Expectation} `control` file, when the case gives one.
     */
    readonly check: (doc: Document, control?: Document) => string | undefined;
    /** A file a correct decode of the case must match (the same model without the habit). */
    readonly control?: { readonly format: "3df" | "car" | "rsc"; readonly bytes: Uint8Array };
  }
  | { readonly scene: false; readonly error: RegExp };

/** Triangles drawn in the scene. */
export const triangles = (doc: Document) =>
  doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives()).reduce(
    (n, p) => n + (p.getIndices()?.getCount() ?? 0) / 3,
    0,
  );
/** The scene's clip names. */
export const clips = (doc: Document) => doc.getRoot().listAnimations().map((a) => a.getName());
/** Triangles of node `name`'s mesh. */
export const nodeTriangles = (doc: Document, name: string) => {
  const mesh = doc.getRoot().listNodes().find((n) => n.getName() === name)?.getMesh();
  return mesh?.listPrimitives().reduce((n, p) => n + (p.getIndices()?.getCount() ?? 0) / 3, 0);
};
/** Keyframes of clip `clip`. */
export const keyframes = (doc: Document, clip: number) =>
  doc.getRoot().listAnimations()[clip]?.listSamplers()[0]?.getInput()?.getCount();
/** The Carnivores summary on the model's node (the first node). */
export const summary = (doc: Document) =>
  getPartgraphExtras(doc.getRoot().listNodes()[0]).carnivores as
    | { sounds?: { name: string }[]; animations?: { sound: number | null }[] }
    | undefined;
/** The names of the model's sounds. */
export const soundNames = (doc: Document) => summary(doc)?.sounds?.map((s) => s.name);
/** Each clip's sound index (null for none). */
export const clipSounds = (doc: Document) => summary(doc)?.animations?.map((a) => a.sound);
/** The time of clip `clip`'s last keyframe, in seconds (to the millisecond). */
export const lastTime = (doc: Document, clip: number) => {
  const input = doc.getRoot().listAnimations()[clip]?.listSamplers()[0]?.getInput();
  return input ? Math.round(input.getScalar(input.getCount() - 1) * 1000) / 1000 : undefined;
};
/** undefined when `found` equals `expected`, else a message naming `what`. */
export const expectEqual = (what: string, found: unknown, expected: unknown) =>
  JSON.stringify(found) === JSON.stringify(expected)
    ? undefined
    : `${what}: ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`;

/** undefined when `doc`'s clips are `list`'s, by name, each read whole (its frames as keyframes). */
export const clipsWhole = (doc: Document, list: readonly { name: string; frameCount: number }[]) =>
  expectEqual("clips", clips(doc), list.map((c) => c.name)) ??
    expectEqual("keyframes", list.map((_, i) => keyframes(doc, i)), list.map((c) => c.frameCount));

/** A model of 2–6 boxes, one per bone, bones chained or fanned at random. */
export function boxes(
  random: () => number,
): { faces: FaceSpec[]; points: number[][]; owners: number[]; bones: Bone[] } {
  const n = 2 + Math.floor(random() * 5);
  const points: number[][] = [], owners: number[] = [], faces: FaceSpec[] = [], bones: Bone[] = [];
  for (let b = 0; b < n; b++) {
    const centre = [b * 6 - 10, 4 + random() * 10, random() * 8 - 4];
    addBox(points, owners, faces, centre, 1 + random() * 2, b, random() < 0.2 ? 1 : 0);
    bones.push({
      name: `bone${b}`,
      pivot: [centre[0], centre[1] - 2, centre[2]],
      parent: b === 0 ? -1 : Math.floor(random() * b),
      hide: 0,
    });
  }
  for (const face of faces) {
    face.uv = [[random() * 255 | 0, random() * 63 | 0], [random() * 255 | 0, random() * 63 | 0], [
      random() * 255 | 0,
      random() * 63 | 0,
    ]];
  }
  return { faces, points, owners, bones };
}

/** The generated models' 64-row texture. */
export const TEXTURE = texture(64, (x, y) => ((x >> 3) << 10) | ((y >> 1) << 5) | 9);

/** Picks `k` distinct indices below `n`. */
export function pick(random: () => number, n: number, k: number): number[] {
  const out = new Set<number>();
  while (out.size < Math.min(k, n)) out.add(Math.floor(random() * n));
  return [...out].sort((a, b) => a - b);
}
