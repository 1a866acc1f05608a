/**
 * Hostile glTF families of the `hostile-views` set: binary data that two parts of a file read
 * differently. Accessors reading each other's bytes as another component type, and embedded PNGs
 * whose header lies about their size, cut short or labelled as another format. A set of its own,
 * not more entries in {@link GLTF_FAMILIES}: the families there are drawn by their count, so adding
 * to them would change which file every recorded `hostile-gltf` case (seed, index) makes.
 *
 * @module
 */
import { addView, GLTF_FAMILIES, type GltfParts, type HostileGltf } from "./hostile_gltf.ts";

type Random = () => number;
// deno-lint-ignore no-explicit-any
type Json = any;

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const int = (random: Random, n: number) => Math.floor(random() * n);

/** Bytes per component of each glTF componentType. */
const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };

/** The CRC-32 PNG chunks carry (over the chunk's type and data). */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** The families of the `hostile-views` set, each an edit of a glTF's parts. */
export const VIEW_FAMILIES: Record<string, (parts: GltfParts, random: Random) => HostileGltf> = {
  /**
   * An accessor over another's bytes with another component type, as a writer that reuses a view
   * carelessly leaves it: indices reading vertex floats, a float attribute reading indices or
   * colours, joints reading weights, matrices reading positions. The accessor keeps its count, type
   * and min/max (which now lie); its view becomes one from the other's bytes to the buffer's end
   * (sometimes with the other view's stride or target), so the count still fits where it can.
   */
  "typed-overlap"(parts, random) {
    const json = parts.json;
    const accessors = json.accessors as Json[];
    const a = pick(random, accessors);
    const others = accessors.filter((b) =>
      b !== a && b.bufferView !== undefined && b.componentType !== a.componentType
    );
    if (!others.length) return GLTF_FAMILIES.overlap(parts, random);
    const b = pick(random, others);
    const donorView = json.bufferViews[b.bufferView];
    const start = (donorView.byteOffset ?? 0) + (b.byteOffset ?? 0);
    // Aligned to 4 (a misaligned view is a plainer error, the stride family's).
    const aligned = start - (start % 4);
    const extra: Json = {};
    if (donorView.byteStride && random() < 0.5) extra.byteStride = donorView.byteStride;
    if (donorView.target && random() < 0.5) extra.target = donorView.target;
    json.bufferViews.push({
      buffer: 0,
      byteOffset: aligned,
      byteLength: parts.bin.byteLength - aligned,
      ...extra,
    });
    a.bufferView = json.bufferViews.length - 1;
    delete a.byteOffset;
    delete a.sparse;
    if (random() < 0.3 && COMPONENT_SIZE[a.componentType] < 4) a.normalized = true;
    return parts;
  },
  /**
   * An embedded PNG whose header lies: IHDR width or height 0, 1, 65,535 or past 2³¹ − 1 (its CRC
   * mended, as an editor rewriting the header would, or stale), the file cut inside IHDR or IDAT,
   * or the image's mimeType another format's. A base without an embedded image gets typed-overlap.
   */
  "image-header"(parts, random) {
    const json = parts.json;
    const images = (json.images as Json[] | undefined)?.filter((i) => i.bufferView !== undefined) ?? [];
    if (!images.length) return VIEW_FAMILIES["typed-overlap"](parts, random);
    const image = pick(random, images);
    const view = json.bufferViews[image.bufferView];
    const at = view.byteOffset ?? 0;
    const png = parts.bin.slice(at, at + view.byteLength);
    const header = new DataView(png.buffer);
    const kind = int(random, 4);
    let bytes = png;
    if (kind === 0 || kind === 1) {
      // IHDR's data starts at byte 16: width, then height; its CRC (over type and data) at 29.
      const field = 16 + 4 * int(random, 2);
      header.setUint32(field, pick(random, [0, 1, 65_535, 0x7fffffff, 0x80000000, 0xffffffff]));
      if (random() < 0.5) header.setUint32(field === 16 ? 20 : 16, 65_535);
      if (kind === 0) header.setUint32(29, crc32(png.subarray(12, 29)));
    } else if (kind === 2) {
      bytes = png.slice(0, pick(random, [20, 33, 41, 33 + int(random, Math.max(1, png.byteLength - 45))]));
    } else {
      image.mimeType = pick(random, ["image/jpeg", "image/ktx2", "image/webp", "image/PNG", "png", ""]);
    }
    image.bufferView = addView(parts, bytes);
    return parts;
  },
};
