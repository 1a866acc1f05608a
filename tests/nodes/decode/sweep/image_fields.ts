/**
 * The binary headers inside a GLB, as sweep cases: each embedded image's declared size (PNG IHDR
 * width, height, bit depth and colour type — its CRC recomputed, so the header is read, not refused
 * for its checksum; JPEG SOF; DDS; KTX2 dimensions, level count and level index), the first bytes
 * of each Draco stream (its header and the varint counts after it) and of each meshopt stream (its
 * codec header byte).
 *
 * @module
 */
import { crc32 } from "../../../../runtime/scene/png.ts";
import { applyCase, BE16, BE32, Cases, U32, U8 } from "./cases.ts";
import type { Json } from "./json_fields.ts";

/** Boundary values of a declared dimension or count. */
function dimension(v: number): number[] {
  return [0, 1, -1, v - 1, v + 1, 2 * v, 0x4000, 0x10000, 2 ** 31 - 1];
}

/**
 * Where a buffer's bytes are swept: the bytes holding it (the GLB file, or a data: URI's decoded
 * bytes), where it starts in them, and the cases its fields go into.
 */
export interface BufferBytes {
  readonly bytes: Uint8Array;
  readonly start: number;
  readonly cases: Cases;
}

/** The header fields of the file's images, Draco and meshopt streams, in the buffers `bufferOf` finds. */
export function binaryHeaderFields(
  json: Json,
  bufferOf: (id: number | string) => BufferBytes | undefined,
): void {
  /** Where bufferView `id` starts, in the bytes holding its buffer. */
  const viewAt = (id: number | string | undefined) => {
    const view = id === undefined ? undefined : json.bufferViews?.[id];
    const buffer = view && bufferOf(view.buffer);
    return buffer && { ...buffer, at: buffer.start + (view.byteOffset ?? 0) };
  };
  const images = json.images ?? {};
  for (const key of Object.keys(images)) {
    const image = images[key];
    const where = viewAt(image.bufferView ?? image.extensions?.KHR_binary_glTF?.bufferView);
    if (where && where.at + 32 <= where.bytes.length) {
      imageFields(where.bytes, where.at, `image ${key}`, where.cases);
    }
  }
  for (const [m, mesh] of (json.meshes ?? []).entries?.() ?? []) {
    for (const [p, primitive] of (mesh.primitives ?? []).entries()) {
      const where = viewAt(primitive.extensions?.KHR_draco_mesh_compression?.bufferView);
      if (!where) continue;
      const { bytes, at, cases } = where;
      for (let k = 0; k < 24 && at + k < bytes.length; k++) {
        const v = bytes[at + k];
        cases.field(`mesh ${m} primitive ${p} Draco byte ${k}`, at + k, U8, [0, 0x7f, 0xff, v + 1]);
      }
    }
  }
  for (const [i, view] of (json.bufferViews ?? []).entries?.() ?? []) {
    const meshopt = view.extensions?.EXT_meshopt_compression;
    const buffer = meshopt && bufferOf(meshopt.buffer);
    if (!buffer) continue;
    const { bytes, cases } = buffer;
    const at = buffer.start + (meshopt.byteOffset ?? 0);
    for (let k = 0; k < 2; k++) {
      cases.field(`bufferView ${i} meshopt byte ${k}`, at + k, U8, [
        0,
        0xa1,
        0xe0,
        0xe2,
        0xff,
        bytes[at + k] + 1,
      ]);
    }
  }
}

/** An embedded image's header fields, by its magic bytes. */
export function imageFields(bytes: Uint8Array, at: number, name: string, cases: Cases): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (o: number) => view.getUint32(at + o, true);
  if (view.getUint32(at) === 0x89504e47) {
    // The IHDR's fields, its CRC recomputed after each write.
    const png = new Cases(bytes);
    png.field(`${name} PNG IHDR length`, at + 8, BE32, [0, 12, 14, 2 ** 31 - 1]);
    png.field(`${name} PNG width`, at + 16, BE32, dimension(view.getUint32(at + 16)));
    png.field(`${name} PNG height`, at + 20, BE32, dimension(view.getUint32(at + 20)));
    png.field(`${name} PNG bit depth`, at + 24, U8, [0, 1, 4, 16, 3, 255]);
    png.field(`${name} PNG colour type`, at + 25, U8, [0, 1, 2, 3, 4, 5, 7, 255]);
    png.field(`${name} PNG interlace`, at + 28, U8, [1, 2]);
    for (const c of png.list) {
      cases.list.push({
        ...c,
        edits: {
          build: (seed) => {
            const out = applyCase(seed, c);
            new DataView(out.buffer).setUint32(at + 29, crc32(out, at + 12, at + 29));
            return out;
          },
        },
      });
    }
    cases.field(`${name} PNG IHDR CRC`, at + 29, BE32, [0, view.getUint32(at + 29) ^ 1]);
  } else if (bytes[at] === 0xff && bytes[at + 1] === 0xd8) {
    // JPEG: the markers up to the first frame header (SOF0–SOF15 but DHT, JPG, DAC).
    for (let o = at + 2; o + 10 < bytes.length && bytes[o] === 0xff;) {
      const marker = bytes[o + 1];
      const length = view.getUint16(o + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        cases.field(`${name} JPEG SOF length`, o + 2, BE16, [0, 2, length - 1, length + 1, 0xffff]);
        cases.field(`${name} JPEG height`, o + 5, BE16, dimension(view.getUint16(o + 5)));
        cases.field(`${name} JPEG width`, o + 7, BE16, dimension(view.getUint16(o + 7)));
        cases.field(`${name} JPEG components`, o + 9, U8, [0, 2, 4, 255]);
        break;
      }
      o += 2 + length;
    }
  } else if (u32(0) === 0x20534444) {
    const fields: [string, number][] = [
      ["size", 4],
      ["flags", 8],
      ["height", 12],
      ["width", 16],
      ["pitch", 20],
      ["depth", 24],
      ["mip count", 28],
      ["pixel format size", 76],
      ["pixel format flags", 80],
      ["bit count", 88],
    ];
    for (const [field, o] of fields) cases.field(`${name} DDS ${field}`, at + o, U32, dimension(u32(o)));
    cases.field(`${name} DDS fourCC`, at + 84, U32, [0, 0x31545844, 0x35545844, 0x30315844, 1]);
  } else if (u32(0) === 0x58544bab) {
    const fields: [string, number][] = [
      ["vkFormat", 12],
      ["typeSize", 16],
      ["width", 20],
      ["height", 24],
      ["depth", 28],
      ["layer count", 32],
      ["face count", 36],
      ["level count", 40],
      ["supercompression", 44],
      ["DFD offset", 48],
      ["DFD length", 52],
      ["KVD offset", 56],
      ["KVD length", 60],
      ["SGD offset", 64],
      ["SGD length", 72],
      ["level 0 offset", 80],
      ["level 0 length", 88],
      ["level 0 uncompressed length", 96],
    ];
    for (const [field, o] of fields) {
      if (at + o + 4 <= bytes.length) cases.field(`${name} KTX2 ${field}`, at + o, U32, dimension(u32(o)));
    }
  }
}
