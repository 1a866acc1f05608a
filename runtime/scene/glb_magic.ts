/**
 * The GLB container's magic number, apart from `gltf_io.ts` so that sniffing a file's format (the
 * glTF plug-in's `decode.auto` entry) loads no glTF-Transform.
 *
 * @module
 */

/** `glTF` as a little-endian uint32: the first word of every GLB. */
export const GLB_MAGIC = 0x46546c67;

/**
 * True when the bytes start with the GLB magic `glTF` — whatever follows, so that a GLB cut short in
 * its header is read (and refused) as a GLB, not as JSON.
 */
export function isGlb(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 &&
    new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === GLB_MAGIC;
}
