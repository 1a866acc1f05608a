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

/**
 * A 128-byte DDS header; `fourCC` for compressed, else `bits`/`masks`/`pfFlags`; `mips` declared;
 * `caps2` (cube map 0x200 with its face bits, volume 0x200000) and `depth` as given.
 */
export function ddsHeader(
  width: number,
  height: number,
  options: {
    fourCC?: string;
    bits?: number;
    masks?: number[];
    pfFlags?: number;
    mips?: number;
    caps2?: number;
    depth?: number;
  } = {},
): Uint8Array {
  const out = new Uint8Array(128);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x20534444, true);
  view.setUint32(4, 124, true);
  view.setUint32(8, options.mips ? 0x2100f : 0x100f, true);
  view.setUint32(12, height, true);
  view.setUint32(16, width, true);
  view.setUint32(24, options.depth ?? 0, true);
  view.setUint32(28, options.mips ?? 0, true);
  view.setUint32(112, options.caps2 ?? 0, true);
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

/**
 * A DDS header with the DX10 extension (20 bytes more): DXGI format, by default 2D with one array
 * slice; `dimension` (3 = 2D, 4 = 3D, with `depth`), `miscFlag` (0x4 = cube), `arraySize` and
 * `alphaMode` (`miscFlags2`: 1 straight, 2 premultiplied) as given.
 */
export function dx10Header(
  width: number,
  height: number,
  dxgi: number,
  options: { dimension?: number; miscFlag?: number; arraySize?: number; alphaMode?: number; depth?: number } =
    {},
): Uint8Array {
  const ext = new Uint8Array(20);
  const view = new DataView(ext.buffer);
  view.setUint32(0, dxgi, true);
  view.setUint32(4, options.dimension ?? 3, true); // D3D10_RESOURCE_DIMENSION_TEXTURE2D
  view.setUint32(8, options.miscFlag ?? 0, true);
  view.setUint32(12, options.arraySize ?? 1, true);
  view.setUint32(16, options.alphaMode ?? 0, true);
  return concat(ddsHeader(width, height, { fourCC: "DX10", depth: options.depth }), ext);
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

/** A 1×1 uncompressed 32-bit DDS of the grey `v` (0–255), opaque. */
export function greyDds(v: number): Uint8Array {
  return concat(
    ddsHeader(1, 1, { bits: 32, pfFlags: 0x41, masks: [0xff0000, 0xff00, 0xff, 0xff000000] }),
    [v, v, v, 255],
  );
}
