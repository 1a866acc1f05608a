/**
 * Extras Blender 3.4 cannot keep as custom properties, named so the user knows before a round trip.
 * Its importer copies each top-level key of a scene's, node's, mesh's, material's, camera's or
 * light's extras into one custom property; a value its 32-bit, typed properties cannot hold makes it
 * store that whole key as Python text (`"{'tags': ['door', 2]}"`), and with Include → Custom
 * Properties on it writes that text back — every value under the key lost to every reader. Measured
 * on Blender 3.4 (`tests/clients/blender_extras_test.ts`): a list holding a null, a list mixing numbers
 * or booleans with text, lists or groups, and a key longer than 63 bytes inside a group turn the key
 * into text; a top-level key longer than 63 bytes or whose value is null is dropped. Integers past
 * 32 bits did so too: `writtenText` (`runtime/scene/written_json.ts`) now writes them as Blender keeps
 * them. Booleans come back as 1 and 0 (Blender 3.4 has no boolean property), which JSON readers that
 * test truth still read the same: not warned of, or every file would say it.
 *
 * Extras on every other property Blender 3.4 drops whole, on import and so on a round trip: measured
 * (`tests/clients/blender_extras_test.ts`, extras on every kind of glTF property) it keeps those of
 * scenes, nodes (joints too), meshes, materials, cameras and lights, and none of the asset, primitives,
 * textures, texture infos (a material's `baseColorTexture`…), samplers, the file's own (top-level), images, skins, clips, their
 * channels and samplers, accessors, buffer views or buffers. They are warned of, once per kind, naming
 * the properties and keys (`blenderDroppedExtras`), and written where the scene has them: no place in
 * Blender's import keeps them without moving them to where three.js and every other reader would no
 * longer find them (a texture's `userData` onto the material, a clip's onto a node), which is a loss too.
 *
 * @module
 */

/** The longest key Blender stores, in bytes of UTF-8 (its property names hold 64 with the NUL). */
const MAX_KEY_BYTES = 63;

// deno-lint-ignore no-explicit-any
type Json = any;

/** What Blender does with a value that does not fit, and why, for the first such place under a key. */
interface Misfit {
  readonly path: string;
  readonly why: string;
}

/**
 * Warnings for the extras keys of `json` (a written file's JSON) that Blender 3.4 keeps only as text
 * or drops, one per key and outcome, naming up to three properties holding it and the first place
 * inside that does not fit.
 *
 * @example
 * ```ts
 * blenderExtrasDrops({ nodes: [{ name: "Door", extras: { tags: ["door", 2] } }] });
 * // ["extras 'tags' of node 'Door': Blender 3.4 keeps it only as Python text (…) …"]
 * ```
 */
export function blenderExtrasDrops(json: Json): string[] {
  const found = new Map<string, { owners: string[]; misfit: Misfit; dropped: boolean }>();
  const lights = json.extensions?.KHR_lights_punctual?.lights;
  const owners: [string, Json[] | undefined][] = [
    ["scene", json.scenes],
    ["node", json.nodes],
    ["mesh", json.meshes],
    ["material", json.materials],
    ["camera", json.cameras],
    ["light", lights],
  ];
  for (const [kind, list] of owners) {
    (list ?? []).forEach((property: Json, i: number) => {
      const extras = property?.extras;
      if (!extras || typeof extras !== "object" || Array.isArray(extras)) return;
      for (const [key, value] of Object.entries(extras)) {
        const dropped = overKeyBytes(key) || value === null;
        const misfit = dropped
          ? {
            path: "",
            why: value === null ? "its value is null" : `its name is over ${MAX_KEY_BYTES} bytes`,
          }
          : firstMisfit(value);
        if (!misfit) continue;
        const id = `${dropped ? "dropped" : "text"}:${key}`;
        const entry = found.get(id) ?? found.set(id, { owners: [], misfit, dropped }).get(id)!;
        entry.owners.push(`${kind} '${property.name ?? `#${i}`}'`);
      }
    });
  }
  return [...found.entries()].map(([id, { owners, misfit, dropped }]) => {
    const key = id.slice(id.indexOf(":") + 1);
    const shown = owners.slice(0, 3).join(", ") + (owners.length > 3 ? ` and ${owners.length - 3} more` : "");
    const outcome = dropped
      ? `Blender 3.4's importer drops it (${misfit.why})`
      : `Blender 3.4 keeps it only as Python text, every value under it lost to readers of a file it ` +
        `writes back (${misfit.why} at extras.${key}${misfit.path})`;
    return `extras '${key}' of ${shown}: ${outcome}; three.js keeps it as written`;
  });
}

/**
 * The first place in `value` Blender's custom properties cannot hold, or undefined. The place's path is
 * spelt on the way back out, for the one misfit found: the walk over extras that fit (nearly all)
 * builds no string and no entry list per key.
 */
function firstMisfit(value: Json): Misfit | undefined {
  if (Array.isArray(value)) {
    let numbers = 0;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item === null) return { path: "", why: "a list holding null" };
      if (typeof item === "number" || typeof item === "boolean") numbers++;
    }
    if (numbers > 0 && numbers < value.length) {
      return { path: "", why: "a list mixing numbers with other values" };
    }
    // A list of numbers or booleans holds nothing further to look into.
    if (numbers === value.length) return undefined;
    for (let i = 0; i < value.length; i++) {
      const inner = firstMisfit(value[i]);
      if (inner) return { path: `[${i}]${inner.path}`, why: inner.why };
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const key in value) {
    if (overKeyBytes(key)) return { path: "", why: `a key over ${MAX_KEY_BYTES} bytes` };
    const item = value[key];
    if (typeof item !== "object" || item === null) continue;
    const inner = firstMisfit(item);
    if (inner) return { path: `.${key}${inner.path}`, why: inner.why };
  }
  return undefined;
}

/**
 * Whether `key` takes more than {@link MAX_KEY_BYTES} bytes of UTF-8. Every UTF-16 unit takes 1 to 3
 * bytes (a surrogate pair 4 for its two), so most keys are told by their length alone, without
 * encoding one per key of every extras.
 */
function overKeyBytes(key: string): boolean {
  if (key.length * 3 <= MAX_KEY_BYTES) return false;
  if (key.length > MAX_KEY_BYTES) return true;
  return new TextEncoder().encode(key).byteLength > MAX_KEY_BYTES;
}

/**
 * Where one kind of property Blender drops the extras of sits in a glTF file, and how one is named.
 * `three` tells whether three.js's GLTFLoader keeps them as `userData` (r187: the file's on the result,
 * the asset as it is, primitives' on the geometry, images' on the texture, clips' on the clip), else
 * no client reads them but by the JSON.
 */
interface DroppedKind {
  readonly kind: string;
  readonly three?: true;
  readonly list: (json: Json) => Listed;
}

/**
 * One kind's properties in the file's order, and the name of the i-th: worked out only for the few a
 * warning shows. A file lists a thousand accessors and buffer views, nearly none with extras, and a
 * name string each was most of this module's work.
 */
interface Listed {
  readonly properties: readonly Json[];
  readonly name: (i: number) => string;
}

/** `'Name'`, else `#i`, for a property of a top-level list. */
const nameOf = (property: Json, i: number): string =>
  typeof property?.name === "string" && property.name ? `'${property.name}'` : `#${i}`;

const NONE: readonly Json[] = [];

/** The items of `json[key]`, named by {@link nameOf}. */
const listed = (key: string) => (json: Json): Listed => {
  const properties: readonly Json[] = json[key] ?? NONE;
  return { properties, name: (i) => nameOf(properties[i], i) };
};

/** Properties gathered from nested lists, each with what names it, in the file's order. */
function gathered<T>(
  add: (push: (property: Json, where: T) => void) => void,
  name: (where: T) => string,
): Listed {
  const properties: Json[] = [], places: T[] = [];
  add((property, where) => {
    properties.push(property);
    places.push(where);
  });
  return { properties, name: (i) => name(places[i]) };
}

/** The texture infos of core materials, by slot. */
const TEXTURE_SLOTS = ["baseColorTexture", "metallicRoughnessTexture"] as const;
const MATERIAL_SLOTS = ["normalTexture", "occlusionTexture", "emissiveTexture"] as const;

/** The kinds of property whose extras Blender 3.4 drops, in the order the warnings list them. */
const DROPPED_KINDS: readonly DroppedKind[] = [
  { kind: "file", three: true, list: (json) => ({ properties: [json], name: () => "" }) },
  { kind: "asset", three: true, list: (json) => ({ properties: [json.asset], name: () => "" }) },
  {
    kind: "primitive",
    three: true,
    list: (json) =>
      gathered<number>((push) => {
        const meshes = (json.meshes ?? NONE) as Json[];
        for (let m = 0; m < meshes.length; m++) {
          const primitives = (meshes[m]?.primitives ?? NONE) as Json[];
          // The place packed in one number: mesh m, primitive p (a file has far fewer than 2^20 primitives a mesh).
          for (let p = 0; p < primitives.length; p++) push(primitives[p], m * 0x100000 + p);
        }
      }, (at) => {
        const m = Math.floor(at / 0x100000), p = at % 0x100000;
        return `${p} of mesh ${nameOf(json.meshes[m], m)}`;
      }),
  },
  { kind: "image", three: true, list: listed("images") },
  { kind: "texture", list: listed("textures") },
  {
    kind: "texture info",
    list: (json) =>
      gathered<readonly [string, number]>((push) => {
        ((json.materials ?? NONE) as Json[]).forEach((material, m) => {
          for (const slot of TEXTURE_SLOTS) {
            const property = material?.pbrMetallicRoughness?.[slot];
            if (property) push(property, [slot, m]);
          }
          for (const slot of MATERIAL_SLOTS) {
            const property = material?.[slot];
            if (property) push(property, [slot, m]);
          }
        });
      }, ([slot, m]) => `${slot} of material ${nameOf(json.materials[m], m)}`),
  },
  { kind: "sampler", list: listed("samplers") },
  { kind: "skin", list: listed("skins") },
  { kind: "clip", three: true, list: listed("animations") },
  {
    kind: "clip channel or sampler",
    list: (json) =>
      gathered<readonly [string, number, number]>((push) => {
        ((json.animations ?? NONE) as Json[]).forEach((clip, a) => {
          for (const key of ["channels", "samplers"] as const) {
            ((clip?.[key] ?? NONE) as Json[]).forEach((property, i) => push(property, [key, i, a]));
          }
        });
      }, ([key, i, a]) => `${key.slice(0, -1)} ${i} of clip ${nameOf(json.animations[a], a)}`),
  },
  { kind: "accessor", list: listed("accessors") },
  { kind: "buffer view", list: listed("bufferViews") },
  { kind: "buffer", list: listed("buffers") },
];

/**
 * The groups partgraph's decoders write under `extras.partgraph` of primitives and images: how the
 * source file was read there — Carnivores' face records on each primitive (`alpha`, `double_sided`,
 * `faces`, `flags`: `decode/carnivores/codec/primitives.ts`), Freelancer's on the images it made
 * (a placeholder's reason, the textures a baked detail, additive or metallic-roughness image was made
 * of). No node reads them back, what they mean for drawing is in the materials and pixels Blender
 * keeps, and Blender rebuilds primitives and images as it writes a file (a face list would no longer
 * describe its triangles): warning of them told every Carnivores export the same thing, which buried
 * the warnings that matter. `sourceGenerator` is decode.gltf's record of the source file's generator
 * in `asset.extras.partgraph` (Blender writes its own generator).
 */
const DECODER_RECORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  primitive: new Set(["carnivores", "dson", "freelancer"]),
  image: new Set(["carnivores", "dson", "freelancer"]),
  asset: new Set(["sourceGenerator"]),
};

/**
 * Whether `extras[key]` of a property is partgraph's own record of what Blender replaces anyway: the
 * original name export.gltf keeps of a property it renamed (a string `name` other than the written
 * one: Blender names skins, images and clips its own way), and a `partgraph` group holding decoders'
 * records alone ({@link DECODER_RECORDS}). A `partgraph` group holding anything else (a user's or
 * another tool's field beside them) is warned of, as any key.
 */
function bookkeeping(kind: string, property: Json, key: string): boolean {
  const value = property.extras[key];
  if (key === "name") return typeof value === "string" && value !== property.name;
  const records = DECODER_RECORDS[kind];
  if (!records || key !== "partgraph" || !value || typeof value !== "object" || Array.isArray(value)) {
    return false;
  }
  return Object.keys(value).every((inner) => records.has(inner));
}

/**
 * One warning per kind of property whose extras Blender 3.4's importer drops (see the module), naming
 * up to three properties holding them and every key (listed whole: a user looks for
 * each). partgraph's own records of what Blender replaces anyway are left out (`bookkeeping`).
 *
 * @example
 * ```ts
 * blenderDroppedExtras({ textures: [{ source: 0, extras: { uuid: "a1" } }] });
 * // ["extras of texture #0 (key uuid): Blender 3.4's importer drops the extras of every texture …"]
 * ```
 */
export function blenderDroppedExtras(json: Json): string[] {
  const messages: string[] = [];
  for (const { kind, list, three } of DROPPED_KINDS) {
    const { properties, name } = list(json);
    const owners: number[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < properties.length; i++) {
      const property = properties[i];
      const extras = property?.extras;
      if (!extras || typeof extras !== "object") continue;
      const own = Object.keys(extras).filter((key) => !bookkeeping(kind, property, key));
      if (Array.isArray(extras) ? extras.length === 0 : own.length === 0) continue;
      owners.push(i);
      for (const key of Array.isArray(extras) ? ["(a list)"] : own) keys.add(key);
    }
    if (owners.length === 0) continue;
    const shown = owners.slice(0, 3).map((i) => {
      const own = name(i);
      return own ? `${kind} ${own}` : `the ${kind}`;
    }).join(", ") + (owners.length > 3 ? ` and ${owners.length - 3} more` : "");
    const keyList = [...keys];
    messages.push(
      `extras of ${shown} (key${keyList.length > 1 ? "s" : ""} ${
        keyList.join(", ")
      }): Blender 3.4's importer drops ` +
        `the extras of every ${kind}, so a file it writes back lacks them (it keeps those of scenes, nodes, ` +
        `meshes, materials, cameras and lights); ${
          three
            ? "three.js keeps them as written"
            : "three.js's loader does not read them either (only the JSON has them)"
        }${kind === "primitive" ? sharedGeometries(json) : ""}`,
    );
  }
  return messages;
}

/**
 * Primitives whose extras three.js replaces by another's: GLTFLoader (r187, `createPrimitiveKey`) makes
 * one geometry of primitives drawing the same indices, attributes, mode and targets, and gives it the
 * extras of the first it loads; a later one with other extras comes in with the first's. Named as a
 * clause of the primitive warning, or "" when there is none.
 */
function sharedGeometries(json: Json): string {
  const first = new Map<string, string>();
  const replaced: string[] = [];
  ((json.meshes ?? []) as Json[]).forEach((mesh, m) => {
    ((mesh?.primitives ?? []) as Json[]).forEach((primitive, p) => {
      const draco = primitive?.extensions?.KHR_draco_mesh_compression;
      const key = JSON.stringify([
        draco ? [draco.bufferView, draco.indices, sorted(draco.attributes)] : primitive?.indices,
        draco ? null : sorted(primitive?.attributes),
        draco ? null : primitive?.mode,
        ((primitive?.targets ?? []) as Json[]).map(sorted),
      ]);
      const extras = JSON.stringify(primitive?.extras ?? {});
      const seen = first.get(key);
      if (seen === undefined) first.set(key, extras);
      else if (seen !== extras) replaced.push(`primitive ${p} of mesh ${nameOf(mesh, m)}`);
    });
  });
  if (!replaced.length) return "";
  const shown = replaced.slice(0, 3).join(", ") +
    (replaced.length > 3 ? ` and ${replaced.length - 3} more` : "");
  return `, but for ${shown}: it draws the same accessors as an earlier primitive, and three.js makes one ` +
    "geometry of both, with the earlier one's extras";
}

/** An attribute map with its keys in order, for comparing. */
const sorted = (attributes: Json): Json =>
  Object.fromEntries(Object.entries(attributes ?? {}).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
