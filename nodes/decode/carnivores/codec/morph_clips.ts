/**
 * `.car` animations → glTF morph targets and one glTF animation per clip.
 *
 * A clip stores absolute vertex positions per frame (file units × 16, same axes as the base mesh), so
 * each frame becomes one morph target holding `frame − base` in scene space, and the clip's
 * animation drives the weights: at keyframe k, target k of that clip has weight 1 and every other 0.
 * With LINEAR interpolation the blend between keyframes k and k+1 is exactly the engine's linear
 * interpolation of positions. Keyframe times follow the engine (`CreateMorphedModel`): the clip lasts
 * `AniTime = ⌊1000·F / KPS⌋` ms and frame k sits at `k·AniTime / (F − 1)`.
 *
 * @module
 */
import type { Mesh, Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { mergeExtras } from "../../../../runtime/scene/extras.ts";
import type { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import type { CarAnimation, PointTable } from "./model.ts";
import type { FaceGroup } from "./mesh_split.ts";

/** Keyframe interpolation of the weight tracks. */
export type ClipInterpolation = "linear" | "step";

/** Frame positions are stored ×16 (4 bits of fraction). */
export const FRAME_POSITION_DIVISOR = 16;

/**
 * Most frames, over all clips, that become morph targets. A glTF weights animation holds one value
 * per keyframe per morph target of the mesh, so every clip's output grows with the total: `T` frames
 * cost about `T²` weights, which this decoder, three.js (it expands sparse accessors) and Blender
 * (one keyframe per shape key per frame) all hold densely. 4096 frames (≈17 M weights, 64 MB) is
 * twice what a retail character holds (about 15–40 clips of 50–170 frames); a file with 50,000
 * one-vertex frames (900 KB) would otherwise ask for 2.5 G weights.
 */
export const MAX_MORPH_FRAMES = 4096;

/** What {@link addMorphClips} needs besides the clips. */
export interface MorphClipTarget {
  /** The accessors of the document being built. */
  readonly accessors: SceneAccessors;
  /** The node the weight animations target. */
  readonly node: Node;
  /** The mesh whose primitives get the morph targets. */
  readonly mesh: Mesh;
  /** The mesh's face groups, in primitive order. */
  readonly groups: readonly FaceGroup[];
  /** The base points the frames are relative to. */
  readonly points: PointTable;
  /** Scene units per file unit. */
  readonly scale: number;
  /** Weight-track interpolation. */
  readonly interpolation: ClipInterpolation;
  /** Where to report clips left without morph targets by {@link MAX_MORPH_FRAMES}. */
  readonly warn: WarningSink;
}

/**
 * Keyframe times in seconds for a clip of `frameCount` frames at `kps`, as the engine places them.
 *
 * @example
 * ```ts
 * keyframeTimes(3, 10); // AniTime = 300 ms → [0, 0.15, 0.3]
 * keyframeTimes(1, 20); // one frame held for AniTime = 50 ms → [0, 0.05]
 * ```
 */
export function keyframeTimes(frameCount: number, kps: number): Float32Array<ArrayBuffer> {
  const duration = clipDuration(frameCount, kps);
  // One frame: the clip still lasts AniTime in the game (engine ports repeat the frame), so it is
  // held from 0 to the end rather than collapsing to a zero-length animation.
  if (frameCount === 1) return Float32Array.of(0, duration);
  const times = new Float32Array(frameCount);
  for (let k = 1; k < frameCount; k++) times[k] = (k * duration) / (frameCount - 1);
  return times;
}

/**
 * Clip length in seconds: `⌊1000·F / KPS⌋` ms like the engine; when that rounds to 0 ms (the engine
 * would divide by zero) the exact `F / KPS` is used instead.
 */
export function clipDuration(frameCount: number, kps: number): number {
  const ms = Math.floor((frameCount * 1000) / kps);
  return ms > 0 ? ms / 1000 : frameCount / kps;
}

/**
 * Adds a morph target per frame of every clip to each primitive of `mesh`, and one weights animation
 * per clip. Clips without frames are skipped; so is a clip whose frames would take the morph targets
 * past {@link MAX_MORPH_FRAMES} (with one warning naming every such clip; later clips that fit are
 * kept). Returns the index of each clip's first morph target (its frames are consecutive), -1 for a
 * skipped clip.
 *
 * @example
 * ```ts
 * const firstTargets = addMorphClips({ accessors, node, mesh, groups, points, scale: 1,
 *   interpolation: "linear", warn: console.warn }, car.animations);
 * ```
 */
export function addMorphClips(target: MorphClipTarget, clips: readonly CarAnimation[]): number[] {
  const { accessors, node, mesh, groups, points, scale } = target;
  const { doc } = accessors;
  const primitives = mesh.listPrimitives();
  const firstTargets: number[] = [];
  const targetNames: string[] = [];
  const clipNames = uniqueNames(clips.map(clipLabel));
  const overBudget: string[] = [];
  for (let c = 0; c < clips.length; c++) {
    const clip = clips[c];
    if (clip.frameCount > 0 && targetNames.length + clip.frameCount > MAX_MORPH_FRAMES) {
      overBudget.push(`${c} '${clipNames[c]}' (${clip.frameCount} frames)`);
      firstTargets.push(-1);
      continue;
    }
    const firstTarget = clip.frameCount > 0 ? targetNames.length : -1;
    for (let k = 0; k < clip.frameCount; k++) {
      const targetName = `${clipNames[c]}[${k}]`;
      targetNames.push(targetName);
      const frameBase = k * points.count * 3;
      for (let p = 0; p < groups.length; p++) {
        const deltas = frameDeltas(clip.positions, frameBase, points.positions, groups[p].points, scale);
        const accessor = accessors.create("VEC3", deltas);
        primitives[p].addTarget(doc.createPrimitiveTarget(targetName).setAttribute("POSITION", accessor));
      }
    }
    firstTargets.push(firstTarget);
  }
  if (overBudget.length) {
    target.warn(
      `${overBudget.length} clip(s) would take the morph targets past ${MAX_MORPH_FRAMES} frames ` +
        `(glTF viewers hold frames² animation weights); they get no morph targets or animation, ` +
        `their entries stay in the extras: ${overBudget.join(", ")}`,
      { clips: overBudget.length, kept_frames: targetNames.length },
    );
  }
  if (targetNames.length === 0) return firstTargets;
  mesh.setWeights(new Array(targetNames.length).fill(0));
  mergeExtras(mesh, { targetNames });

  const interpolation = target.interpolation === "step" ? "STEP" : "LINEAR";
  for (let c = 0; c < clips.length; c++) {
    const { frameCount, kps } = clips[c];
    if (firstTargets[c] < 0) continue;
    const times = keyframeTimes(frameCount, kps);
    const weights = new Float32Array(times.length * targetNames.length);
    for (let k = 0; k < times.length; k++) {
      weights[k * targetNames.length + firstTargets[c] + Math.min(k, frameCount - 1)] = 1;
    }
    const input = accessors.create("SCALAR", times);
    // Almost every weight is zero: sparse storage keeps the file linear in the frame count.
    const output = accessors.create("SCALAR", weights).setSparse(true);
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output)
      .setInterpolation(interpolation);
    const channel = doc.createAnimationChannel().setTargetNode(node).setTargetPath("weights")
      .setSampler(sampler);
    doc.createAnimation(clipLabel(clips[c], c)).addSampler(sampler).addChannel(channel);
  }
  return firstTargets;
}

/** Scene-space `frame − base` for the given points: `s·(fx/16 − x, fy/16 − y, −(fz/16 − z))`. */
function frameDeltas(
  frame: Int16Array,
  frameBase: number,
  base: Float32Array,
  vertexPoints: Int32Array,
  scale: number,
): Float32Array<ArrayBuffer> {
  const out = new Float32Array(vertexPoints.length * 3);
  for (let i = 0; i < vertexPoints.length; i++) {
    const p = vertexPoints[i] * 3;
    const f = frameBase + p;
    out[i * 3] = scale * (frame[f] / FRAME_POSITION_DIVISOR - base[p]);
    out[i * 3 + 1] = scale * (frame[f + 1] / FRAME_POSITION_DIVISOR - base[p + 1]);
    out[i * 3 + 2] = -scale * (frame[f + 2] / FRAME_POSITION_DIVISOR - base[p + 2]);
  }
  return out;
}

/**
 * The name a clip goes by in glTF: its stored name, or `anim<index>` when that is empty (community
 * editors write empty names; CarnivoresIO shows them as placeholders too). The parser warns.
 */
export function clipLabel(clip: CarAnimation, index: number): string {
  return clip.name.trim() ? clip.name : `anim${index}`;
}

/** Names made unique by suffixing repeats with `#2`, `#3`, … (clip names may repeat in real files). */
function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}#${n}`;
  });
}
