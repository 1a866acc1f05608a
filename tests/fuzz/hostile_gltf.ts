/**
 * Structure-aware hostile glTF, as hostile or badly broken files are built rather than as byte
 * damage makes them: deep nesting in extras, hostile numbers in counts and offsets (huge, negative,
 * fractional, numbers as strings, `1e999`), reference cycles (node children, skins, scenes),
 * animation samplers reading accessors of the wrong type, sparse accessors with out-of-range or
 * unsorted indices, byteStride edge cases, data: URIs with bad base64 or lying lengths, overlapping
 * views, duplicate keys, BOM and UTF-16/32 text, unknown required extensions, a million tiny nodes.
 * Every family is deterministic by its random stream.
 *
 * @module
 */

/** A glTF as the families edit it: the JSON, and its one binary buffer. */
export interface GltfParts {
  // deno-lint-ignore no-explicit-any
  json: any;
  bin: Uint8Array;
}

/** What a family returns: edited parts, or the JSON text itself (for damage JSON.stringify cannot write). */
export type HostileGltf = GltfParts | { parts: GltfParts; text: (json: string) => string };

type Random = () => number;
// deno-lint-ignore no-explicit-any
type Json = any;

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const int = (random: Random, n: number) => Math.floor(random() * n);

/** A marker JSON.stringify writes as a string, replaced in the text by what it cannot write. */
const marker = (n: number) => `\u0000hostile${n}\u0000`;
const markerText = (n: number) => JSON.stringify(marker(n));

/** Numbers (and look-alikes) that break counts, offsets and indices; `1e999` is Infinity to a reader. */
const HOSTILE_NUMBERS: readonly unknown[] = [
  1e308,
  -1,
  -0,
  0.5,
  1.0000001,
  "NaN",
  "12",
  2 ** 31,
  2 ** 32,
  2 ** 32 + 1,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  5e-324,
  1e-7,
  "1e999",
  "-1e999",
];

/** Where a glTF keeps numbers that are counts, offsets, lengths, strides or indices. */
function numberSlots(json: Json): [Json, string | number][] {
  const out: [Json, string | number][] = [];
  const keys = (list: Json[] | undefined, names: string[]) =>
    list?.forEach((item) => names.forEach((k) => k in item && out.push([item, k])));
  keys(json.accessors, ["count", "byteOffset", "bufferView", "componentType"]);
  json.accessors?.forEach((a: Json) => {
    if (a.sparse) {
      out.push([a.sparse, "count"], [a.sparse.indices, "bufferView"], [a.sparse.values, "bufferView"]);
      out.push([a.sparse.indices, "componentType"], [a.sparse.indices, "byteOffset"]);
    }
  });
  keys(json.bufferViews, ["buffer", "byteOffset", "byteLength", "byteStride", "target"]);
  keys(json.buffers, ["byteLength"]);
  keys(json.nodes, ["mesh", "skin", "camera"]);
  json.nodes?.forEach((n: Json) => n.children?.forEach((_: Json, i: number) => out.push([n.children, i])));
  json.meshes?.forEach((m: Json) =>
    m.primitives.forEach((p: Json) => {
      for (const k of ["indices", "material", "mode"]) if (k in p) out.push([p, k]);
      for (const k of Object.keys(p.attributes)) out.push([p.attributes, k]);
    })
  );
  keys(json.skins, ["inverseBindMatrices", "skeleton"]);
  json.skins?.forEach((s: Json) => s.joints.forEach((_: Json, i: number) => out.push([s.joints, i])));
  json.animations?.forEach((a: Json) => {
    keys(a.samplers, ["input", "output"]);
    a.channels.forEach((c: Json) => out.push([c, "sampler"], [c.target, "node"]));
  });
  keys(json.textures, ["source", "sampler"]);
  keys(json.images, ["bufferView"]);
  if ("scene" in json) out.push([json, "scene"]);
  json.scenes?.forEach((s: Json) => s.nodes.forEach((_: Json, i: number) => out.push([s.nodes, i])));
  return out;
}

/** Appends bytes to the buffer (4-aligned) and a view over them; returns the view's index. */
export function addView(parts: GltfParts, bytes: Uint8Array, extra: Json = {}): number {
  const at = Math.ceil(parts.bin.byteLength / 4) * 4;
  const bin = new Uint8Array(at + bytes.byteLength);
  bin.set(parts.bin);
  bin.set(bytes, at);
  parts.bin = bin;
  parts.json.buffers[0].byteLength = bin.byteLength;
  parts.json.bufferViews.push({ buffer: 0, byteOffset: at, byteLength: bytes.byteLength, ...extra });
  return parts.json.bufferViews.length - 1;
}

/** The families, each a name and an edit (in place, or returning text damage). */
export const GLTF_FAMILIES: Record<string, (parts: GltfParts, random: Random) => HostileGltf> = {
  /** 10^5 nested arrays or objects in a node's extras (or an extension): a stack overflow probe. */
  "deep-nesting"(parts, random) {
    const depth = pick(random, [65, 1000, 100_000]);
    const object = random() < 0.5;
    const open = object ? '{"a":' : "[";
    const close = object ? "}" : "]";
    const node = pick(random, parts.json.nodes) as Json;
    if (random() < 0.5) node.extras = marker(0);
    else node.extensions = { EXT_hostile: marker(0) };
    return { parts, text: (t) => t.replace(markerText(0), open.repeat(depth) + "1" + close.repeat(depth)) };
  },
  /** A count, offset, length, stride or index set to a hostile number (one to three of them). */
  "hostile-number"(parts, random) {
    const slots = numberSlots(parts.json);
    const texts: string[] = [];
    for (let n = 1 + int(random, 3); n > 0; n--) {
      const [container, key] = pick(random, slots);
      const value = pick(random, HOSTILE_NUMBERS);
      if (typeof value === "string" && value.includes("e999")) {
        container[key] = marker(texts.length + 1);
        texts.push(value);
      } else container[key] = value;
    }
    return {
      parts,
      text: (t) => texts.reduce((s, value, i) => s.replace(markerText(i + 1), value), t),
    };
  },
  /** Node children in a cycle (self, two, long), a node with two parents, scene roots repeated. */
  cycle(parts, random) {
    const nodes: Json[] = parts.json.nodes;
    const a = int(random, nodes.length);
    const kind = int(random, 5);
    const child = (n: number, c: number) => (nodes[n].children ??= []).push(c);
    if (kind === 0) child(a, a);
    else if (kind === 1) {
      const b = int(random, nodes.length);
      child(a, b);
      child(b, a);
    } else if (kind === 2) {
      // A chain through every node, closed: 46-node cycles in the fighter, longer in the skinned base.
      for (let i = 0; i < nodes.length; i++) nodes[i].children = [(i + 1) % nodes.length];
    } else if (kind === 3) {
      const b = int(random, nodes.length);
      child(a, b);
      child((a + 1) % nodes.length, b);
    } else parts.json.scenes[0].nodes.push(...parts.json.scenes[0].nodes, a);
    return parts;
  },
  /** Skins pointing back at themselves: joints repeated, the mesh node a joint, skeleton a leaf, no joints. */
  "skin-refs"(parts, random) {
    const json = parts.json;
    if (!json.skins?.length) return GLTF_FAMILIES.cycle(parts, random);
    const skin = pick(random, json.skins) as Json;
    const meshNode = json.nodes.findIndex((n: Json) => n.skin !== undefined);
    const kind = int(random, 5);
    if (kind === 0 || kind === 1) {
      skin.joints.push(kind === 0 ? skin.joints[0] : meshNode);
      // With a matrix for it (the first joint's), so the skin is refused for no count: a joint listed twice
      // is what is met.
      if (skin.inverseBindMatrices !== undefined && random() < 0.7) {
        const ibm = json.accessors[skin.inverseBindMatrices];
        const view = json.bufferViews[ibm.bufferView];
        const from = (view.byteOffset ?? 0) + (ibm.byteOffset ?? 0);
        const old = parts.bin.slice(from, from + ibm.count * 64);
        const grown = new Uint8Array(old.byteLength + 64);
        grown.set(old);
        grown.set(old.subarray(0, 64), old.byteLength);
        const added = addView(parts, grown);
        json.accessors.push({ ...ibm, bufferView: added, byteOffset: 0, count: ibm.count + 1 });
        skin.inverseBindMatrices = json.accessors.length - 1;
      }
    } else if (kind === 2) skin.skeleton = meshNode;
    else if (kind === 3) {
      // Joint 0 a child of the last joint: a cycle through the skeleton.
      (json.nodes[skin.joints.at(-1)].children ??= []).push(skin.joints[0]);
    } else skin.joints = Array.from({ length: 70_000 }, (_, i) => i % json.nodes.length);
    return parts;
  },
  /** Animation samplers reading accessors of another type, count or order; channels at odd targets. */
  "animation-types"(parts, random) {
    const json = parts.json;
    if (!json.animations?.length) return GLTF_FAMILIES["hostile-number"](parts, random);
    const animation = pick(random, json.animations) as Json;
    const sampler = pick(random, animation.samplers) as Json;
    const channel = pick(random, animation.channels) as Json;
    const other = int(random, json.accessors.length);
    const kind = int(random, 6);
    if (kind === 0) sampler.input = other;
    else if (kind === 1) sampler.output = other;
    else if (kind === 2) sampler.input = sampler.output;
    else if (kind === 3) sampler.interpolation = pick(random, ["CUBICSPLINE", "STEP", "step", "BEZIER"]);
    else if (kind === 4) channel.target.path = pick(random, ["weights", "scale", "rotation", "matrix"]);
    else {
      // Key times out of order and repeated.
      const times = new Float32Array([1, 0, 0, 2, NaN]);
      const view = addView(parts, new Uint8Array(times.buffer));
      json.accessors.push({ bufferView: view, componentType: 5126, count: 5, type: "SCALAR" });
      sampler.input = json.accessors.length - 1;
    }
    return parts;
  },
  /** A sparse part with indices out of range, unsorted, repeated, too many, or of a float type. */
  sparse(parts, random) {
    const json = parts.json;
    const target = int(random, json.accessors.length);
    const accessor = json.accessors[target];
    const kind = int(random, 5);
    const count = kind === 3 ? accessor.count + 1 + int(random, 4) : 1 + int(random, 4);
    const indices = new Uint32Array(count).map((_, i) =>
      kind === 0 ? accessor.count + i : kind === 1 ? count - i - 1 : kind === 2 ? 0 : i
    );
    const indexView = addView(
      parts,
      new Uint8Array(kind === 4 ? new Float32Array(indices).buffer : indices.buffer),
    );
    const size = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[accessor.type as string] ?? 1;
    const valueView = addView(parts, new Uint8Array(count * size * 4));
    accessor.sparse = {
      count,
      indices: { bufferView: indexView, componentType: kind === 4 ? 5126 : 5125 },
      values: { bufferView: valueView },
    };
    return parts;
  },
  /** byteStride 0, 1, 3, odd, below the element, past 252, huge; or a stride on an index view. */
  stride(parts, random) {
    const views = parts.json.bufferViews as Json[];
    const view = pick(
      random,
      views.filter((v) => v.byteStride).length ? views.filter((v) => v.byteStride) : views,
    );
    view.byteStride = pick(random, [0, 1, 3, 4, 6, 13, 252, 256, 1024, 2 ** 31, 65536]);
    if (random() < 0.3) pick(random, views).byteStride = 4;
    return parts;
  },
  /** A data: URI with bad base64, cut short, or a buffer declaring far more bytes than it holds. */
  "data-uri"(parts, random) {
    const buffer = parts.json.buffers[0];
    const kind = int(random, 5);
    if (kind === 0) buffer.byteLength = pick(random, [2 ** 31 - 1, 2 ** 32, 2 ** 53, 1e308]);
    else if (kind === 1) buffer.uri = "data:application/octet-stream;base64,@@@@####";
    else if (kind === 2) buffer.uri = "data:application/octet-stream;base64,";
    else if (kind === 3) buffer.uri = "data:application/octet-stream;base64,QUJD=QUJD";
    else buffer.uri = "data:application/octet-stream;base64," + "A".repeat(4 * int(random, 64) + 1);
    return parts;
  },
  /** Views over overlapping ranges: an index view over vertex data, two views the same, one past the end. */
  overlap(parts, random) {
    const views = parts.json.bufferViews as Json[];
    const a = pick(random, views);
    const b = pick(random, views);
    const kind = int(random, 3);
    if (kind === 0) b.byteOffset = a.byteOffset ?? 0;
    else if (kind === 1) Object.assign(b, { byteOffset: a.byteOffset, byteLength: a.byteLength });
    else a.byteLength += parts.bin.byteLength;
    return parts;
  },
  /** Duplicate keys (JSON.parse keeps the last), a `__proto__` key, `constructor` as an extension name. */
  "duplicate-keys"(parts, random) {
    const kind = int(random, 4);
    const node = pick(random, parts.json.nodes) as Json;
    node.extras = marker(0);
    const insert = [
      '{"mesh":0,"mesh":1,"children":[1],"children":[]}',
      '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}',
      '{"toString":1,"valueOf":"x","hasOwnProperty":0}',
      '{"a":1}',
    ][kind];
    return {
      parts,
      text: (t) => {
        const replaced = t.replace(markerText(0), insert);
        if (kind === 3) return replaced.replace('"accessors":', '"accessors":[],"accessors":');
        return kind === 1 ? replaced.replace('{"asset"', '{"__proto__":{"asset":1},"asset"') : replaced;
      },
    };
  },
  /** extensionsRequired naming unknown extensions, prototype names, many names, or not an array. */
  "required-extensions"(parts, random) {
    const json = parts.json;
    const names = pick(random, [
      ["EXT_unknown_hostile"],
      ["__proto__"],
      ["constructor", "toString"],
      Array.from({ length: 10_000 }, (_, i) => `EXT_x${i}`),
      "KHR_draco_mesh_compression",
      [1, null, {}],
    ]);
    json.extensionsRequired = names;
    if (random() < 0.5) json.extensionsUsed = Array.isArray(names) ? names : [names];
    return parts;
  },
  /** Many tiny nodes (10^5 or 10^6), every one a root, or all children of one node. */
  "many-nodes"(parts, random) {
    const json = parts.json;
    const count = pick(random, [100_000, 1_000_000]);
    const start = json.nodes.length;
    for (let i = 0; i < count; i++) json.nodes.push({});
    // A loop, not push(...added): a million arguments overflow the stack.
    const list = random() < 0.5 ? json.scenes[0].nodes : (json.nodes[0].children ??= []);
    for (let i = 0; i < count; i++) list.push(start + i);
    return parts;
  },
};
