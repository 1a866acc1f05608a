/**
 * What a Carnivores file says that glTF has no place for, as JSON for the scene's extras: the `.car`
 * clip and sound tables, each clip's timing and keyframe targets, and the bone table the resolver
 * turns into a skin.
 *
 * @module
 */
import type { JsonValue } from "../../../../runtime/node.ts";
import { type Bone, type CarAnimation, type CarModel, SOUND_SAMPLE_RATE } from "./model.ts";
import { clipDuration, type MorphClips } from "./morph_clips.ts";

/**
 * The `.car` tables for the extras: clips (with the morph target of each keyframe, and the stored
 * frames kept when a clip was resampled), sounds
 * and the anim→sound table. glTF has no audio: the PCM stays in the source file, only its
 * description is kept.
 */
export function carSummary(car: CarModel, morphs: MorphClips | undefined): Record<string, JsonValue> {
  return {
    name: car.name,
    msc: car.msc,
    morph_targets: morphs?.targetCount ?? 0,
    animations: clipSummaries(car.animations, morphs).map((clip, c) => ({ ...clip, sound: soundOf(car, c) })),
    sounds: car.sounds.map((s) => ({
      name: s.name,
      bytes: s.pcm.byteLength,
      sample_rate: SOUND_SAMPLE_RATE,
      encoding: "pcm_s16le_mono",
    })),
    anim_sound_table: car.animSounds ? Array.from(car.animSounds) : null,
  };
}

/** Each clip's entry in the extras: timing, and the morph target each keyframe shows. */
export function clipSummaries(
  clips: readonly CarAnimation[],
  morphs: MorphClips | undefined,
): Record<string, JsonValue>[] {
  return clips.map((clip, c) => {
    const plan = morphs?.plans[c];
    return {
      name: clip.name,
      kps: clip.kps,
      frames: clip.frameCount,
      duration: clipDuration(clip.frameCount, clip.kps),
      first_target: plan ? plan.targets[0] : -1,
      // The morph target each keyframe shows, and (when resampled) the stored frame of each.
      targets: plan ? Array.from(plan.targets) : [],
      keyframes: plan && plan.frames.length < clip.frameCount ? Array.from(plan.frames) : null,
    };
  });
}

/** The clip's sound index from the anim→sound table, or null (none, absent or out of range). */
function soundOf(car: CarModel, clip: number): number | null {
  const value = car.animSounds?.[clip];
  return value !== undefined && value >= 0 && value < car.sounds.length ? value : null;
}

/**
 * The bone table as JSON for the resolver: pivots in scene space (null when not finite), and for
 * each bone the centroid and radius of the points it owns, so junk pivots can fall back to them.
 */
export function boneTable(
  bones: readonly Bone[],
  owners: Int16Array,
  scenePositions: Float64Array,
  scale: number,
): JsonValue {
  const sums = new Float64Array(bones.length * 3);
  const counts = new Int32Array(bones.length);
  for (let v = 0; v < owners.length; v++) {
    const b = owners[v];
    if (b < 0 || b >= bones.length) continue;
    counts[b]++;
    for (let k = 0; k < 3; k++) sums[b * 3 + k] += scenePositions[v * 3 + k];
  }
  const radii = new Float64Array(bones.length);
  for (let v = 0; v < owners.length; v++) {
    const b = owners[v];
    if (b < 0 || b >= bones.length) continue;
    let d2 = 0;
    for (let k = 0; k < 3; k++) d2 += (scenePositions[v * 3 + k] - sums[b * 3 + k] / counts[b]) ** 2;
    radii[b] = Math.max(radii[b], Math.sqrt(d2));
  }
  return bones.map((bone, b) => {
    const [x, y, z] = bone.pivot;
    const pivot = [scale * x, scale * y, -scale * z];
    const finite = pivot.every(Number.isFinite);
    return {
      name: bone.name,
      parent: bone.parent,
      hide: bone.hide,
      pivot: finite ? pivot : null,
      pivot_file: finite ? [x, y, z] : null,
      vertices: counts[b],
      centroid: counts[b]
        ? [sums[b * 3] / counts[b], sums[b * 3 + 1] / counts[b], sums[b * 3 + 2] / counts[b]]
        : null,
      radius: radii[b],
    };
  });
}
