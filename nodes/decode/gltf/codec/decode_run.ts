/**
 * The run of `decode.gltf` (declared in ../decode_gltf.ts), imported on its first run. This module reads
 * the file: the container, the checks and repairs on its JSON, glTF-Transform's read, and the checks on
 * what it decoded (index values, counts, skins); decode_repairs.ts then repairs the scene as read (names,
 * transform and attribute habits, textures, materials, Flight Simulator looks).
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { importOnUse } from "../../../../runtime/lazy_run.ts";
import type { BytesValue, RunContext } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { summariseRepeats } from "../../../../runtime/repeats.ts";
import type { GltfSource } from "./container.ts";
import { repairDecoded } from "./decode_repairs.ts";
import * as run from "./run_modules.ts";

/** Reads `input` (a .glb, or a .gltf with its resources embedded) into a scene, warning through `ctx`. */
export async function decodeGltfScene(input: BytesValue, ctx: RunContext): Promise<Document> {
  const {
    isGlb,
    readableExtensions,
    readJsonDocument,
    usesMeshCompression,
    gltfError,
    readContainer,
    adoptDdsTextures,
    checkGltfStructure,
    checkDracoDecoded,
    checkIndexValues,
    checkJointIndices,
    trimPrimitiveCounts,
    moveStrayVertices,
    convertSkinAttributes,
    convertUvwAttributes,
    stalePositionBounds,
    unlistedExtensions,
    msfs,
    unreadExtensionNote,
    adoptWebglTechniques,
    adoptMaterialsCommon,
    alignMorphCounts,
    fitWeightKeys,
    rotationOrderNotes,
    alignMatrixRows,
    originMatrices,
    alignQuantizedAttributes,
  } = run;
  const { bytes, name } = input;
  const source: GltfSource = { format: isGlb(bytes) ? "glb" : "gltf", file: name };
  const containerRepairs: string[] = [];
  const jsonDoc = readContainer(bytes, source, containerRepairs);
  // Read before glTF-Transform, which writes its own name there.
  const generator = (jsonDoc.json.asset as { generator?: unknown } | undefined)?.generator;
  const file = source.file ?? source.format;
  // Repairs at a byte offset or JSON path, each named with the file; past three alike, counted.
  const warnRepairs = (repairs: readonly string[]) => {
    for (const repair of summariseRepeats(repairs.map((r) => `${file} at ${r}`))) ctx.warn(repair);
  };
  adoptDdsTextures(jsonDoc.json);
  // Before the structure check: a technique's metal-rough values are checked as the file's own.
  const techniqueNotes = [...adoptWebglTechniques(jsonDoc.json), ...adoptMaterialsCommon(jsonDoc.json)];
  // Read before glTF-Transform, which drops the extensions that say them.
  const msfsPacked = msfs.isMsfsPacked(jsonDoc.json);
  const msfsLooks = msfs.readMsfsLooks(jsonDoc.json);
  const directXNormals = msfs.hasDirectXNormalMaps(jsonDoc.json);
  // Before the structure check: a sparse part of count 0 is read as no change, not refused; matrices judged together.
  // Matrices at a parent's origin the file's others do not settle are judged once read (origin_matrices.ts).
  const atOrigin = originMatrices(jsonDoc.json);
  const morphRepairs = [
    ...alignMorphCounts(jsonDoc.json),
    ...alignMatrixRows(jsonDoc.json),
    ...alignQuantizedAttributes(jsonDoc.json),
  ];
  const unsettled = atOrigin.filter((m) =>
    !morphRepairs.some((r) => r.startsWith(`/nodes/${m.index}/matrix:`))
  );
  const structure = checkGltfStructure(jsonDoc, source);
  warnRepairs([...containerRepairs, ...morphRepairs, ...structure.repairs]);
  for (const note of techniqueNotes) ctx.warn(`${file} ${note}`);
  // What the checks below find in a glTF 1.0 file is named at its own paths and ids, not the upgrade's.
  const inFile = structure.gltf1?.paths;
  const orderNotes = rotationOrderNotes(jsonDoc.json);
  warnRepairs(inFile ? orderNotes.map((note) => inFile.textOf(note)) : orderNotes);
  const readable = await readableExtensions();
  const required = (jsonDoc.json.extensionsRequired ?? []) as string[];
  const unknown = required.findIndex((name) => !readable.has(name));
  if (unknown >= 0) {
    throw gltfError(
      source,
      { jsonPath: `/extensionsRequired/${unknown}` },
      "a required extension partgraph reads (one glTF-Transform implements)",
      `'${required[unknown]}'`,
    );
  }
  // An extension used but not required is optional to viewers; its data cannot be kept, though.
  // Listed first: what a file gives without listing it (forgotten, misspelt), glTF-Transform reads none of.
  const unlisted = unlistedExtensions(jsonDoc.json, new Set([...readable, ...msfs.MSFS_READ_EXTENSIONS]));
  warnRepairs(inFile ? unlisted.map((repair) => inFile.textOf(repair)) : unlisted);
  for (const name of (jsonDoc.json.extensionsUsed ?? []) as string[]) {
    if (!readable.has(name) && !msfs.MSFS_READ_EXTENSIONS.has(name)) {
      ctx.warn(`${file} ${unreadExtensionNote(jsonDoc.json, name)}`);
    }
  }
  // Decoding costs what loading the cache's GLB of the scene would, unless meshes are compressed:
  // the cache keeps the record, not a second copy of the model.
  if (!usesMeshCompression(jsonDoc.json)) ctx.cheapToRecompute();
  let doc;
  try {
    doc = await readJsonDocument(jsonDoc);
  } catch (cause) {
    if (cause instanceof DecodeError) throw cause;
    // What the structure check does not cover (extension payloads, compressed data) lands here.
    const found = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    // Draco's WebAssembly decoder aborts when its memory (2 GB at most) runs out: say so, not only "Aborted()".
    const dracoAbort = /^RuntimeError: Aborted/.test(found) &&
      jsonDoc.json.extensionsUsed?.includes("KHR_draco_mesh_compression");
    // The decoders' messages name no view: find the one that fails on its own.
    if (usesMeshCompression(jsonDoc.json)) {
      const { locateCompressedFault } = await importOnUse<typeof import("./compressed_faults.ts")>(
        "./compressed_faults.ts",
        import.meta.url,
      );
      const located = await locateCompressedFault(jsonDoc, source, bytes, dracoAbort === true);
      if (located) throw inFile ? inFile.relocate(located) : located;
    }
    const expected = dracoAbort
      ? "Draco data its decoder can hold (its WebAssembly memory, 2 GB at most, ran out)"
      : "content glTF-Transform can read";
    throw gltfError(source, { jsonPath: "/" }, expected, found);
  }
  // Before any repair moves a vertex: the file's bounds describe its vertices as written. (An MSFS packed
  // model's positions are read by its own rules: not checked.)
  if (!msfsPacked) {
    const boundRepairs = stalePositionBounds(jsonDoc.json, doc);
    warnRepairs(inFile ? boundRepairs.map((repair) => inFile.textOf(repair)) : boundRepairs);
  }
  let split, packedAttributes;
  try {
    checkDracoDecoded(jsonDoc, doc, source);
    // Before the index values are checked: a packed primitive's values are relative to its base.
    split = msfs.splitPackedPrimitives(doc, source);
    // Before the skin checks: a packed skin's weights are half floats, or one float per vertex.
    packedAttributes = msfsPacked ? msfs.convertMsfsAttributes(doc) : undefined;
    checkIndexValues(doc, source);
    // After the index values, before the trim (whose warning names a leftover index's vertex).
    const strayRepairs = moveStrayVertices(doc);
    warnRepairs(inFile ? strayRepairs.map((repair) => inFile.textOf(repair)) : strayRepairs);
    // After the index values, on what was decoded: compressed and sparse indices are counted too.
    const countRepairs = trimPrimitiveCounts(doc);
    warnRepairs(inFile ? countRepairs.map((repair) => inFile.textOf(repair)) : countRepairs);
    convertSkinAttributes(doc, source);
    convertUvwAttributes(doc);
    const jointRepairs = checkJointIndices(doc, source);
    warnRepairs(inFile ? jointRepairs.map((repair) => inFile.textOf(repair)) : jointRepairs);
    warnRepairs(fitWeightKeys(doc));
  } catch (error) {
    throw inFile ? inFile.relocate(error) : error;
  }

  return await repairDecoded({
    doc,
    // The file's nodes by index, as read (repairs below add nodes); listed only when needed: a listing reads
    // the graph once per node (many_nodes_test counts).
    atOrigin: { found: unsettled, nodes: unsettled.length ? doc.getRoot().listNodes() : [] },
    generator,
    file,
    structure,
    msfsPacked,
    msfsLooks,
    directXNormals,
    split,
    packedAttributes,
  }, ctx);
}
