/**
 * glTF 1.0 buffers, buffer views and accessors as 2.0 has them: `buffer.type` gone, the binary
 * glTF body (`KHR_binary_glTF`'s `binary_glTF` buffer) as the GLB's first buffer, and each
 * accessor's `byteStride` moved to its buffer view — a view whose accessors have different strides
 * (COLLADA2GLTF keeps every attribute of a mesh in one view) split into one view per stride, as
 * gltf-pipeline's `updateVersion` does.
 *
 * @module
 */
import { COMPONENT_BYTES, TYPE_COMPONENTS } from "../../../../runtime/scene/gltf_codes.ts";
import type { Json } from "./checker.ts";
import { commonFields, type Gltf1Reader, pointer } from "./gltf1_reader.ts";
import type { Gltf1Paths } from "./gltf1_paths.ts";

/** The id KHR_binary_glTF gives the buffer that is the binary glTF body. */
export const BINARY_BUFFER = "binary_glTF";

/** 2.0 buffers, views and accessors, and where each came from in the 1.0 file. */
export interface UpgradedBuffers {
  readonly buffers: Json[];
  readonly bufferViews: Json[];
  readonly accessors: Json[];
  /** The 1.0 path of each 2.0 buffer view (split views share their original's). */
  readonly viewPaths: string[];
  /** The 1.0 path of each buffer (the binary body moved first). */
  readonly bufferPaths: string[];
  /** The 1.0 path of each accessor. */
  readonly accessorPaths: string[];
}

/**
 * Reads buffers, views and accessors. `binary` says the file is a binary glTF 1.0, whose
 * `binary_glTF` buffer becomes the first buffer, without a URI (the GLB's own chunk).
 */
export function upgradeBuffers(r: Gltf1Reader, binary: boolean): UpgradedBuffers {
  const bufferItems = r.items("buffers");
  // The GLB's own buffer must be buffer 0 in 2.0; the rest keep their order behind it.
  const order = bufferItems.map((_, i) => i);
  const body = binary ? bufferItems.findIndex(([id]) => id === BINARY_BUFFER) : -1;
  if (body > 0) order.splice(order.indexOf(body), 1), order.unshift(body);
  const newIndex = new Map(order.map((old, i) => [old, i]));
  const buffers = order.map((old) => {
    const [id, item] = bufferItems[old];
    const out: Json = { ...commonFields(id, item), byteLength: item.byteLength };
    // The binary body's URI (often "data:,") says nothing: the GLB chunk holds its bytes.
    if (!(old === body && binary) && item.uri !== undefined) out.uri = item.uri;
    return out;
  });
  const bufferPaths = order.map((old) => `/buffers/${pointer(bufferItems[old][0])}`);
  const bufferViews: Json[] = [];
  const viewPaths: string[] = [];
  for (const [id, item] of r.items("bufferViews")) {
    const path = `/bufferViews/${pointer(id)}`;
    const offset = item.byteOffset;
    if (offset !== undefined && offset !== null && (!Number.isInteger(offset) || (offset as number) < 0)) {
      r.fail(`${path}/byteOffset`, "an integer ≥ 0", offset);
    }
    const out: Json = {
      ...commonFields(id, item),
      buffer: newIndex.get(r.ref("buffers", item.buffer, `${path}/buffer`)),
      byteOffset: item.byteOffset ?? 0,
    };
    if (item.byteLength !== undefined && item.byteLength !== null) out.byteLength = item.byteLength;
    if (item.target !== undefined && item.target !== null) out.target = item.target;
    bufferViews.push(out);
    viewPaths.push(path);
  }
  const accessors = r.items("accessors").map(([id, item]) => {
    const path = `/accessors/${pointer(id)}`;
    const out: Json = { ...commonFields(id, item) };
    for (const key of ["byteOffset", "componentType", "count", "type", "min", "max", "normalized"]) {
      if (item[key] !== undefined && item[key] !== null) out[key] = item[key];
    }
    out.byteOffset ??= 0;
    // Read as numbers here (strides are grouped, views split): anything else is refused at its 1.0 path.
    for (const key of ["byteOffset", "count", "byteStride"]) {
      const value = item[key];
      if (value !== undefined && value !== null && (!Number.isInteger(value) || (value as number) < 0)) {
        r.fail(`${path}/${key}`, "an integer ≥ 0", value);
      }
    }
    if (item.bufferView !== undefined && item.bufferView !== null) {
      out.bufferView = r.ref("bufferViews", item.bufferView, `${path}/bufferView`);
    }
    if (item.byteStride !== undefined && item.byteStride !== null) out.byteStride = item.byteStride;
    return out;
  });
  const accessorPaths = r.items("accessors").map(([id]) => `/accessors/${pointer(id)}`);
  return { buffers, bufferViews, accessors, viewPaths, bufferPaths, accessorPaths };
}

/** Bytes of one element of an accessor, or undefined when its type or component type is unknown. */
function elementBytes(accessor: Json): number | undefined {
  const size = COMPONENT_BYTES[accessor.componentType as number];
  const components = TYPE_COMPONENTS[accessor.type as string];
  return size && components ? size * components : undefined;
}

/**
 * Moves each accessor's `byteStride` (1.0: 0 or absent for tightly packed) to its view: the
 * accessors of one view are grouped by stride, and a view with more than one group is split, each
 * group getting a view of its own spanning its accessors (their offsets made relative to it). A
 * view's missing `byteLength` (optional in 1.0) becomes the end of its last accessor.
 * `vertexAccessors` are those primitives read as attributes: only their views carry a stride. A
 * view's stride is recorded in `paths` as the `byteStride` of its first accessor, where 1.0 has it.
 */
export function moveStrides(
  up: UpgradedBuffers,
  vertexAccessors: ReadonlySet<number>,
  paths: Gltf1Paths,
): void {
  const groups = new Map<number, Map<number, number[]>>();
  up.accessors.forEach((accessor, i) => {
    const view = accessor.bufferView;
    if (typeof view !== "number") return;
    const element = elementBytes(accessor);
    const given = accessor.byteStride;
    delete accessor.byteStride;
    const stride = typeof given === "number" && given !== 0 ? given : element ?? 0;
    const byStride = groups.get(view) ?? new Map<number, number[]>();
    groups.set(view, byStride);
    const members = byStride.get(stride) ?? [];
    byStride.set(stride, members);
    members.push(i);
  });
  const end = (accessor: Json, stride: number) => {
    const count = typeof accessor.count === "number" ? accessor.count : 0;
    const offset = typeof accessor.byteOffset === "number" ? accessor.byteOffset : 0;
    const element = elementBytes(accessor) ?? 0;
    return count > 0 ? offset + (count - 1) * Math.max(stride, element) + element : offset;
  };
  for (const [viewIndex, byStride] of groups) {
    const view = up.bufferViews[viewIndex];
    const split = byStride.size > 1;
    for (const [stride, members] of byStride) {
      const accessors = members.map((i) => up.accessors[i]);
      const start = split ? accessors.reduce((min, a) => Math.min(min, a.byteOffset as number), Infinity) : 0;
      const target = split ? { ...view, byteOffset: (view.byteOffset as number) + start } : view;
      if (split) {
        target.byteLength = accessors.reduce((max, a) => Math.max(max, end(a, stride)), 0) - start;
        for (const accessor of accessors) accessor.byteOffset = (accessor.byteOffset as number) - start;
      } else if (target.byteLength === undefined) {
        target.byteLength = accessors.reduce((max, a) => Math.max(max, end(a, stride)), 0);
      }
      // A stride only where vertex attributes are read and the data is not tightly packed.
      const packed = accessors.every((a) => elementBytes(a) === stride);
      if (members.some((i) => vertexAccessors.has(i)) && !packed && stride > 0) target.byteStride = stride;
      let at = viewIndex;
      if (split) {
        at = up.bufferViews.length;
        up.bufferViews.push(target);
        up.viewPaths.push(up.viewPaths[viewIndex]);
        for (const i of members) up.accessors[i].bufferView = at;
      }
      paths.moved(`/bufferViews/${at}/byteStride`, `${up.accessorPaths[members[0]]}/byteStride`);
    }
  }
}
