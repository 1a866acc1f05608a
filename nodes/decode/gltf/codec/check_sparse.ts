/**
 * The index values of a sparse accessor, read from the JSON's buffers before glTF-Transform applies
 * them (it keeps only the dense result, so nothing after the decode can tell).
 *
 * @module
 */
import { COMPONENT_BYTES } from "../../../../runtime/scene/gltf_codes.ts";
import type { Checker, Json } from "./checker.ts";
import { gltfError } from "./container.ts";

/**
 * Refuses a sparse index at or past the accessor's `count`, and names indices that repeat or are out of
 * order.
 *
 * An index past the end is refused because readers disagree: glTF-Transform and three.js drop its
 * value without a word (a typed-array write out of range), Blender's importer fails on it. A repeat
 * (the spec asks for strictly increasing indices) is read as every reader reads it, the last value
 * winning, with a repair naming the first repeated index. Indices each given once but out of order read
 * the same in any reader, yet break the spec's rule, so validators and strict readers refuse the file:
 * named too, as read. Indices in a meshopt-compressed view are
 * decoded only by glTF-Transform, so they are left unchecked. `n` is the checked sparse count, and
 * the view's bytes were checked to hold them.
 */
export function checkSparseIndices(c: Checker, indices: Json, path: string, n: number, count: number): void {
  const view = c.list("bufferViews")[indices.bufferView as number];
  const extensions = view.extensions as Json | undefined;
  if (extensions?.EXT_meshopt_compression || extensions?.KHR_meshopt_compression) return;
  const data = c.bufferData(view.buffer as number);
  if (!data) return;
  const size = COMPONENT_BYTES[indices.componentType as number];
  const start = data.byteOffset + ((view.byteOffset as number) ?? 0) + ((indices.byteOffset as number) ?? 0);
  const bytes = new DataView(data.buffer, start, n * size);
  const read = size === 1
    ? (i: number) => bytes.getUint8(i)
    : size === 2
    ? (i: number) => bytes.getUint16(2 * i, true)
    : (i: number) => bytes.getUint32(4 * i, true);
  const values = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = read(i);
    if (values[i] >= count) {
      const expected = `sparse indices below the accessor's count of ${count}`;
      throw gltfError(c.source, { jsonPath: `${path}/indices` }, expected, `${values[i]} at element ${i}`);
    }
  }
  const sorted = values.slice().sort();
  let repeats = 0, first = -1;
  for (let i = 1; i < n; i++) {
    if (sorted[i] !== sorted[i - 1]) continue;
    repeats++;
    if (first < 0) first = sorted[i];
  }
  if (repeats > 0) {
    c.repaired(
      `${path}/indices`,
      `sparse index ${first} given more than once (${repeats} repeat(s) of ${n}); the last value given for each is kept, as three.js and Blender keep it`,
    );
    return;
  }
  const back = values.findIndex((value, i) => i > 0 && value < values[i - 1]);
  if (back > 0) {
    c.repaired(
      `${path}/indices`,
      `sparse indices out of order (${values[back]} after ${
        values[back - 1]
      } at element ${back}; glTF requires ` +
        "them increasing): each is given once, so every reader reads the same values; read as given",
    );
  }
}
