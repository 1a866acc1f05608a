/**
 * Accessor data read ahead of glTF-Transform's reader, which de-interleaves one `DataView` call per
 * component: here interleaved views are gathered as whole words (a loop per word width) and packed
 * ones sliced, into the same typed arrays the reader makes. The reader then reads a JSON whose
 * accessors so taken count zero elements, and the arrays are set on the accessors it created.
 *
 * @module
 */
import {
  Accessor,
  type Document,
  type GLTF,
  type JSONDocument,
  type TypedArray,
  VERSION,
} from "@gltf-transform/core";
import { gather, words } from "./strided.ts";
import { COMPONENT_ARRAYS } from "./gltf_codes.ts";
import { MIRRORED_GLTF_TRANSFORM } from "./glb_writer/layout.ts";

const GLB_BUFFER = "@glb.bin";

/** A JSON document to hand glTF-Transform's reader, and the accessor arrays (by index) read for it. */
export interface AccessorsReadAhead {
  readonly jsonDoc: JSONDocument;
  readonly arrays: ReadonlyMap<number, TypedArray>;
}

/**
 * Reads every plain accessor of `jsonDoc` (in range, aligned, not sparse; glTF-Transform reads the
 * rest as before) and returns a shallow copy of it whose accessors read count zero. `jsonDoc` is not
 * modified. Call only for a file without mesh compression (its extensions read accessors themselves).
 *
 * @example
 * ```ts
 * import { readAccessorsAhead, setAccessorArrays } from "./read_accessors.ts";
 * import { NodeIO } from "@gltf-transform/core";
 *
 * const ahead = readAccessorsAhead({ json: { asset: { version: "2.0" } }, resources: {} });
 * const doc = setAccessorArrays(await new NodeIO().readJSON(ahead.jsonDoc), ahead);
 * ```
 */
export function readAccessorsAhead(jsonDoc: JSONDocument): AccessorsReadAhead {
  const { json, resources } = jsonDoc;
  const arrays = new Map<number, TypedArray>();
  // Another release's reader may make other arrays: it reads everything itself.
  if (VERSION !== MIRRORED_GLTF_TRANSFORM) return { jsonDoc, arrays };
  const accessors = json.accessors?.map((def, i) => {
    const array = readArray(json, resources, def);
    if (!array) return def;
    arrays.set(i, array);
    return { ...def, count: 0 };
  });
  return arrays.size ? { jsonDoc: { json: { ...json, accessors }, resources }, arrays } : { jsonDoc, arrays };
}

/** Gives the accessors of `doc`, read from `ahead.jsonDoc`, the arrays read ahead. Returns `doc`. */
export function setAccessorArrays(doc: Document, ahead: AccessorsReadAhead): Document {
  if (!ahead.arrays.size) return doc;
  const accessors = doc.getRoot().listAccessors();
  if (accessors.length !== ahead.jsonDoc.json.accessors?.length) {
    throw new Error(`read ${accessors.length} accessors of ${ahead.jsonDoc.json.accessors?.length}`);
  }
  for (const [index, array] of ahead.arrays) accessors[index].setArray(array);
  return doc;
}

/**
 * The array glTF-Transform's reader would make for `def`, or undefined where this module leaves the
 * reading to it (sparse, no buffer view, out of range or misaligned data, other component types).
 */
function readArray(
  json: GLTF.IGLTF,
  resources: JSONDocument["resources"],
  def: GLTF.IAccessor,
): TypedArray | undefined {
  const Array = COMPONENT_ARRAYS[def.componentType];
  const viewDef = def.bufferView === undefined ? undefined : json.bufferViews?.[def.bufferView];
  const bufferDef = viewDef && json.buffers?.[viewDef.buffer];
  const data = bufferDef && (bufferDef.uri ? resources[bufferDef.uri] : resources[GLB_BUFFER]);
  if (def.sparse || !Array || !data || !Number.isSafeInteger(def.count) || def.count < 0) return undefined;
  let size: number;
  try {
    size = Accessor.getElementSize(def.type);
  } catch {
    return undefined;
  }
  if (def.count === 0) return new Array(0); // wherever its offset points, as the reader makes it
  const width = Array.BYTES_PER_ELEMENT;
  const elementBytes = size * width;
  const viewOffset = viewDef.byteOffset ?? 0, viewLength = viewDef.byteLength, offset = def.byteOffset ?? 0;
  const stride = viewDef.byteStride ?? elementBytes;
  const span = (def.count - 1) * stride + elementBytes;
  const whole = [viewOffset, viewLength, offset, stride].every((n) => Number.isSafeInteger(n) && n >= 0);
  if (!whole || viewOffset + viewLength > data.byteLength || offset + span > viewLength) return undefined;
  const start = data.byteOffset + viewOffset + offset;
  if (stride === elementBytes) return new Array((data.buffer as ArrayBuffer).slice(start, start + span));
  if (start % width || stride % width) return undefined;
  const array = new Array(def.count * size);
  const packed = words(width, array.buffer, 0, array.length);
  gather(words(width, data.buffer, start, span / width), packed, size, stride / width, def.count);
  return array;
}
