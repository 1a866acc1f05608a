/**
 * The pixel formats the DDS reader decodes, by legacy fourCC and by the DX10 header's DXGI format
 * (which KTX2's Vulkan formats map onto too).
 *
 * @module
 */

/** A four-character code as the DDS header stores it (little-endian). */
export const fourCC = (s: string): number =>
  s.charCodeAt(0) | s.charCodeAt(1) << 8 | s.charCodeAt(2) << 16 | s.charCodeAt(3) << 24;

/** How the top level's pixels are stored. */
export type DdsLayout =
  | { readonly kind: "dxt"; readonly dxt: 1 | 3 | 5 }
  | { readonly kind: "bc45"; readonly channels: 1 | 2; readonly signed: boolean }
  | { readonly kind: "bc7" }
  | {
    readonly kind: "masks";
    readonly bits: number;
    readonly masks: readonly number[];
    /** The red mask is luminance: copied to green and blue. */
    readonly luminance: boolean;
  };

/** The fourCC that says a DX10 extended header follows. */
export const DX10: number = fourCC("DX10");
/** Legacy fourCCs: DXT2/DXT4 are DXT3/DXT5 blocks whose colour is premultiplied by alpha; ATI1/ATI2
 * are what crnlib (LancerEdit) and older tools write for BC4/BC5, BC4U/BC5U/BC4S/BC5S what texconv
 * does. */
export const FOURCC_LAYOUTS: ReadonlyMap<number, DdsLayout> = new Map<number, DdsLayout>([
  [fourCC("DXT1"), { kind: "dxt", dxt: 1 }],
  [fourCC("DXT2"), { kind: "dxt", dxt: 3 }],
  [fourCC("DXT3"), { kind: "dxt", dxt: 3 }],
  [fourCC("DXT4"), { kind: "dxt", dxt: 5 }],
  [fourCC("DXT5"), { kind: "dxt", dxt: 5 }],
  [fourCC("ATI1"), { kind: "bc45", channels: 1, signed: false }],
  [fourCC("BC4U"), { kind: "bc45", channels: 1, signed: false }],
  [fourCC("BC4S"), { kind: "bc45", channels: 1, signed: true }],
  [fourCC("ATI2"), { kind: "bc45", channels: 2, signed: false }],
  [fourCC("BC5U"), { kind: "bc45", channels: 2, signed: false }],
  [fourCC("BC5S"), { kind: "bc45", channels: 2, signed: true }],
]);

const RGBA_MASKS = [0xff, 0xff00, 0xff0000, 0xff000000];
const BGRA_MASKS = [0xff0000, 0xff00, 0xff, 0xff000000];
const BGRX_MASKS = [0xff0000, 0xff00, 0xff, 0];
/** A layout of channels picked by bit masks from `bits`-bit pixels. */
export const masks = (bits: number, m: readonly number[], luminance = false): DdsLayout => ({
  kind: "masks",
  bits,
  masks: m,
  luminance,
});

/** DXGI formats of the DX10 extended header that this reader decodes (typeless and sRGB alike:
 * the bytes are the same, and PNG pixels are sRGB-encoded anyway). */
export const DXGI_LAYOUTS: ReadonlyMap<number, DdsLayout> = new Map<number, DdsLayout>([
  ...[70, 71, 72].map((f) => [f, { kind: "dxt", dxt: 1 }] as const),
  ...[73, 74, 75].map((f) => [f, { kind: "dxt", dxt: 3 }] as const),
  ...[76, 77, 78].map((f) => [f, { kind: "dxt", dxt: 5 }] as const),
  ...[79, 80].map((f) => [f, { kind: "bc45", channels: 1, signed: false }] as const),
  [81, { kind: "bc45", channels: 1, signed: true }],
  ...[82, 83].map((f) => [f, { kind: "bc45", channels: 2, signed: false }] as const),
  [84, { kind: "bc45", channels: 2, signed: true }],
  ...[97, 98, 99].map((f) => [f, { kind: "bc7" }] as const),
  ...[27, 28, 29].map((f) => [f, masks(32, RGBA_MASKS)] as const),
  ...[87, 90, 91].map((f) => [f, masks(32, BGRA_MASKS)] as const),
  ...[88, 92, 93].map((f) => [f, masks(32, BGRX_MASKS)] as const),
  [85, masks(16, [0xf800, 0x07e0, 0x001f, 0])],
  [86, masks(16, [0x7c00, 0x03e0, 0x001f, 0x8000])],
  [115, masks(16, [0x0f00, 0x00f0, 0x000f, 0xf000])],
  ...[48, 49].map((f) => [f, masks(16, [0xff, 0xff00, 0, 0])] as const),
  ...[60, 61].map((f) => [f, masks(8, [0xff, 0, 0, 0], true)] as const),
  [65, masks(8, [0, 0, 0, 0xff])],
] as [number, DdsLayout][]);
