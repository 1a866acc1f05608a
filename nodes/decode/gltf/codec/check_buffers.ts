/**
 * The buffer half of the glTF structure check: buffers hold the bytes they claim, views lie inside
 * their buffers with strides in range, and meshopt-compressed views decode to a size in proportion
 * to their compressed bytes. Repairs what exporters write harmlessly (a stride that is its data's
 * element size, a length counting padding, an unknown target).
 *
 * @module
 */
import { describe } from "./container.ts";
import type { Checker, Json } from "./checker.ts";
import { COMPONENT_BYTES, TYPE_COMPONENTS } from "../../../../runtime/scene/gltf_codes.ts";

/** Buffers and buffer views: lengths within their data, strides, targets and meshopt compression. */
export function checkBuffers(c: Checker): void {
  c.list("buffers").forEach((buffer, i) => {
    const path = `/buffers/${i}`;
    const length = c.int(buffer, "byteLength", path, Number.MAX_SAFE_INTEGER, 1);
    if (length === undefined) c.fail(`${path}/byteLength`, "a byte length", undefined);
    const data = c.bufferData(i);
    // Only a meshopt fallback buffer may be without data (its views are decoded, not read).
    const fallback = meshoptOf(c, buffer, path);
    if (fallback) checkFallback(c, fallback, `${path}/extensions/${fallback.name}`, data !== undefined);
    if (data === undefined && !fallback) {
      const glbChunk = i === 0 && c.source.format === "glb" && buffer.uri === undefined;
      c.fail(
        `${path}${buffer.uri === undefined ? "" : "/uri"}`,
        glbChunk ? "the GLB's binary chunk" : "embedded data",
        buffer.uri ?? "none",
      );
    }
    if (data && data.byteLength < length!) {
      // Writers that count the GLB chunk's padding, or a .bin's, in the length: harmless while every
      // view lies in the bytes present (viewers read views, not the whole buffer).
      const end = viewsEnd(c, i);
      if (end > data.byteLength) {
        c.fail(`${path}/byteLength`, `at most the ${data.byteLength} bytes present`, length);
      }
      buffer.byteLength = data.byteLength;
      c.repaired(
        `${path}/byteLength`,
        `${length} is past the ${data.byteLength} bytes present, which hold all its views: read as ${data.byteLength}`,
      );
    }
  });
  const buffers = c.list("buffers");
  const elementSizes = elementSizesByView(c);
  // Views holding 8- or 16-bit integers, and views holding anything else (floats, 32-bit integers).
  const integerViews = new Set<number>(), floatViews = new Set<number>();
  for (const accessor of c.list("accessors")) {
    const small = COMPONENT_BYTES[accessor.componentType as number] <= 2;
    (small ? integerViews : floatViews).add(accessor.bufferView as number);
  }
  c.list("bufferViews").forEach((view, i) => {
    const path = `/bufferViews/${i}`;
    const buffer = c.index(view, "buffer", path, "buffers");
    if (buffer === undefined) c.fail(`${path}/buffer`, "a buffer index", undefined);
    const available = buffers[buffer!].byteLength as number;
    const offset = c.int(view, "byteOffset", path) ?? 0;
    const length = c.int(view, "byteLength", path, Number.MAX_SAFE_INTEGER, 1);
    if (length === undefined) c.fail(`${path}/byteLength`, "a byte length", undefined);
    if (offset + length! > available) {
      c.fail(`${path}/byteLength`, `offset + length within the buffer's ${available} bytes`, length);
    }
    const sizes = elementSizes.get(i);
    if (
      typeof view.byteStride === "number" && (view.byteStride < 4 || view.byteStride % 4) &&
      sizes?.size === 1 && sizes.has(view.byteStride)
    ) {
      // Early exporters (three.js's before r89) gave index views a stride; equal to the data's
      // element size, it says what no stride says.
      c.repaired(
        `${path}/byteStride`,
        `${view.byteStride} is the element size of the data it holds, tightly packed: left out`,
      );
      delete view.byteStride;
    }
    // A quantizer's byte-aligned interleaving (a 6-byte position beside a 3-byte normal: 9): glTF wants
    // 4-byte steps for vertex data, but each element is read where the stride puts it (every element's
    // size is checked against the stride below), and the export writes it aligned. Only for byte and
    // short data: floats in such steps are a damaged view, refused as before.
    const packed = integerViews.has(i) && !floatViews.has(i);
    const stride = c.int(view, "byteStride", path, 253, packed ? 1 : 4);
    if (stride !== undefined && stride % 4 && !packed) {
      c.fail(`${path}/byteStride`, "a multiple of 4", stride);
    }
    if (stride !== undefined && stride % 4) {
      c.repaired(
        `${path}/byteStride`,
        `${stride} is not a multiple of 4 (glTF aligns vertex data to 4 bytes; a quantizer packed it to the byte): read as written`,
      );
    }
    if (view.target !== undefined && view.target !== 34962 && view.target !== 34963) {
      // A hint to GPU uploads that glTF-Transform sets anew on writing.
      c.repaired(`${path}/target`, `${describe(view.target)} is not a buffer view target; left out`);
      delete view.target;
    }
    const meshopt = meshoptOf(c, view, path);
    if (meshopt) checkMeshoptView(c, meshopt, `${path}/extensions/${meshopt.name}`, length!);
    else if (!c.bufferData(buffer!)) {
      c.fail(`${path}/buffer`, "a buffer with data (or a meshopt-compressed view)", buffer);
    }
  });
}

/** Where the last byte of buffer `index`'s views ends (0 without views); unchecked views count as they say. */
function viewsEnd(c: Checker, index: number): number {
  let end = 0;
  for (const view of c.list("bufferViews")) {
    if (view.buffer !== index) continue;
    const offset = Number(view.byteOffset ?? 0), length = Number(view.byteLength);
    end = Math.max(end, Number.isFinite(offset + length) ? offset + length : Infinity);
  }
  return end;
}

/**
 * A buffer's meshopt extension: an object whose `fallback`, when given, is a boolean (as every other
 * boolean of the file; glTF-Transform would read `"false"` as true). A buffer without data that does not
 * say it is a fallback is read as one — its views must all be compressed, which the view check enforces.
 */
function checkFallback(c: Checker, meshopt: { def: Json }, path: string, hasData: boolean): void {
  const def = c.object(meshopt.def, path);
  if (def.fallback !== undefined && typeof def.fallback !== "boolean") {
    c.fail(`${path}/fallback`, "a boolean (true or false)", def.fallback);
  }
  if (!hasData && def.fallback !== true) {
    c.repaired(
      `${path}/fallback`,
      `${def.fallback ?? "absent"} on a buffer without data: read as a fallback buffer, its views decoded`,
    );
  }
}

/** The element sizes (in bytes) of the accessors on each buffer view, by view index. */
function elementSizesByView(c: Checker): Map<number, Set<number>> {
  const sizes = new Map<number, Set<number>>();
  for (const accessor of c.list("accessors")) {
    const size = COMPONENT_BYTES[accessor.componentType as number] * TYPE_COMPONENTS[accessor.type as string];
    const view = accessor.bufferView as number;
    if (Number.isInteger(size)) sizes.set(view, (sizes.get(view) ?? new Set()).add(size));
  }
  return sizes;
}

/** Most bytes meshopt decodes per compressed byte: its codecs reach about 64 (runs of zero bytes). */
const MESHOPT_MAX_RATIO = 256;

/** A view's or fallback buffer's meshopt extension (`EXT_`, or the newer `KHR_`) and its name. */
export function meshoptOf(c: Checker, item: Json, path: string): { name: string; def: Json } | undefined {
  const extensions = item.extensions as Json | undefined;
  const [ext, khr] = [extensions?.EXT_meshopt_compression, extensions?.KHR_meshopt_compression];
  // KHR_meshopt_compression may not be used beside EXT_ (and is read as EXT_: one would replace the other).
  if (ext !== undefined && khr !== undefined) {
    c.fail(`${path}/extensions`, "one meshopt extension, EXT_ or KHR_", "both");
  }
  const name = ext !== undefined
    ? "EXT_meshopt_compression"
    : khr !== undefined
    ? "KHR_meshopt_compression"
    : "";
  if (!name) return undefined;
  c.declareUsed(name, `${path}/extensions/${name}`);
  return { name, def: (ext ?? khr) as Json };
}

/**
 * A meshopt-compressed view: its source range inside a buffer with data, its mode, filter and stride, and a
 * decoded size (`count × byteStride`, which glTF-Transform allocates before decoding) that holds the
 * view and stays within {@link MESHOPT_MAX_RATIO} × the compressed bytes + 64 KiB — a 1 KB file
 * declaring 2²⁸ elements allocated 1.1 GB, and 2³³ threw a RangeError.
 */
function checkMeshoptView(
  c: Checker,
  meshopt: { name: string; def: Json },
  path: string,
  viewLength: number,
): void {
  const def = c.object(meshopt.def, path);
  const buffer = c.index(def, "buffer", path, "buffers");
  const data = buffer === undefined ? undefined : c.bufferData(buffer);
  if (!data) c.fail(`${path}/buffer`, "a buffer with data", def.buffer);
  const offset = c.int(def, "byteOffset", path) ?? 0;
  const length = c.int(def, "byteLength", path, Number.MAX_SAFE_INTEGER, 1);
  if (length === undefined) c.fail(`${path}/byteLength`, "a byte length", undefined);
  if (offset + length! > data!.byteLength) {
    c.fail(`${path}/byteLength`, `offset + length within the buffer's ${data!.byteLength} bytes`, length);
  }
  c.oneOf(def, "mode", path, ["ATTRIBUTES", "TRIANGLES", "INDICES"]);
  if (def.mode === undefined) c.fail(`${path}/mode`, "a mode", undefined);
  // An unknown filter would be skipped by the decoder, leaving the data encoded; KHR_ adds COLOR.
  const filters = ["NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"];
  c.oneOf(def, "filter", path, meshopt.name.startsWith("KHR_") ? [...filters, "COLOR"] : filters);
  const stride = c.int(def, "byteStride", path, 257, 1);
  const attributes = def.mode === "ATTRIBUTES";
  if (stride === undefined || (attributes ? stride % 4 !== 0 : stride !== 2 && stride !== 4)) {
    c.fail(`${path}/byteStride`, attributes ? "a multiple of 4 up to 256" : "2 or 4", def.byteStride);
  }
  const count = c.int(def, "count", path, Number.MAX_SAFE_INTEGER, 1);
  if (count === undefined) c.fail(`${path}/count`, "an element count", undefined);
  const decoded = count! * stride!;
  if (decoded < viewLength) {
    c.fail(`${path}/count`, `count × byteStride covering the view's ${viewLength} bytes`, decoded);
  }
  const most = MESHOPT_MAX_RATIO * length! + (1 << 16);
  if (decoded > most) {
    const expected =
      `count × byteStride of at most ${most} bytes (${MESHOPT_MAX_RATIO} × the compressed ${length} + 64 KiB)`;
    c.fail(`${path}/count`, expected, decoded);
  }
}
