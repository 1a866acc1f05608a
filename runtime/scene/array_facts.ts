/**
 * What one pass over an accessor's array finds — its non-finite values and bounds, or an index
 * array's largest value and whether it holds the strip-restart value — remembered per array, so
 * `export.gltf`'s repair check, the GLB writer's bounds and the output check read each array once
 * between them (they read it three times, for a big model most of the export's CPU time).
 *
 * Remembering by the array's identity is sound because arrays are values: no node writes into a
 * typed array once its scene is returned (`copy.ts`'s rule), and the export repair writes only
 * into arrays it allocated itself, before anything asks about them here.
 *
 * @module
 */
import type { TypedArray } from "@gltf-transform/core";

/** One pass over an array of elements of some size: non-finite values and per-component bounds. */
export interface ValueFacts {
  /** How many values are NaN or ±Infinity. */
  readonly nonFinite: number;
  /**
   * Per-component bounds as glTF-Transform's `getMin`/`getMax` then `Math.fround` give them (the GLB
   * writer's `min`/`max`): non-finite values skipped, ±Infinity for a component without a finite value.
   */
  readonly min: readonly number[];
  readonly max: readonly number[];
}

/** An index array's largest value and whether it holds its type's largest value (a strip restart). */
export interface IndexFacts {
  readonly max: number;
  readonly restart: boolean;
}

/** Values read by the passes of this module (a count for tests: each array should be read once). */
export const factsRead = { values: 0 };

/** Facts by array, with the element size they were read for (an array is read as one size in practice). */
const valueMemo = new WeakMap<TypedArray, { readonly elementSize: number; readonly facts: ValueFacts }>();
const indexMemo = new WeakMap<TypedArray, IndexFacts>();

/**
 * The {@link ValueFacts} of `array` read as elements of `elementSize` components, from one pass
 * (remembered: asked again of the same array, it reads nothing).
 *
 * @example
 * ```ts
 * import { valueFacts } from "./array_facts.ts";
 *
 * const facts = valueFacts(new Float32Array([0, 1, NaN, 2]), 2);
 * // facts.nonFinite === 1, facts.min === [0, 1], facts.max === [0, 2]
 * ```
 */
export function valueFacts(array: TypedArray, elementSize: number): ValueFacts {
  const known = valueMemo.get(array);
  if (known?.elementSize === elementSize) return known.facts;
  const facts = readValues(array, elementSize);
  valueMemo.set(array, { elementSize, facts });
  return facts;
}

/**
 * Component by component, `Math.min`/`Math.max` in element order, as `bounds` of the GLB writer
 * computes them (−0 and 0 come out as they do there). A function of its own with indexed loops, so
 * TurboFan compiles it small.
 */
function readValues(array: TypedArray, elementSize: number): ValueFacts {
  const min: number[] = [], max: number[] = [];
  const end = array.length;
  let nonFinite = 0;
  for (let j = 0; j < elementSize; j++) {
    let low = Infinity, high = -Infinity;
    for (let i = j; i < end; i += elementSize) {
      const value = array[i];
      if (Number.isFinite(value)) {
        low = Math.min(low, value);
        high = Math.max(high, value);
      } else nonFinite++;
    }
    min.push(Math.fround(low));
    max.push(Math.fround(high));
  }
  factsRead.values += end;
  return { nonFinite, min, max };
}

/** The {@link IndexFacts} of an index array (unsigned 8-, 16- or 32-bit), from one pass, remembered. */
export function indexFacts(array: TypedArray): IndexFacts {
  const known = indexMemo.get(array);
  if (known) return known;
  // The restart value is the type's largest: present exactly when it is the largest index.
  const restart = array instanceof Uint8Array ? 0xff : array instanceof Uint16Array ? 0xffff : 0xffffffff;
  let max = 0;
  for (let i = 0; i < array.length; i++) {
    const value = array[i];
    if (value > max) max = value;
  }
  factsRead.values += array.length;
  const facts = { max, restart: max === restart };
  indexMemo.set(array, facts);
  return facts;
}
