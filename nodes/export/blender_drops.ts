/**
 * What Blender 3.4's glTF importer (Blender's own, headless or not) drops of a valid file, named so the
 * user knows before opening it there: an extension the file requires that the importer does not know
 * refuses the whole file; a texture whose only image is WebP, KTX2 (Basis Universal) or AVIF comes in
 * as an image node without an image; custom vertex attributes (`_BATCHID`) are dropped; UV sets and
 * colour sets past the eighth are dropped. three.js keeps all of them. And a mesh Blender must copy
 * (shape keys and skinning live on its mesh data: one mesh drawn by nodes at different morph weights,
 * keyed by a clip, or with different skins) comes in as copies renamed `.001`…; meshes no node draws are
 * not brought in at all. Measured with real imports
 * (`tests/clients/blender_odd_test.ts`): each of these came in lost with no word before.
 *
 * Extras Blender keeps only as text or drops, and extras on properties whose extras it drops whole
 * (images, skins, clips, primitives…), are named by `blender_extras.ts`.
 *
 * @module
 */
import { blenderDroppedExtras, blenderExtrasDrops } from "./blender_extras.ts";

/** The extensions Blender 3.4's importer reads (`io_scene_gltf2/io/imp/gltf2_io_gltf.py`). */
const BLENDER_EXTENSIONS = new Set([
  "KHR_materials_pbrSpecularGlossiness",
  "KHR_lights_punctual",
  "KHR_materials_unlit",
  "KHR_texture_transform",
  "KHR_materials_clearcoat",
  "KHR_mesh_quantization",
  "KHR_draco_mesh_compression",
  "KHR_materials_variants",
  "KHR_materials_emissive_strength",
  "KHR_materials_transmission",
  "KHR_materials_specular",
  "KHR_materials_sheen",
  "KHR_materials_ior",
]);

/** Image extensions and what their images are, with the partgraph node that re-encodes them. */
const IMAGE_EXTENSIONS: Record<string, string> = {
  EXT_texture_webp: "WebP",
  KHR_texture_basisu: "KTX2",
  EXT_texture_avif: "AVIF",
};

/** Nodes that take out an extension Blender refuses, for the warning to point at. */
const REMEDIES: Record<string, string> = {
  EXT_texture_webp: "textures.to_png (the graphs' png_textures input) re-encodes them as PNG",
  KHR_texture_basisu: "textures.to_png (the graphs' png_textures input) re-encodes them as PNG",
  EXT_texture_avif: "textures.to_png (the graphs' png_textures input) re-encodes them as PNG",
  EXT_mesh_gpu_instancing: "scene.uninstance (the graphs' expand_instances input) expands it",
};

/**
 * partgraph's own bookkeeping attributes, which its later nodes read and a Blender user has no use for:
 * Carnivores' `_OWNER` (`decode/carnivores/codec/build_scene.ts`), DSON's `_DSON_VERTEX` and
 * `_RIGIDITY` (`decode/dson/codec/build_scene.ts`). Not warned of: every such export would say it.
 */
const OWN_ATTRIBUTES = new Set(["_OWNER", "_DSON_VERTEX", "_RIGIDITY"]);

/** Most UV sets and colour sets Blender 3.4's importer reads (`UV_MAX`, `COLOR_MAX`). */
const MAX_SETS = 8;

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/**
 * Warnings for what Blender 3.4 drops of a written file, given its JSON; none for a file it takes whole.
 *
 * @example
 * ```ts
 * blenderDrops({ asset: { version: "2.0" }, extensionsRequired: ["EXT_texture_webp"] });
 * // ["the file requires EXT_texture_webp, which Blender 3.4's importer refuses: ..."]
 * ```
 */
export function blenderDrops(json: Json): string[] {
  const messages: string[] = [];
  for (const extension of json.extensionsRequired ?? []) {
    if (BLENDER_EXTENSIONS.has(extension)) continue;
    const remedy = REMEDIES[extension];
    messages.push(
      `the file requires ${extension}, which Blender 3.4's importer refuses: the whole file fails to ` +
        `import there (three.js reads it)${remedy ? `; ${remedy}` : ""}`,
    );
  }
  imageDrops(json, messages);
  meshCopies(json, messages);
  messages.push(...blenderExtrasDrops(json), ...blenderDroppedExtras(json));
  undrawnDrops(json, messages);
  unusedMaterials(json, messages);
  const custom = new Map<string, string[]>();
  for (const mesh of json.meshes ?? []) attributeDrops(mesh, custom, messages);
  if (custom.size) {
    // One warning for the file: a converter's attribute (`_BATCHID`) tends to sit on every mesh, and a
    // warning a mesh would bury the others.
    const meshes = [...new Set([...custom.values()].flat())];
    const shown = meshes.slice(0, 3).map((name) => `'${name}'`).join(", ");
    messages.push(
      `custom attribute(s) ${[...custom.keys()].join(", ")} of ${meshes.length} mesh(es) (${shown}` +
        `${
          meshes.length > 3 ? ", …" : ""
        }): Blender 3.4's importer drops them (three.js keeps them as geometry attributes)`,
    );
  }
  return messages;
}

/**
 * Meshes no node draws, in a file whose nodes draw others: Blender 3.4's importer makes objects of nodes
 * only, so it brings none of them in, and a file saved from Blender lacks them (measured:
 * `tests/clients/undrawn_test.ts`). One warning for the file. A file of meshes and no drawing node at
 * all is a library, not a scene: not warned of. Nor are the meshes a node lists as its own kept
 * alternates (`extras.partgraph.<decoder>.kept_meshes`: a Freelancer part's LODs and wireframe, kept
 * for LancerEdit by default): every ship would warn, and README says Blender leaves them out.
 */
function undrawnDrops(json: Json, messages: string[]): void {
  const nodes: Json[] = json.nodes ?? [];
  const drawn = new Set<number>(nodes.map((node) => node.mesh).filter(Number.isInteger));
  if (drawn.size === 0) return;
  const alternates = new Set<unknown>(
    nodes.flatMap((node) =>
      Object.values(node.extras?.partgraph ?? {}).flatMap((own) => (own as Json)?.kept_meshes ?? [])
    ),
  );
  const lost = ((json.meshes ?? []) as Json[]).flatMap((mesh, i) =>
    drawn.has(i) || alternates.has(mesh.name) ? [] : [`'${mesh.name ?? `#${i}`}'`]
  );
  if (lost.length === 0) return;
  const several = lost.length > 1;
  messages.push(
    `${several ? "meshes" : "mesh"} ${lost.slice(0, 4).join(", ")}${
      lost.length > 4 ? ` and ${lost.length - 4} more` : ""
    } ` +
      `${several ? "are" : "is"} drawn by no node: Blender 3.4's importer brings ${
        several ? "them" : "it"
      } in ` +
      `nowhere, so a file saved from Blender lacks ${several ? "them" : "it"} (three.js loads ` +
      `${several ? "them" : "it"} only when asked)`,
  );
}

/**
 * Materials no primitive draws with (nor a material variant maps): Blender 3.4's importer makes a
 * material only for a primitive that uses it, so it brings none of them in and a file saved from
 * Blender lacks them (measured, `tests/clients/blender_skins_test.ts`). export.gltf writes them, as
 * three.js and engines read them. One warning for the file.
 */
function unusedMaterials(json: Json, messages: string[]): void {
  const used = new Set<unknown>();
  for (const mesh of json.meshes ?? []) {
    for (const primitive of mesh.primitives ?? []) {
      used.add(primitive.material);
      for (const mapping of primitive.extensions?.KHR_materials_variants?.mappings ?? []) {
        used.add(mapping.material);
      }
    }
  }
  // A file no primitive draws with a material is a library of materials, not a scene: not warned of.
  if (![...used].some(Number.isInteger)) return;
  const unused = ((json.materials ?? []) as Json[]).flatMap((material, i) =>
    used.has(i) ? [] : [`'${material.name ?? `#${i}`}'`]
  );
  if (unused.length === 0) return;
  const several = unused.length > 1;
  messages.push(
    `${several ? "materials" : "material"} ${unused.slice(0, 4).join(", ")}${
      unused.length > 4 ? ` and ${unused.length - 4} more` : ""
    } ${several ? "are" : "is"} used by no mesh: Blender 3.4's importer brings ${
      several ? "them" : "it"
    } in ` +
      `nowhere, so a file saved from Blender lacks ${several ? "them" : "it"} (three.js loads ${
        several ? "them" : "it"
      } only when asked)`,
  );
}

/** Textures with no core `source`, only an image extension's: an empty image node in Blender. */
function imageDrops(json: Json, messages: string[]): void {
  const required = new Set<string>(json.extensionsRequired ?? []);
  const warned = new Set<number>();
  for (const texture of json.textures ?? []) {
    if (texture.source !== undefined) continue;
    for (const [extension, kind] of Object.entries(IMAGE_EXTENSIONS)) {
      const source = texture.extensions?.[extension]?.source;
      if (typeof source !== "number" || warned.has(source) || required.has(extension)) continue;
      warned.add(source);
      const name = json.images?.[source]?.name ?? `#${source}`;
      messages.push(
        `image '${name}' is ${kind} only (${extension}, no PNG or JPEG fallback): Blender 3.4's importer ` +
          `brings its textures in without an image (three.js draws it); ${REMEDIES[extension]}, and ` +
          "export.gltf's png_fallback (on by default) writes a PNG beside it when it can decode it",
      );
    }
  }
}

/** The copy key of a node drawing a mesh without a skin or morph targets: `JSON.stringify([null, []])`. */
const PLAIN_COPY = "[null,[]]";

/**
 * Meshes Blender 3.4 makes several of (its `create_mesh_object` cache): one per skin and, for a mesh
 * with morph targets, per set of node weights, and one for each node a clip keys the weights of.
 */
function meshCopies(json: Json, messages: string[]): void {
  const keyed = new Set<number>();
  for (const animation of json.animations ?? []) {
    for (const channel of animation.channels ?? []) {
      if (channel.target?.path === "weights" && typeof channel.target.node === "number") {
        keyed.add(channel.target.node);
      }
    }
  }
  const copies = new Map<number, Set<string>>();
  (json.nodes ?? []).forEach((node: Json, i: number) => {
    const mesh = json.meshes?.[node.mesh];
    if (!mesh) return;
    const morphed = (mesh.primitives ?? []).some((p: Json) => p.targets?.length);
    // The text of no skin and no weights is known: most nodes (rigid parts) make no string of their own.
    const key = keyed.has(i) && morphed
      ? `node ${i}`
      : node.skin === undefined && !morphed
      ? PLAIN_COPY
      : JSON.stringify([node.skin ?? null, morphed ? node.weights ?? [] : []]);
    if (!copies.has(node.mesh)) copies.set(node.mesh, new Set());
    copies.get(node.mesh)!.add(key);
  });
  for (const [index, keys] of copies) {
    if (keys.size < 2) continue;
    const name = json.meshes[index].name ?? "";
    messages.push(
      `mesh '${name}' is drawn by nodes at different morph weights or skins (or its weights keyed per node): ` +
        `Blender 3.4 keeps shape keys and skinning on mesh data, so it makes ${keys.size} copies of it, ` +
        `'${name}' and '${name}.001'… (three.js shares it)`,
    );
  }
}

/** Custom attributes (gathered into `customs`, with the mesh) and sets past the eighth of one mesh's primitives. */
function attributeDrops(mesh: Json, customs: Map<string, string[]>, messages: string[]): void {
  const custom = new Set<string>();
  let uvSets = 0, colourSets = 0;
  for (const primitive of mesh.primitives ?? []) {
    for (const semantic of Object.keys(primitive.attributes ?? {})) {
      if (semantic.startsWith("_") && !OWN_ATTRIBUTES.has(semantic)) custom.add(semantic);
      const set = /^(TEXCOORD|COLOR)_(\d+)$/.exec(semantic);
      if (set?.[1] === "TEXCOORD") uvSets = Math.max(uvSets, Number(set[2]) + 1);
      else if (set) colourSets = Math.max(colourSets, Number(set[2]) + 1);
    }
  }
  const name = mesh.name ?? "";
  for (const semantic of custom) customs.set(semantic, [...customs.get(semantic) ?? [], name]);
  for (const [count, what] of [[uvSets, "UV sets"], [colourSets, "colour sets"]] as const) {
    if (count > MAX_SETS) {
      messages.push(
        `mesh '${name}' has ${count} ${what}: Blender 3.4's importer reads the first ${MAX_SETS} and drops the rest`,
      );
    }
  }
}
