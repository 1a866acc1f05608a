/**
 * The sparse accessors' index and value views, made as glTF-Transform 4.5.1's writer makes them
 * (`concatSparseAccessors`), from typed arrays in one pass.
 *
 * Why: the writer tests every element through `getElement` and `MathUtils.eq` (two arrays per call),
 * about 40 ns an element. A `.car` of 4,000 distinct frames holds a weights track of 4,000 × 4,000
 * values, nearly all zero: its sparse views took 0.7 s of CPU, a third of the export, and grew with
 * the square of the frame count. Read here from the typed array, the same bytes come in a tenth of it.
 *
 * @module
 */
import type { Accessor, GLTF, TypedArray } from "@gltf-transform/core";

type IndexType = GLTF.AccessorComponentType;
const UNSIGNED_BYTE: IndexType = 5121, UNSIGNED_SHORT: IndexType = 5123, UNSIGNED_INT: IndexType = 5125;

/** One sparse accessor's non-zero elements. */
interface SparseEntry {
  readonly def: GLTF.IAccessor;
  readonly indices: Int32Array;
  readonly values: TypedArray;
}

/** The two views of a document's sparse accessors and the JSON that goes with them. */
export interface SparseBytes {
  /** The index view's bytes followed by the value view's (empty when every element is zero). */
  readonly bytes: Uint8Array;
  /** The index view's and value view's lengths (none when every element is zero). */
  readonly viewLengths: readonly [number, number] | readonly [];
}

/**
 * Whether {@link sparseViews} writes these accessors as glTF-Transform's writer would: arrays of
 * their own component type, not normalised (the writer's values pass through `getElement`, which
 * decodes a normalised integer to a fraction before storing it back into an integer array).
 */
export function sparseWritable(accessors: readonly Accessor[]): boolean {
  return accessors.every((accessor) => accessor.getArray() !== null && !accessor.getNormalized());
}

/**
 * Fills `defs` (the JSON of `accessors`, in order, their `count` and any bounds not yet set) with
 * their `sparse` entries pointing at buffer views `firstView` (indices) and `firstView + 1`
 * (values), and returns those views' bytes. An element counts as zero when no component differs
 * from 0 (`Math.abs(x) > 0` is false: 0, −0 and NaN), as in the writer.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { sparseViews } from "./sparse.ts";
 *
 * const doc = new Document();
 * const weights = doc.createAccessor().setType("SCALAR").setArray(new Float32Array([0, 1, 0])).setSparse(true);
 * const def = { type: "SCALAR", componentType: 5126, count: 0 } as const;
 * const { viewLengths } = sparseViews([weights], [{ ...def }], 0); // [4, 4]
 * ```
 */
export function sparseViews(
  accessors: readonly Accessor[],
  defs: readonly GLTF.IAccessor[],
  firstView: number,
): SparseBytes {
  const entries: SparseEntry[] = [];
  let maxIndex = -1;
  for (let a = 0; a < accessors.length; a++) {
    const accessor = accessors[a], def = defs[a];
    const array = accessor.getArray()!, size = accessor.getElementSize(), count = accessor.getCount();
    def.count = count;
    const indices = nonZeroElements(array, size, count);
    if (indices.length) maxIndex = Math.max(maxIndex, indices[indices.length - 1]);
    const values = new (array.constructor as new (n: number) => TypedArray)(indices.length * size);
    for (let k = 0; k < indices.length; k++) {
      for (let j = 0, at = indices[k] * size; j < size; j++) values[k * size + j] = array[at + j];
    }
    entries.push({ def, indices, values });
  }
  if (maxIndex < 0) return { bytes: new Uint8Array(0), viewLengths: [] };
  const [IndexArray, componentType] = maxIndex < 255
    ? [Uint8Array, UNSIGNED_BYTE]
    : maxIndex < 65535
    ? [Uint16Array, UNSIGNED_SHORT]
    : [Uint32Array, UNSIGNED_INT];
  const width = IndexArray.BYTES_PER_ELEMENT;
  let indexLength = 0, valueLength = 0;
  for (const { indices, values } of entries) {
    if (!indices.length) continue;
    indexLength += padded(indices.length * width);
    valueLength += padded(values.byteLength);
  }
  const bytes = new Uint8Array(indexLength + valueLength);
  let indexAt = 0, valueAt = 0;
  for (const { def, indices, values } of entries) {
    if (!indices.length) continue;
    bytes.set(new Uint8Array(new IndexArray(indices).buffer), indexAt);
    bytes.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), indexLength + valueAt);
    def.sparse = {
      count: indices.length,
      indices: { bufferView: firstView, byteOffset: indexAt, componentType },
      values: { bufferView: firstView + 1, byteOffset: valueAt },
    };
    indexAt += padded(indices.length * width);
    valueAt += padded(values.byteLength);
  }
  return { bytes, viewLengths: [indexLength, valueLength] };
}

/** Indices of the elements with a component that is not 0, −0 or NaN. */
function nonZeroElements(array: TypedArray, size: number, count: number): Int32Array {
  let found = 0;
  const end = count * size;
  for (let i = 0; i < end; i++) if (array[i] > 0 || array[i] < 0) found++;
  const indices = new Int32Array(Math.min(found, count));
  let n = 0;
  for (let e = 0; e < count && n < indices.length; e++) {
    for (let j = 0, at = e * size; j < size; j++) {
      const value = array[at + j];
      if (value > 0 || value < 0) {
        indices[n++] = e;
        break;
      }
    }
  }
  return indices.subarray(0, n);
}

function padded(length: number): number {
  return (length + 3) & ~3;
}
