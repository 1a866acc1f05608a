/**
 * Numbers JSON cannot hold in a written file's extras. A decoder or node may put NaN or ±Infinity into
 * a property's extras (a formula of a damaged file, a division by a zero length); `JSON.stringify`
 * writes each as `null`, so every client reads `null` where the scene held a number — silently, until
 * this warning. The value itself is not repaired: there is no number to write in its place.
 *
 * The scene export.gltf is given is read, not the file it writes: on the way to the file the scene may
 * be copied (the repair copy, `runtime/scene/copy.ts`) or settled as the export takes it over
 * (`settleExtras`), and each turns such a number into `null` as JSON does, leaving nothing to find in
 * the written JSON (v33 read that, and missed every NaN of a scene that also needed a repair). Nor
 * the scene given only: a node before the export may have copied it, so the places a copy wrote null
 * for such a number (`nulledExtras`) are named too, where they still hold null.
 *
 * @module
 */
import { type Document, type Property, PropertyType } from "@gltf-transform/core";
import { type ExtrasPlace, nonFinitePlaces, nulledExtras } from "../../runtime/scene/copy.ts";
import { writtenNames } from "../../runtime/scene/unique_names.ts";
import { extrasOf, forEachProperty } from "../../runtime/scene/graph_props.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Places listed per warning before the rest are counted. */
const SHOWN = 4;

/** How a warning names each glTF-Transform property type (its glTF list's item), where not lower case. */
const KINDS: Record<string, string> = {
  Texture: "image",
  TextureInfo: "texture info",
  Animation: "clip",
  AnimationChannel: "clip channel",
  AnimationSampler: "clip sampler",
  Light: "light",
};

/**
 * One warning per property whose extras hold NaN or ±Infinity, naming the property (its kind and
 * written name) and the places (`extras.a.b[2]`), given the scene a file is written from; the root's
 * extras are the file's, and `asset.extras` the asset's.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 *
 * const doc = new Document();
 * doc.createNode("Flap").setExtras({ hinge: NaN });
 * nonFiniteExtras(doc);
 * // ["extras of node 'Flap' hold NaN or Infinity at extras.hinge, which JSON cannot hold: …"]
 * ```
 */
export function nonFiniteExtras(doc: Document): string[] {
  const messages: string[] = [];
  const root = doc.getRoot();
  const name = writtenNames(doc);
  // The owner's name is worked out only for a warning: naming an unnamed property (every primitive)
  // works out the whole file's names, which cost more than this whole scan of extras holding none.
  const report = (owner: () => string, extras: Json, nulled: readonly ExtrasPlace[] = []) => {
    const nonFinite = nonFinitePlaces(extras);
    if (!nonFinite.length && !nulled.length) return;
    const found = [...nulled.filter((place) => valueAt(extras, place) === null), ...nonFinite];
    const places = [...new Set(found.map(spelt))];
    if (!places.length) return;
    const shown = places.slice(0, SHOWN).join(", ") +
      (places.length > SHOWN ? ` and ${places.length - SHOWN} more` : "");
    messages.push(
      `extras of ${owner()} hold NaN or Infinity at ${shown}, which JSON cannot hold: written null, as ` +
        "every client then reads them",
    );
  };
  report(() => "the asset", root.getAsset().extras);
  // Nearly every scene holds none: found without putting its properties in the file's order first.
  if (!holdsAny(doc)) return messages;
  const accessors: string[] = [];
  for (const prop of inFileOrder(doc)) {
    const extras = prop.getExtras();
    if (!extras || typeof extras !== "object") continue;
    if (prop === root) {
      report(() => "the file", extras, nulledExtras(prop));
      continue;
    }
    const owner = () => {
      const kind = KINDS[prop.propertyType] ?? prop.propertyType.toLowerCase();
      const own = name(prop);
      return own ? `${kind} '${own}'` : kind;
    };
    const before = messages.length;
    report(owner, extras, nulledExtras(prop));
    if (prop.propertyType === PropertyType.ACCESSOR) accessors.push(...messages.splice(before));
  }
  // The writer orders accessors its own way (a scene read back from a file lists them so): by text.
  return [...messages, ...accessors.sort()];
}

/** Whether any property of `doc` (the root included) holds a place {@link nonFiniteExtras} names. */
function holdsAny(doc: Document): boolean {
  // Each property once, its extras read from the store: no list of every edge, no set of properties.
  return forEachProperty(doc, (prop) => {
    const extras = extrasOf(prop);
    if (!extras || typeof extras !== "object") return false;
    // Most properties (every accessor) carry empty extras: no walk, no list of places made, and no
    // look-up of nulled places, which a report names only where the extras still hold null.
    for (const _ in extras) return nulledExtras(prop).length > 0 || nonFinitePlaces(extras).length > 0;
    return false;
  });
}

/**
 * Every property of `doc` in the order its file lists them — the root, then nodes, scenes, meshes each
 * with its primitives, materials each with its texture infos (by slot), images, clips each with its
 * channels and samplers, skins, cameras, buffers, accessors — then any other (extension properties) in
 * the graph's order. Not the graph's order throughout: a scene read back from a file (the disk cache's)
 * holds the same properties in another, and its warnings came out in another order.
 */
function inFileOrder(doc: Document): Property[] {
  const root = doc.getRoot();
  const graph = doc.getGraph();
  const slots = (material: Property) =>
    graph.listChildEdges(material).filter((edge) =>
      edge.getChild().propertyType === PropertyType.TEXTURE_INFO
    )
      .sort((a, b) => a.getName() < b.getName() ? -1 : a.getName() > b.getName() ? 1 : 0)
      .map((edge) => edge.getChild() as Property);
  const ordered = new Set<Property>([
    root,
    ...root.listNodes(),
    ...root.listScenes(),
    ...root.listMeshes().flatMap((mesh) => [mesh, ...mesh.listPrimitives()]),
    ...root.listMaterials().flatMap((material) => [material, ...slots(material)]),
    ...root.listTextures(),
    ...root.listAnimations().flatMap((clip) => [clip, ...clip.listChannels(), ...clip.listSamplers()]),
    ...root.listSkins(),
    ...root.listCameras(),
    ...root.listBuffers(),
    ...root.listAccessors(),
  ]);
  for (const edge of graph.listEdges()) ordered.add(edge.getChild() as Property);
  return [...ordered];
}

/** The value at `place` under `extras`, or undefined. */
function valueAt(extras: Json, place: ExtrasPlace): unknown {
  let value = extras;
  for (const step of place) {
    if (!value || typeof value !== "object") return undefined;
    value = value[step];
  }
  return value;
}

/** `["a", "b", 2]` as `extras.a.b[2]`. */
function spelt(place: ExtrasPlace): string {
  return "extras" + place.map((step) => typeof step === "number" ? `[${step}]` : `.${step}`).join("");
}
