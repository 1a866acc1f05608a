/**
 * The structural fields of Freelancer UTF models (`.cmp`, `.3db`), as sweep cases: the UTF header's
 * offsets and sizes, every tree entry's sibling/child offsets, name offset, attributes and data sizes
 * (set to 0, itself, its parent, the root, the ends of the blocks and ±1), and inside the leaves the
 * decoder reads: `VMeshData` counts, groups and indices, `VMeshRef` ranges, `Cons` record sizes and
 * joint names (self-parented, cycles), animation channel headers, texture headers (DDS/TGA) and
 * counts (`formats/freelancer.md` §2, §4, §5).
 *
 * @module
 */
import { type Case, Cases, F32, type FieldType, U16, U32, U8 } from "./cases.ts";
import { CONSTRAINT_RECORD_SIZE } from "../../../../nodes/decode/freelancer/codec/constraints.ts";

const HEADER = 56;
const ENTRY = 44;

/** One tree entry of the seed, found by walking it. */
interface Entry {
  readonly name: string;
  /** Offset in the tree block. */
  readonly rel: number;
  readonly parent: number;
  readonly directory: boolean;
  /** Absolute payload offset and used size (leaves). */
  readonly data: number;
  readonly used: number;
}

/** Joint record sizes by `Cons` leaf name (§5.3), as the decoder's own table: a name not in it is no joint. */
const CONSTRAINT_BYTES: Readonly<Record<string, number>> = CONSTRAINT_RECORD_SIZE;

function walk(
  bytes: Uint8Array,
): { entries: Entry[]; tree: number; treeSize: number; names: number; data: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);
  const [tree, treeSize, names, data] = [u32(8), u32(12), u32(24), u32(36)];
  const entries: Entry[] = [];
  const visit = (rel: number, parent: number) => {
    for (let at = rel; at !== 0 || entries.length === 0;) {
      if (entries.some((e) => e.rel === at)) throw new Error(`the seed's tree has a cycle at ${at}`);
      const abs = tree + at;
      let name = "";
      for (let i = names + u32(abs + 4); bytes[i]; i++) name += String.fromCharCode(bytes[i]);
      const directory = (u32(abs + 8) & 0x10) !== 0;
      entries.push({ name, rel: at, parent, directory, data: data + u32(abs + 16), used: u32(abs + 24) });
      if (directory && u32(abs + 16)) visit(u32(abs + 16), at);
      at = u32(abs);
      if (at === 0) break;
    }
  };
  visit(0, 0);
  return { entries, tree, treeSize, names, data };
}

/** The cases of a UTF model file. */
export function casesUtf(bytes: Uint8Array): Case[] {
  const cases = new Cases(bytes);
  const size = bytes.byteLength;
  const { entries, tree, treeSize, names, data } = walk(bytes);
  const dataSize = size - data;
  const header = (name: string, at: number, extra: number[]) => {
    const v = cases.read(at, U32);
    cases.field(name, at, U32, [0, 1, -1, v - 1, v + 1, size - 1, size, size + 1, HEADER, ...extra]);
  };
  header("version", 4, [0x100, 0x102]);
  header("tree offset", 8, [names, data]);
  header("tree size", 12, [treeSize - ENTRY, treeSize + ENTRY, ENTRY - 1]);
  header("entry size", 20, [0, 43, 45, 88]);
  header("dictionary offset", 24, [tree, data]);
  header("dictionary size", 28, []);
  header("dictionary used size", 32, [cases.read(28, U32) + 1]);
  header("data offset", 36, [tree, names]);
  const nameSize = cases.read(32, U32);

  for (const e of entries) {
    const at = tree + e.rel;
    const label = `entry '${e.name}' @${e.rel}`;
    // Offsets in the tree block: itself, its parent, the root (a cycle), one past the end, misaligned.
    const treeLinks = [0, e.rel, e.parent, ENTRY, treeSize, treeSize - ENTRY, treeSize - 1, e.rel + 1, -1];
    cases.field(`${label} next sibling`, at, U32, treeLinks);
    cases.field(`${label} name offset`, at + 4, U32, [0, nameSize - 1, nameSize, -1]);
    cases.field(`${label} attributes`, at + 8, U32, [0, 0x10, 0x80, 0x90, 0xff, 0x10010, -1]);
    if (e.directory) {
      cases.field(`${label} first child`, at + 16, U32, treeLinks);
    } else {
      const alloc = cases.read(at + 20, U32);
      const offset = e.data - data;
      cases.field(`${label} data offset`, at + 16, U32, [
        0,
        offset + 1,
        dataSize - e.used,
        dataSize - e.used + 1,
        dataSize,
        -1,
      ]);
      cases.field(`${label} used size`, at + 24, U32, [
        0,
        1,
        e.used - 1,
        e.used + 1,
        alloc + 1,
        dataSize - offset,
        dataSize - offset + 1,
        -1,
      ]);
      cases.field(`${label} uncompressed size`, at + 28, U32, [0, e.used + 1, -1]);
      const record = CONSTRAINT_BYTES[e.name.toLowerCase()];
      if (record) {
        cases.field(`${label} used size (records)`, at + 24, U32, [
          record - 1,
          record + 1,
          e.used - record,
          e.used + record,
          2 * record - 1,
        ]);
      }
    }
  }
  for (const e of entries) if (!e.directory) leafFields(cases, e);
  return cases.list;
}

/** Fields inside the payload of a leaf the decoder reads, by its name. */
function leafFields(cases: Cases, e: Entry): void {
  const name = e.name.toLowerCase();
  const label = `'${e.name}' @${e.rel}`;
  const at = e.data;
  const has = (n: number) => e.used >= n;
  const word = (what: string, offset: number, type: FieldType, extra: number[] = []) => {
    if (!has(offset + type.bytes)) return;
    const v = cases.read(at + offset, type);
    cases.field(`${label} ${what}`, at + offset, type, [0, 1, -1, v - 1, v + 1, type.max, ...extra]);
  };
  if (name === "vmeshdata" && has(16)) {
    const groups = cases.read(at + 8, U16);
    const indices = cases.read(at + 10, U16);
    const vertices = cases.read(at + 14, U16);
    word("mesh type", 0, U32);
    word("primitive", 4, U32, [2, 5, 6]);
    word("group count", 8, U16, [groups * 2]);
    word("index count", 10, U16, [indices - 3, indices + 3]);
    word("FVF", 12, U16, [0x002, 0x012, 0x102, 0x112, 0x142, 0x212, 0x512, 0xf12, 0x0a2, 0x1002]);
    word("vertex count", 14, U16, [vertices * 2]);
    for (const g of [0, groups - 1].filter((g, i, a) => g >= 0 && a.indexOf(g) === i)) {
      const base = 16 + 12 * g;
      word(`group ${g} material id`, base, U32);
      word(`group ${g} vertex start`, base + 4, U16, [vertices - 1, vertices]);
      word(`group ${g} vertex end`, base + 6, U16, [vertices - 1, vertices]);
      word(`group ${g} index count`, base + 8, U16, [indices, indices + 3, 2]);
    }
    const indexAt = 16 + 12 * groups;
    for (const i of [0, indices - 1].filter((i) => i >= 0)) {
      word(`index ${i}`, indexAt + 2 * i, U16, [vertices - 1, vertices]);
    }
  } else if (name === "vmeshref" && has(20)) {
    word("header size", 0, U32, [59, 61]);
    word("mesh id", 4, U32);
    for (
      const [what, offset] of [
        ["vertex start", 8],
        ["vertex count", 10],
        ["index start", 12],
        ["index count", 14],
        ["group start", 16],
        ["group count", 18],
      ] as const
    ) {
      word(what, offset, U16);
    }
  } else if (name === "vwiredata" && has(16)) {
    word("header size", 0, U32);
    word("mesh id", 4, U32);
    for (const offset of [8, 10, 12, 14]) word(`u16 at ${offset}`, offset, U16);
  } else if (CONSTRAINT_BYTES[name]) {
    jointNames(cases, e, CONSTRAINT_BYTES[name]);
  } else if (name === "header" && has(12)) {
    word("key count", 0, U32);
    cases.field(`${label} interval`, at + 4, F32, [0, -1, NaN, Infinity, 1e-30]);
    word("channel type", 8, U32, [0x1, 0x2, 0x4, 0x6, 0x10, 0x20, 0x40, 0x80, 0x44, 0x84, 0xff]);
  } else if ((name === "frame count" || name === "texture count" || name === "fps") && has(4)) {
    word("value", 0, name === "fps" ? F32 : U32);
  } else if (/^mip[s0-9]/.test(name) && has(18)) {
    const dds = cases.read(at, U32) === 0x20534444;
    if (dds && has(128)) {
      word("DDS header size", 4, U32);
      word("DDS height", 12, U32, [3, 0x10000]);
      word("DDS width", 16, U32, [3, 0x10000]);
      word("DDS linear size", 20, U32);
      word("DDS mip count", 28, U32, [32, 33]);
      word("DDS pixel format size", 76, U32);
      word("DDS four-cc", 84, U32, [0x31545844, 0x33545844, 0x35545844, 0x30315844]);
      word("DDS bit count", 88, U32, [8, 16, 24, 32, 64]);
    } else if (!dds) {
      word("TGA id length", 0, U8);
      word("TGA colour map type", 1, U8);
      word("TGA image type", 2, U8, [1, 2, 3, 9, 10, 11]);
      word("TGA colour map length", 5, U16);
      word("TGA width", 12, U16);
      word("TGA height", 14, U16);
      word("TGA bits per pixel", 16, U8, [8, 15, 16, 24, 32]);
    }
  }
}

/** A joint record's names made to point at itself, at nothing, and round in a cycle. */
function jointNames(cases: Cases, e: Entry, record: number): void {
  const count = Math.floor(e.used / record);
  const nameAt = (r: number, child: boolean) => e.data + r * record + (child ? 64 : 0);
  const nameOf = (at: number) => {
    let s = "";
    for (let i = at; i < at + 64 && cases.bytes[i]; i++) s += String.fromCharCode(cases.bytes[i]);
    return s;
  };
  const write = (at: number, text: string) =>
    Array.from(
      { length: 64 },
      (_, i) => ({ at: at + i, type: U8, value: i < text.length ? text.charCodeAt(i) : 0 }),
    );
  const label = `'${e.name}' @${e.rel}`;
  for (let r = 0; r < count; r++) {
    const parent = nameOf(nameAt(r, false));
    const child = nameOf(nameAt(r, true));
    cases.edits(`${label} record ${r} child name`, "its parent", write(nameAt(r, true), parent));
    cases.edits(`${label} record ${r} parent name`, "its child (a cycle)", write(nameAt(r, false), child));
    cases.edits(`${label} record ${r} parent name`, "empty", write(nameAt(r, false), ""));
    cases.edits(`${label} record ${r} child name`, "empty", write(nameAt(r, true), ""));
    cases.edits(`${label} record ${r} child name`, "unknown part", write(nameAt(r, true), "no_such_part"));
    cases.edits(`${label} record ${r} name`, "no NUL", write(nameAt(r, true), "x".repeat(64)));
  }
  if (count >= 2) {
    // Each record's parent the next record's child: a cycle through the whole table.
    const children = Array.from({ length: count }, (_, r) => nameOf(nameAt(r, true)));
    cases.edits(
      `${label} every record's parent`,
      "the next record's child (a cycle)",
      children.flatMap((_, r) => write(nameAt(r, false), children[(r + 1) % count])),
    );
    // Two records with the same child: a part with two parents.
    cases.edits(`${label} record 1 child name`, "record 0's child", write(nameAt(1, true), children[0]));
  }
}
