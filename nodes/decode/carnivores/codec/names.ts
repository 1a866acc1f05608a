/**
 * Text of the fixed 32-byte name fields (bones, model, clips, sounds). The games never show these
 * names (the engine ignores bones and picks clips by index), so they are whatever the tool that wrote
 * the file left: ASCII in the retail files, and the Windows ANSI code page of the modder's system in
 * community files — Windows-1251 (Cyrillic) for the Russian and Ukrainian editors and mods
 * (Action Forms' own Designer 2 and Animator came from Kiev), Windows-1252 elsewhere. Read one
 * character per byte, a Cyrillic "Голова" became "Ãîëîâà" in joint and clip names, silently.
 *
 * A name's bytes end at its first NUL (what follows is stale buffer bytes and is ignored, as every
 * C reader of the field ignores it). Non-ASCII names are decoded as Windows-1251 when they read as
 * Cyrillic words — every byte past ASCII a Cyrillic letter (0xC0–0xFF, Ё 0xA8, ё 0xB8), two or more
 * in a row somewhere, no byte repeated four times in a row (a 0xFF fill is not "яяяя") — and as
 * Windows-1252 otherwise; each such name is reported once per file, with its bytes.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";

const CP1251 = new TextDecoder("windows-1251");
const CP1252 = new TextDecoder("windows-1252");

/** True when `byte` is a Cyrillic letter in Windows-1251. */
function cyrillicLetter(byte: number): boolean {
  return byte >= 0xc0 || byte === 0xa8 || byte === 0xb8;
}

/** The code page a name's non-ASCII bytes are read in. */
export type NameCodePage = "ascii" | "windows-1251" | "windows-1252";

/** The code page of a name's bytes (see the module doc). */
export function nameCodePage(bytes: Uint8Array): NameCodePage {
  let high = false;
  let cyrillic = true;
  let run = 0;
  let pair = false;
  let repeat = 1;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    repeat = i > 0 && bytes[i - 1] === byte ? repeat + 1 : 1;
    if (byte < 0x80) {
      run = 0;
      continue;
    }
    high = true;
    if (!cyrillicLetter(byte) || repeat >= 4) cyrillic = false;
    if (++run >= 2) pair = true;
  }
  if (!high) return "ascii";
  return cyrillic && pair ? "windows-1251" : "windows-1252";
}

/** One name field that held bytes past ASCII. */
interface ReadName {
  readonly what: string;
  readonly offset: number;
  readonly bytes: Uint8Array;
  readonly page: NameCodePage;
  readonly text: string;
}

/**
 * Reads a file's name fields and reports the non-ASCII ones in one warning.
 *
 * @example
 * ```ts
 * const names = new NameReader(bytes);
 * const bone = names.read(at, 32, "bone 3");
 * names.report(warn);
 * ```
 */
export class NameReader {
  readonly #bytes: Uint8Array;
  readonly #decoded: ReadName[] = [];

  /** Names are read from `bytes` (the whole file; offsets are into it). */
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  /** The name in the `max` bytes at `at` (clipped to the file), up to its first NUL, trailing spaces left out. */
  read(at: number, max: number, what: string): string {
    const field = this.#bytes.subarray(Math.max(0, at), Math.max(0, Math.min(this.#bytes.length, at + max)));
    let end = field.indexOf(0);
    if (end < 0) end = field.length;
    // VB and Delphi tools pad a name with spaces rather than NULs: the padding is not the name's.
    while (end > 0 && field[end - 1] === 0x20) end--;
    return this.decode(field.subarray(0, end), at, what);
  }

  /** The text of a name's bytes (already cut at its NUL) that start at byte `at`. */
  decode(bytes: Uint8Array, at: number, what: string): string {
    const page = nameCodePage(bytes);
    if (page === "ascii") return String.fromCharCode(...bytes);
    const text = (page === "windows-1251" ? CP1251 : CP1252).decode(bytes);
    this.#decoded.push({ what, offset: at, bytes: bytes.slice(), page, text });
    return text;
  }

  /** One warning naming every non-ASCII name, its bytes and the code page it was read in. */
  report(warn: WarningSink): void {
    if (!this.#decoded.length) return;
    const shown = this.#decoded.slice(0, 8).map((n) =>
      `${n.what} at byte ${n.offset} ('${n.text}', ${n.page}: ${
        Array.from(n.bytes, (b) => b.toString(16).padStart(2, "0")).join(" ")
      })`
    );
    const more = this.#decoded.length - shown.length;
    warn(
      `${this.#decoded.length} name(s) hold bytes past ASCII (community tools write names in their ` +
        "Windows code page; a field of filler bytes is not text): read as Cyrillic (windows-1251) where " +
        `the bytes form Cyrillic words, else as windows-1252: ${shown.join("; ")}${
          more > 0 ? `; and ${more} more` : ""
        }`,
      {
        offset: this.#decoded[0].offset,
        names: this.#decoded.map((n) => ({ what: n.what, offset: n.offset, page: n.page, text: n.text })),
      },
    );
  }
}
