/**
 * Code-made DDS and Targa images for tests of the Freelancer texture decoders: headers by field, so
 * each test states the layout it exercises.
 *
 * @module
 */

/** The parts one after another. */
export function concat(...parts: ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A 128-byte DDS header; `fourCC` for compressed, else `bits`/`masks`/`pfFlags`; `mips` declared. */
export function ddsHeader(
  width: number,
  height: number,
  options: { fourCC?: string; bits?: number; masks?: number[]; pfFlags?: number; mips?: number } = {},
): Uint8Array {
  const out = new Uint8Array(128);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x20534444, true);
  view.setUint32(4, 124, true);
  view.setUint32(8, options.mips ? 0x2100f : 0x100f, true);
  view.setUint32(12, height, true);
  view.setUint32(16, width, true);
  view.setUint32(28, options.mips ?? 0, true);
  view.setUint32(76, 32, true);
  if (options.fourCC) {
    view.setUint32(80, 0x4, true);
    out.set([...options.fourCC].map((c) => c.charCodeAt(0)), 84);
  } else {
    view.setUint32(80, options.pfFlags ?? 0x40, true);
    view.setUint32(88, options.bits ?? 32, true);
    (options.masks ?? [0, 0, 0, 0]).forEach((m, i) => view.setUint32(92 + 4 * i, m, true));
  }
  return out;
}

/** A DDS header with the DX10 extension (20 bytes more): DXGI format, 2D, one array slice. */
export function dx10Header(width: number, height: number, dxgi: number): Uint8Array {
  const ext = new Uint8Array(20);
  const view = new DataView(ext.buffer);
  view.setUint32(0, dxgi, true);
  view.setUint32(4, 3, true); // D3D10_RESOURCE_DIMENSION_TEXTURE2D
  view.setUint32(12, 1, true); // arraySize
  return concat(ddsHeader(width, height, { fourCC: "DX10" }), ext);
}

/** An 18-byte Targa header: image type, size, bits per pixel, descriptor, colour map (first, depth). */
export function tgaHeader(
  type: number,
  width: number,
  height: number,
  depth: number,
  descriptor = 0,
  map?: [number, number],
): Uint8Array {
  const out = new Uint8Array(18);
  out[1] = map ? 1 : 0;
  out[2] = type;
  if (map) {
    out[5] = map[0];
    out[7] = map[1];
  }
  out[12] = width;
  out[14] = height;
  out[16] = depth;
  out[17] = descriptor;
  return out;
}
