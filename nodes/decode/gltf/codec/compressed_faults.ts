/**
 * Where compressed data failed to decode. glTF-Transform decodes every meshopt view and Draco
 * primitive in one pass and throws the decoder's bare message ("Malformed buffer data", "Decoding
 * failure"), which names no view: a 300-part aircraft would be refused with no part to look at. Once
 * a read has failed, each compressed view and primitive is decoded again on its own (in the order
 * glTF-Transform reads them) until one fails, and that one is named. A file that reads costs nothing.
 *
 * @module
 */
import type { JSONDocument } from "@gltf-transform/core";
import type { DecodeError } from "../../../../runtime/errors.ts";
import { Checker, type Json } from "./checker.ts";
import { gltfError, type GltfSource } from "./container.ts";
import { dracoPrimitives } from "./check_draco.ts";

const MESHOPT = ["EXT_meshopt_compression", "KHR_meshopt_compression"];

/**
 * The {@link DecodeError} naming the first meshopt view, or Draco primitive, of `jsonDoc` whose data
 * does not decode, or undefined when each decodes on its own. Call after the structure check (the
 * views' ranges, counts and strides are checked) and after a read failed. `file` is the file's bytes,
 * to give a GLB's fault its byte offset in the file. Draco is not tried again after `dracoAborted`
 * (its memory ran out): the one primitive would only abort again.
 */
export async function locateCompressedFault(
  jsonDoc: JSONDocument,
  source: GltfSource,
  file: Uint8Array,
  dracoAborted: boolean,
): Promise<DecodeError | undefined> {
  const c = new Checker(jsonDoc, source);
  return await meshoptFault(c, file) ?? (dracoAborted ? undefined : await dracoFault(c, file));
}

/** Where `start` of buffer `buffer` lies in the file: a GLB's binary chunk is a view of its bytes. */
function inFile(c: Checker, file: Uint8Array, buffer: number, start: number): string {
  const data = c.bufferData(buffer);
  if (!data || data.buffer !== file.buffer || c.list("buffers")[buffer].uri !== undefined) return "";
  return `, file byte ${data.byteOffset - file.byteOffset + start}`;
}

async function meshoptFault(c: Checker, file: Uint8Array): Promise<DecodeError | undefined> {
  const views = c.list("bufferViews");
  const compressed = views.flatMap((view, i) => {
    const extensions = view.extensions as Json | undefined;
    const name = MESHOPT.find((n) => extensions?.[n] !== undefined);
    return name ? [{ i, name, def: extensions![name] as Json }] : [];
  });
  if (!compressed.length) return undefined;
  const { MeshoptDecoder } = await import("meshoptimizer");
  await MeshoptDecoder.ready;
  for (const { i, name, def } of compressed) {
    const buffer = def.buffer as number, offset = (def.byteOffset as number | undefined) ?? 0;
    const length = def.byteLength as number, count = def.count as number, stride = def.byteStride as number;
    const filter = (def.filter as string | undefined) ?? "NONE";
    try {
      MeshoptDecoder.decodeGltfBuffer(
        new Uint8Array(count * stride),
        count,
        stride,
        c.bufferData(buffer)!.subarray(offset, offset + length),
        def.mode as "ATTRIBUTES",
        filter as "NONE",
      );
    } catch (error) {
      const expected = `${def.mode} data meshopt decodes to ${count} elements of ${stride} bytes ` +
        `(filter ${filter}), in bytes ${offset}..${offset + length} of buffer ${buffer}` +
        inFile(c, file, buffer, offset);
      return gltfError(
        c.source,
        { jsonPath: `/bufferViews/${i}/extensions/${name}` },
        expected,
        found(error),
      );
    }
  }
  return undefined;
}

async function dracoFault(c: Checker, file: Uint8Array): Promise<DecodeError | undefined> {
  const primitives = dracoPrimitives(c);
  if (!primitives.length) return undefined;
  const { default: draco3d } = await import("draco3dgltf");
  // A module of its own: the reader's may have been left in any state by the failure.
  const draco = await draco3d.createDecoderModule({ printErr() {} });
  const views = c.list("bufferViews");
  for (const { path, def, view } of primitives) {
    const buffer = views[view].buffer as number, offset = (views[view].byteOffset as number | undefined) ?? 0;
    const length = views[view].byteLength as number;
    const where = `bufferView ${view} (bytes ${offset}..${offset + length} of buffer ${buffer}` +
      `${inFile(c, file, buffer, offset)})`;
    const decoder = new draco.Decoder(), data = new draco.DecoderBuffer(), mesh = new draco.Mesh();
    try {
      const bytes = c.bufferData(buffer)!.subarray(offset, offset + length);
      data.Init(bytes as unknown as Int8Array, bytes.length);
      if (decoder.GetEncodedGeometryType(data) !== draco.TRIANGULAR_MESH) {
        return gltfError(
          c.source,
          { jsonPath: path },
          `a Draco triangle mesh in ${where}`,
          "another geometry",
        );
      }
      const status = decoder.DecodeBufferToMesh(data, mesh);
      if (!status.ok() || mesh.ptr === 0) {
        const said = status.error_msg() || "decoding failure";
        return gltfError(c.source, { jsonPath: path }, `Draco data that decodes in ${where}`, said);
      }
      // Each attribute id the primitive names must be one the mesh holds (glTF-Transform would read null).
      for (const [semantic, id] of Object.entries(def.attributes as Record<string, number>)) {
        const attribute = decoder.GetAttributeByUniqueId(mesh, id);
        if (!attribute || (attribute as unknown as { ptr: number }).ptr === 0) {
          const expected = `the id of an attribute the Draco mesh in ${where} holds`;
          return gltfError(c.source, { jsonPath: `${path}/attributes/${semantic}` }, expected, String(id));
        }
      }
    } catch (error) {
      return gltfError(c.source, { jsonPath: path }, `Draco data that decodes in ${where}`, found(error));
    } finally {
      draco.destroy(mesh);
      draco.destroy(data);
      draco.destroy(decoder);
    }
  }
  return undefined;
}

function found(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
