/**
 * The data rules of the Khronos validator, over the BIN chunk: one typed-array loop per accessor
 * and rule, no allocation per element. Thresholds and arithmetic follow the validator 2.0.0-dev.3.10
 * (sums of squares of float32 values in double precision; weight sums rounded to float32 at each
 * step), so the first error found is one it reports too.
 *
 * @module
 */
import type { AccessorLayout } from "./layout.ts";
import { COMPONENT_ARRAYS as ARRAYS, COMPONENT_BYTES, FLOAT } from "../../../runtime/scene/gltf_codes.ts";
import { type AttributePlace, type InfluenceSet, type Plan, spelt } from "./plan.ts";
import { invalid, outside } from "./verdict.ts";
import type { TypedArray } from "@gltf-transform/core";
import { indexFacts, valueFacts } from "../../../runtime/scene/array_facts.ts";
import { nonUnitVectors } from "../unit_vectors.ts";

/** The validator's tolerance for a unit normal or tangent, on the length. */
const VECTOR_TOLERANCE = 0.00674;
/** The validator's tolerance for a unit rotation (node or animation output), on the length. */
export const QUATERNION_TOLERANCE = 0.00769;
/** Squared lengths surely within {@link VECTOR_TOLERANCE} of 1 ((1 ± 0.00674)², rounded inwards). */
const UNIT_SQUARED_LOW = 0.98657, UNIT_SQUARED_HIGH = 1.01352;
/** How much a float32 weight sum may drift from 1, per weight added. */
const WEIGHT_SUM_STEP = 2e-7;
const RESTART: Readonly<Record<number, number>> = { 5121: 0xff, 5123: 0xffff, 5125: 0xffffffff };

/** An accessor's components: component `c` of element `i` is `array[i * step + c]`. */
interface Components {
  readonly array: ArrayLike<number>;
  readonly step: number;
}

/** A sparse accessor's substitutions, read in place: element `indices[k]` is `values[k * n + c]`. */
interface Substitutions {
  readonly indices: ArrayLike<number>;
  readonly values: ArrayLike<number>;
}

/**
 * A typed view of an accessor's elements in `bin` (aligned: `bin.byteOffset` is a multiple of 4);
 * for a sparse accessor, its elements with the substitutions made (one array for the accessor).
 * Undefined for an accessor with neither view nor sparse data, which the validator does not read.
 */
function components(bin: Uint8Array, a: AccessorLayout): Components | undefined {
  if (a.view === undefined && !a.sparse) return undefined;
  const size = COMPONENT_BYTES[a.componentType];
  const Typed = ARRAYS[a.componentType];
  const dense = a.view === undefined ? undefined : new Typed(
    bin.buffer as ArrayBuffer,
    bin.byteOffset + a.start,
    ((a.count - 1) * a.stride + a.elementBytes) / size,
  );
  const step = a.stride / size;
  binRead.views++;
  if (!a.sparse) return { array: dense!, step };
  return expanded(a, substitutions(bin, a), dense, step);
}

/**
 * The substitutions of sparse accessor `a`, their indices checked (strictly increasing, below the
 * count) and the accessor's size bounded, in the validator's order.
 */
function substitutions(bin: Uint8Array, a: AccessorLayout): Substitutions {
  const { count, indexType, indicesStart, valuesStart } = a.sparse!;
  const indices = new ARRAYS[indexType](bin.buffer as ArrayBuffer, bin.byteOffset + indicesStart, count);
  const pointer = `${a.pointer}/sparse`;
  for (let k = 0; k < count; k++) {
    if (k > 0 && indices[k] <= indices[k - 1]) {
      invalid("ACCESSOR_SPARSE_INDICES_NON_INCREASING", pointer, `index ${k}`);
    }
    if (indices[k] >= a.count) invalid("ACCESSOR_SPARSE_INDEX_OOB", pointer, `index ${k} is ${indices[k]}`);
  }
  // The writer made this accessor from an array of this size; the bound only keeps a damaged count
  // from allocating without limit.
  if (a.count * a.components > 2 ** 28) outside("sparse accessor too large to expand", pointer);
  const Typed = ARRAYS[a.componentType];
  return {
    indices,
    values: new Typed(bin.buffer as ArrayBuffer, bin.byteOffset + valuesStart, count * a.components),
  };
}

/** Sparse accessor `a`'s elements: `dense` (zeros without a view) with `substituted`'s values put in. */
function expanded(
  a: AccessorLayout,
  { indices, values }: Substitutions,
  dense: ArrayLike<number> | undefined,
  step: number,
): Components {
  const n = a.components;
  const out = new ARRAYS[a.componentType](a.count * n);
  if (dense) {
    for (let i = 0; i < a.count; i++) for (let c = 0; c < n; c++) out[i * n + c] = dense[i * step + c];
  }
  for (let k = 0; k < indices.length; k++) {
    for (let c = 0; c < n; c++) out[indices[k] * n + c] = values[k * n + c];
  }
  return { array: out, step: n };
}

/** The value a normalized integer stands for, as glTF defines it; other values as they are. */
function dequantize(a: AccessorLayout): (v: number) => number {
  if (!a.normalized) return (v) => v;
  switch (a.componentType) {
    case 5120:
      return (v) => Math.max(v / 127, -1);
    case 5121:
      return (v) => v / 255;
    case 5122:
      return (v) => Math.max(v / 32767, -1);
    default:
      return (v) => v / 65535;
  }
}

/**
 * What the rules read from binary chunks (a count for tests: what `sources` spares is not read):
 * values, and typed views made over an accessor's bytes.
 */
export const binRead = { values: 0, views: 0 };

/**
 * Runs every data rule of `plan` and of each accessor; stops at the first error. `sources[i]`, when
 * given, is the array accessor `i` was written from byte for byte (see `checkOutput`): the finite
 * values, bounds, index and unit-normal rules take the array's remembered pass (one the export's repair
 * and the writer's bounds share) instead of reading the chunk again. A dense accessor's view over the
 * chunk is made only when a rule reads it: for a clean file the sources answer every rule, and a ship's
 * thousand small accessors made a thousand views read by none.
 */
export function checkData(
  bin: Uint8Array,
  accessors: readonly AccessorLayout[],
  plan: Plan,
  sources?: readonly (TypedArray | null)[],
): void {
  const read = new Map<AccessorLayout, Components>();
  const source = new Map<AccessorLayout, TypedArray>();
  if (sources) {
    for (let i = 0; i < accessors.length; i++) {
      const array = writtenFrom(accessors[i], sources[i]);
      if (array) source.set(accessors[i], array);
    }
  }
  // Sparse accessors over zeros (a morph weights track: frames × targets values, few not zero) are
  // checked as stored, and expanded only if a rule below reads them.
  const overZeros = new Map<AccessorLayout, Substitutions>();
  for (const accessor of accessors) {
    if (accessor.view === undefined && accessor.sparse && accessor.count > 0) {
      const substituted = substitutions(bin, accessor);
      overZeros.set(accessor, substituted);
      checkSubstitutedValuesAndBounds(accessor, substituted);
      continue;
    }
    if (accessor.view === undefined && !accessor.sparse) continue; // no data: the validator reads none
    const array = source.get(accessor);
    if (array && vouchedValuesAndBounds(accessor, array)) continue;
    // An integer accessor without bounds has nothing to check here (and a dense one no view yet).
    if (!accessor.sparse && accessor.componentType !== FLOAT && !accessor.min && !accessor.max) continue;
    const data = components(bin, accessor)!;
    read.set(accessor, data);
    checkValuesAndBounds(accessor, data);
  }
  const dataOf = (accessor: AccessorLayout): Components | undefined => {
    let data = read.get(accessor);
    if (data) return data;
    const substituted = overZeros.get(accessor);
    if (substituted) data = expanded(accessor, substituted, undefined, 0);
    // A dense accessor the loop above had no need to view (sparse ones with a view were all read there).
    else if (accessor.view !== undefined && !accessor.sparse) data = components(bin, accessor);
    if (data) read.set(accessor, data);
    return data;
  };
  // Each rule runs over the accessors that have data (the validator skips the others); `data` makes
  // the view on the rule's first read.
  const each = <T extends { accessor: AccessorLayout }>(
    list: T[],
    rule: (t: T, data: () => Components) => void,
  ) => {
    for (const item of list) {
      const accessor = item.accessor;
      if (accessor.view === undefined && !accessor.sparse) continue;
      if (accessor.view === undefined && accessor.count === 0) continue; // sparse over zeros, empty
      rule(item, () => dataOf(accessor)!);
    }
  };
  const largest = new Map<AccessorLayout, number>();
  each(plan.indices, ({ accessor, vertexCount, pointer }, data) => {
    let max = largest.get(accessor);
    if (max === undefined) {
      const array = source.get(accessor);
      const facts = array && indexFacts(array);
      // With a restart value, read again for the validator's message (its first place).
      max = facts && !facts.restart ? facts.max : checkRestart(accessor, data(), pointer);
      largest.set(accessor, max);
    }
    if (max >= vertexCount) {
      invalid("ACCESSOR_INDEX_OOB", pointer, `index value ${max} ≥ vertex count ${vertexCount}`);
    }
  });
  each(plan.unitVectors, (place, data) => {
    const { accessor, tangent } = place;
    // Unit by the repair's tolerance (stricter than the validator's) passes the validator's test.
    const array = tangent ? undefined : source.get(accessor);
    if (array && accessor.componentType === FLOAT && nonUnitVectors(array) === 0) return;
    checkUnit(accessor, data(), place, tangent);
  });
  each(plan.clamped, (place, data) => checkClamped(place.accessor, data(), place));
  each(plan.times, ({ accessor, pointer }, data) => checkTimes(accessor, data(), pointer));
  each(
    plan.rotations,
    ({ accessor, pointer, cubic }, data) => checkRotations(accessor, data(), pointer, cubic),
  );
  each(plan.inverseBinds, ({ accessor, pointer }, data) => checkInverseBinds(accessor, data(), pointer));
  for (const { sets, maxJoint } of plan.influences) {
    const data = sets.map((s) => [dataOf(s.joints), dataOf(s.weights)]);
    if (data.every(([j, w]) => j && w)) checkInfluences(data as [Components, Components][], sets, maxJoint);
  }
}

/**
 * `array` when accessor `a`'s data in the chunk is its bytes — a dense accessor of the same component
 * type and size (what the writer says it wrote, checked against what the JSON says) — else undefined.
 */
function writtenFrom(a: AccessorLayout, array: TypedArray | null | undefined): TypedArray | undefined {
  if (!array || a.view === undefined || a.sparse || a.count === 0) return undefined;
  if (array.constructor !== ARRAYS[a.componentType] || array.length !== a.count * a.components) {
    return undefined;
  }
  return array;
}

/**
 * {@link checkValuesAndBounds} of a float accessor from its source array's remembered pass, when that
 * finds every value finite (true: checked, with the same verdict); false to read the chunk instead (an
 * integer accessor, whose bounds the writer rounds to float32; a non-finite value, whose place the
 * validator's message names).
 */
function vouchedValuesAndBounds(a: AccessorLayout, array: TypedArray): boolean {
  if (a.componentType !== FLOAT) return false;
  const facts = valueFacts(array, a.components);
  if (facts.nonFinite) return false;
  // Float32 values: the pass's `Math.fround`ed bounds are the values themselves (±0 compare equal).
  for (let c = 0; c < a.components; c++) {
    if (a.min && a.min[c] !== facts.min[c]) {
      invalid("ACCESSOR_MIN_MISMATCH", `${a.pointer}/min/${c}`, `actual ${facts.min[c]}`);
    }
    if (a.max && a.max[c] !== facts.max[c]) {
      invalid("ACCESSOR_MAX_MISMATCH", `${a.pointer}/max/${c}`, `actual ${facts.max[c]}`);
    }
  }
  return true;
}

/** Finite floats (ACCESSOR_INVALID_FLOAT); declared min/max equal to the data's (ACCESSOR_M*_MISMATCH). */
function checkValuesAndBounds(a: AccessorLayout, { array, step }: Components): void {
  const n = a.components;
  const float = a.componentType === FLOAT;
  if (float) {
    binRead.values += a.count * n;
    for (let i = 0; i < a.count; i++) {
      for (let c = 0, at = i * step; c < n; c++) {
        if (!Number.isFinite(array[at + c])) {
          invalid("ACCESSOR_INVALID_FLOAT", a.pointer, `element ${i * n + c}`);
        }
      }
    }
  }
  if (!a.min && !a.max) return;
  binRead.values += a.count * n;
  for (let c = 0; c < n; c++) {
    let low = array[c], high = array[c];
    for (let i = 1, at = step + c; i < a.count; i++, at += step) {
      const v = array[at];
      if (v < low) low = v;
      if (v > high) high = v;
    }
    if (a.min && a.min[c] !== low) invalid("ACCESSOR_MIN_MISMATCH", `${a.pointer}/min/${c}`, `actual ${low}`);
    if (a.max && a.max[c] !== high) {
      invalid("ACCESSOR_MAX_MISMATCH", `${a.pointer}/max/${c}`, `actual ${high}`);
    }
  }
}

/**
 * {@link checkValuesAndBounds} of a sparse accessor over zeros, read as stored: its values in element
 * order (indices increase), and a zero wherever an element is not substituted. The same first error,
 * with the same message, as the expanded accessor gives (a zero is finite; `-0` and `0` compare and
 * print alike).
 */
function checkSubstitutedValuesAndBounds(a: AccessorLayout, { indices, values }: Substitutions): void {
  const n = a.components, count = indices.length;
  if (a.componentType === FLOAT) {
    for (let k = 0; k < count; k++) {
      for (let c = 0; c < n; c++) {
        if (!Number.isFinite(values[k * n + c])) {
          invalid("ACCESSOR_INVALID_FLOAT", a.pointer, `element ${indices[k] * n + c}`);
        }
      }
    }
  }
  if (!a.min && !a.max) return;
  const zeros = count < a.count;
  for (let c = 0; c < n; c++) {
    let low = zeros ? 0 : values[c], high = low;
    for (let k = 0, at = c; k < count; k++, at += n) {
      const v = values[at];
      if (v < low) low = v;
      if (v > high) high = v;
    }
    if (a.min && a.min[c] !== low) invalid("ACCESSOR_MIN_MISMATCH", `${a.pointer}/min/${c}`, `actual ${low}`);
    if (a.max && a.max[c] !== high) {
      invalid("ACCESSOR_MAX_MISMATCH", `${a.pointer}/max/${c}`, `actual ${high}`);
    }
  }
}

/** Refuses primitive-restart values; returns the largest index. */
function checkRestart(a: AccessorLayout, { array, step }: Components, pointer: string): number {
  const restart = RESTART[a.componentType];
  binRead.values += a.count;
  let max = 0;
  for (let i = 0, at = 0; i < a.count; i++, at += step) {
    const v = array[at];
    if (v === restart) invalid("ACCESSOR_INDEX_PRIMITIVE_RESTART", pointer, `restart value at index ${i}`);
    if (v > max) max = v;
  }
  return max;
}

function checkUnit(
  a: AccessorLayout,
  { array, step }: Components,
  place: AttributePlace,
  tangent: boolean,
): void {
  binRead.values += a.count * (tangent ? 4 : 3);
  for (let i = 0, at = 0; i < a.count; i++, at += step) {
    const x = array[at], y = array[at + 1], z = array[at + 2];
    const squared = x * x + y * y + z * z;
    if (!(squared > UNIT_SQUARED_LOW && squared < UNIT_SQUARED_HIGH)) {
      if (Math.abs(Math.sqrt(squared) - 1) > VECTOR_TOLERANCE) {
        invalid("ACCESSOR_VECTOR3_NON_UNIT", spelt(place), `element ${i} has length ${Math.sqrt(squared)}`);
      }
    }
    if (tangent && array[at + 3] !== 1 && array[at + 3] !== -1) {
      invalid("ACCESSOR_INVALID_SIGN", spelt(place), `element ${i} has w ${array[at + 3]}`);
    }
  }
}

function checkClamped(a: AccessorLayout, { array, step }: Components, place: AttributePlace): void {
  for (let i = 0, at = 0; i < a.count; i++, at += step) {
    for (let c = 0; c < a.components; c++) {
      const v = array[at + c];
      if (v > 1 || v < 0) {
        invalid("ACCESSOR_NON_CLAMPED", spelt(place), `element ${i} component ${c} is ${v}`);
      }
    }
  }
}

function checkTimes(a: AccessorLayout, { array, step }: Components, pointer: string): void {
  let previous = -Infinity;
  for (let i = 0, at = 0; i < a.count; i++, at += step) {
    const v = array[at];
    if (v < 0) invalid("ACCESSOR_ANIMATION_INPUT_NEGATIVE", pointer, `time ${i} is ${v}`);
    if (i !== 0 && v <= previous) {
      invalid(
        "ACCESSOR_ANIMATION_INPUT_NON_INCREASING",
        pointer,
        `time ${i} (${v}) ≤ time ${i - 1} (${previous})`,
      );
    }
    previous = v;
  }
}

function checkRotations(
  a: AccessorLayout,
  { array, step }: Components,
  pointer: string,
  cubic: boolean,
): void {
  const value = dequantize(a);
  // A cubic-spline key is (in-tangent, value, out-tangent): only the value must be a unit quaternion.
  for (let i = cubic ? 1 : 0, at = i * step; i < a.count; i += cubic ? 3 : 1, at += step * (cubic ? 3 : 1)) {
    const x = value(array[at]), y = value(array[at + 1]), z = value(array[at + 2]), w = value(array[at + 3]);
    const length = Math.sqrt(x * x + y * y + z * z + w * w);
    if (Math.abs(length - 1) > QUATERNION_TOLERANCE) {
      invalid(
        "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
        pointer,
        `key ${i}: length ${length}`,
      );
    }
  }
}

function checkInverseBinds(a: AccessorLayout, { array, step }: Components, pointer: string): void {
  for (let i = 0, at = 0; i < a.count; i++, at += step) {
    if (array[at + 3] !== 0 || array[at + 7] !== 0 || array[at + 11] !== 0 || array[at + 15] !== 1) {
      invalid("ACCESSOR_INVALID_IBM", pointer, `matrix ${i} has a last row other than (0, 0, 0, 1)`);
    }
  }
}

/**
 * Skin influences of one primitive, in the validator's order (component by component, set by set):
 * joints below the skin's joint count, no joint twice with a non-zero weight, weights ≥ 0, and
 * each vertex's weights summing to 1 within float32 rounding.
 */
function checkInfluences(data: [Components, Components][], sets: InfluenceSet[], maxJoint: number): void {
  const weightOf = sets.map((s) => dequantize(s.weights));
  const used = new Float64Array(4 * sets.length);
  const count = sets[0].joints.count;
  for (let v = 0; v < count; v++) {
    let sum = 0, tolerance = 0, usedCount = 0;
    for (let c = 0; c < 4; c++) {
      for (let s = 0; s < sets.length; s++) {
        const [joints, weights] = data[s];
        const joint = joints.array[v * joints.step + c];
        const pointer = sets[s].pointer;
        if (joint > maxJoint) {
          invalid("ACCESSOR_JOINTS_INDEX_OOB", `${pointer}/JOINTS_${s}`, `vertex ${v}: ${joint}`);
        }
        const weight = weightOf[s](weights.array[v * weights.step + c]);
        if (weight === 0) continue;
        for (let u = 0; u < usedCount; u++) {
          if (used[u] === joint) {
            invalid("ACCESSOR_JOINTS_INDEX_DUPLICATE", `${pointer}/JOINTS_${s}`, `vertex ${v}`);
          }
        }
        used[usedCount++] = joint;
        if (weight < 0) {
          invalid("ACCESSOR_WEIGHTS_NEGATIVE", `${pointer}/WEIGHTS_${s}`, `vertex ${v}: ${weight}`);
        }
        sum = Math.fround(sum + weight);
        tolerance += WEIGHT_SUM_STEP;
      }
    }
    if (Math.abs(sum - 1) > tolerance) {
      invalid(
        "ACCESSOR_WEIGHTS_NON_NORMALIZED",
        `${sets[0].pointer}/WEIGHTS_0`,
        `vertex ${v} sums to ${sum}`,
      );
    }
  }
}
