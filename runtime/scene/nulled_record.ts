/**
 * What a scene's extras hold that a GLB cannot: NaN and ±Infinity (JSON writes each as `null`) and the
 * places where a copy already wrote `null` for one (`copy.ts`'s record, which `export.gltf` names in
 * its warning). The disk cache stores a scene as GLB, so a scene read back held nulls and no record of
 * them: a warm run's export warned of less than the cold run's. The cache keeps this record beside the
 * GLB (the codec's `meta`) and gives it back to the scene it reads: each number as it was, each
 * remembered null remembered again, so warm and cold runs see the same scene.
 *
 * A property is found again by where it sits in the file, which the GLB keeps: its index in its root
 * list (nodes, meshes, …), a primitive by its mesh's, a clip's channel or sampler by its clip's, an
 * accessor by a use of it (a primitive's attribute or indices, a clip sampler's input or output, a
 * skin's matrices), since the writer orders accessors its own way.
 *
 * @module
 */
import type { Accessor, Document, Property } from "@gltf-transform/core";
import type { JsonValue } from "../node.ts";
import { type ExtrasPlace, nonFinitePlaces, nulledExtras, rememberNulled } from "./copy.ts";

/** Where a property sits: `["asset"]`, `["root"]`, `["nodes", 3]`, `["primitives", 1, 0]`, … */
type Locator = (string | number)[];

/** One property's entry: the numbers JSON loses (by place) and the places a copy had nulled already. */
interface Entry {
  readonly at: Locator;
  readonly numbers?: [ExtrasPlace, string][];
  readonly nulled?: ExtrasPlace[];
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** The root lists whose properties are located by index. */
const LISTS = {
  nodes: (doc: Document) => doc.getRoot().listNodes(),
  scenes: (doc: Document) => doc.getRoot().listScenes(),
  meshes: (doc: Document) => doc.getRoot().listMeshes(),
  materials: (doc: Document) => doc.getRoot().listMaterials(),
  textures: (doc: Document) => doc.getRoot().listTextures(),
  animations: (doc: Document) => doc.getRoot().listAnimations(),
  skins: (doc: Document) => doc.getRoot().listSkins(),
  cameras: (doc: Document) => doc.getRoot().listCameras(),
  buffers: (doc: Document) => doc.getRoot().listBuffers(),
} as const;

/**
 * The record of `doc`'s extras a GLB cannot hold, or undefined when there is none (nearly every scene:
 * its cache entry is then as before).
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { nulledRecord } from "./nulled_record.ts";
 *
 * const doc = new Document();
 * doc.createNode("Flap").setExtras({ hinge: NaN });
 * nulledRecord(doc); // [{ at: ["nodes", 0], numbers: [[["hinge"], "NaN"]] }]
 * ```
 */
export function nulledRecord(doc: Document): JsonValue | undefined {
  const entries: Entry[] = [];
  const add = (at: Locator, extras: unknown, prop?: Property) => {
    const numbers = nonFinitePlaces(extras).map((place): [ExtrasPlace, string] => [
      place,
      String(valueAt(extras, place)),
    ]);
    const nulled = prop ? nulledExtras(prop).filter((place) => valueAt(extras, place) === null) : [];
    if (numbers.length || nulled.length) {
      entries.push({ at, ...numbers.length && { numbers }, ...nulled.length && { nulled: [...nulled] } });
    }
  };
  const root = doc.getRoot();
  add(["asset"], root.getAsset().extras);
  add(["root"], root.getExtras(), root);
  for (const [list, items] of Object.entries(LISTS)) {
    items(doc).forEach((prop, i) => add([list, i], prop.getExtras(), prop));
  }
  root.listMeshes().forEach((mesh, m) =>
    mesh.listPrimitives().forEach((prim, p) => add(["primitives", m, p], prim.getExtras(), prim))
  );
  root.listAnimations().forEach((clip, a) => {
    clip.listChannels().forEach((channel, c) => add(["channels", a, c], channel.getExtras(), channel));
    clip.listSamplers().forEach((sampler, s) => add(["samplers", a, s], sampler.getExtras(), sampler));
  });
  // Located by a use only when there is something to record: the search walks every primitive.
  for (const accessor of root.listAccessors()) {
    if (!nonFinitePlaces(accessor.getExtras()).length && !nulledExtras(accessor).length) continue;
    const at = accessorUse(doc, accessor);
    if (at) add(at, accessor.getExtras(), accessor);
  }
  return entries.length ? entries as unknown as JsonValue : undefined;
}

/**
 * Gives `doc` (read from the GLB written of a scene) what {@link nulledRecord} recorded of that scene:
 * NaN and ±Infinity back in their places, and the places a copy had nulled remembered again. An entry
 * that does not fit the scene (another file) is passed over.
 */
export function restoreNulled(doc: Document, record: JsonValue | undefined): void {
  if (!Array.isArray(record)) return;
  const root = doc.getRoot();
  for (const entry of record as unknown as Entry[]) {
    const at = entry.at;
    if (at[0] === "asset") {
      putNumbers(root.getAsset().extras, entry.numbers);
      continue;
    }
    const prop = locate(doc, at);
    if (!prop) continue;
    putNumbers(prop.getExtras(), entry.numbers);
    rememberNulled(prop, entry.nulled ?? []);
  }
}

/** The property at `at` in `doc`, or undefined. */
function locate(doc: Document, at: Locator): Property | undefined {
  const root = doc.getRoot();
  const [kind, a, b, c] = at;
  if (kind === "root") return root;
  if (kind in LISTS) return LISTS[kind as keyof typeof LISTS](doc)[a as number];
  if (kind === "primitives") return root.listMeshes()[a as number]?.listPrimitives()[b as number];
  if (kind === "channels") return root.listAnimations()[a as number]?.listChannels()[b as number];
  if (kind === "samplers") return root.listAnimations()[a as number]?.listSamplers()[b as number];
  if (kind === "attribute" || kind === "indices") {
    const prim = root.listMeshes()[a as number]?.listPrimitives()[b as number];
    return (kind === "indices" ? prim?.getIndices() : prim?.getAttribute(c as string)) ?? undefined;
  }
  if (kind === "input" || kind === "output") {
    const sampler = root.listAnimations()[a as number]?.listSamplers()[b as number];
    return (kind === "input" ? sampler?.getInput() : sampler?.getOutput()) ?? undefined;
  }
  if (kind === "matrices") return root.listSkins()[a as number]?.getInverseBindMatrices() ?? undefined;
  return undefined;
}

/** A use of `accessor` that the written file keeps, as a locator; undefined when it has none. */
function accessorUse(doc: Document, accessor: Accessor): Locator | undefined {
  const root = doc.getRoot();
  const meshes = root.listMeshes();
  for (let m = 0; m < meshes.length; m++) {
    const prims = meshes[m].listPrimitives();
    for (let p = 0; p < prims.length; p++) {
      if (prims[p].getIndices() === accessor) return ["indices", m, p];
      for (const semantic of prims[p].listSemantics()) {
        if (prims[p].getAttribute(semantic) === accessor) return ["attribute", m, p, semantic];
      }
    }
  }
  const clips = root.listAnimations();
  for (let a = 0; a < clips.length; a++) {
    const samplers = clips[a].listSamplers();
    for (let s = 0; s < samplers.length; s++) {
      if (samplers[s].getInput() === accessor) return ["input", a, s];
      if (samplers[s].getOutput() === accessor) return ["output", a, s];
    }
  }
  const skins = root.listSkins();
  for (let k = 0; k < skins.length; k++) {
    if (skins[k].getInverseBindMatrices() === accessor) return ["matrices", k];
  }
  return undefined;
}

/** Puts each recorded number (`"NaN"`, `"Infinity"`, `"-Infinity"`) back where its null is. */
function putNumbers(extras: Json, numbers: readonly [ExtrasPlace, string][] | undefined): void {
  for (const [place, text] of numbers ?? []) {
    if (!place.length) continue;
    const parent = valueAt(extras, place.slice(0, -1)) as Json;
    const last = place[place.length - 1];
    if (parent && typeof parent === "object" && parent[last] === null) parent[last] = Number(text);
  }
}

/** The value at `place` under `extras`, or undefined. */
function valueAt(extras: unknown, place: ExtrasPlace): unknown {
  let value = extras as Json;
  for (const step of place) {
    if (!value || typeof value !== "object") return undefined;
    value = value[step];
  }
  return value;
}
