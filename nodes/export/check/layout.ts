/**
 * Buffers, buffer views and accessors of a written GLB: each accessor's place in the BIN chunk,
 * checked against the validator's layout rules (types, counts, alignment, fit in its view and the
 * view in the buffer), so the data checks can read it with one typed array and a step.
 *
 * @module
 */
import {
  collection,
  int,
  intAt,
  type Json,
  keys,
  number,
  optionalInt,
  optionalIntAt,
  shaped,
} from "./json.ts";
import { outside } from "./verdict.ts";
import { COMPONENT_BYTES, FLOAT, TYPE_COMPONENTS, UNSIGNED_INT } from "../../../runtime/scene/gltf_codes.ts";

export { COMPONENT_BYTES, FLOAT, UNSIGNED_INT };

/** One buffer view. */
export interface ViewLayout {
  readonly byteOffset: number;
  readonly byteLength: number;
  readonly byteStride?: number;
  readonly target?: number;
}

/** Where a sparse accessor's substitutions are, in the BIN chunk. */
export interface SparseLayout {
  readonly count: number;
  readonly indexType: number;
  readonly indicesStart: number;
  readonly valuesStart: number;
  readonly views: readonly [number, number];
}

/** One accessor, located in the BIN chunk. */
export interface AccessorLayout {
  readonly pointer: string;
  readonly type: string;
  readonly componentType: number;
  readonly normalized: boolean;
  readonly count: number;
  readonly components: number;
  /** Its buffer view; undefined for a sparse accessor over zeros (or one of zeros only). */
  readonly view?: number;
  readonly sparse?: SparseLayout;
  /** The accessor's byteOffset inside its view. */
  readonly offsetInView: number;
  /** Byte offset of the first element in the BIN chunk. */
  readonly start: number;
  /** Bytes from one element to the next. */
  readonly stride: number;
  readonly elementBytes: number;
  readonly min?: readonly number[];
  readonly max?: readonly number[];
}

const BUFFER_KEYS = keys("byteLength");
const DATA_URI_BUFFER_KEYS = keys("byteLength", "uri");
const SPARSE_KEYS = keys("count", "indices", "values");
const SPARSE_INDICES_KEYS = keys("bufferView", "byteOffset", "componentType");
const SPARSE_VALUES_KEYS = keys("bufferView", "byteOffset");
const VIEW_KEYS = keys("buffer", "byteOffset", "byteLength", "byteStride", "target");
const ACCESSOR_KEYS = keys(
  "bufferView",
  "byteOffset",
  "componentType",
  "normalized",
  "count",
  "type",
  "min",
  "max",
  "sparse",
);

/**
 * The one buffer (a GLB's BIN chunk, or a `.gltf`'s data URI, already decoded as `bin`) and its
 * views; anything else is outside the check.
 */
export function readViews(root: Json, bin: Uint8Array | undefined, format: "glb" | "gltf"): ViewLayout[] {
  const buffers = collection(root, "buffers");
  if (buffers.length > 1) outside("more than one buffer", "/buffers");
  if (buffers.length !== (bin ? 1 : 0)) outside("buffers and BIN chunk do not pair up", "/buffers");
  let bufferLength = 0;
  if (bin) {
    const buffer = shaped(buffers[0], "/buffers/0", format === "glb" ? BUFFER_KEYS : DATA_URI_BUFFER_KEYS);
    // Declared ≤ actual; the BIN chunk (or data) may carry up to 3 bytes of padding more.
    bufferLength = int(buffer.byteLength, "/buffers/0/byteLength", bin.byteLength + 1, 1);
    if (bin.byteLength - bufferLength > 3) outside("BIN chunk longer than its buffer", "/buffers/0");
  }
  return collection(root, "bufferViews").map((value, i) => {
    const pointer = `/bufferViews/${i}`;
    const view = shaped(value, pointer, VIEW_KEYS);
    intAt(view, "buffer", pointer, buffers.length);
    const byteOffset = optionalIntAt(view, "byteOffset", pointer) ?? 0;
    const byteLength = intAt(view, "byteLength", pointer, Number.MAX_SAFE_INTEGER, 1);
    if (byteOffset + byteLength > bufferLength) outside("buffer view past its buffer", pointer);
    const byteStride = optionalIntAt(view, "byteStride", pointer, 253, 4);
    if (byteStride !== undefined && (byteStride % 4 !== 0 || byteStride > byteLength)) {
      outside("byteStride not a multiple of 4 within the view", `${pointer}/byteStride`);
    }
    const target = optionalIntAt(view, "target", pointer);
    if (target !== undefined && target !== 34962 && target !== 34963) outside("unknown target", pointer);
    return { byteOffset, byteLength, byteStride, target };
  });
}

/** Every accessor, located and checked to fit its view (and its sparse substitutions theirs). */
export function readAccessors(root: Json, views: readonly ViewLayout[]): AccessorLayout[] {
  return collection(root, "accessors").map((value, i) => {
    const pointer = `/accessors/${i}`;
    const accessor = shaped(value, pointer, ACCESSOR_KEYS);
    const componentType = intAt(accessor, "componentType", pointer);
    const componentBytes = COMPONENT_BYTES[componentType];
    const type = accessor.type as string;
    const components = TYPE_COMPONENTS[type];
    if (!componentBytes || !components) outside("component type or type outside glTF 2.0 core", pointer);
    if (type.startsWith("MAT") && componentBytes < 4) outside("matrix of 1- or 2-byte components", pointer);
    const normalized = accessor.normalized === undefined ? false : accessor.normalized;
    if (typeof normalized !== "boolean" || (normalized && componentBytes > 2)) {
      outside("normalized is not false for this component type", `${pointer}/normalized`);
    }
    const count = intAt(accessor, "count", pointer, Number.MAX_SAFE_INTEGER, 1);
    const elementBytes = components * componentBytes;
    const sparse = accessor.sparse === undefined
      ? undefined
      : readSparse(accessor.sparse, `${pointer}/sparse`, views, count, componentBytes * components);
    const view = optionalIntAt(accessor, "bufferView", pointer, views.length);
    const offsetInView = optionalIntAt(accessor, "byteOffset", pointer) ?? 0;
    let stride = elementBytes;
    if (view !== undefined) {
      const { byteOffset, byteLength, byteStride } = views[view];
      stride = byteStride ?? elementBytes;
      if (offsetInView % componentBytes !== 0 || (byteOffset + offsetInView) % componentBytes !== 0) {
        outside("accessor offset not aligned to its component size", pointer);
      }
      if (stride < elementBytes) outside("byteStride shorter than an element", pointer);
      if (offsetInView + stride * (count - 1) + elementBytes > byteLength) {
        outside("accessor does not fit its buffer view", pointer);
      }
    } else if (offsetInView !== 0) outside("byteOffset without a buffer view", pointer);
    const bounds = (key: "min" | "max") => {
      if (accessor[key] === undefined) return undefined;
      const list = accessor[key];
      if (!Array.isArray(list) || list.length !== components) outside(`${key} of the wrong length`, pointer);
      // Bounds of normalized data are compared by the validator in a way not reproduced here.
      if (normalized) outside(`${key} of a normalized accessor`, pointer);
      // The pointer of a component is spelt only for one that is not a finite number.
      return list.map((v, c) =>
        typeof v === "number" && Number.isFinite(v) ? v : number(v, `${pointer}/${key}/${c}`)
      );
    };
    return {
      pointer,
      type,
      componentType,
      normalized,
      count,
      components,
      view,
      sparse,
      offsetInView,
      start: view === undefined ? 0 : views[view].byteOffset + offsetInView,
      stride,
      elementBytes,
      min: bounds("min"),
      max: bounds("max"),
    };
  });
}

/** A sparse accessor's substitutions: `count` indices and values, each fitting its (plain) view. */
function readSparse(
  value: unknown,
  pointer: string,
  views: readonly ViewLayout[],
  accessorCount: number,
  elementBytes: number,
): SparseLayout {
  const sparse = shaped(value, pointer, SPARSE_KEYS);
  const count = int(sparse.count, `${pointer}/count`, accessorCount + 1, 1);
  const part = (key: "indices" | "values", bytes: (indexBytes: number) => number) => {
    const at = `${pointer}/${key}`;
    const item = shaped(
      sparse[key],
      at,
      key === "indices" ? SPARSE_INDICES_KEYS : SPARSE_VALUES_KEYS,
    );
    const view = int(item.bufferView, `${at}/bufferView`, views.length);
    const offset = optionalInt(item.byteOffset, `${at}/byteOffset`) ?? 0;
    const indexType = key === "indices" ? int(item.componentType, `${at}/componentType`) : 0;
    if (key === "indices" && ![5121, 5123, 5125].includes(indexType)) outside("sparse index type", at);
    const { byteOffset, byteLength, byteStride, target } = views[view];
    const size = key === "indices" ? COMPONENT_BYTES[indexType] : 4;
    if (byteStride !== undefined || target !== undefined) {
      outside("sparse data in a strided or targeted view", at);
    }
    if ((byteOffset + offset) % size !== 0 || offset + bytes(COMPONENT_BYTES[indexType] ?? 0) > byteLength) {
      outside("sparse data misaligned or past its view", at);
    }
    return { view, start: byteOffset + offset, indexType };
  };
  const indices = part("indices", (indexBytes) => indexBytes * count);
  const values = part("values", () => elementBytes * count);
  return {
    count,
    indexType: indices.indexType,
    indicesStart: indices.start,
    valuesStart: values.start,
    views: [indices.view, values.view],
  };
}
