/**
 * Reader for Freelancer's UTF container: a 56-byte header, a tree of 44-byte entries, a name
 * dictionary and a data block. Every offset and size is checked against the file before use;
 * the tree walk refuses cycles and absurd depth, so a corrupt file fails with a {@link DecodeError}
 * naming the byte offset instead of hanging or overflowing the stack.
 *
 * @example
 * ```ts
 * const root = readUtf(bytes, "ship.cmp");
 * const cmpnd = findChild(root, "Cmpnd"); // case-insensitive, first duplicate wins
 * ```
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";
import { ByteWindow, latin1 as textToNul } from "../../../../runtime/binary.ts";
import { mistakenFile } from "../../../../runtime/mistaken_file.ts";

/** Size of the UTF header in bytes. */
export const UTF_HEADER_SIZE = 56;
/** Size of one tree entry in bytes. */
export const UTF_ENTRY_SIZE = 44;
/** The only UTF version Freelancer accepts. */
export const UTF_VERSION = 0x101;
/** `"UTF "` as a little-endian u32. */
export const UTF_SIGNATURE = 0x20465455;

const DIRECTORY_BIT = 0x10;
/** Real files nest a handful of levels; anything deeper is corruption (and would blow the stack). */
const MAX_DEPTH = 128;

/** One tree entry: a directory with children or a leaf with a data window. */
export interface UtfEntry {
  /** Name as stored (case kept). */
  readonly name: string;
  /** Absolute byte offset of the 44-byte entry, for error messages. */
  readonly offset: number;
  /** Children, in file order (directories only). */
  readonly children?: readonly UtfEntry[];
  /** The payload, `used` bytes only (leaves only); ranges may be shared between leaves. */
  readonly data?: ByteWindow;
  /** The file the entry came from, for error messages. */
  readonly file?: string;
}

/** True when the bytes start with the UTF signature and version. */
export function isUtf(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 8) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  return view.getUint32(0, true) === UTF_SIGNATURE && view.getUint32(4, true) === UTF_VERSION;
}

/**
 * Parses a UTF file into its entry tree (the root directory, normally named `\`).
 *
 * @example
 * ```ts
 * const root = readUtf(await Deno.readFile("monkey.3db"), "monkey.3db");
 * ```
 */
export function readUtf(bytes: Uint8Array, file?: string): UtfEntry {
  const whole = new ByteWindow(bytes, 0, bytes.byteLength, "utf", file);
  whole.need(0, UTF_HEADER_SIZE, "UTF header");
  const signature = whole.u32(0, "signature");
  if (signature !== UTF_SIGNATURE) {
    // A download still zipped, an image given by mistake: say what it is.
    const found = JSON.stringify(latin1(bytes.subarray(0, 4)));
    const swapped = found === '" FTU"' ? " ('UTF ' with its bytes reversed: a big-endian file)" : "";
    whole.fail(0, "signature 'UTF '", mistakenFile(bytes) ?? found + swapped);
  }
  const version = whole.u32(4, "version");
  if (version !== UTF_VERSION) {
    // 0x101 byte-swapped: a header written (or "repaired") big-endian; Freelancer is little-endian only.
    const swapped = version === 0x01010000 ? " (0x101 with its bytes reversed: a big-endian header)" : "";
    whole.fail(4, "version 0x101", "0x" + version.toString(16) + swapped);
  }
  const treeOffset = whole.u32(8, "tree offset");
  const treeSize = whole.u32(12, "tree size");
  const entrySize = whole.u32(20, "entry size");
  if (entrySize !== UTF_ENTRY_SIZE) whole.fail(20, "entry size 44", String(entrySize));
  const namesOffset = whole.u32(24, "dictionary offset");
  const namesAllocated = whole.u32(28, "dictionary size");
  const namesUsed = whole.u32(32, "dictionary used size");
  if (namesUsed > namesAllocated) {
    whole.fail(32, `dictionary used size ≤ allocated ${namesAllocated}`, String(namesUsed));
  }
  const dataOffset = whole.u32(36, "data offset");
  if (treeOffset + treeSize > bytes.byteLength) {
    whole.fail(8, `tree block inside the ${bytes.byteLength}-byte file`, `${treeOffset}+${treeSize}`);
  }
  if (namesOffset + namesUsed > bytes.byteLength) {
    whole.fail(24, `dictionary inside the ${bytes.byteLength}-byte file`, `${namesOffset}+${namesUsed}`);
  }
  if (dataOffset > bytes.byteLength) {
    whole.fail(36, `data offset ≤ file size ${bytes.byteLength}`, String(dataOffset));
  }
  const tree = whole.sub(treeOffset, treeSize, "tree block");
  const names = whole.sub(namesOffset, namesUsed, "dictionary");
  const data = whole.sub(dataOffset, bytes.byteLength - dataOffset, "data block");
  // One byte per tree slot: a file has thousands of entries, a Set of their offsets grew and hashed.
  const visited = new Uint8Array(Math.floor(tree.length / UTF_ENTRY_SIZE));
  // Writers store each distinct name once ("VMeshData", "Position", …), so most entries share one.
  const nameAt = new Map<number, string>();

  const readName = (entryAt: number): string => {
    const at = tree.u32(entryAt + 4, "name offset");
    if (at >= names.length && !(at === 0 && names.length === 0)) {
      tree.fail(entryAt + 4, `name offset < dictionary size ${names.length}`, String(at));
    }
    let name = nameAt.get(at);
    if (name === undefined) nameAt.set(at, name = names.length ? nameEndingInNul(entryAt, at) : "");
    return name;
  };

  // A name runs to its NUL, as Freelancer reads it: past the used size into the allocated padding if
  // need be. One with no NUL before the dictionary's end is a damaged name offset or dictionary: cut at
  // the end, its bytes were taken silently for another name ('HpMount01' read as 'Z').
  const dictionaryEnd = namesOffset + Math.min(namesAllocated, bytes.byteLength - namesOffset);
  const nameEndingInNul = (entryAt: number, at: number): string => {
    const from = namesOffset + at;
    const end = bytes.subarray(from, dictionaryEnd).indexOf(0);
    if (end < 0) {
      tree.fail(
        entryAt + 4,
        `a name ending in a NUL inside the ${namesAllocated}-byte dictionary at byte ${namesOffset}`,
        `${
          JSON.stringify(textToNul(bytes.subarray(from, Math.min(dictionaryEnd, from + 40))))
        } running to its end`,
      );
    }
    // Character by character: a spread of a long hostile name would overflow the stack.
    return textToNul(bytes.subarray(from, from + end));
  };

  /** Checks a child or sibling link (stored at `fieldAt`) before following it. */
  const follow = (fieldAt: number, target: number): number => {
    // Writers lay entries out as an array; an unaligned or outside link means the tree is corrupt.
    if (target % UTF_ENTRY_SIZE !== 0 || target + UTF_ENTRY_SIZE > tree.length) {
      tree.fail(
        fieldAt,
        `a link to one of the ${Math.floor(tree.length / UTF_ENTRY_SIZE)} tree entries`,
        String(target),
      );
    }
    if (visited[target / UTF_ENTRY_SIZE]) {
      tree.fail(fieldAt, "an acyclic tree", `a link back to entry ${target}`);
    }
    return target;
  };

  const readEntry = (at: number, depth: number): UtfEntry => {
    if (depth > MAX_DEPTH) tree.fail(at, `tree depth ≤ ${MAX_DEPTH}`, "deeper nesting");
    tree.need(at, UTF_ENTRY_SIZE, "tree entry");
    visited[at / UTF_ENTRY_SIZE] = 1;
    const name = readName(at);
    const attributes = tree.u32(at + 8, "attributes");
    const childOffset = tree.u32(at + 16, "child offset");
    const offset = tree.start + at;
    if (attributes & DIRECTORY_BIT) {
      const children: UtfEntry[] = [];
      // childOffset 0 is an empty directory: offset 0 is the root and cannot be anyone's child.
      let linkAt = at + 16;
      let next = childOffset;
      while (next !== 0) {
        const child = readEntry(follow(linkAt, next), depth + 1);
        if (child.name !== "") children.push(child);
        linkAt = next;
        next = tree.u32(next, "sibling offset");
      }
      return { name, offset, children, file };
    }
    const used = tree.u32(at + 24, "data size");
    if (childOffset + used > data.length) {
      tree.fail(at + 16, `leaf data inside the ${data.length}-byte data block`, `${childOffset}+${used}`);
    }
    return { name, offset, data: data.sub(childOffset, used, "leaf data"), file };
  };

  const root = readEntry(0, 0);
  if (!root.children) tree.fail(0, "the root entry to be a directory", "a leaf");
  return root;
}

/** The first child of a directory whose name matches case-insensitively, or undefined. */
export function findChild(dir: UtfEntry | undefined, name: string): UtfEntry | undefined {
  if (!dir?.children) return undefined;
  if (!isLatin1(name)) return dir.children.find(sameLowerCase(name.toLowerCase()));
  // Names are Latin-1, whose lower case keeps the length: most siblings fail on their length, the
  // rest are compared code by code without a lower-cased copy of either name.
  for (const child of dir.children) {
    if (child.name.length === name.length && sameFolded(child.name, name)) return child;
  }
  return undefined;
}

/** Every child of a directory whose name matches case-insensitively, in file order. */
export function findChildren(dir: UtfEntry | undefined, name: string): UtfEntry[] {
  const children = dir?.children ?? [];
  if (!isLatin1(name)) return children.filter(sameLowerCase(name.toLowerCase()));
  return children.filter((c) => c.name.length === name.length && sameFolded(c.name, name));
}

/** The test findChild made before: a child's name lower-cased equals `wanted`. */
function sameLowerCase(wanted: string): (child: UtfEntry) => boolean {
  return (child) => child.name.length === wanted.length && child.name.toLowerCase() === wanted;
}

function isLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

/**
 * `written.toLowerCase() === name.toLowerCase()` for a Latin-1 `name` of the same length: code by
 * code, as `toLowerCase` folds Latin-1 (A–Z and À–Þ but ×, one code each); a code past Latin-1 in
 * `written` (a Kelvin sign lower-cases to k) is left to `toLowerCase`.
 */
function sameFolded(written: string, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const a = written.charCodeAt(i), b = name.charCodeAt(i);
    if (a === b) continue;
    if (a > 0xff) return written.toLowerCase() === name.toLowerCase();
    if (foldLatin1(a) !== foldLatin1(b)) return false;
  }
  return true;
}

/** The lower case of a Latin-1 code, as `String.prototype.toLowerCase` gives it. */
function foldLatin1(code: number): number {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0xc0 && code <= 0xde && code !== 0xd7) ? code + 32 : code;
}

/** Follows a `/`-separated path of case-insensitive names. */
export function findPath(dir: UtfEntry | undefined, path: string): UtfEntry | undefined {
  let at = dir;
  for (const part of path.split("/")) at = findChild(at, part);
  return at;
}

/** A leaf's payload as a string: Latin-1, up to the first NUL or the end (the NUL is optional). */
export function leafString(entry: UtfEntry): string {
  const data = requireLeaf(entry, "a string leaf");
  return data.cString(0, data.length);
}

/** A leaf's data window; throws a DecodeError naming the entry when it is a directory. */
export function requireLeaf(entry: UtfEntry, expected: string): ByteWindow {
  if (!entry.data) {
    throw new DecodeError({
      format: "utf",
      at: { offset: entry.offset },
      expected,
      found: `directory '${entry.name}'`,
      file: entry.file,
    });
  }
  return entry.data;
}

function latin1(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}
