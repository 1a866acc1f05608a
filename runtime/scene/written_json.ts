/**
 * The JSON a written glTF file is serialised from, and the memory of it per output: {@link writtenText}
 * of {@link writtenJson}'s value is the file's JSON text (`JSON.parse` of it gives the value back), so the output check may read the value
 * instead of parsing the text again (where it proves the two read the same).
 *
 * @module
 */
import type { GLTF } from "@gltf-transform/core";
import { type ExportNames, NAMED_KINDS, uniqueTargetNames } from "./unique_names.ts";
import { sortKeysDeep } from "../canonical.ts";
import { isBlankName } from "./derived_names.ts";

const LIGHTS = "KHR_lights_punctual";

/**
 * The extras key a renamed mesh, camera or light keeps its original under besides `extras.name`:
 * three.js's loader makes a one-primitive mesh (or a camera or light alone on its node) the node's
 * object and overwrites its `userData.name` with the node's name, and keeps this one.
 */
export const ORIGINAL_NAME_KEYS: Readonly<Record<string, string>> = {
  meshes: "mesh_name",
  cameras: "camera_name",
  lights: "light_name",
};

/**
 * The extras key a renamed property keeps its original under when its extras hold a `name` of their own
 * (a material library's, a user's), which `extras.name` would overwrite: three.js keeps it in the
 * object's `userData` as it is, and `decode.gltf` restores the name from it.
 */
export const ORIGINAL_NAME_KEY = "original_name";

/**
 * The JSON a file is written from: `json` with the pinned generator and, when `names` are given, the
 * names of `exportNames` (`unique_names.ts`); a property renamed so records its own name as
 * `extras.name` (where three.js's loader keeps a name it changed, and `decode.gltf` restores it from),
 * unless its extras have a `name` already or it had none (empty or whitespace only: given one); a mesh,
 * camera or light also as `extras.mesh_name`… ({@link ORIGINAL_NAME_KEYS}), which three.js keeps. Each mesh's morph target names (`extras.targetNames`) are made
 * unique within Blender's 63 bytes too (`uniqueTargetNames`), the list as it was kept in
`extras.partgraph.target_names`. `json` itself is left as it is (a memoised write serves
 * both spellings): only the root, its asset and the renamed properties (and their arrays) are new
 * objects, each with its keys in the order an assignment into the original would give.
 */
export function outputJson(json: GLTF.IGLTF, generator: string, names: ExportNames | undefined): GLTF.IGLTF {
  const out = { ...json, asset: { ...json.asset, generator } };
  if (!names) return out;
  // The one scene of a file that names no default is written as its default: every viewer shows it
  // either way, but Blender 3.4's importer reads a scene's extras only from the file's `scene`.
  if (out.scene === undefined && out.scenes?.length === 1) out.scene = 0;
  type Named = { name?: string; extras?: Record<string, unknown> };
  // three.js merges a one-primitive mesh's extras into its node's object, whose userData.name it then
  // sets to the node's name: a mesh keeps its original under a key three.js leaves alone too.
  const rename = <T extends Named>(owners: T[] | undefined, spellings: string[], also?: string) => {
    // A list the writer left out entries of (none today) is not renamed: indices would not match.
    if (owners?.length !== spellings.length) return owners;
    let renamed: T[] | undefined;
    owners.forEach((owner, i) => {
      const name = spellings[i];
      if (!name || owner.name === name) return;
      renamed ??= owners.slice();
      const extras = owner.extras ?? {};
      // A blank name (whitespace only) is no name to restore: the derived one stands for it. Extras with
      // a `name` of their own (a library's, a user's) keep it: the original goes under ORIGINAL_NAME_KEY.
      const keep = typeof owner.name === "string" && !isBlankName(owner.name);
      const named = keep && !("name" in extras)
        ? sortKeysDeep({
          ...extras,
          name: owner.name,
          ...also && !(also in extras) && { [also]: owner.name },
        }) as Record<
          string,
          unknown
        >
        : keep && !(ORIGINAL_NAME_KEY in extras) && extras.name !== owner.name
        ? sortKeysDeep({ ...extras, [ORIGINAL_NAME_KEY]: owner.name }) as Record<string, unknown>
        : owner.extras;
      renamed[i] = named ? { ...owner, name, extras: named } : { ...owner, name };
    });
    return renamed ?? owners;
  };
  const record = out as unknown as Record<string, Named[] | undefined>;
  const source = json as unknown as Record<string, Named[] | undefined>;
  const lists: [string, string[]][] = [
    ["nodes", names.nodes],
    ["scenes", names.scenes],
    ...NAMED_KINDS.filter((kind) => kind !== "lights").map((kind): [string, string[]] => [
      kind,
      names.others[kind],
    ]),
  ];
  for (const [key, spellings] of lists) {
    const renamed = rename(source[key], spellings, ORIGINAL_NAME_KEYS[key]);
    if (renamed !== source[key]) record[key] = renamed;
  }
  // Morph target names, a list in each mesh's extras (not properties of their own: no extras.name).
  const meshes = record.meshes as { extras?: { targetNames?: unknown; partgraph?: unknown } }[] | undefined;
  meshes?.forEach((mesh, i) => {
    const written = mesh.extras?.targetNames;
    if (!Array.isArray(written) || !written.every((name) => typeof name === "string")) return;
    const unique = uniqueTargetNames(written);
    if (unique === written) return;
    if (record.meshes === source.meshes) record.meshes = source.meshes!.slice();
    // The originals beside them (a list has no extras.name of its own), for decode.gltf to restore.
    const partgraph = mesh.extras?.partgraph;
    const own = partgraph && typeof partgraph === "object" && !Array.isArray(partgraph) ? partgraph : {};
    const extras = { ...mesh.extras, targetNames: unique, partgraph: { ...own, target_names: written } };
    record.meshes![i] = { ...mesh, extras: sortKeysDeep(extras) } as Named;
  });
  // glTF-Transform writes a clip sampler whose interpolation no one set (a script's) without one and
  // reads one back as LINEAR, the default: written LINEAR, as the same scene from the disk cache is.
  const clips = out.animations;
  if (clips?.some((clip) => clip.samplers?.some((sampler) => sampler.interpolation === undefined))) {
    out.animations = clips.map((clip) =>
      clip.samplers?.some((sampler) => sampler.interpolation === undefined)
        ? {
          ...clip,
          samplers: clip.samplers.map((sampler) =>
            sampler.interpolation === undefined ? { ...sampler, interpolation: "LINEAR" as const } : sampler
          ),
        }
        : clip
    );
  }
  // KHR_lights_punctual's lights sit in the root's extensions, which are new objects where renamed.
  const lights = json.extensions?.[LIGHTS] as { lights?: Named[] } | undefined;
  const renamedLights = rename(lights?.lights, names.others.lights, ORIGINAL_NAME_KEYS.lights);
  if (lights && renamedLights !== lights.lights) {
    out.extensions = { ...json.extensions, [LIGHTS]: { ...lights, lights: renamedLights } };
  }
  return out;
}

/** The widest integers Blender 3.4 stores as integers (its custom properties are 32-bit). */
const INT32_MIN = -(2 ** 31), INT32_MAX = 2 ** 31 - 1;

/**
 * The JSON text of a written file: `JSON.stringify(json, null, space)`, except that an integer outside
 * 32 bits inside any `extras` (a Unity instance id, a uint32 CRC, a millisecond timestamp) is written
 * with a fraction, `3000000000.0` — the same JSON number to every reader (`JSON.parse` gives back
 * `json`), but Python's `json`, which Blender's importer uses, reads it as a float: Blender 3.4 stores
 * a float exactly (a double), where an integer past 2³¹−1 made it keep the whole custom property as
 * Python text (`"{'id': 3000000000}"`), taking every other value under that key with it. Blender writes
 * it back as `3000000000.0`, which reads as the same number. Text only changes where such a number is.
 *
 * @example
 * ```ts
 * writtenText({ nodes: [{ extras: { id: 3000000000 } }] }); // '{"nodes":[{"extras":{"id":3000000000.0}}]}'
 * ```
 *
 * `wide` says whether any extras value holds such an integer, when the caller knows it already
 * (`canonical_extras.ts` finds out while it sorts them): the walk over the whole file is then skipped.
 */
export function writtenText(json: unknown, space?: number, wide?: boolean): string {
  if (!(wide ?? hasWideInteger(json, false))) return JSON.stringify(json, null, space);
  return JSON.stringify(json, function (key, value) {
    return key === "extras" && hasWideInteger(value, true) ? asFloats(value) : value;
  }, space);
}

/** An integer Blender 3.4 cannot store as one, which `JSON.stringify` writes without a fraction or exponent. */
export function isWideInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && (value < INT32_MIN || value > INT32_MAX) &&
    Math.abs(value) < 1e21;
}

/** Whether `value` holds a wide integer inside `extras` (`inExtras`: `value` is inside one already). */
function hasWideInteger(value: unknown, inExtras: boolean): boolean {
  if (typeof value !== "object" || value === null) return inExtras && isWideInteger(value);
  // Plain loops with the leaf test inline: this walks every value of the file before it is written
  // (a third of the text's time with a closure and a call per leaf).
  if (Array.isArray(value)) {
    // Outside extras a list of numbers (an accessor's min/max) holds none of interest.
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (
        typeof item === "object"
          ? item !== null && hasWideInteger(item, inExtras)
          : inExtras && isWideInteger(item)
      ) {
        return true;
      }
    }
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key], extras = inExtras || key === "extras";
    if (
      typeof item === "object" ? item !== null && hasWideInteger(item, extras) : extras && isWideInteger(item)
    ) {
      return true;
    }
  }
  return false;
}

/** A copy of an extras value with its wide integers as raw JSON numbers with a fraction. */
function asFloats(value: unknown): unknown {
  if (isWideInteger(value)) {
    return (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(`${value}.0`);
  }
  if (Array.isArray(value)) return value.map(asFloats);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asFloats(item)]));
}

/**
 * The JSON value each file `writeGlb` and `writeGltfJson` (`gltf_io.ts`) returned was serialised from:
 * {@link writtenText} of it is the file's JSON text, and `JSON.parse` of that text equals it. Nothing changes it afterwards (its objects are either
 * its own or the memo's content, which no later write changes), so a check of the file may read it
 * instead of parsing the text again — where it proves the two read the same (plain JSON values only).
 */
const outputs = new WeakMap<Uint8Array, GLTF.IGLTF>();

/**
 * The JSON value `bytes` (a file `writeGlb` or `writeGltfJson` returned) was serialised
 * from, or undefined for other bytes. Read only: it shares objects with the writer's memo.
 *
 * @example
 * ```ts ignore
 * const glb = await writeGlb(doc, options);
 * const json = writtenJson(glb); // JSON.parse of its JSON chunk would give an equal value
 * ```
 */
export function writtenJson(bytes: Uint8Array): unknown {
  return outputs.get(bytes);
}

/** Remembers that `bytes` were serialised from `json` (which nothing may change afterwards). */
export function rememberWritten(bytes: Uint8Array, json: GLTF.IGLTF): void {
  outputs.set(bytes, json);
}
