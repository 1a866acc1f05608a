/**
 * JSON saved as UTF-16. JSON must be UTF-8, but Windows tools save text as UTF-16 (Windows
 * PowerShell's `Out-File` and `>`, Notepad's "Unicode"). Such text is unambiguous: a byte order mark,
 * or the zero byte beside each of JSON's first two characters, which are ASCII (RFC 4627's detection).
 *
 * @module
 */

/** The two UTF-16 byte orders, as `TextDecoder` names them. */
export type Utf16Order = "utf-16le" | "utf-16be";

/**
 * The byte order of JSON text in UTF-16, or undefined for any other text (UTF-8, or UTF-32, whose
 * mark `FF FE 00 00` begins like UTF-16LE's).
 *
 * @example
 * ```ts
 * utf16Order(new Uint8Array([0xff, 0xfe, 0x7b, 0x00])); // "utf-16le"
 * utf16Order(new TextEncoder().encode("{}")); // undefined
 * ```
 */
export function utf16Order(bytes: Uint8Array): Utf16Order | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe) return c !== 0 || d !== 0 ? "utf-16le" : undefined;
  if (a === 0xfe && b === 0xff) return "utf-16be";
  if (bytes.length < 4) return undefined;
  if (a !== 0 && b === 0 && c !== 0 && d === 0) return "utf-16le";
  if (a === 0 && b !== 0 && c === 0 && d !== 0) return "utf-16be";
  return undefined;
}

/** What a warning says of JSON read as UTF-16 in `order`. */
export function utf16Note(order: Utf16Order): string {
  const name = order.toUpperCase();
  return `the JSON is ${name} text, not the UTF-8 glTF requires; read as ${name}`;
}
