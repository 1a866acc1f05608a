/**
 * glTF 1.0 read by upgrading its JSON to 2.0 before the 2.0 structure check, so every check, repair
 * and warning of 2.0 applies to the result. Old aircraft downloads (Cesium's samples, 2015–2017
 * Sketchfab and exporters, COLLADA2GLTF) are 1.0, which neither Blender 3.4 nor current three.js
 * read; gltf-pipeline's `updateVersion` upgrades them, and this upgrade does what it does
 * (`gltf1_*.ts` say how, part by part), and folds each skin's `bindShapeMatrix` into its inverse
 * bind matrices, which gltf-pipeline leaves out. A fault is a {@link DecodeError} at its 1.0 JSON
 * path — one the 2.0 checks find too, before glTF-Transform reads the file or after, its path and the
 * items its texts name turned back to the 1.0 file's (`gltf1_paths.ts`). Work and memory are
 * linear in the file: each item is read once, and the only bytes written are inverse bind matrices,
 * checked against their buffer first.
 *
 * @module
 */
import type { JSONDocument } from "@gltf-transform/core";
import type { GltfSource } from "./container.ts";
import { COLLECTIONS, type Json } from "./checker.ts";
import { Gltf1Reader, pointer } from "./gltf1_reader.ts";
import { BINARY_BUFFER, moveStrides, upgradeBuffers } from "./gltf1_buffers.ts";
import { type FormatSlot, upgradeMaterials } from "./gltf1_materials.ts";
import { upgradeNodes } from "./gltf1_nodes.ts";
import { upgradeAnimations } from "./gltf1_animations.ts";
import { foldBindShapes } from "./gltf1_bind_shape.ts";
import type { Gltf1Paths } from "./gltf1_paths.ts";

/** 1.0 extensions the upgrade reads into 2.0 core (or KHR_materials_unlit). */
const UPGRADED_EXTENSIONS = new Set(["KHR_binary_glTF", "KHR_materials_common"]);
/**
 * 1.0 extensions that change what the data means (positions offset from a centre, or quantized with a
 * decode matrix): read without them the model would be wrong, so a file using one is refused.
 */
const MEANING_EXTENSIONS = new Set(["CESIUM_RTC", "WEB3D_quantized_attributes"]);

/**
 * Whether the JSON is glTF 1.0: `asset.version` 1.x, or (no version given, as 1.0 allowed) a
 * collection that is a dictionary rather than an array.
 */
export function isGltf1(json: object): boolean {
  const file = json as Json;
  const asset = file.asset as Json | undefined;
  const version = asset && typeof asset === "object" ? asset.version : undefined;
  if (typeof version === "string") return /^1\./.test(version);
  if (version !== undefined && version !== null) return false;
  return COLLECTIONS.some((key) => {
    const value = file[key];
    return value !== null && typeof value === "object" && !Array.isArray(value);
  });
}

/** What the upgrade did, and the way back from 2.0 paths to the file's own. */
export interface Gltf1Upgrade {
  /** Warnings at 1.0 JSON paths. */
  readonly notes: readonly string[];
  /**
   * The way back to the file's own paths and ids (`/nodes/3/mesh` → `/nodes/node-Wing/meshes/0`),
   * for errors and warnings of the 2.0 checks, before glTF-Transform reads the file and after.
   */
  readonly paths: Gltf1Paths;
  /** Blended materials whose diffuse texture 1.0 reads as RGB, by index (see `gltf1_rgb_textures.ts`). */
  readonly rgbDiffuse: readonly number[];
  /** Material slots whose texture 1.0 reads as grey or alpha (see `gltf1_texture_formats.ts`). */
  readonly formatSlots: readonly FormatSlot[];
}

/**
 * Replaces the 1.0 JSON of `doc` with its 2.0 upgrade, in place, and adds the resources it needs
 * (its data URIs decoded by `decodeUris`, which the container reader could not find in 1.0's
 * dictionaries). A GLB source is a binary glTF 1.0, its body already `doc.resources`' GLB buffer.
 *
 * @example
 * ```ts
 * if (isGltf1(doc.json)) for (const note of upgradeGltf1(doc, source, dataUriResources).notes) console.warn(note);
 * ```
 */
export function upgradeGltf1(
  doc: JSONDocument,
  source: GltfSource,
  decodeUris: (json: JSONDocument["json"], source: GltfSource) => Record<string, Uint8Array<ArrayBuffer>>,
): Gltf1Upgrade {
  const json = doc.json as unknown as Json;
  const r = new Gltf1Reader(json, source);
  const notes: string[] = [];
  const asset = r.optionalObject(json, "asset", "") ?? {};
  const used = Array.isArray(json.extensionsUsed) ? json.extensionsUsed as unknown[] : [];
  const meaning = used.findIndex((name) => typeof name === "string" && MEANING_EXTENSIONS.has(name));
  if (meaning >= 0) {
    r.fail(
      `/extensionsUsed/${meaning}`,
      "glTF 1.0 without an extension that changes what its data means (CESIUM_RTC, WEB3D_quantized_attributes)",
      used[meaning],
    );
  }
  const binary = source.format === "glb";
  if (binary && !r.has("buffers", BINARY_BUFFER)) {
    r.fail("/buffers", `the buffer '${BINARY_BUFFER}' a binary glTF 1.0 keeps its body in`, json.buffers);
  }
  const buffers = upgradeBuffers(r, binary);
  const looks = upgradeMaterials(r);
  const scene = upgradeNodes(r);
  const animations = upgradeAnimations(r);
  moveStrides(buffers, scene.vertexAccessors, r.paths);
  notes.push(...looks.notes, ...scene.notes);
  const techniques = r.items("techniques").length;
  if (techniques > 0) {
    notes.push(
      `/techniques: ${techniques} GLSL technique(s) read as glTF 2.0 metal-rough materials from their ` +
        "diffuse, emission, shininess and transparency values (glTF 2.0 carries no shaders)",
    );
  }
  const extensions = r.optionalObject(json, "extensions", "") ?? {};
  const lights = (extensions.KHR_materials_common as Json | undefined)?.lights;
  if (lights && typeof lights === "object" && Object.keys(lights).length > 0) {
    notes.push(`/extensions/KHR_materials_common/lights: ${Object.keys(lights).length} light(s) left out`);
  }
  const upgraded: Json = {
    asset: {
      ...Object.fromEntries(
        Object.entries(asset).filter(([key]) => !["profile", "premultipliedAlpha", "version"].includes(key)),
      ),
      version: "2.0",
    },
    buffers: buffers.buffers,
    bufferViews: buffers.bufferViews,
    accessors: buffers.accessors,
    images: looks.images,
    samplers: looks.samplers,
    textures: looks.textures,
    materials: looks.materials,
    meshes: scene.meshes,
    nodes: scene.nodes,
    skins: scene.skins,
    cameras: scene.cameras,
    scenes: scene.scenes,
    animations,
  };
  if (scene.scene !== undefined) upgraded.scene = scene.scene;
  for (const key of COLLECTIONS) if ((upgraded[key] as unknown[]).length === 0) delete upgraded[key];
  const keptUsed = used.filter((name) => typeof name !== "string" || !UPGRADED_EXTENSIONS.has(name));
  if (looks.unlit) keptUsed.push("KHR_materials_unlit");
  if (keptUsed.length) upgraded.extensionsUsed = keptUsed;
  const keptExtensions = Object.fromEntries(
    Object.entries(extensions).filter(([name]) => !UPGRADED_EXTENSIONS.has(name)),
  );
  if (Object.keys(keptExtensions).length) upgraded.extensions = keptExtensions;
  if (json.extras !== undefined && json.extras !== null) upgraded.extras = json.extras;
  for (const key of Object.keys(json)) delete json[key];
  Object.assign(json, upgraded);
  const moved: Record<string, readonly string[]> = {
    nodes: scene.nodePaths,
    bufferViews: buffers.viewPaths,
    buffers: buffers.bufferPaths,
    skins: scene.skinPaths,
  };
  for (const key of COLLECTIONS) {
    r.paths.items(key, moved[key] ?? r.items(key).map(([id]) => `/${key}/${pointer(id)}`));
  }
  try {
    Object.assign(doc.resources, decodeUris(doc.json, source));
  } catch (cause) {
    throw r.paths.relocate(cause);
  }
  // Its faults are at 1.0 paths already (read as 2.0 ones, an id like "0" would name another item).
  foldBindShapes(json, doc.resources, scene.bindShapes, r);
  notes.unshift("/asset/version: glTF 1.0, upgraded to 2.0 as it is read (as gltf-pipeline upgrades it)");
  return { notes, paths: r.paths, rgbDiffuse: looks.rgbDiffuse, formatSlots: looks.formatSlots };
}
