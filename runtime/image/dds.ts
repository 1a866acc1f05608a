/**
 * DDS (the `MIPS` leaf of a texture): the top mip level to RGBA8 — DXT1–5, BC4/BC5 (`ATI1`/`ATI2`),
 * the DX10 extended header (BC1–BC5, BC7, common DXGI formats) and uncompressed RGB(A), luminance
 * and alpha surfaces, with premultiplied colour (DXT2, DXT4, DX10 alpha mode 2) made straight.
 * Sizes are checked against the data before the output is allocated. Cube maps, arrays and volumes
 * are told apart by {@link ddsSurfaces}.
 *
 * @module
 */
import type { ByteWindow } from "../binary.ts";
import { decodeBc45, decodeBc7 } from "./bcn.ts";
import { decodeDxt } from "./dxt.ts";
import { type DdsLayout, DX10, DXGI_LAYOUTS, fourCC, FOURCC_LAYOUTS, masks } from "./dds_formats.ts";

/** Decoded RGBA8 pixels, top row first. */
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

const DDS_MAGIC = 0x20534444;
const FOURCC_FLAG = 0x4;
const ALPHA_FLAG = 0x1;
const MAX_SIDE = 16384;

/** Legacy fourCCs whose colour is stored premultiplied by alpha (DirectXTex's `CONV_FLAGS_PMALPHA`). */
const PREMULTIPLIED_FOURCCS = new Set([fourCC("DXT2"), fourCC("DXT4")]);
/** `DDS_ALPHA_MODE_PREMULTIPLIED`, in the low 3 bits of the DX10 header's `miscFlags2` (byte 144). */
const DX10_ALPHA_PREMULTIPLIED = 2;

const LUMINANCE_FLAG = 0x20000;
const ALPHA_ONLY_FLAG = 0x2;
const RGB_FLAG = 0x40;

const fourCCText = (code: number) =>
  JSON.stringify(String.fromCharCode(code & 0xff, code >> 8 & 0xff, code >> 16 & 0xff, code >>> 24));

/**
 * Decodes the first mip level of a DDS file: DXT1–5, BC4/BC5 (`ATI1`/`ATI2`, `BC4U`/`BC5U`, signed
 * too), the DX10 extended header (BC1–BC5, BC7 and the common 8-, 16- and 32-bit DXGI formats), and
 * uncompressed RGB(A), luminance (L8, A8L8) and alpha-only (A8) surfaces by their channel masks.
 * Colour stored premultiplied by alpha (DXT2, DXT4, a DX10 header whose alpha mode says so) comes
 * out straight, as PNG and glTF take it: colour / alpha, black where alpha is 0. Only
 * the top level is read, so a chain with fewer levels than the header declares, or levels that do not
 * halve exactly, decodes; a top level the data does not hold is a DecodeError.
 *
 * @example
 * ```ts
 * import { ByteWindow } from "../binary.ts";
 *
 * const file = await Deno.readFile("hull.dds");
 * const { width, height, data } = decodeDds(ByteWindow.of(file, "dds", "hull.dds"));
 * ```
 */
export function decodeDds(dds: ByteWindow): RgbaImage {
  const magic = dds.u32(0, "DDS magic");
  if (magic !== DDS_MAGIC) dds.fail(0, "DDS magic 'DDS '", "0x" + magic.toString(16));
  const height = dds.u32(12, "DDS height");
  const width = dds.u32(16, "DDS width");
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    dds.fail(12, `DDS size within 1..${MAX_SIDE}`, `${width}×${height}`);
  }
  const { layout, dataAt, premultiplied } = ddsLayout(dds);
  const image = decodeTopLevel(dds, layout, dataAt, width, height);
  if (premultiplied) unpremultiply(image.data);
  return image;
}

/** `DDSCAPS2_CUBEMAP`, `DDSCAPS2_VOLUME` (header byte 112) and the DX10 `miscFlag` cube bit (byte 136). */
const CAPS2_CUBEMAP = 0x200;
const CAPS2_VOLUME = 0x200000;
const DX10_MISC_TEXTURECUBE = 0x4;
const DX10_DIMENSION_3D = 4;

/** What a DDS holds besides one 2D image, read from its header alone (never throws). */
export interface DdsSurfaces {
  /** A cube map (legacy `DDSCAPS2_CUBEMAP`, or DX10 `TEXTURECUBE`): six faces, no 2D picture. */
  readonly cube: boolean;
  /**
   * Set when the file holds more 2D images than the top level {@link decodeDds} reads (a texture
   * array, a volume): what they are, e.g. `"a texture array of 3 slices"`.
   */
  readonly more?: string;
}

/**
 * Whether a DDS is a cube map, a texture array or a volume. Each stores its first face, slice or
 * depth layer first, so {@link decodeDds} reads that one; a cube map's first face (+X) is not a
 * picture for UV mapping, so callers leave it out. A header too short to tell is a plain 2D image
 * (decoding it gives the error).
 */
export function ddsSurfaces(dds: ByteWindow): DdsSurfaces {
  if (dds.length < 128) return { cube: false };
  const depthOf = () => dds.u32(24, "DDS depth");
  const dx10 = (dds.u32(80, "DDS pixel format flags") & FOURCC_FLAG) !== 0 &&
    dds.u32(84, "DDS fourCC") === DX10;
  if (dx10 && dds.length >= 148) {
    if (dds.u32(136, "DX10 header miscFlag") & DX10_MISC_TEXTURECUBE) return { cube: true };
    const slices = dds.u32(140, "DX10 header arraySize");
    if (dds.u32(132, "DX10 header resource dimension") === DX10_DIMENSION_3D && depthOf() > 1) {
      return { cube: false, more: `a volume texture ${depthOf()} layers deep` };
    }
    return slices > 1 ? { cube: false, more: `a texture array of ${slices} slices` } : { cube: false };
  }
  const caps2 = dds.u32(112, "DDS caps2");
  if (caps2 & CAPS2_CUBEMAP) return { cube: true };
  if (caps2 & CAPS2_VOLUME && depthOf() > 1) {
    return { cube: false, more: `a volume texture ${depthOf()} layers deep` };
  }
  return { cube: false };
}

/**
 * What a plain 2D DDS holds past every mip chain its header can describe, in words, or undefined.
 * A header whose size, fourCC or bit count was damaged still finds its top level inside the data (a
 * 128×128 texture whose height reads 3 decodes as a 128×3 strip), so the decode succeeds and draws the
 * wrong picture; the bytes left over tell. Allowed: any chain from the top level down to 1×1 (a file
 * may hold fewer levels than it declares, or more than its flags say), and less than a top level's
 * bytes beyond it. Cube maps, arrays and volumes ({@link ddsSurfaces}), and a header that does not
 * decode, are not judged here; never throws.
 *
 * @example
 * ```ts
 * import { ByteWindow } from "../binary.ts";
 *
 * const file = await Deno.readFile("hull.dds");
 * const leftover = ddsUnexplainedBytes(ByteWindow.of(file, "dds", "hull.dds"));
 * if (leftover) console.warn(`hull.dds ${leftover}`);
 * ```
 */
export function ddsUnexplainedBytes(dds: ByteWindow): string | undefined {
  let header;
  try {
    if (dds.u32(0, "DDS magic") !== DDS_MAGIC) return undefined;
    const surfaces = ddsSurfaces(dds);
    if (surfaces.cube || surfaces.more) return undefined;
    header = { ...ddsLayout(dds), height: dds.u32(12, "DDS height"), width: dds.u32(16, "DDS width") };
  } catch {
    return undefined;
  }
  const { layout, dataAt, width, height } = header;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return undefined;
  let chain = 0;
  for (let w = width, h = height;; w = Math.max(1, w >> 1), h = Math.max(1, h >> 1)) {
    chain += levelBytes(layout, w, h);
    if (w === 1 && h === 1) break;
  }
  // Less than a top level more is padding some writer left (or a chain's rounding), not a wrong header.
  const data = dds.length - dataAt;
  if (data - chain < levelBytes(layout, width, height)) return undefined;
  return `holds ${data} bytes of pixels where its header (${width}×${height}, ${
    layout.kind === "masks" ? `${layout.bits} bits per pixel` : `${blockBytes(layout)} bytes per 4×4 block`
  }) describes ${chain} at most, mips to 1×1 included: its size or format is probably damaged, and the picture decoded from it wrong`;
}

/**
 * Whether a DDS stores its top level as DXT1 (BC1) with texels cut out: a block whose first colour
 * is not above its second (1-bit alpha mode) and that uses index 3, transparent black. Librelancer
 * draws every DXT1 diffuse texture alpha-tested at 0.5 (`BasicMaterial.GetDxt1`, the game's
 * `alpha_mask` materials), so those texels are holes, not black paint. Read from the blocks alone,
 * without decoding; a file that is not DXT1, or too short to tell, is not (never throws).
 */
export function dxt1Cutout(dds: ByteWindow): boolean {
  if (dds.length < 128 || dds.u32(0, "DDS magic") !== DDS_MAGIC) return false;
  if (!(dds.u32(80, "DDS pixel format flags") & FOURCC_FLAG)) return false;
  const code = dds.u32(84, "DDS fourCC");
  let dataAt = 128;
  if (code === DX10) {
    if (dds.length < 148) return false;
    const layout = DXGI_LAYOUTS.get(dds.u32(128, "DX10 header DXGI format"));
    if (layout?.kind !== "dxt" || layout.dxt !== 1) return false;
    dataAt = 148;
  } else if (code !== fourCC("DXT1")) return false;
  const height = dds.u32(12, "DDS height"), width = dds.u32(16, "DDS width");
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return false;
  const bw = Math.ceil(width / 4), bh = Math.ceil(height / 4);
  if (dds.length < dataAt + 8 * bw * bh) return false;
  const src = dds.view(dataAt, 8 * bw * bh);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const block = 8 * (by * bw + bx);
      if ((src[block] | src[block + 1] << 8) > (src[block + 2] | src[block + 3] << 8)) continue;
      // Only the texels inside the image count (a 2×2 image uses a block's top-left corner).
      for (let py = 0; py < 4 && by * 4 + py < height; py++) {
        const row = src[block + 4 + py];
        for (let px = 0; px < 4 && bx * 4 + px < width; px++) {
          if (((row >> (2 * px)) & 3) === 3) return true;
        }
      }
    }
  }
  return false;
}

/**
 * Straight alpha from premultiplied, in place: each colour channel × 255 / alpha, rounded, at most
 * 255 (DirectXTex's `TEX_PMALPHA_REVERSE`, in the stored encoding as it does for UNORM formats). Where
 * alpha is 0 the colour is 0: a fully transparent texel has none to keep, and premultiplied data
 * holds 0 there anyway (DirectXTex keeps whatever is stored).
 */
function unpremultiply(data: Uint8Array): void {
  for (let o = 0; o < data.length; o += 4) {
    const a = data[o + 3];
    if (a === 255) continue;
    for (let c = o; c < o + 3; c++) data[c] = a === 0 ? 0 : Math.min(255, Math.round((data[c] * 255) / a));
  }
}

function decodeTopLevel(
  dds: ByteWindow,
  layout: DdsLayout,
  dataAt: number,
  width: number,
  height: number,
): RgbaImage {
  const size = levelBytes(layout, width, height);
  if (layout.kind !== "masks") {
    dds.need(dataAt, size, `${width}×${height} top-level blocks`);
    const src = dds.view(dataAt, size);
    if (layout.kind === "dxt") return decodeDxt(src, width, height, layout.dxt);
    const data = layout.kind === "bc7"
      ? decodeBc7(src, width, height)
      : decodeBc45(src, width, height, layout.channels, layout.signed);
    return { width, height, data };
  }
  const bpp = layout.bits >> 3;
  dds.need(dataAt, size, `${width}×${height} top-level pixels`);
  const src = dds.view(dataAt, size);
  const out = new Uint8Array(width * height * 4);
  const m = layout.masks;
  const shifts = m.map((mask) => (mask ? 31 - Math.clz32(mask & -mask) : 0));
  const scales = m.map((mask, i) => (mask ? 255 / (mask >>> shifts[i]) : 0));
  for (let p = 0; p < width * height; p++) {
    let v = 0;
    for (let b = 0; b < bpp; b++) v |= src[p * bpp + b] << (8 * b);
    for (let c = 0; c < 4; c++) {
      out[4 * p + c] = m[c] ? Math.round(((v & m[c]) >>> shifts[c]) * scales[c]) : c === 3 ? 255 : 0;
    }
    if (layout.luminance) out[4 * p + 1] = out[4 * p + 2] = out[4 * p];
  }
  return { width, height, data: out };
}

/**
 * Decodes a surface of `width` × `height` stored in DXGI format `dxgi` at `dataAt` of `window` (as a
 * DX10 DDS header names it: BC1–BC5, BC7 and the common 8-, 16- and 32-bit formats), for containers
 * that name their formats otherwise (KTX2's Vulkan formats map onto these). Undefined for a format
 * this reader does not decode.
 */
export function decodeDxgiSurface(
  window: ByteWindow,
  dxgi: number,
  dataAt: number,
  width: number,
  height: number,
): RgbaImage | undefined {
  const layout = DXGI_LAYOUTS.get(dxgi);
  return layout && decodeTopLevel(window, layout, dataAt, width, height);
}

/** The bytes a DXGI format stores per 4 × 4 block (compressed) or per pixel; undefined when not decoded. */
export function dxgiUnitBytes(dxgi: number): { readonly block: boolean; readonly bytes: number } | undefined {
  const layout = DXGI_LAYOUTS.get(dxgi);
  if (!layout) return undefined;
  if (layout.kind === "masks") return { block: false, bytes: layout.bits >> 3 };
  return { block: true, bytes: blockBytes(layout) };
}

/** Bytes of one `width`×`height` level stored as `layout`: whole 4×4 blocks, or packed pixels. */
function levelBytes(layout: DdsLayout, width: number, height: number): number {
  return layout.kind === "masks"
    ? width * height * (layout.bits >> 3)
    : Math.ceil(width / 4) * Math.ceil(height / 4) * blockBytes(layout);
}

function blockBytes(layout: Exclude<DdsLayout, { kind: "masks" }>): number {
  return layout.kind === "dxt"
    ? (layout.dxt === 1 ? 8 : 16)
    : layout.kind === "bc45"
    ? 8 * layout.channels
    : 16;
}

/**
 * The storage of the top level, where its data starts (128, or 148 after a DX10 header) and
 * whether its colour is premultiplied by alpha.
 */
function ddsLayout(dds: ByteWindow): { layout: DdsLayout; dataAt: number; premultiplied: boolean } {
  const pfFlags = dds.u32(80, "DDS pixel format flags");
  const code = dds.u32(84, "DDS fourCC");
  if (pfFlags & FOURCC_FLAG) {
    if (code === DX10) {
      const format = dds.u32(128, "DX10 header DXGI format");
      const layout = DXGI_LAYOUTS.get(format);
      if (!layout) {
        dds.fail(
          128,
          "a DXGI format this reader decodes (BC1–BC5, BC7, 8-bit RGBA/BGRA, 565, 5551, 4444, R8, R8G8, A8)",
          `DXGI format ${format}${format >= 94 && format <= 96 ? " (BC6H, HDR)" : ""}`,
        );
      }
      const alphaMode = dds.u32(144, "DX10 header miscFlags2") & 7;
      return { layout, dataAt: 148, premultiplied: alphaMode === DX10_ALPHA_PREMULTIPLIED };
    }
    const layout = FOURCC_LAYOUTS.get(code);
    if (!layout) {
      dds.fail(84, "fourCC DXT1–DXT5, ATI1/ATI2, BC4U/BC4S/BC5U/BC5S or DX10", fourCCText(code));
    }
    return { layout, dataAt: 128, premultiplied: PREMULTIPLIED_FOURCCS.has(code) };
  }
  const bits = dds.u32(88, "DDS bit count");
  if (bits !== 8 && bits !== 16 && bits !== 24 && bits !== 32) {
    dds.fail(88, "8, 16, 24 or 32 bits per pixel", String(bits));
  }
  let m = [92, 96, 100, 104].map((at) => dds.u32(at, "DDS channel mask"));
  // Alpha counts when the format says so (DDPF_ALPHAPIXELS, or DDPF_ALPHA for alpha-only A8).
  if (!(pfFlags & (ALPHA_FLAG | ALPHA_ONLY_FLAG))) m[3] = 0;
  if ((pfFlags & RGB_FLAG) && !m[0] && !m[1] && !m[2] && bits >= 16) {
    // RGB without masks (some writers leave them zero): D3D's own order for the bit count.
    m = bits === 16 ? [0xf800, 0x07e0, 0x001f, 0] : [0xff0000, 0xff00, 0xff, m[3]];
  }
  return { layout: masks(bits, m, (pfFlags & LUMINANCE_FLAG) !== 0), dataAt: 128, premultiplied: false };
}
