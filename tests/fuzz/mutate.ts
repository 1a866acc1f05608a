/**
 * Mutators for fuzzing, deterministic by seed: byte-level damage for binary formats, value-level
 * damage (hostile numbers, wrong types, deep nesting, huge arrays, and plausible mistakes: rounded
 * or nudged numbers, misspelt names, short arrays) for JSON formats, and both on a
 * GLB (its JSON chunk is re-packed around the damaged JSON).
 *
 * @module
 */
import type { FuzzSeed } from "./seeds.ts";
import { dracoGlb } from "../support/draco.ts";
import { readUtf, type UtfEntry } from "../../nodes/decode/freelancer/codec/utf.ts";
import { encodeUtf, type UtfNode } from "../support/freelancer/encode_utf.ts";

/** Integers that break counts, offsets and indices. */
const HOSTILE_INTS = [0, 1, -1, 2, 3, 4, 7, 255, 256, 65535, 65536, 0x7fffffff, -0x80000000, 0xfffe];

/** Values that break JSON readers: wrong types, extreme numbers, odd strings, deep or huge containers. */
function hostileValue(random: () => number): unknown {
  const pick = Math.floor(random() * 16);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return HOSTILE_INTS[Math.floor(random() * HOSTILE_INTS.length)];
    case 2:
      return [1e308, -1e308, 0.5, -0.0, 5e-324][Math.floor(random() * 5)];
    case 3:
      return [
        "",
        "x",
        "../../../etc/passwd",
        "%2e%2e/%2e%2e/secret",
        "#",
        "data:,x",
      ][Math.floor(random() * 6)];
    case 4:
      return [];
    case 5:
      return {};
    case 6:
      return true;
    case 7:
      return DEEP; // spliced into the text as 10,000 nested arrays: the stack-overflow probe
    case 8:
      return Array.from({ length: 20_000 }, (_, i) => i);
    case 9:
      return [null];
    case 10:
      return [0, 0, 0];
    default:
      return HOSTILE_INTS[Math.floor(random() * HOSTILE_INTS.length)] * (random() < 0.5 ? 1 : 16);
  }
}

/** Placeholder for a value nested 10,000 deep (made in the text: building it would overflow here). */
const DEEP = "\u0000deep\u0000";
const DEEP_TEXT = "[".repeat(10_000) + "1" + "]".repeat(10_000);

/** Every (container, key) slot of a JSON tree, in a stable order. */
function slots(value: unknown, out: [Record<string | number, unknown>, string | number][] = []) {
  const stack = [value];
  while (stack.length) {
    const item = stack.pop();
    if (!item || typeof item !== "object") continue;
    for (const key of Object.keys(item)) {
      const k = Array.isArray(item) ? Number(key) : key;
      out.push([item as Record<string | number, unknown>, k]);
      stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return out;
}

/**
 * A plausible wrong value in place of `value`, as exporters write them rather than as damage: a
 * number rounded, nudged past its range or off by one, a name misspelt in case or underscore, an
 * array one element short; undefined when there is nothing plausible to write.
 */
function messyValue(value: unknown, random: () => number): unknown {
  const roll = random();
  if (typeof value === "number") {
    if (roll < 0.3) return Math.round(value * 10) / 10;
    if (roll < 0.6) return value * (1 + (random() - 0.3) * 0.02);
    return roll < 0.8 ? value + 1 : -value;
  }
  if (typeof value === "string") {
    if (roll < 0.4) return value.toLowerCase();
    return roll < 0.7 ? value.replaceAll("_", "") : value.replace("png", "jpeg");
  }
  if (Array.isArray(value) && value.length) return value.slice(0, -1);
  return undefined;
}

/**
 * Damages 1–3 values of a JSON tree (replace, delete, duplicate-into, or a plausible wrong value:
 * {@link messyValue}), in place.
 */
function mutateJson(json: unknown, random: () => number): void {
  const all = slots(json);
  if (!all.length) return;
  for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
    const [container, key] = all[Math.floor(random() * all.length)];
    const roll = random();
    if (roll >= 0.92 && !Array.isArray(container)) {
      // A key misspelt (an attribute semantic, a property name): the value moves under the new spelling.
      const misspelt = messyValue(key, random) as string;
      if (misspelt !== key) {
        container[misspelt] = container[key];
        delete container[key];
      }
      continue;
    }
    const messy = roll >= 0.7 ? messyValue(container[key], random) : undefined;
    if (messy !== undefined) container[key] = messy;
    else if (roll < 0.12 && !Array.isArray(container)) delete container[key];
    else if (roll < 0.2) container[key] = structuredClone(all[Math.floor(random() * all.length)][0]);
    else container[key] = hostileValue(random);
  }
}

/** Byte-level damage: bit flips, hostile 32-bit words, truncation, insertion and removal. */
export function mutateBytes(base: Uint8Array, random: () => number): Uint8Array {
  const int = (n: number) => Math.floor(random() * n);
  const kind = int(6);
  if (kind === 0) {
    const out = base.slice();
    for (let i = 1 + int(6); i > 0; i--) out[int(out.length)] ^= 1 << int(8);
    return out;
  }
  if (kind === 1 || kind === 2) {
    const out = base.slice();
    // Kind 1 aims at the first 64 bytes, where headers and counts live.
    const span = kind === 1 ? Math.min(64, out.length) : out.length;
    const at = Math.max(0, Math.min(int(span / 2) * 2, out.length - 4));
    new DataView(out.buffer).setInt32(
      at,
      random() < 0.7 ? HOSTILE_INTS[int(HOSTILE_INTS.length)] : int(2 ** 32) | 0,
      true,
    );
    return out;
  }
  if (kind === 3) return base.slice(0, int(base.length));
  if (kind === 4) {
    const at = int(base.length);
    const extra = Uint8Array.from({ length: 1 + int(300) }, () => int(256));
    return new Uint8Array([...base.subarray(0, at), ...extra, ...base.subarray(at)]);
  }
  const from = int(base.length);
  return new Uint8Array([
    ...base.subarray(0, from),
    ...base.subarray(Math.min(base.length, from + 1 + int(64))),
  ]);
}

function mutateJsonText(base: Uint8Array, random: () => number): Uint8Array {
  const json = JSON.parse(new TextDecoder().decode(base).replace(/^\uFEFF/, ""));
  mutateJson(json, random);
  const text = JSON.stringify(json).replaceAll(JSON.stringify(DEEP), DEEP_TEXT);
  return new TextEncoder().encode(random() < 0.05 ? "\uFEFF" + text : text);
}

/**
 * A Draco GLB (as {@link dracoGlb} writes it: one view over the stream) with its bitstream damaged
 * and the view's and buffer's lengths following it, so the damage reaches Draco's header and data.
 */
function mutateDracoStream(base: Uint8Array, random: () => number): Uint8Array {
  const length = new DataView(base.buffer, base.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(base.subarray(20, 20 + length)));
  const stream = base.subarray(28 + length, 28 + length + json.bufferViews[0].byteLength);
  const damaged = mutateBytes(stream, random);
  return dracoGlb(json, damaged.length ? damaged : stream.subarray(0, 1));
}

/**
 * A UTF file (Freelancer's) damaged in its tree rather than its bytes: an entry repeated among its
 * siblings, dropped, swapped with a sibling, renamed after another entry, or given another entry's
 * payload — shapes byte damage almost never makes (two animation maps for one joint, two parts of one
 * name, a leaf where a directory belongs), re-encoded as a valid container.
 */
function mutateUtfTree(base: Uint8Array, random: () => number): Uint8Array {
  const int = (n: number) => Math.floor(random() * n);
  const toNode = (entry: UtfEntry): UtfNode =>
    entry.children
      ? { name: entry.name, children: entry.children.map(toNode) }
      : { name: entry.name, data: entry.data?.view() ?? new Uint8Array(0) };
  const root = toNode(readUtf(base)) as { name: string; children: UtfNode[] };
  // Every directory's child list, to pick a place from; and every entry, to pick a donor from.
  const lists: UtfNode[][] = [];
  const entries: UtfNode[] = [];
  const walk = (node: UtfNode) => {
    entries.push(node);
    if (!("children" in node)) return;
    lists.push(node.children as UtfNode[]);
    node.children.forEach(walk);
  };
  walk(root);
  const list = lists[int(lists.length)];
  // A copy: the donor may be a directory above the list it goes into.
  const donor = structuredClone(entries[1 + int(entries.length - 1)]);
  if (!list.length) list.push(donor);
  else {
    const at = int(list.length);
    switch (int(5)) {
      case 0:
        list.splice(at, 0, structuredClone(list[at]));
        break;
      case 1:
        list.splice(at, 1);
        break;
      case 2: {
        const other = int(list.length);
        [list[at], list[other]] = [list[other], list[at]];
        break;
      }
      case 3:
        list[at] = { ...list[at], name: donor.name };
        break;
      default:
        list[at] = { ...donor, name: list[at].name };
    }
  }
  return encodeUtf(root);
}

/** A GLB with its JSON chunk replaced (the binary chunk kept as it is). */
function repackGlb(base: Uint8Array, json: Uint8Array): Uint8Array {
  const view = new DataView(base.buffer, base.byteOffset, base.byteLength);
  const oldLength = view.getUint32(12, true);
  const padded = Math.ceil(json.byteLength / 4) * 4;
  const rest = base.subarray(20 + oldLength);
  const out = new Uint8Array(20 + padded + rest.byteLength).fill(0x20, 20, 20 + padded);
  const outView = new DataView(out.buffer);
  outView.setUint32(0, 0x46546c67, true);
  outView.setUint32(4, 2, true);
  outView.setUint32(8, out.byteLength, true);
  outView.setUint32(12, padded, true);
  outView.setUint32(16, 0x4e4f534a, true);
  out.set(json, 20);
  out.set(rest, 20 + padded);
  return out;
}

/**
 * One deterministic mutation of a seed file.
 *
 * @example
 * ```ts
 * const bytes = mutate(seed, prng(42));
 * ```
 */
export function mutate(seed: FuzzSeed, random: () => number): Uint8Array {
  const structural = random() < 0.75;
  if (seed.format === "dson" || seed.format === "gltf" || seed.format === "gltf1") {
    // Gzip-wrapped DSON (as Daz writes it) is not JSON text: damage its bytes.
    const text = seed.bytes[0] === 0x7b || seed.bytes[0] === 0xef;
    return structural && text ? mutateJsonText(seed.bytes, random) : mutateBytes(seed.bytes, random);
  }
  if (seed.format === "draco" && random() < 0.5) return mutateDracoStream(seed.bytes, random);
  if (seed.format === "glb" || seed.format === "draco" || seed.format === "meshopt") {
    if (!structural) return mutateBytes(seed.bytes, random);
    const length = new DataView(seed.bytes.buffer, seed.bytes.byteOffset).getUint32(12, true);
    return repackGlb(seed.bytes, mutateJsonText(seed.bytes.subarray(20, 20 + length), random));
  }
  if (seed.format === "cmp" && structural && random() < 0.4) return mutateUtfTree(seed.bytes, random);
  return mutateBytes(seed.bytes, random);
}
