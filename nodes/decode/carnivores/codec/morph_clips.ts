/**
 * `.car` animations → glTF morph targets and one glTF animation per clip.
 *
 * A clip stores absolute vertex positions per frame (file units × 16, same axes as the base mesh), so
 * each frame becomes a morph target holding `frame − base` in scene space (frames with identical
 * positions share one), and the clip's animation drives the weights: at keyframe k, the target of
 * frame k has weight 1 and every other 0. With LINEAR interpolation the blend between keyframes k and
 * k+1 is exactly the engine's linear interpolation of positions. Keyframe times follow the engine (`CreateMorphedModel`): the clip lasts
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
 * Most keyframes, over all clips, that the weight animations hold (the default and largest
 * `max_frames`). A glTF weights animation holds one value per keyframe per morph target of the mesh,
 * so `T` frames cost about `T²` weights, which this decoder, three.js (it expands sparse accessors)
 * and Blender (one keyframe per shape key per frame) all hold densely. 4096 frames (≈17 M weights,
 * 64 MB) is twice what a retail character holds (about 15–40 clips of 50–170 frames); a file with
 * 50,000 one-vertex frames (900 KB) would otherwise ask for 2.5 G weights.
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
  /** Most keyframes in all (at most {@link MAX_MORPH_FRAMES}); longer clips are resampled. */
  readonly maxFrames?: number;
  /** Where to report resampled clips and clips left without morph targets. */
  readonly warn: WarningSink;
}

/** How one clip is represented: which stored frames are keyframes, and the target each one shows. */
export interface ClipPlan {
  /** Stored frame index of each keyframe, ascending (every frame unless the clip was resampled). */
  readonly frames: Int32Array;
  /** Morph target of each keyframe; a target is shared by every keyframe with the same positions. */
  readonly targets: Int32Array;
}

/** Result of {@link addMorphClips}. */
export interface MorphClips {
  /** Per clip, its plan; undefined for a clip without frames or one the budget left out. */
  readonly plans: readonly (ClipPlan | undefined)[];
  /** Number of morph targets made. */
  readonly targetCount: number;
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
 * Clip length in seconds: `⌊1000·F / KPS⌋` ms like the engine. The parsers time a clip whose length
 * would come to 0 ms (which the engine cannot play) at 1 frame per second first (`clip_rate.ts`).
 */
export function clipDuration(frameCount: number, kps: number): number {
  return Math.floor((frameCount * 1000) / kps) / 1000;
}

/**
 * Adds morph targets for every clip to each primitive of `mesh`, and one weights animation per clip.
 * Each stored frame is a keyframe whose target holds that frame; frames with identical positions (a
 * held pose, a loop's closing frame, a pose two clips share) share one target, so the playback is
 * unchanged and viewers hold fewer targets. When the clips hold more than `maxFrames` frames in all,
 * each clip is resampled to its share of the budget — evenly spaced stored frames, the first and last
 * kept, each at its own time, so the clip lasts as long and the game's linear blend runs between the
 * kept frames — with one warning naming every resampled clip. A clip that does not fit even at two
 * frames gets no targets or animation (warned too; later clips that fit are kept). Clips without
 * frames are skipped.
 *
 * @example
 * ```ts
 * const { plans } = addMorphClips({ accessors, node, mesh, groups, points, scale: 1,
 *   interpolation: "linear", warn: console.warn }, car.animations);
 * ```
 */
export function addMorphClips(target: MorphClipTarget, clips: readonly CarAnimation[]): MorphClips {
  const { accessors, node, mesh, groups, points, scale } = target;
  const { doc } = accessors;
  const primitives = mesh.listPrimitives();
  const clipNames = uniqueNames(clips.map(clipLabel));
  const budget = Math.min(target.maxFrames ?? MAX_MORPH_FRAMES, MAX_MORPH_FRAMES);
  const { frames, resampled, overBudget } = chooseFrames(clips, budget);
  if (resampled.length) {
    target.warn(
      `${resampled.length} clip(s) resampled to fit ${budget} frames in all (glTF viewers hold ` +
        `frames × morph targets animation weights; the game's linear blend runs between the kept frames, ` +
        `each at its own time): ${
          resampled.map((c) =>
            `${c} '${clipNames[c]}' (${frames[c]!.length} of ` +
            `${clips[c].frameCount} frames)`
          ).join(", ")
        }`,
      { clips: resampled.length, max_frames: budget },
    );
  }
  if (overBudget.length) {
    target.warn(
      `${overBudget.length} clip(s) do not fit ${budget} frames in all even at two frames each; ` +
        `they get no morph targets or animation, their entries stay in the extras: ` +
        overBudget.map((c) => `${c} '${clipNames[c]}' (${clips[c].frameCount} frames)`).join(", "),
      { clips: overBudget.length, max_frames: budget },
    );
  }

  const targetNames: string[] = [];
  const byHash = new Map<number, number[]>();
  const sources: { clip: number; frame: number }[] = [];
  const vertexValues = points.count * 3;
  const plans = frames.map((kept, c) => {
    if (!kept) return undefined;
    const { positions } = clips[c];
    const targets = new Int32Array(kept.length);
    kept.forEach((frame, i) => {
      const values = positions.subarray(frame * vertexValues, (frame + 1) * vertexValues);
      const hash = hashFrame(values);
      const candidates = byHash.get(hash) ?? [];
      let found = candidates.find((t) => {
        const source = sources[t];
        const other = clips[source.clip].positions;
        return sameValues(
          values,
          other.subarray(source.frame * vertexValues, (source.frame + 1) * vertexValues),
        );
      });
      if (found === undefined) {
        found = sources.length;
        sources.push({ clip: c, frame });
        candidates.push(found);
        byHash.set(hash, candidates);
        targetNames.push(`${clipNames[c]}[${frame}]`);
      }
      targets[i] = found;
    });
    return { frames: kept, targets };
  });

  for (let t = 0; t < sources.length; t++) {
    const { clip, frame } = sources[t];
    const frameBase = frame * vertexValues;
    for (let p = 0; p < groups.length; p++) {
      const deltas = frameDeltas(clips[clip].positions, frameBase, points.positions, groups[p].points, scale);
      const accessor = accessors.create("VEC3", deltas);
      primitives[p].addTarget(doc.createPrimitiveTarget(targetNames[t]).setAttribute("POSITION", accessor));
    }
  }
  if (targetNames.length === 0) return { plans, targetCount: 0 };
  mesh.setWeights(new Array(targetNames.length).fill(0));
  mergeExtras(mesh, { targetNames });

  const interpolation = target.interpolation === "step" ? "STEP" : "LINEAR";
  for (let c = 0; c < clips.length; c++) {
    const plan = plans[c];
    if (!plan) continue;
    const { frameCount, kps } = clips[c];
    const allTimes = keyframeTimes(frameCount, kps);
    // A one-frame clip is held from 0 to AniTime: two keyframes showing the same target.
    const keys = frameCount === 1 ? [0, 0] : Array.from(plan.frames, (_, i) => i);
    const times = frameCount === 1 ? allTimes : Float32Array.from(plan.frames, (f) => allTimes[f]);
    const weights = new Float32Array(times.length * targetNames.length);
    keys.forEach((i, k) => weights[k * targetNames.length + plan.targets[i]] = 1);
    const input = accessors.create("SCALAR", times);
    // Almost every weight is zero: sparse storage keeps the file linear in the frame count.
    const output = accessors.create("SCALAR", weights).setSparse(true);
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output)
      .setInterpolation(interpolation);
    const channel = doc.createAnimationChannel().setTargetNode(node).setTargetPath("weights")
      .setSampler(sampler);
    doc.createAnimation(clipLabel(clips[c], c)).addSampler(sampler).addChannel(channel);
  }
  return { plans, targetCount: targetNames.length };
}

/**
 * The stored frames each clip keeps as keyframes under a budget of `budget` frames in all: every frame
 * when the clips fit; otherwise each clip keeps its share, `⌊F·budget/total⌋` evenly spaced frames
 * (at least two, the first and the last; a one-frame clip keeps its frame), and clips that still do
 * not fit, in file order, keep none.
 */
function chooseFrames(clips: readonly CarAnimation[], budget: number) {
  const total = clips.reduce((sum, clip) => sum + clip.frameCount, 0);
  const frames: (Int32Array | undefined)[] = [];
  const resampled: number[] = [];
  const overBudget: number[] = [];
  let used = 0;
  clips.forEach(({ frameCount }, c) => {
    if (frameCount === 0) return frames.push(undefined);
    const share = total <= budget
      ? frameCount
      : Math.min(frameCount, Math.max(2, Math.floor((frameCount * budget) / total)));
    if (used + share > budget) {
      overBudget.push(c);
      return frames.push(undefined);
    }
    used += share;
    if (share < frameCount) resampled.push(c);
    frames.push(
      Int32Array.from(
        { length: share },
        (_, i) => share === 1 ? 0 : Math.round((i * (frameCount - 1)) / (share - 1)),
      ),
    );
  });
  return { frames, resampled, overBudget };
}

/** FNV-1a over a frame's int16 values, to find frames with identical positions. */
function hashFrame(values: Int16Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < values.length; i++) hash = Math.imul(hash ^ (values[i] & 0xffff), 0x01000193);
  return hash >>> 0;
}

function sameValues(a: Int16Array, b: Int16Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
