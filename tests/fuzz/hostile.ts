/**
 * Hostile inputs for `deno task fuzz --formats hostile-gltf,…`: structure-aware families that look
 * like real hostile or broken files rather than byte damage (tests/fuzz/mutate.ts): glTF JSON and GLB
 * by {@link GLTF_FAMILIES} plus text encodings and compressed payloads whose headers lie about sizes,
 * Freelancer UTF trees (tests/fuzz/hostile_utf.ts) and Carnivores counts near their limits
 * (tests/fuzz/hostile_carnivores.ts), and binary data two parts of a glTF read differently
 * (tests/fuzz/hostile_views.ts). Case `index` of a seed always gives the same bytes.
 *
 * @module
 */
import { buildFighterScene } from "../../nodes/demo/fighter_run.ts";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { decodeAuto } from "../../nodes/decode/auto.ts";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { runNode, testContext } from "../support/context.ts";
import { prng } from "../support/prng.ts";
import { fuzzSeeds } from "./seeds.ts";
import { GLTF_FAMILIES, type GltfParts } from "./hostile_gltf.ts";
import { UTF_FAMILIES } from "./hostile_utf.ts";
import { CARNIVORES_FAMILIES } from "./hostile_carnivores.ts";
import { VIEW_FAMILIES } from "./hostile_views.ts";

/**
 * The hostile sets: glTF as JSON text, as GLB, GLBs with compressed payloads, UTF, Carnivores, and
 * glTF binary data read two ways (text or GLB by the case).
 */
export const HOSTILE_FORMATS = [
  "hostile-gltf",
  "hostile-glb",
  "hostile-payload",
  "hostile-utf",
  "hostile-carnivores",
  "hostile-views",
] as const;

/** One of {@link HOSTILE_FORMATS}. */
export type HostileFormat = typeof HOSTILE_FORMATS[number];

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** A GLB's JSON and binary chunk. */
export function splitGlb(glb: Uint8Array): GltfParts {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binAt = 20 + jsonLength;
  const bin = binAt + 8 <= glb.byteLength
    ? glb.slice(binAt + 8, binAt + 8 + view.getUint32(binAt, true))
    : new Uint8Array(0);
  return { json, bin };
}

/** A GLB of JSON bytes and a binary chunk (both padded to 4 bytes, the JSON with spaces). */
export function joinGlb(jsonBytes: Uint8Array, bin: Uint8Array): Uint8Array {
  const jsonPadded = Math.ceil(jsonBytes.byteLength / 4) * 4;
  const binPadded = Math.ceil(bin.byteLength / 4) * 4;
  const total = 12 + 8 + jsonPadded + (bin.byteLength ? 8 + binPadded : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonPadded, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonPadded);
  out.set(jsonBytes, 20);
  if (bin.byteLength) {
    view.setUint32(20 + jsonPadded, binPadded, true);
    view.setUint32(24 + jsonPadded, 0x004e4942, true);
    out.set(bin, 28 + jsonPadded);
  }
  return out;
}

let bases: Promise<{ name: string; glb: Uint8Array }[]> | undefined;

/**
 * The glTF bases: the demo fighter (46 nodes, no skin), the animated `.car` seed decoded (morph
 * targets, clips) and the boned `.3df` seed decoded and resolved (a skin).
 */
function gltfBases(): Promise<{ name: string; glb: Uint8Array }[]> {
  bases ??= (async () => {
    const options = { generator: "partgraph fuzz" };
    const seeds = await fuzzSeeds();
    // Resolved too: a Carnivores model's bones become a skin there.
    const decoded = async (seed: { bytes: Uint8Array; name: string }) => {
      const ctx = testContext();
      const scene =
        (await runNode(decodeAuto, { bytes: { bytes: seed.bytes, name: seed.name } }, {}, ctx)).scene;
      return await writeGlb((await runNode(constraintsResolve, { scene }, {}, ctx)).scene, options);
    };
    return [
      { name: "fighter", glb: await writeGlb(buildFighterScene(1), options) },
      { name: "car", glb: await decoded(seeds.car) },
      { name: "limb", glb: await decoded(seeds["3df"]) },
    ];
  })();
  return bases;
}

/** Text encodings real readers meet: BOMs, UTF-16 either way, UTF-32, bytes that are not UTF-8. */
function encodeText(text: string, random: Random): Uint8Array {
  const utf8 = new TextEncoder().encode(text);
  const utf16 = (bigEndian: boolean, bom: boolean) => {
    const out = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
    const view = new DataView(out.buffer);
    const body = bom ? "\uFEFF" + text : text;
    for (let i = 0; i < body.length; i++) view.setUint16(i * 2, body.charCodeAt(i), !bigEndian);
    return out;
  };
  switch (Math.floor(random() * 7)) {
    case 0:
      return new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]);
    case 1:
      return utf16(false, true);
    case 2:
      return utf16(true, true);
    case 3:
      return utf16(false, false);
    case 4: {
      // UTF-32LE with a BOM: four bytes a character.
      const out = new Uint8Array((text.length + 1) * 4);
      const view = new DataView(out.buffer);
      [..."\uFEFF" + text].forEach((c, i) => view.setUint32(i * 4, c.codePointAt(0)!, true));
      return out.subarray(0, ([..."\uFEFF" + text].length) * 4);
    }
    case 5: {
      // A Latin-1 name (an exporter that never heard of UTF-8): 0xE9 alone is not UTF-8.
      const at = text.indexOf('"name":"');
      const out = utf8.slice();
      if (at >= 0) out[at + 8] = 0xe9;
      return out;
    }
    default:
      return new TextEncoder().encode(text.replace('"name":"', '"name":"\\ud800\\udfff\\udc00'));
  }
}

/**
 * One hostile glTF case: a family applied to a base, written as JSON text (data: URI) or GLB; the
 * `hostile-views` set's families draw after its base whether it is text or GLB.
 */
async function hostileGltf(
  random: Random,
  glb: boolean,
  choice: HostileChoice,
  set: "hostile-gltf" | "hostile-views" = "hostile-gltf",
): Promise<{ name: string; bytes: Uint8Array }> {
  const all = await gltfBases();
  const drawn = pick(random, all);
  const base = choice.base ? all.find((b) => b.name === choice.base)! : drawn;
  const parts = structuredClone(splitGlb(base.glb));
  if (set === "hostile-views") glb = random() < 0.5;
  const drawnFamily = pick(random, hostileFamilies(set));
  const family = choice.family ?? drawnFamily;
  const families = set === "hostile-views" ? VIEW_FAMILIES : GLTF_FAMILIES;
  const result = family === "encoding" ? parts : families[family](parts, random);
  const edited = "parts" in result ? result.parts : result;
  const damage = "text" in result ? result.text : (t: string) => t;
  const json = edited.json;
  if (!glb) {
    json.buffers[0].uri ??= "data:application/octet-stream;base64," + toBase64(edited.bin);
  }
  const text = damage(JSON.stringify(json));
  const bytes = family === "encoding" ? encodeText(text, random) : new TextEncoder().encode(text);
  return {
    name: `hostile-${family}-${base.name}.${glb ? "glb" : "gltf"}`,
    bytes: glb ? joinGlb(bytes, edited.bin) : bytes,
  };
}

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

/** Hostile 32-bit sizes for a compressed payload's header: zero, one short, one past, huge. */
const LYING_SIZES = [0, 1, 0x7fffffff, 0xffffffff, 0x10000, 0x40000000, 3];

/**
 * A compressed payload (KTX2, WebP, AVIF, Draco, meshopt) whose header lies about a size or count:
 * one of its first 96 bytes' 32-bit words, or the meshopt extension's `count`/`byteStride`.
 */
async function hostilePayload(random: Random): Promise<{ name: string; bytes: Uint8Array }> {
  const seeds = await fuzzSeeds();
  const seed = seeds[pick(random, ["ktx2", "webp", "avif", "draco", "meshopt"] as const)];
  const { json, bin } = structuredClone(splitGlb(seed.bytes));
  const meshopt = (json.bufferViews as { extensions?: Record<string, Record<string, number>> }[])
    .map((v) => v.extensions?.EXT_meshopt_compression ?? v.extensions?.KHR_meshopt_compression)
    .filter((e) => e !== undefined);
  if (meshopt.length && (random() < 0.5 || !json.images?.length)) {
    const ext = pick(random, meshopt);
    ext[pick(random, ["count", "byteStride", "byteLength", "byteOffset"])] = pick(random, LYING_SIZES);
  } else {
    // The payload's view: an image's, or (Draco) the one the primitive's extension names.
    const viewIndex = json.images?.length
      ? pick(random, json.images as { bufferView: number }[]).bufferView
      : json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.bufferView;
    const view = json.bufferViews[viewIndex];
    const span = Math.min(96, view.byteLength) - 4;
    const at = (view.byteOffset ?? 0) + Math.floor(random() * Math.max(1, span / 4)) * 4;
    new DataView(bin.buffer, bin.byteOffset).setUint32(at, pick(random, LYING_SIZES), true);
  }
  return { name: seed.name, bytes: joinGlb(new TextEncoder().encode(JSON.stringify(json)), bin) };
}

/** The family names of a hostile set (the suite takes each of them in turn). */
export function hostileFamilies(format: HostileFormat): string[] {
  if (format === "hostile-gltf" || format === "hostile-glb") {
    return [...Object.keys(GLTF_FAMILIES), "encoding"];
  }
  if (format === "hostile-payload") return ["payload"];
  if (format === "hostile-views") return Object.keys(VIEW_FAMILIES);
  return Object.keys(format === "hostile-utf" ? UTF_FAMILIES : CARNIVORES_FAMILIES);
}

/** A family (and, for glTF, a base: `fighter`, `car`, `limb`) to use instead of the drawn ones. */
export interface HostileChoice {
  readonly family?: string;
  readonly base?: string;
}

/**
 * The input of case `index` of a hostile set and seed; `choice` fixes its family (and base), the rest
 * of the case still drawn from the same stream.
 *
 * @example
 * ```ts
 * const { name, bytes } = await hostileInput("hostile-gltf", 7, 0);
 * ```
 */
export async function hostileInput(
  format: HostileFormat,
  seed: number,
  index: number,
  choice: HostileChoice = {},
): Promise<{ name: string; bytes: Uint8Array }> {
  const random = prng((Math.imul(seed, 0x85ebca6b) + index) >>> 0);
  if (format === "hostile-gltf" || format === "hostile-glb") {
    return await hostileGltf(random, format === "hostile-glb", choice);
  }
  if (format === "hostile-views") return await hostileGltf(random, false, choice, format);
  if (format === "hostile-payload") return await hostilePayload(random);
  const drawn = pick(random, hostileFamilies(format));
  const family = choice.family ?? drawn;
  if (format === "hostile-utf") {
    return {
      name: `hostile-${family}.cmp`,
      bytes: UTF_FAMILIES[family]((await fuzzSeeds()).cmp.bytes, random),
    };
  }
  return CARNIVORES_FAMILIES[family](random);
}
