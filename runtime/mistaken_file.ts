/**
 * Files users give by mistake instead of a model — a download still zipped, a texture, a model in a
 * format no decoder reads — told by their first bytes, so that a decoder's refusal can say what the
 * file is and what to do rather than only that its bytes were not expected.
 *
 * @module
 */

const FBX = [...new TextEncoder().encode("Kaydara FBX Binary")];
const BLEND = [...new TextEncoder().encode("BLENDER")];

const KINDS: readonly { magic: readonly number[]; what: string }[] = [
  { magic: [0x50, 0x4b, 0x03, 0x04], what: "a ZIP archive (unpack it and give the model inside)" },
  { magic: [0x1f, 0x8b], what: "gzip data (unpack it first)" },
  { magic: [0x89, 0x50, 0x4e, 0x47], what: "a PNG image" },
  { magic: [0xff, 0xd8, 0xff], what: "a JPEG image" },
  { magic: FBX, what: "a binary FBX file (export it as glTF from its tool)" },
  { magic: BLEND, what: "a .blend file (export it as glTF from Blender)" },
];

/**
 * What the bytes from `at` on are when they start like a file users give by mistake, with what to
 * do; undefined otherwise.
 *
 * @example
 * ```ts
 * import { mistakenFile } from "./mistaken_file.ts";
 *
 * mistakenFile(new Uint8Array([0x50, 0x4b, 0x03, 0x04])); // "a ZIP archive (unpack it …)"
 * ```
 */
export function mistakenFile(bytes: Uint8Array, at = 0): string | undefined {
  return KINDS.find(({ magic }) =>
    at + magic.length <= bytes.length && magic.every((b, i) => bytes[at + i] === b)
  )
    ?.what;
}
