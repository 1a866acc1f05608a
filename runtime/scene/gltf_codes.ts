/**
 * glTF 2.0's accessor codes (§5.1): component types with their sizes and typed arrays, and the
 * number of components of each accessor type. One table for the readers, the writer and the checks.
 *
 * @module
 */

/** A typed array of one of glTF's six core component types. */
export type ComponentArray =
  | Int8Array<ArrayBuffer>
  | Uint8Array<ArrayBuffer>
  | Int16Array<ArrayBuffer>
  | Uint16Array<ArrayBuffer>
  | Uint32Array<ArrayBuffer>
  | Float32Array<ArrayBuffer>;

/** The class of a {@link ComponentArray}. */
export interface ComponentArrayType {
  new (length: number): ComponentArray;
  new (buffer: ArrayBuffer, byteOffset?: number, length?: number): ComponentArray;
  readonly BYTES_PER_ELEMENT: number;
}

/** The FLOAT component type. */
export const FLOAT = 5126;
/** The UNSIGNED_INT component type (indices only; never a vertex attribute). */
export const UNSIGNED_INT = 5125;

/** The typed array of each core component type, by its glTF code. */
export const COMPONENT_ARRAYS: Readonly<Record<number, ComponentArrayType>> = {
  5120: Int8Array,
  5121: Uint8Array,
  5122: Int16Array,
  5123: Uint16Array,
  5125: Uint32Array,
  5126: Float32Array,
};

/** Bytes per component, by component type. */
export const COMPONENT_BYTES: Readonly<Record<number, number>> = Object.fromEntries(
  Object.entries(COMPONENT_ARRAYS).map(([code, type]) => [code, type.BYTES_PER_ELEMENT]),
);

/** Components per element, by accessor type. */
export const TYPE_COMPONENTS: Readonly<Record<string, number>> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};
