/**
 * The note a Carnivores decoder gives when a file's name claims the other format than its content
 * (`raptor.3df` holding a `.car`). Apart from `sniff.ts` because it reads the file's name with
 * `node:path`, and `decode.auto`'s sniffers load before any node runs (no Node built-in then).
 *
 * @module
 */
import { extname } from "node:path";
import { sniff3df, sniffCar } from "./sniff.ts";

/**
 * What to tell the user when a file whose content reads as `format` is named as another format
 * (`raptor.3df` holding a `.car`): the extensions of the run's `decoders`, and `.vtl`, name a format. A
 * name that claims none (`.bin`, `.dat`, `.bak`, no extension) says nothing to disagree with, and a
 * content that does not read as `format` (a decoder chosen by hand) gives no note either.
 *
 * @example
 * ```ts
 * extensionNote("raptor.3df", bytes, "car", [{ extensions: ["3df", "car"] }]); // "the file is named '.3df', but …"
 * ```
 */
export function extensionNote(
  file: string | undefined,
  bytes: Uint8Array,
  format: "car" | "3df",
  decoders: readonly { readonly extensions: readonly string[] }[],
): string | undefined {
  const ext = extname(file ?? "").slice(1).toLowerCase();
  if (ext === format || !(ext === "vtl" || decoders.some((d) => d.extensions.includes(ext)))) {
    return undefined;
  }
  if (!(format === "car" ? sniffCar(bytes) : sniff3df(bytes))) return undefined;
  return `the file is named '.${ext}', but its content is a Carnivores .${format} (its counts, faces and ` +
    `points read as one): read as a .${format}`;
}
