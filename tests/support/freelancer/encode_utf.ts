/**
 * UTF container writer: the inverse of {@link readUtf}. Lays out header → tree → dictionary → data
 * like LancerEdit (names de-duplicated, root named `\` at dictionary offset 0, payloads padded to
 * 4 bytes and identical payloads shared), so tests and users can build `.cmp`/`.3db`/`.vms`/`.mat`
 * files from code.
 *
 * @example
 * ```ts
 * const bytes = encodeUtf(utfDir("\\", [utfLeaf("Exporter Version", encodeString("partgraph"))]));
 * ```
 *
 * @module
 */
import { ByteWriter } from "../byte_writer.ts";
import {
  UTF_ENTRY_SIZE,
  UTF_HEADER_SIZE,
  UTF_SIGNATURE,
  UTF_VERSION,
} from "../../../nodes/decode/freelancer/codec/utf.ts";

/** A directory or leaf to write. */
export type UtfNode =
  | { readonly name: string; readonly children: readonly UtfNode[] }
  | { readonly name: string; readonly data: Uint8Array };

/** Options for {@link encodeUtf}. */
export interface EncodeUtfOptions {
  /** Share one data range between leaves with identical payloads (LancerEdit does). Default true. */
  readonly shareData?: boolean;
}

/** A directory node. */
export function utfDir(name: string, children: readonly UtfNode[]): UtfNode {
  return { name, children };
}

/** A leaf node. */
export function utfLeaf(name: string, data: Uint8Array): UtfNode {
  return { name, data };
}

/** A Latin-1 string payload, NUL-terminated unless `nul` is false (the game accepts both). */
export function encodeString(text: string, nul = true): Uint8Array {
  const out = new Uint8Array(text.length + (nul ? 1 : 0));
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/** Little-endian f32 payload. */
export function encodeFloats(values: readonly number[]): Uint8Array {
  return new Uint8Array(new Float32Array(values).buffer);
}

/** Little-endian u32 payload. */
export function encodeU32(...values: number[]): Uint8Array {
  return new Uint8Array(new Uint32Array(values).buffer);
}

/** Little-endian i32 payload. */
export function encodeI32(...values: number[]): Uint8Array {
  return new Uint8Array(new Int32Array(values).buffer);
}

/**
 * Serialises a tree (the root, normally named `\`) into UTF bytes.
 *
 * @example
 * ```ts
 * const bytes = encodeUtf(utfDir("\\", [utfDir("Cmpnd", [])]));
 * ```
 */
export function encodeUtf(root: UtfNode, options: EncodeUtfOptions = {}): Uint8Array {
  const share = options.shareData ?? true;
  const entries: UtfNode[] = [];
  const order = (node: UtfNode) => {
    entries.push(node);
    if ("children" in node) node.children.forEach(order);
  };
  order(root);

  const nameOffsets = new Map<string, number>();
  const nameBytes: number[] = [];
  const nameOf = (name: string) => {
    let at = nameOffsets.get(name);
    if (at === undefined) {
      at = nameBytes.length;
      nameOffsets.set(name, at);
      for (let i = 0; i < name.length; i++) nameBytes.push(name.charCodeAt(i) & 0xff);
      nameBytes.push(0);
    }
    return at;
  };
  nameOf(root.name);

  const payloads: Uint8Array[] = [];
  const dataOffsets = new Map<UtfNode, number>();
  const shared = new Map<string, { at: number; data: Uint8Array }[]>();
  let dataSize = 0;
  for (const node of entries) {
    if (!("data" in node)) continue;
    const key = share ? `${node.data.length}:${fnv1a(node.data)}` : "";
    const same = share ? shared.get(key)?.find((c) => equal(c.data, node.data)) : undefined;
    if (same) {
      dataOffsets.set(node, same.at);
      continue;
    }
    dataOffsets.set(node, dataSize);
    if (share) shared.set(key, [...(shared.get(key) ?? []), { at: dataSize, data: node.data }]);
    payloads.push(node.data);
    dataSize += pad4(node.data.length);
  }

  const index = new Map<UtfNode, number>(entries.map((node, i) => [node, i * UTF_ENTRY_SIZE]));
  const treeSize = entries.length * UTF_ENTRY_SIZE;
  for (const node of entries) nameOf(node.name);
  const namesUsed = nameBytes.length;
  const namesAllocated = pad4(namesUsed);
  const treeOffset = UTF_HEADER_SIZE;
  const namesOffset = treeOffset + treeSize;
  const dataOffset = namesOffset + namesAllocated;
  const out = new Uint8Array(dataOffset + dataSize);
  const w = new ByteWriter(out);
  w.u32(UTF_SIGNATURE, 0);
  w.u32(UTF_VERSION, 4);
  w.u32(treeOffset, 8);
  w.u32(treeSize, 12);
  w.u32(UTF_ENTRY_SIZE, 20);
  w.u32(namesOffset, 24);
  w.u32(namesAllocated, 28);
  w.u32(namesUsed, 32);
  w.u32(dataOffset, 36);

  const siblings = new Map<UtfNode, UtfNode>();
  for (const node of entries) {
    if (!("children" in node)) continue;
    node.children.forEach((child, i) => {
      if (i + 1 < node.children.length) siblings.set(child, node.children[i + 1]);
    });
  }
  for (const node of entries) {
    const at = treeOffset + index.get(node)!;
    const next = siblings.get(node);
    w.u32(next ? index.get(next)! : 0, at);
    w.u32(nameOf(node.name), at + 4);
    if ("children" in node) {
      w.u32(0x10, at + 8);
      w.u32(node.children.length ? index.get(node.children[0])! : 0, at + 16);
    } else {
      w.u32(0x80, at + 8);
      w.u32(dataOffsets.get(node)!, at + 16);
      w.u32(pad4(node.data.length), at + 20);
      w.u32(node.data.length, at + 24);
      w.u32(node.data.length, at + 28);
    }
  }
  out.set(nameBytes, namesOffset);
  let at = dataOffset;
  for (const payload of payloads) {
    out.set(payload, at);
    at += pad4(payload.length);
  }
  return out;
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}

function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
