/**
 * Material habits of real exporters that decode silently kept, each file with its truth, built on
 * `gltf_exporter_parts.ts`'s parts and writer:
 *
 * - Blender 3.x writes one glTF material per Blender material, so a texture reading the second UV map
 *   (`texCoord: 1`: a baked ambient-occlusion map, a decal) reads it on every mesh sharing the material,
 *   whether that mesh has a second UV map or not. Truth: which primitives lack the set, per material.
 * - Specular-glossiness files whose metal-rough fallback sets the base colour but leaves `metallicFactor`
 *   out (glTF's default: 1, a metal) while the extension draws a non-metal; beside them what must stay as
 *   it is: a true metal (diffuse black, a gold specular) with a metal fallback, a fallback at metallic 0,
 *   and an extension whose specular is left at its default (white, so nothing says it is no metal).
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { runNode, testContext } from "../../support/context.ts";
import { prng } from "../../support/prng.ts";
import {
  box,
  type Json,
  type Part,
  partsOf,
  plainPrimitive,
  type Rgba,
  Writer,
} from "./gltf_exporter_parts.ts";

/** A Blender file sharing a material that samples TEXCOORD_1, and where the set is missing. */
export interface SharedUvFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Per material name sampling set 1: its slots sampling it, and `mesh '<name>' primitive <i>` lacking it. */
  readonly lacking: ReadonlyMap<string, { slots: string[]; primitives: string[] }>;
  /** Every primitive's TEXCOORD sets as written, `mesh/primitive` → sets, to see the geometry is kept. */
  readonly uvSets: ReadonlyMap<string, string[]>;
}

/**
 * Blender 3.4: materials `Paint` (base colour, and on some seeds occlusion, reading UVMap.001 = set 1) and
 * `Trim` (set 0) shared by the parts; some meshes have a second UV map, some not, a mesh of two parts two
 * primitives.
 */
export async function blenderSharedUv1(seed: number): Promise<SharedUvFile> {
  await loadPngEncoder();
  const next = prng(seed);
  const parts = partsOf(next);
  const w = new Writer();
  const paintImage = w.image([200, 40, 40, 255], "paint");
  const aoImage = w.image([180, 180, 180, 255], "paint_ao");
  const trimImage = w.image([30, 30, 200, 255], "trim");
  const occlusion = next() < 0.5;
  const paint = w.material({
    name: "Paint",
    pbrMetallicRoughness: {
      baseColorTexture: { index: w.texture(paintImage), texCoord: 1 },
      metallicFactor: 0,
    },
    ...(occlusion ? { occlusionTexture: { index: w.texture(aoImage), texCoord: 1 } } : {}),
  });
  const trim = w.material({
    name: "Trim",
    pbrMetallicRoughness: { baseColorTexture: { index: w.texture(trimImage) }, metallicFactor: 0 },
  });
  // Which parts have the second UV map: at least one with and one without.
  const second = parts.map((_, i) => i === 0 ? true : i === 1 ? false : next() < 0.5);
  const lacking: string[] = [];
  const uvSets = new Map<string, string[]>();
  const primitiveOf = (part: Part, i: number, material: number) => {
    part.texCoord = second[i] ? 1 : 0;
    return plainPrimitive(w, part, material);
  };
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const meshName = `${part.name}.mesh`;
    // The last two parts share one mesh (two primitives), as a joined Blender object with two materials.
    if (i === parts.length - 2) {
      const other = parts[i + 1];
      const primitives = [primitiveOf(part, i, paint), primitiveOf(other, i + 1, trim)];
      const mesh = w.json.meshes.push({ name: meshName, primitives }) - 1;
      w.node({ name: part.name, mesh, translation: part.centre });
      if (!second[i]) lacking.push(`mesh '${meshName}' primitive 0`);
      uvSets.set(`${meshName}/0`, second[i] ? ["TEXCOORD_0", "TEXCOORD_1"] : ["TEXCOORD_0"]);
      uvSets.set(`${meshName}/1`, second[i + 1] ? ["TEXCOORD_0", "TEXCOORD_1"] : ["TEXCOORD_0"]);
      break;
    }
    const material = i % 3 === 2 ? trim : paint;
    const mesh = w.json.meshes.push({ name: meshName, primitives: [primitiveOf(part, i, material)] }) - 1;
    w.node({ name: part.name, mesh, translation: part.centre });
    if (material === paint && !second[i]) lacking.push(`mesh '${meshName}' primitive 0`);
    uvSets.set(`${meshName}/0`, second[i] ? ["TEXCOORD_0", "TEXCOORD_1"] : ["TEXCOORD_0"]);
  }
  const slots = ["baseColorTexture", ...(occlusion ? ["occlusionTexture"] : [])];
  return {
    name: `blender_shared_uv1_${seed}.glb`,
    bytes: w.glb("Khronos glTF Blender I/O v3.4.50"),
    lacking: new Map(lacking.length ? [["Paint", { slots, primitives: lacking }]] : []),
    uvSets,
  };
}

/** What a viewer reading only metal-rough must draw of one specular-glossiness material. */
export interface SpecGlossTruth {
  readonly material: string;
  /** The base colour factor and metallic factor the decoded fallback must have. */
  readonly baseColour: Rgba;
  readonly metallic: number;
  /** Whether decode must name it (its fallback was made). */
  readonly named: boolean;
}

/** The spec-gloss habits, by name. */
export const SPEC_GLOSS_HABITS = [
  "metallic-left-out",
  "true-metal",
  "metallic-0",
  "specular-default",
] as const;

/**
 * A specular-glossiness file (an older exporter's: Sketchfab, 3ds Max, Substance of their time) of one
 * material per part, each of a habit of {@link SPEC_GLOSS_HABITS} (every habit on each file), and the truth.
 */
export async function specGlossFallbackFile(
  seed: number,
): Promise<{ name: string; bytes: Uint8Array; truth: SpecGlossTruth[] }> {
  await loadPngEncoder();
  const next = prng(seed);
  const parts = partsOf(next);
  const w = new Writer();
  w.use("KHR_materials_pbrSpecularGlossiness");
  const truth: SpecGlossTruth[] = [];
  const round = (v: number) => Math.round(v * 255) / 255;
  parts.forEach((part, i) => {
    const habit = SPEC_GLOSS_HABITS[(i + seed) % SPEC_GLOSS_HABITS.length];
    const name = `${habit}.${i}`;
    const diffuse: Rgba = habit === "true-metal"
      ? [0, 0, 0, 1]
      : [round(0.2 + next() * 0.8), round(0.2 + next() * 0.8), round(0.2 + next() * 0.8), 1];
    const dark: Rgba = [round(next() * 0.15), round(next() * 0.15), round(next() * 0.15), 1];
    const gold: Rgba = [1, 0.766, 0.336, 1];
    const dielectric = round(0.02 + next() * 0.2);
    const specGloss: Json = {
      diffuseFactor: diffuse,
      glossinessFactor: 0.5,
      ...(habit === "true-metal"
        ? { specularFactor: gold.slice(0, 3) }
        : habit === "specular-default"
        ? {}
        : { specularFactor: [dielectric, dielectric, dielectric] }),
    };
    const fallback: Json = habit === "true-metal"
      ? { baseColorFactor: gold, roughnessFactor: 0.5 }
      : habit === "metallic-0"
      ? { baseColorFactor: diffuse, metallicFactor: 0, roughnessFactor: 0.5 }
      : { baseColorFactor: dark, roughnessFactor: 0.5 }; // metallicFactor left out: 1
    const material = w.material({
      name,
      pbrMetallicRoughness: fallback,
      extensions: { KHR_materials_pbrSpecularGlossiness: specGloss },
    });
    const b = box(part.size);
    const mesh = w.json.meshes.push({
      name: part.name,
      primitives: [{
        attributes: {
          POSITION: w.floats(b.positions, "VEC3", undefined, true),
          NORMAL: w.floats(b.normals, "VEC3"),
        },
        indices: w.indices(b.indices),
        material,
      }],
    }) - 1;
    w.node({ name: part.name, mesh, translation: part.centre });
    const made = habit === "metallic-left-out";
    truth.push({
      material: name,
      baseColour: made ? diffuse : fallback.baseColorFactor,
      metallic: made || habit === "metallic-0" ? 0 : 1,
      named: made,
    });
  });
  return { name: `specgloss_fallback_${seed}.glb`, bytes: w.glb("Sketchfab-3.36.0"), truth };
}

/** What decode made of a habit file: parts wrong (`wrong`), and of them those no warning names (`silent`). */
export interface HabitJudgement {
  readonly wrong: string[];
  readonly silent: string[];
  readonly warnings: string[];
}

async function decoded(name: string, bytes: Uint8Array): Promise<{ scene: Document; warnings: string[] }> {
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name } }, {}, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

/**
 * Judges a {@link SharedUvFile} decoded: each primitive lacking a set its material samples must be named
 * in one warning with its material, slots and UV sets (wrong and silent if not), no other material named;
 * the geometry and the material's `texCoord` kept as written.
 */
export async function judgeSharedUv(file: SharedUvFile): Promise<HabitJudgement> {
  const { scene, warnings } = await decoded(file.name, file.bytes);
  const wrong: string[] = [], silent: string[] = [];
  const notes = warnings.filter((w) => /samples TEXCOORD_\d/.test(w));
  for (const [material, { slots, primitives }] of file.lacking) {
    const note = notes.find((w) => w.includes(`material '${material}' samples TEXCOORD_1`));
    if (!note) {
      wrong.push(...primitives.map((p) => `${p}: lacks TEXCOORD_1 of '${material}'`));
      silent.push(...primitives);
      continue;
    }
    const listed = primitives.slice(0, 3), more = primitives.length - listed.length;
    for (const p of listed) if (!note.includes(`${p} (TEXCOORD_0)`)) wrong.push(`${p}: not named in ${note}`);
    if (more && !note.includes(`and ${more} more`)) wrong.push(`${more} more not counted in ${note}`);
    if (
      !note.includes(`${primitives.length > 1 ? `${primitives.length} primitives` : "a primitive"} drawing`)
    ) {
      wrong.push(`count of ${primitives.length} not in ${note}`);
    }
    for (const slot of slots) if (!note.includes(slot)) wrong.push(`${slot} not named in ${note}`);
  }
  for (const note of notes) {
    const named = /material '([^']+)'/.exec(note)?.[1];
    if (!named || !file.lacking.has(named)) wrong.push(`named wrongly: ${note}`);
  }
  for (const mesh of scene.getRoot().listMeshes()) {
    mesh.listPrimitives().forEach((primitive, p) => {
      const sets = primitive.listSemantics().filter((s) => s.startsWith("TEXCOORD_")).sort();
      const written = file.uvSets.get(`${mesh.getName()}/${p}`);
      if (JSON.stringify(sets) !== JSON.stringify(written)) {
        wrong.push(`${mesh.getName()}/${p}: UV sets ${sets} (written ${written})`);
      }
      const material = primitive.getMaterial();
      const set = material?.getBaseColorTextureInfo()?.getTexCoord();
      if (material?.getName() === "Paint" && set !== 1) wrong.push(`'Paint' samples set ${set} (written 1)`);
    });
  }
  return { wrong, silent, warnings };
}

/**
 * Judges a spec-gloss file decoded: each material's fallback base colour and metallic factor as the truth
 * says (wrong otherwise; silent when no warning names the material), and named exactly when made.
 */
export async function judgeSpecGloss(
  file: { name: string; bytes: Uint8Array; truth: SpecGlossTruth[] },
): Promise<HabitJudgement> {
  const { scene, warnings } = await decoded(file.name, file.bytes);
  const wrong: string[] = [], silent: string[] = [];
  const materials = scene.getRoot().listMaterials();
  for (const truth of file.truth) {
    const material = materials.find((m) => m.getName() === truth.material);
    const named = warnings.some((w) => w.includes(`material '${truth.material}'`));
    const close = (a: readonly number[], b: readonly number[]) =>
      a.every((v, k) => Math.abs(v - b[k]) < 1e-3);
    const problems = [
      ...(!material ? ["left out"] : []),
      ...(material && !close(material.getBaseColorFactor(), truth.baseColour)
        ? [`base colour ${material.getBaseColorFactor()} (truth ${truth.baseColour})`]
        : []),
      ...(material && Math.abs(material.getMetallicFactor() - truth.metallic) > 1e-6
        ? [`metallic ${material.getMetallicFactor()} (truth ${truth.metallic})`]
        : []),
      ...(named !== truth.named ? [named ? "named though kept" : "made without a word"] : []),
    ];
    if (!problems.length) continue;
    wrong.push(`${truth.material}: ${problems.join(", ")}`);
    if (!named) silent.push(truth.material);
  }
  return { wrong, silent, warnings };
}
