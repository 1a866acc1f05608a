/**
 * Freelancer's ini files, in both forms the game reads: text in its own dialect (sections and keys
 * repeat, `;` starts a comment, names are case-insensitive, values are comma-separated) and the
 * binary `BINI` form retail ships (`shiparch.ini`, `solararch.ini`, … are BINI on the retail disc).
 * Only what library discovery needs is kept: sections in file order, each with its entries in order,
 * every value as text.
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";

/** One `key = v1, v2, …` line (or BINI entry); `values` are trimmed strings. */
export interface IniEntry {
  readonly key: string;
  readonly values: readonly string[];
}

/** One `[Section]` with its entries in file order. */
export interface IniSection {
  readonly name: string;
  readonly entries: readonly IniEntry[];
}

const BINI_SIGNATURE = 0x494e4942; // "BINI", little-endian

/**
 * Reads a text or BINI ini file. Text never fails (lines that are not `key = value` inside a
 * section are skipped, as the game does); a BINI whose records run past the file or whose string
 * offsets leave the string table is a {@link DecodeError} at that byte offset.
 *
 * @example
 * ```ts
 * const sections = readIni(new TextEncoder().encode("[Ship]\nDA_archetype = ships\\a.cmp"), "shiparch.ini");
 * sections[0].entries[0]; // { key: "DA_archetype", values: ["ships\\a.cmp"] }
 * ```
 */
export function readIni(bytes: Uint8Array, file: string): IniSection[] {
  const isBini = bytes.length >= 4 &&
    new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(0, true) === BINI_SIGNATURE;
  return isBini ? readBini(bytes, file) : readTextIni(new TextDecoder("latin1").decode(bytes));
}

function readTextIni(text: string): IniSection[] {
  const sections: { name: string; entries: IniEntry[] }[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.split(";", 1)[0].trim();
    if (!line) continue;
    const header = /^\[([^\]]*)\]/.exec(line);
    if (header) {
      sections.push({ name: header[1].trim(), entries: [] });
      continue;
    }
    const equals = line.indexOf("=");
    const current = sections.at(-1);
    if (equals < 0 || !current) continue;
    current.entries.push({
      key: line.slice(0, equals).trim(),
      values: line.slice(equals + 1).split(",").map((v) => v.trim()),
    });
  }
  return sections;
}

/**
 * BINI layout: `"BINI"`, u32 version, u32 string-table offset; then sections (u16 name, u16 entry
 * count), entries (u16 name, u8 value count) and values (u8 type: 1 int32, 2 float32, 3 string
 * offset; then 4 bytes) up to the string table of NUL-terminated names.
 */
function readBini(bytes: Uint8Array, file: string): IniSection[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const fail = (offset: number, expected: string, found: string): never => {
    throw new DecodeError({ format: "bini", at: { offset }, expected, found, file });
  };
  if (bytes.length < 12) fail(0, "a 12-byte BINI header", `${bytes.length} bytes`);
  const tableStart = view.getUint32(8, true);
  if (tableStart < 12 || tableStart > bytes.length) {
    fail(8, `a string-table offset in 12..${bytes.length}`, String(tableStart));
  }
  const decoder = new TextDecoder("latin1");
  const strings = new Map<number, string>();
  const string = (offset: number, at: number): string => {
    let s = strings.get(offset);
    if (s === undefined) {
      const start = tableStart + offset;
      if (start >= bytes.length) {
        fail(at, `a string offset below ${bytes.length - tableStart}`, String(offset));
      }
      const end = bytes.indexOf(0, start);
      s = decoder.decode(bytes.subarray(start, end < 0 ? bytes.length : end));
      strings.set(offset, s);
    }
    return s;
  };
  const need = (at: number, size: number, what: string) => {
    if (at + size > tableStart) fail(at, `${size} bytes of ${what} before the string table`, "its end");
  };
  const sections: IniSection[] = [];
  let at = 12;
  while (at < tableStart) {
    need(at, 4, "a section header");
    const name = string(view.getUint16(at, true), at);
    const count = view.getUint16(at + 2, true);
    at += 4;
    const entries: IniEntry[] = [];
    for (let e = 0; e < count; e++) {
      need(at, 3, "an entry header");
      const key = string(view.getUint16(at, true), at);
      const valueCount = view.getUint8(at + 2);
      at += 3;
      need(at, valueCount * 5, `${valueCount} values`);
      const values: string[] = [];
      for (let v = 0; v < valueCount; v++, at += 5) {
        const type = view.getUint8(at);
        if (type === 1) values.push(String(view.getInt32(at + 1, true)));
        else if (type === 2) values.push(String(view.getFloat32(at + 1, true)));
        else if (type === 3) values.push(string(view.getUint32(at + 1, true), at + 1));
        else fail(at, "a value type 1 (int), 2 (float) or 3 (string)", String(type));
      }
      entries.push({ key, values });
    }
    sections.push({ name, entries });
  }
  return sections;
}

/**
 * The `material_library` values of every section that has a `DA_archetype`, by that archetype's
 * path (see {@link normalizeGamePath}), in file order. Built once per ini file, so a batch looks each
 * model up without rescanning the file.
 *
 * @example
 * ```ts
 * archetypeLibraries(sections).get("ships/rheinland/rh_fighter/rh_fighter.cmp"); // ["ships\\rheinland\\rh_playerships.mat"]
 * ```
 */
export function archetypeLibraries(sections: readonly IniSection[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const section of sections) {
    const values = (key: string) =>
      section.entries.filter((e) => e.key.toLowerCase() === key).map((e) => e.values[0] ?? "");
    const libraries = values("material_library").filter((library) => library !== "");
    for (const archetype of values("da_archetype")) {
      const key = normalizeGamePath(archetype);
      out.set(key, [...out.get(key) ?? [], ...libraries]);
    }
  }
  return out;
}

/** A game path in one spelling: lower case, `/` separators, no leading `./` or `/`. */
export function normalizeGamePath(path: string): string {
  return path.trim().replaceAll("\\", "/").replace(/^(\.?\/)+/, "").toLowerCase();
}
