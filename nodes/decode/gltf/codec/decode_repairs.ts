/**
 * `decode.gltf`'s repairs on the scene glTF-Transform read (decode_run.ts reads and checks it first):
 * names restored, parts a skin does not reach split off, exporter habits in transforms and vertex
 * attributes, texture types and sizes, legacy images, material fallbacks, tangents, Flight Simulator
 * looks, and textures nothing samples left out. Their order matters: each comment says why.
 *
 * @module
 */
import type { Document, Material, Mesh, Node, Texture } from "@gltf-transform/core";
import { importOnUse } from "../../../../runtime/lazy_run.ts";
import type { RunContext } from "../../../../runtime/node.ts";
import { summariseRepeats } from "../../../../runtime/repeats.ts";
import type { GltfStructure } from "./check.ts";
import * as run from "./run_modules.ts";

/** What decode_run.ts read and found, for the repairs. */
export interface DecodedFile {
  readonly doc: Document;
  /** Matrices at a parent's origin the file's others did not settle, and the file's nodes by index. */
  readonly atOrigin: { readonly found: readonly run.OriginMatrix[]; readonly nodes: readonly Node[] };
  /** The file's own asset.generator, read before glTF-Transform wrote its name there. */
  readonly generator: unknown;
  /** The file's name (or format), which every warning starts with. */
  readonly file: string;
  readonly structure: GltfStructure;
  readonly msfsPacked: boolean;
  readonly msfsLooks: ReturnType<typeof run.msfs.readMsfsLooks>;
  readonly directXNormals: boolean;
  readonly split: ReturnType<typeof run.msfs.splitPackedPrimitives>;
  readonly packedAttributes: ReturnType<typeof run.msfs.convertMsfsAttributes> | undefined;
}

/** Repairs `decoded.doc` in place (see the module doc), warning through `ctx`; returns it. */
export async function repairDecoded(decoded: DecodedFile, ctx: RunContext): Promise<Document> {
  const {
    doc,
    atOrigin,
    generator,
    file,
    structure,
    msfsPacked,
    msfsLooks,
    directXNormals,
    split,
    packedAttributes,
  } = decoded;
  const {
    msfs,
    restoreOriginalNames,
    recordSourceGenerator,
    pruneUnusedTextures,
    specGlossFallbacks,
    convertLegacyImages,
    missingUvSets,
    alignTransformFallbacks,
    unskinnedPrimitives,
    transformHabitNotes,
    attributeHabits,
  } = run;
  // Repairs at a byte offset or JSON path, each named with the file; past three alike, counted.
  const warnRepairs = (repairs: readonly string[]) => {
    for (const repair of summariseRepeats(repairs.map((r) => `${file} at ${r}`))) ctx.warn(repair);
  };
  const inFile = structure.gltf1?.paths;
  recordSourceGenerator(doc, generator);
  // A data: URI (a .gltf's embedded image, or one io.read embedded) names no file: glTF-Transform keeps it as the
  // texture's URI, and names derived from it (the export's PNG fallback beside a KTX2 or WebP image) declared
  // the embedded image's type for other bytes.
  for (const texture of doc.getRoot().listTextures()) {
    if (texture.getURI().startsWith("data:")) texture.setURI("");
  }
  // Before anything names a property: notes name what the file's author named.
  const restored = restoreOriginalNames(doc);
  if (restored.length > 0) {
    ctx.warn(
      `${file}: ${restored.length} name${
        restored.length > 1 ? "s" : ""
      } restored from extras.name (or a mesh's extras.partgraph.target_names), where the tool ` +
        `that respelt ${
          restored.length > 1 ? "them" : "it"
        } kept the original (three.js's loader and exporter, ` +
        `a repeated name made unique, or a name cut to 63 bytes): ${restored.slice(0, 3).join(", ")}` +
        (restored.length > 3 ? ` and ${restored.length - 3} more` : ""),
    );
  }
  // After the names are restored: a split part's new mesh and node are named after the file's own.
  const skinRepairs = unskinnedPrimitives(doc);
  warnRepairs(inFile ? skinRepairs.map((repair) => inFile.textOf(repair)) : skinRepairs);
  // Before the transform habits: a part's size and place are judged with its matrix settled.
  warnRepairs(run.settleOriginMatrices(atOrigin.found, atOrigin.nodes));
  // After the names are restored, so notes name parts as the author did (codec/transform_habits.ts).
  const meshes = doc.getRoot().listMeshes();
  const meshLabel = (mesh: Mesh) => (mesh.getName() ? `'${mesh.getName()}'` : `#${meshes.indexOf(mesh)}`);
  // Before the unit judgment, which leaves such meshes out: their size is no unit slip.
  const unscaled = run.unscaledPositions(doc, meshLabel);
  for (const note of summariseRepeats(unscaled.notes)) ctx.warn(`${file}: ${note}`);
  const habitNotes = transformHabitNotes(doc, unscaled.meshes);
  warnRepairs(inFile ? habitNotes.map((note) => inFile.textOf(note)) : habitNotes);
  const textures = doc.getRoot().listTextures();
  const label = (texture: Texture) =>
    texture.getName()
      ? `'${texture.getName()}'`
      : textures.includes(texture)
      ? `#${textures.indexOf(texture)}`
      : "an unnamed texture";
  // First: every repair below that reads textures by type reads their bytes' type.
  const { imageTypesFromBytes } = await importOnUse<typeof import("./image_types.ts")>(
    "./image_types.ts",
    import.meta.url,
  );
  for (const note of summariseRepeats(imageTypesFromBytes(doc, label))) ctx.warn(`${file}: ${note}`);
  // Before the legacy images: the PNGs they become are partgraph's own.
  const { pngSizeProblems } = await importOnUse<typeof import("./png_sizes.ts")>(
    "./png_sizes.ts",
    import.meta.url,
  );
  for (const problem of pngSizeProblems(textures, label)) ctx.warn(`${file}: ${problem}`);
  for (const repair of await convertLegacyImages(textures, label)) ctx.warn(`${file}: ${repair}`);
  // After the legacy images: a 1.0 file's Targa or BMP texture is a PNG by now.
  if (structure.gltf1?.rgbDiffuse.length) {
    const { drawRgbTexturesAsGltf1 } = await importOnUse<typeof import("./gltf1_rgb_textures.ts")>(
      "./gltf1_rgb_textures.ts",
      import.meta.url,
    );
    warnRepairs(await drawRgbTexturesAsGltf1(doc, structure.gltf1.rgbDiffuse, structure.gltf1.paths));
  }
  if (structure.gltf1?.formatSlots.length) {
    const { drawTextureFormatsAsGltf1 } = await importOnUse<
      typeof import("./gltf1_texture_formats.ts")
    >("./gltf1_texture_formats.ts", import.meta.url);
    warnRepairs(await drawTextureFormatsAsGltf1(doc, structure.gltf1.formatSlots, structure.gltf1.paths));
  }
  const materials = doc.getRoot().listMaterials();
  const materialLabel = (material: Material) =>
    material.getName() ? `'${material.getName()}'` : `#${materials.indexOf(material)}`;
  for (const note of summariseRepeats(await specGlossFallbacks(doc, materialLabel))) {
    ctx.warn(`${file}: ${note}`);
  }
  for (const note of summariseRepeats(alignTransformFallbacks(doc, materialLabel))) {
    ctx.warn(`${file}: ${note}`);
  }
  for (const note of summariseRepeats(missingUvSets(doc, materialLabel))) ctx.warn(`${file}: ${note}`);
  // Before the attribute habits, which read texture coordinates: a lost normalized flag is mended first.
  for (const note of summariseRepeats(run.lostUvScales(doc, meshLabel, materialLabel))) {
    ctx.warn(`${file}: ${note}`);
  }
  // Before tangents are added: those are made across the mended normals (codec/attribute_habits.ts). An MSFS
  // packed model's winding, normals and UVs are read by its own rules (msfs_primitives.ts), below.
  const attributeNotes = msfsPacked ? [] : attributeHabits(doc, materialLabel);
  for (const note of summariseRepeats(attributeNotes)) ctx.warn(`${file}: ${note}`);
  const { addTangentSpace } = await importOnUse<typeof import("./tangent_space.ts")>(
    "./tangent_space.ts",
    import.meta.url,
  );
  for (const note of summariseRepeats(addTangentSpace(doc, materialLabel))) ctx.warn(`${file}: ${note}`);
  const msfsNotes = [
    // Packing first: its notes name primitives by their paths in the file, before any is left out.
    ...msfs.readMsfsPacking(doc, { split, attributes: packedAttributes }),
    ...msfs.applyMsfsLooks(doc, msfsLooks, materialLabel),
    // After the legacy images: a DDS normal map is a PNG by now.
    ...(directXNormals ? await msfs.turnDirectXNormalMaps(doc, label) : []),
  ];
  for (const note of msfsNotes) ctx.warn(`${file}: ${note}`);
  // Last: what the repairs above stop sampling (a material left out, a layer dropped) goes too.
  const pruned = pruneUnusedTextures(doc, label);
  if (pruned) ctx.warn(`${file}: ${pruned}`);
  // No source frame is recorded: glTF fixes up (+Y) and units (metres) but authors disagree on
  // forward, so rig nodes fall back to their `forward` parameter. A frame recorded by an earlier
  // partgraph run travels inside the file and is kept.
  return doc;
}
