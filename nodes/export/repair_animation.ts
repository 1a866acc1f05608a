/**
 * Export repairs of animation data: channels no viewer can play as written (two on one target,
 * morph weights of a node without morph targets), rotation keys that are not unit quaternions, key times before 0
 * (keys at frames before a scene's start), and key times repeated (or out of order) where a baker
 * wrote two keys at one frame, which viewers play but the Khronos glTF validator (2.0.0-dev.3.10)
 * refuses. Called by `repair_data.ts`.
 *
 * @module
 */
import type {
  Accessor,
  Animation,
  AnimationChannel,
  AnimationSampler,
  Document,
  Node,
  TypedArray,
} from "@gltf-transform/core";
import type { WrittenName as NameOf } from "../../runtime/scene/unique_names.ts";
import { ownArray } from "./repair_arrays.ts";

const FLOAT = 5126, BYTE = 5120, SHORT = 5122;
/**
 * Rotation keys farther than this from unit length are normalised. The validator refuses beyond
 * 0.00769 (of the length, after dequantizing): a little inside it, so no key it refuses is missed,
 * while keys it accepts — rounded floats, quantized bytes — are left alone, without a warning.
 */
const ROTATION_TOLERANCE = 0.0075;

/** Repairs the samplers of `animation`'s `rotation` channels whose keys are not unit quaternions. */
export function rotationRepairs(
  animation: Animation,
  apply: boolean,
  messages: string[],
  seen: Set<Accessor>,
  nameOf: NameOf,
): void {
  const samplers = animation.listSamplers();
  const rotations = new Set<AnimationSampler>();
  const channels = animation.listChannels();
  for (let c = 0; c < channels.length; c++) {
    const sampler = channels[c].getSampler();
    if (sampler && channels[c].getTargetPath() === "rotation") rotations.add(sampler);
  }
  for (let i = 0; i < samplers.length; i++) {
    const output = samplers[i].getOutput();
    if (!rotations.has(samplers[i]) || !output || seen.has(output)) continue;
    seen.add(output);
    const bad = repairRotationKeys(output, samplers[i].getInterpolation() === "CUBICSPLINE", apply);
    if (bad) {
      messages.push(
        `${bad} rotation key(s) of animation '${nameOf(animation)}' sampler ${i} made unit length`,
      );
    }
  }
}

/**
 * Scales each rotation key to unit length (a zero or non-finite one becomes the identity); for a
 * cubic spline only the value of each (in-tangent, value, out-tangent) triple, as the validator
 * tests. Normalized byte and short keys are tested after dequantizing, as the validator does, and
 * requantized by {@link quantizeUnit}; other integer keys are a format error, not repaired here.
 */
function repairRotationKeys(accessor: Accessor, cubic: boolean, apply: boolean): number {
  // Copy on write (`repair_arrays.ts`): an array shared with the input is copied only to be repaired.
  if (apply && !repairRotationKeys(accessor, cubic, false)) return 0;
  const array = apply ? ownArray(accessor) : accessor.getArray();
  const scale = rotationScale(accessor);
  if (!array || !scale || accessor.getElementSize() !== 4) return 0;
  const q = new Float64Array(4);
  const stride = cubic ? 12 : 4;
  let bad = 0;
  for (let at = cubic ? 4 : 0; at + 3 < array.length; at += stride) {
    for (let c = 0; c < 4; c++) q[c] = Math.max(array[at + c] / scale, -1);
    const length = Math.hypot(q[0], q[1], q[2], q[3]);
    if (Math.abs(length - 1) <= ROTATION_TOLERANCE) continue;
    bad++;
    if (!apply) continue;
    const usable = Number.isFinite(length) && length > 1e-12;
    for (let c = 0; c < 4; c++) q[c] = usable ? q[c] / length : c === 3 ? 1 : 0;
    if (scale === 1) { for (let c = 0; c < 4; c++) array[at + c] = q[c]; }
    else quantizeUnit(q, scale, array, at);
  }
  return bad;
}

/** The stored value of 1 in a rotation output: 1 for floats, 127 or 32767 for normalized (short) bytes. */
function rotationScale(accessor: Accessor): number {
  const type = accessor.getComponentType();
  if (type === FLOAT) return 1;
  if (!accessor.getNormalized()) return 0;
  return type === BYTE ? 127 : type === SHORT ? 32767 : 0;
}

/**
 * Stores unit quaternion `q` as normalized integers: of the 16 ways to round each component
 * towards or away from zero, the one whose length is nearest 1. Rounding all towards zero gives a
 * length ≤ 1, all away ≥ 1, and turning one component at a time changes the squared length by at
 * most 2/127 + 1/127², so the nearest is always within about 0.004 of 1 — even in bytes, where
 * plain rounding can miss the validator's 0.00769.
 */
function quantizeUnit(q: Float64Array, scale: number, out: TypedArray, at: number): void {
  let best = 0, bestError = Infinity;
  for (let mask = 0; mask < 16; mask++) {
    let squared = 0;
    for (let c = 0; c < 4; c++) {
      const v = roundedComponent(q[c] * scale, (mask >> c) & 1) / scale;
      squared += v * v;
    }
    const error = Math.abs(Math.sqrt(squared) - 1);
    if (error < bestError) {
      bestError = error;
      best = mask;
    }
  }
  for (let c = 0; c < 4; c++) out[at + c] = roundedComponent(q[c] * scale, (best >> c) & 1);
}

/** `x` rounded towards zero, or (`away` 1) one step away from zero from there, within ±scale. */
function roundedComponent(x: number, away: number): number {
  const toward = Math.trunc(x);
  return away && toward !== x ? toward + Math.sign(x) : toward;
}

/**
 * Channels no viewer can play as written, then animations left without a channel (EMPTY_ENTITY,
 * also where a decoder left out every channel of one). A channel is left out when a later channel of
 * its animation targets the same node and property (ANIMATION_DUPLICATE_TARGETS, as exporters that
 * gather every action of an object write; the later one is kept, as applying channels in order
 * would show it), or when it animates the morph weights of a node whose mesh has no morph targets
 * (ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS). Samplers no channel uses any more go with them,
 * and accessors only those used. Returns the animations that stay.
 */
export function channelRepairs(
  doc: Document,
  apply: boolean,
  messages: string[],
  nameOf: NameOf,
): Animation[] {
  const kept: Animation[] = [];
  for (const animation of doc.getRoot().listAnimations()) {
    const channels = animation.listChannels();
    const name = nameOf(animation);
    const dropped = new Set<AnimationChannel>();
    const targeted = new Map<Node, Set<string>>();
    let duplicates = 0, noMorphs = 0;
    for (let c = channels.length - 1; c >= 0; c--) {
      const node = channels[c].getTargetNode(), path = channels[c].getTargetPath();
      if (!node || !path) continue;
      const paths = targeted.get(node) ?? new Set();
      targeted.set(node, paths);
      if (paths.has(path)) {
        dropped.add(channels[c]);
        duplicates++;
      } else if (path === "weights" && !hasMorphTargets(node)) {
        dropped.add(channels[c]);
        noMorphs++;
      }
      paths.add(path);
    }
    if (duplicates) {
      messages.push(
        `animation '${name}': ${duplicates} channel(s) targeting what a later channel of it animates left out ` +
          "(the later one plays)",
      );
    }
    if (noMorphs) {
      messages.push(
        `animation '${name}': ${noMorphs} channel(s) animating morph weights of a node without morph targets left out`,
      );
    }
    const empty = channels.length === dropped.size;
    if (empty) messages.push(`animation '${name}' has no channel to play; left out`);
    else kept.push(animation);
    if (!apply || !dropped.size && !empty) continue;
    for (const channel of dropped) channel.dispose();
    const used = new Set(animation.listChannels().map((channel) => channel.getSampler()));
    const unused = animation.listSamplers().filter((sampler) => !used.has(sampler));
    const accessors = unused.flatMap((sampler) => [sampler.getInput(), sampler.getOutput()])
      .filter((accessor) => accessor !== null);
    for (const sampler of unused) sampler.dispose();
    if (empty) animation.dispose();
    disposeUnused(doc, accessors);
  }
  return kept;
}

/** Whether a node's mesh has morph targets for a `weights` channel to drive. */
function hasMorphTargets(node: Node): boolean {
  return node.getMesh()?.listPrimitives().some((primitive) => primitive.listTargets().length > 0) ?? false;
}

// ---------------------------------------------------------------------------------------------
// Key times

/**
 * Animations with key times before 0 (ACCESSOR_ANIMATION_INPUT_NEGATIVE): Blender's exporter wrote
 * them for keys at frames before 0 until it gained its "negative frames: slide" option. Each such
 * animation is slid to start at 0 — every sampler by the same amount, so the clip keeps its timing,
 * as Blender's and Babylon's exporters now do — rather than cropped, which would lose keys. An input
 * another animation also uses gets a slid copy of its own (the original goes once none uses it);
 * other inputs are slid in place.
 */
export function negativeTimeRepairs(
  doc: Document,
  animations: Animation[],
  apply: boolean,
  messages: string[],
  nameOf: NameOf,
): void {
  const users = new Map<Accessor, Set<Animation>>();
  for (const animation of animations) {
    for (const sampler of animation.listSamplers()) {
      const input = sampler.getInput();
      if (input) users.set(input, (users.get(input) ?? new Set()).add(animation));
    }
  }
  for (const animation of animations) {
    const samplers = animation.listSamplers();
    const start = earliestTime(samplers);
    if (!(start < 0)) continue;
    messages.push(
      `animation '${nameOf(animation)}' starts at ${Number(start.toPrecision(6))} s (keys before 0, as ` +
        "exporters write for frames before a scene's start): slid to start at 0, its timing kept",
    );
    if (!apply) continue;
    const slid = new Map<Accessor, Accessor>();
    for (const sampler of samplers) {
      const input = sampler.getInput();
      if (!input || input.getComponentType() !== FLOAT) continue;
      let moved = slid.get(input);
      if (!moved) {
        moved = users.get(input)!.size > 1 ? input.clone() : input;
        // A clone's array is its own; the input's own one is shared with the scene given (copy on write).
        const times = moved === input ? ownArray(moved) : moved.getArray()!;
        for (let i = 0; i < times.length; i++) times[i] -= start;
        slid.set(input, moved);
      }
      sampler.setInput(moved);
    }
  }
  // An input every animation using it got a slid copy of is used no more.
  if (apply) disposeUnused(doc, [...users.keys()]);
}

/** The earliest finite float key time of `samplers`, or Infinity when they have none. */
function earliestTime(samplers: readonly AnimationSampler[]): number {
  let start = Infinity;
  for (const sampler of samplers) {
    const input = sampler.getInput();
    const times = input?.getComponentType() === FLOAT ? input.getArray() : null;
    if (!times) continue;
    for (let i = 0; i < times.length; i++) {
      if (times[i] < start && Number.isFinite(times[i])) start = times[i];
    }
  }
  return start;
}

/**
 * Samplers whose key times do not strictly increase (ACCESSOR_ANIMATION_INPUT_NON_INCREASING).
 * Each repaired sampler gets new accessors holding only its kept keys, rather than have shared
 * arrays cut under other samplers: one new input per original input (samplers that shared one
 * still share it) and one new output per original output and input. Originals nothing uses any
 * more are disposed.
 */
export function timeRepairs(
  doc: Document,
  animations: Animation[],
  apply: boolean,
  messages: string[],
  nameOf: NameOf,
): void {
  const kept = new Map<Accessor, Uint32Array | null>();
  const replaced = new Map<Accessor, Accessor>();
  const outputs = new Map<Accessor, Map<Accessor, Accessor>>();
  const old: Accessor[] = [];
  for (let a = 0; a < animations.length; a++) {
    const samplers = animations[a].listSamplers();
    for (let i = 0; i < samplers.length; i++) {
      const sampler = samplers[i];
      const input = sampler.getInput(), output = sampler.getOutput();
      if (!input || !output) continue;
      if (!kept.has(input)) kept.set(input, keptKeys(input));
      const keys = kept.get(input)!;
      const perKey = output.getCount() / input.getCount();
      // An output that is not a whole number of elements per key is another error, left to the validator.
      if (!keys || !Number.isInteger(perKey)) continue;
      messages.push(
        `${input.getCount() - keys.length} key(s) of animation '${nameOf(animations[a])}' ` +
          `sampler ${i} dropped: their times did not increase`,
      );
      if (!apply) continue;
      let newInput = replaced.get(input);
      if (!newInput) replaced.set(input, newInput = keptCopy(doc, input, keys, 1));
      let byInput = outputs.get(output);
      if (!byInput) outputs.set(output, byInput = new Map());
      let newOutput = byInput.get(input);
      if (!newOutput) byInput.set(input, newOutput = keptCopy(doc, output, keys, perKey));
      old.push(input, output);
      sampler.setInput(newInput).setOutput(newOutput);
    }
  }
  disposeUnused(doc, old);
}

/**
 * The indices of the keys to keep, or null when the times strictly increase: the first key, then
 * each whose time is greater than the last kept one (a repeated time, as bakers write at a cut,
 * keeps its first key). A NaN time is never kept. Left alone with fewer than two keys, a
 * cubic-spline sampler still fails (ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS).
 */
function keptKeys(input: Accessor): Uint32Array | null {
  const times = input.getArray();
  if (!times || input.getElementSize() !== 1 || !times.length) return null;
  const keep = new Uint32Array(times.length);
  let count = 1, last = times[0];
  for (let i = 1; i < times.length; i++) {
    if (times[i] > last) {
      keep[count++] = i;
      last = times[i];
    }
  }
  return count === times.length ? null : keep.slice(0, count);
}

/**
 * A new accessor in `source`'s buffer, of its type, component type and normalization, holding the
 * `perKey` elements of each kept key. Its min and max (an input's must be right) are computed by
 * glTF-Transform as it writes the file, from the new array.
 */
function keptCopy(doc: Document, source: Accessor, keys: Uint32Array, perKey: number): Accessor {
  const array = source.getArray()!;
  const block = perKey * source.getElementSize();
  const Typed = array.constructor as new (length: number) => TypedArray;
  const kept = new Typed(keys.length * block);
  for (let k = 0; k < keys.length; k++) {
    const from = keys[k] * block;
    for (let e = 0; e < block; e++) kept[k * block + e] = array[from + e];
  }
  return doc.createAccessor(source.getName(), source.getBuffer())
    .setType(source.getType())
    .setNormalized(source.getNormalized())
    .setSparse(source.getSparse())
    .setExtras({ ...source.getExtras() })
    .setArray(kept);
}

/** Disposes each accessor that only the root still lists. */
function disposeUnused(doc: Document, accessors: Accessor[]): void {
  const root = doc.getRoot();
  for (let i = 0; i < accessors.length; i++) {
    const accessor = accessors[i];
    if (accessor.isDisposed()) continue;
    const parents = accessor.listParents();
    if (parents.length === 1 && parents[0] === root) accessor.dispose();
  }
}
