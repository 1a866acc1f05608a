/**
 * glTF files written the way real exporters write them, each with the truth a viewer draws: an aircraft
 * of box parts (each its own colour, some textured, some unlit or glowing) as Blender 2.8x writes
 * specular-glossiness materials (with and without a metal-rough fallback, materials and textures
 * repeated per use), Blender's unlit materials mixed with lit ones in one mesh, Godot 3/4 (`@` in
 * generated node names, `extras`, `GODOT_single_root`, KHR_texture_transform at identity), Sketchfab's
 * conversions (`Sketchfab_model` turned Z-up by a `matrix`, `<name>.fbx`, `RootNode`, a node per
 * material `<part>_<material>_0` holding `Object_<n>` meshes), three.js's GLTFExporter (old: strides
 * of the element size, 3 for byte colours; new: elements padded to 4; emissive strength;
 * extensionsUsed listing what nothing uses) and Unity's UnityGLTF/glTFast (interleaved vertex
 * streams with padding, `Aileron (L)` names, meshes mirrored by scale). Solid-colour textures tell
 * which image a primitive draws.
 *
 * @module
 */
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import {
  baseTexture,
  bounds,
  box,
  emissiveStrength,
  type ExporterFile,
  type Part,
  partsOf,
  type PartTruth,
  strided,
  translation,
  truthOf,
  Writer,
} from "./gltf_exporter_parts.ts";
import { blenderSpecGloss, blenderUnlit, godot, sketchfab } from "./gltf_exporter_tools.ts";
import { blenderTwoScenes, sketchfabRigged } from "./gltf_exporter_scenes.ts";
export type { ExporterFile, PartTruth } from "./gltf_exporter_parts.ts";

/**
 * three.js's GLTFExporter: byte vertex colours (VEC3) and normalized-short UVs; `old` (before r125)
 * gives each view the stride of its element (3 for the colours, 4 for the UVs), the new one pads each
 * element to 4 bytes; KHR_materials_emissive_strength; extensionsUsed naming one nothing uses.
 */
function threejs(parts: Part[], old: boolean): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  const truth: PartTruth[] = [];
  w.use("KHR_texture_transform");
  parts.forEach((part, i) => {
    const b = box(part.size);
    const n = b.positions.length / 3;
    const colourStride = old ? 3 : 4;
    part.tint = [64 + 23 * i, 255 - 23 * i, 128, 255];
    const colours = w.view(
      strided(
        n,
        colourStride,
        (_k, v, at) => part.tint!.slice(0, 3).forEach((c, j) => v.setUint8(at + j, c)),
      ),
      { target: 34962, byteStride: colourStride },
    );
    const uvs = w.view(
      strided(n, 4, (k, v, at) => {
        v.setUint16(at, Math.round(b.uvs[2 * k] * 65535), true),
          v.setUint16(at + 2, Math.round(b.uvs[2 * k + 1] * 65535), true);
      }),
      { target: 34962, byteStride: 4 },
    );
    if (i % 2 === 1) part.emissive = [0.2, 0.4, 0.6], part.strength = 2.5;
    if (part.strength !== 1) w.use("KHR_materials_emissive_strength");
    const material = w.material({
      name: `mat_${part.name}`,
      pbrMetallicRoughness: {
        baseColorFactor: part.factor,
        metallicFactor: 0,
        roughnessFactor: 1,
        ...(part.texture ? { baseColorTexture: baseTexture(w, part) } : {}),
      },
      ...emissiveStrength(part),
    });
    const primitive = {
      attributes: {
        POSITION: w.floats(b.positions, "VEC3", 12, true),
        NORMAL: w.floats(b.normals, "VEC3", 12),
        COLOR_0: w.accessor({
          bufferView: colours,
          componentType: 5121,
          normalized: true,
          count: n,
          type: "VEC3",
        }),
        TEXCOORD_0: w.accessor({
          bufferView: uvs,
          componentType: 5123,
          normalized: true,
          count: n,
          type: "VEC2",
        }),
      },
      indices: w.indices(b.indices),
      material,
    };
    const mesh = w.json.meshes.push({ name: part.name, primitives: [primitive] }) - 1;
    w.node({ name: part.name, mesh, translation: part.centre, extras: { name: part.name } });
    truth.push(truthOf(part, translation(part)));
  });
  return { w, truth };
}

/**
 * Unity (UnityGLTF/glTFast): one interleaved view per mesh (position, normal, UV and 4 bytes of
 * padding: a 36-byte stride), `Aileron (L)`-style names, the right-hand parts drawn by the left ones'
 * mesh mirrored by scale (−1, 1, 1), emission in KHR_materials_emissive_strength.
 */
function unity(parts: Part[]): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  const truth: PartTruth[] = [];
  w.use("KHR_materials_emissive_strength");
  const unityName = (name: string) => name.replace(/_([LR])$/, " ($1)");
  // Every mesh's vertices in one interleaved view, each mesh's accessors at its own byteOffset.
  const boxes = parts.map((part) => box(part.size));
  const firsts = boxes.map((_, i) => boxes.slice(0, i).reduce((sum, b) => sum + b.positions.length / 3, 0));
  const all = boxes.reduce((sum, b) => sum + b.positions.length / 3, 0);
  const view = w.view(
    strided(all, 36, (k, v, at) => {
      const m = firsts.findLastIndex((f) => f <= k), b = boxes[m], e = k - firsts[m];
      for (let j = 0; j < 3; j++) v.setFloat32(at + 4 * j, b.positions[3 * e + j], true);
      for (let j = 0; j < 3; j++) v.setFloat32(at + 12 + 4 * j, b.normals[3 * e + j], true);
      for (let j = 0; j < 2; j++) v.setFloat32(at + 24 + 4 * j, b.uvs[2 * e + j], true);
    }),
    { target: 34962, byteStride: 36 },
  );
  parts.forEach((part, i) => {
    const b = boxes[i];
    const n = b.positions.length / 3, base = 36 * firsts[i];
    if (i === 1) part.emissive = [1, 1, 1], part.strength = 3;
    const material = w.material({
      name: `M_${part.name}`,
      pbrMetallicRoughness: {
        baseColorFactor: part.factor,
        metallicFactor: 0,
        roughnessFactor: 0.5,
        ...(part.texture ? { baseColorTexture: baseTexture(w, part) } : {}),
      },
      ...emissiveStrength(part),
    });
    const primitive = {
      attributes: {
        POSITION: w.accessor({
          bufferView: view,
          byteOffset: base,
          componentType: 5126,
          count: n,
          type: "VEC3",
          ...bounds(b.positions),
        }),
        NORMAL: w.accessor({
          bufferView: view,
          byteOffset: base + 12,
          componentType: 5126,
          count: n,
          type: "VEC3",
        }),
        TEXCOORD_0: w.accessor({
          bufferView: view,
          byteOffset: base + 24,
          componentType: 5126,
          count: n,
          type: "VEC2",
        }),
      },
      indices: w.indices(b.indices),
      material,
    };
    const mesh = w.json.meshes.push({ name: unityName(part.name), primitives: [primitive] }) - 1;
    // UnityGLTF writes empty lists where a GameObject has none.
    w.node({ name: unityName(part.name), mesh, translation: part.centre, children: [], extras: {} });
    truth.push(truthOf(part, translation(part), unityName(part.name)));
  });
  w.json.animations = [];
  return { w, truth };
}

/** The tools and variants the generator writes, by name. */
export const EXPORTER_TOOLS = [
  "blender-specgloss-fallback",
  "blender-specgloss-only",
  "blender-specgloss-required",
  "blender-unlit-mixed",
  "blender-two-scenes",
  "godot3",
  "godot4",
  "sketchfab",
  "sketchfab-specgloss",
  "sketchfab-rigged",
  "threejs-old",
  "threejs-new",
  "unity",
] as const;

/** One file of `tool` for `seed`. */
export async function exporterFile(tool: typeof EXPORTER_TOOLS[number], seed: number): Promise<ExporterFile> {
  await loadPngEncoder();
  const next = prng(seed);
  const parts = partsOf(next);
  const [w, truth, generator] = (() => {
    switch (tool) {
      case "blender-specgloss-fallback":
        return [...Object.values(blenderSpecGloss(parts, true, false)), "Khronos glTF Blender I/O v1.0.5"];
      case "blender-specgloss-only":
        return [...Object.values(blenderSpecGloss(parts, false, false)), "Khronos glTF Blender I/O v1.0.5"];
      case "blender-specgloss-required":
        return [...Object.values(blenderSpecGloss(parts, false, true)), "Khronos Blender glTF 2.0 exporter"];
      case "blender-unlit-mixed":
        return [...Object.values(blenderUnlit(parts)), "Khronos glTF Blender I/O v1.2.75"];
      case "godot3":
        return [...Object.values(godot(parts, 3, next)), "Godot Engine v3.5.stable.official"];
      case "godot4":
        return [...Object.values(godot(parts, 4, next)), "Godot Engine v4.3.stable.official@77dcf97d8"];
      case "sketchfab":
        return [...Object.values(sketchfab(parts, false)), "Sketchfab-12.66.0"];
      case "sketchfab-specgloss":
        return [...Object.values(sketchfab(parts, true)), "Sketchfab-3.36.0"];
      case "threejs-old":
        return [...Object.values(threejs(parts, true)), "THREE.GLTFExporter"];
      case "threejs-new":
        return [...Object.values(threejs(parts, false)), "THREE.GLTFExporter r160"];
      case "unity":
        return [...Object.values(unity(parts)), "UnityGLTF 2.14.1"];
      case "blender-two-scenes":
        return [...Object.values(blenderTwoScenes(parts)), "Khronos glTF Blender I/O v3.6.28"];
      case "sketchfab-rigged":
        return [...Object.values(sketchfabRigged(parts)), "Sketchfab-12.68.0"];
    }
  })() as [Writer, PartTruth[], string];
  return { tool, name: `${tool}_${seed}.glb`, bytes: w.glb(generator), parts: truth };
}
