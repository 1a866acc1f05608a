/**
 * Hostile Freelancer UTF files, as a broken or hostile writer lays them out: links forming cycles
 * (a sibling to itself, a child to its ancestor, one entry in two directories), names running past
 * the dictionary or with no NUL at all, leaf sizes far past the data block, entries marked a
 * directory that are leaves (and the reverse), and directories of 65,535 children.
 *
 * @module
 */
import { readUtf, type UtfEntry } from "../../nodes/decode/freelancer/codec/utf.ts";
import { encodeUtf, type UtfNode } from "../support/freelancer/encode_utf.ts";

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const int = (random: Random, n: number) => Math.floor(random() * n);

const toNode = (entry: UtfEntry): UtfNode =>
  entry.children
    ? { name: entry.name, children: entry.children.map(toNode) }
    : { name: entry.name, data: entry.data?.view() ?? new Uint8Array(0) };

/** A copy of a tree's nodes sharing their payloads (structuredClone of 65,535 copies took 18 s). */
const copyNode = (node: UtfNode): UtfNode =>
  "children" in node ? { name: node.name, children: node.children.map(copyNode) } : { ...node };

/** The file's header fields and its entries (offset inside the file, directory or leaf). */
function layout(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tree = view.getUint32(8, true);
  const count = view.getUint32(12, true) / 44;
  const entries = Array.from({ length: count }, (_, i) => tree + i * 44);
  const dirs = entries.filter((at) => view.getUint32(at + 8, true) & 0x10);
  const leaves = entries.filter((at) => !(view.getUint32(at + 8, true) & 0x10));
  return { view, tree, entries, dirs, leaves };
}

/** Byte-level layout damage of an encoded UTF file, each family one kind. */
export const UTF_FAMILIES: Record<string, (seed: Uint8Array, random: Random) => Uint8Array> = {
  /** A sibling link to the entry itself, or to its directory's first child: a loop among siblings. */
  "sibling-cycle"(seed, random) {
    const bytes = seed.slice();
    const { view, tree, entries } = layout(bytes);
    const at = pick(random, entries.slice(1));
    view.setUint32(at, random() < 0.5 ? at - tree : 44 * (1 + int(random, entries.length - 1)), true);
    return bytes;
  },
  /** A directory's child link to itself, an ancestor (the root), or a child of another directory. */
  "child-cycle"(seed, random) {
    const bytes = seed.slice();
    const { view, tree, dirs } = layout(bytes);
    const at = pick(random, dirs);
    const other = pick(random, dirs);
    const target = [at - tree, 0, view.getUint32(other + 16, true), 44][int(random, 4)];
    view.setUint32(at + 16, target, true);
    return bytes;
  },
  /** Name offsets at the dictionary's last byte, past its used size, past its end, or no NUL at all. */
  "names-past-dictionary"(seed, random) {
    const bytes = seed.slice();
    const { view, entries } = layout(bytes);
    const namesAt = view.getUint32(24, true);
    const allocated = view.getUint32(28, true);
    const used = view.getUint32(32, true);
    const kind = int(random, 4);
    if (kind === 3) {
      // A dictionary without a single NUL: every name runs on into the next, and the last to its end.
      bytes.fill(0x41, namesAt, namesAt + used);
      bytes.fill(0x42, namesAt + used, namesAt + allocated);
    } else {
      const at = pick(random, entries);
      view.setUint32(at + 4, [used - 1, used, allocated + 1000][kind], true);
      if (kind === 0) bytes[namesAt + used - 1] = 0x5a;
    }
    return bytes;
  },
  /** A leaf's used or allocated size, or its data offset, far past the data block. */
  "leaf-sizes"(seed, random) {
    const bytes = seed.slice();
    const { view, leaves } = layout(bytes);
    const at = pick(random, leaves);
    const field = pick(random, [16, 20, 24, 28]);
    view.setUint32(at + field, pick(random, [0xffffffff, 0x7fffffff, bytes.byteLength, 0x10000]), true);
    return bytes;
  },
  /** A leaf marked a directory (its data offset read as a child link), or a directory marked a leaf. */
  "kind-swap"(seed, random) {
    const bytes = seed.slice();
    const { view, entries } = layout(bytes);
    const at = pick(random, entries.slice(1));
    view.setUint32(at + 8, view.getUint32(at + 8, true) & 0x10 ? 0x80 : 0x10, true);
    return bytes;
  },
  /** A directory of 65,535 children: empty leaves, one name repeated, or copies of a real entry. */
  "many-children"(seed, random) {
    const root = toNode(readUtf(seed)) as { name: string; children: UtfNode[] };
    const lists: UtfNode[][] = [];
    const walk = (node: UtfNode) => {
      if (!("children" in node)) return;
      lists.push(node.children as UtfNode[]);
      node.children.forEach(walk);
    };
    walk(root);
    const list = pick(random, lists);
    const donor = list.length ? pick(random, list) : { name: "x", data: new Uint8Array(0) };
    const kind = int(random, 3);
    const count = pick(random, [65_535, 65_536, 20_000]);
    for (let i = 0; i < count; i++) {
      if (kind === 0) list.push({ name: `e${i}`, data: new Uint8Array(0) });
      // Copies: the encoder lays out each node object once, so one object pushed twice would be a cycle.
      else if (kind === 1) list.push(copyNode(donor));
      else list.push({ ...copyNode(donor), name: `${donor.name}_${i}` });
    }
    return encodeUtf(root);
  },
};
