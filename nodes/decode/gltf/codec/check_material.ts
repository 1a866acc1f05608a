/**
 * The material half of the glTF structure check: the factors of core materials and of the material
 * extensions glTF-Transform reads (clearcoat, ior, volume, sheen, …). A value of the wrong type is
 * refused at its JSON path; a number outside the range its schema gives is brought into it, as
 * shaders clamp it, and the repair said. glTF-Transform reads extension values unchecked: the
 * export's output check then refused the file at the output's path, which says nothing of why.
 *
 * @module
 */
import type { Checker, Json } from "./checker.ts";

/**
 * The range of one factor: its bounds, how many numbers it holds (one when absent), and for a bound
 * the schema excludes (`above`) that the value is left out below it — the default then applies.
 */
interface Range {
  readonly min?: number;
  readonly max?: number;
  readonly length?: number;
  /** The schema's exclusive minimum: a value at or below it is left out (the default applies). */
  readonly above?: number;
  /** A value the schema allows outside `min`/`max` (`ior` 0). */
  readonly also?: number;
}

const ANY: Range = {};
const UNIT: Range = { min: 0, max: 1 };
const POSITIVE: Range = { min: 0 };
const UNIT3: Range = { ...UNIT, length: 3 };

/** Core material factors by where they are held (the material itself or its `pbrMetallicRoughness`). */
const CORE_RANGES: Readonly<Record<string, Readonly<Record<string, Range>>>> = {
  pbrMetallicRoughness: {
    baseColorFactor: { ...UNIT, length: 4 },
    metallicFactor: UNIT,
    roughnessFactor: UNIT,
  },
  "": { emissiveFactor: UNIT3, alphaCutoff: POSITIVE },
};

/** The factors of each material extension glTF-Transform reads, with the ranges of its schema. */
const EXTENSION_RANGES: Readonly<Record<string, Readonly<Record<string, Range>>>> = {
  KHR_materials_anisotropy: { anisotropyStrength: UNIT, anisotropyRotation: ANY },
  KHR_materials_clearcoat: { clearcoatFactor: UNIT, clearcoatRoughnessFactor: UNIT },
  KHR_materials_diffuse_transmission: {
    diffuseTransmissionFactor: UNIT,
    diffuseTransmissionColorFactor: UNIT3,
  },
  KHR_materials_dispersion: { dispersion: POSITIVE },
  KHR_materials_emissive_strength: { emissiveStrength: POSITIVE },
  KHR_materials_ior: { ior: { min: 1, also: 0 } },
  KHR_materials_iridescence: {
    iridescenceFactor: UNIT,
    iridescenceIor: { min: 1 },
    iridescenceThicknessMinimum: POSITIVE,
    iridescenceThicknessMaximum: POSITIVE,
  },
  KHR_materials_pbrSpecularGlossiness: {
    diffuseFactor: { ...UNIT, length: 4 },
    specularFactor: UNIT3,
    glossinessFactor: UNIT,
  },
  KHR_materials_sheen: { sheenColorFactor: UNIT3, sheenRoughnessFactor: UNIT },
  KHR_materials_specular: { specularFactor: UNIT, specularColorFactor: { ...POSITIVE, length: 3 } },
  KHR_materials_transmission: { transmissionFactor: UNIT },
  KHR_materials_unlit: {},
  KHR_materials_volume: {
    thicknessFactor: POSITIVE,
    attenuationDistance: { above: 0 },
    attenuationColor: UNIT3,
  },
};

/** A material's factors, core and extension, and its enums and flags. */
export function checkMaterial(c: Checker, material: Json, path: string): void {
  const pbr = material.pbrMetallicRoughness === undefined
    ? {}
    : c.object(material.pbrMetallicRoughness, `${path}/pbrMetallicRoughness`);
  checkFactors(c, pbr, `${path}/pbrMetallicRoughness`, CORE_RANGES.pbrMetallicRoughness);
  brightEmission(c, material, path);
  checkFactors(c, material, path, CORE_RANGES[""]);
  c.openEnum(material, "alphaMode", path, ["OPAQUE", "MASK", "BLEND"], () => {
    delete material.alphaMode;
    return "is not a glTF alpha mode; left to the default, OPAQUE";
  });
  // 1 for true is not read as meant: three.js draws a material double-sided only for `true` (1 is
  // single-sided there), and Blender 3.4's importer refuses the file.
  if (material.doubleSided !== undefined && typeof material.doubleSided !== "boolean") {
    c.fail(`${path}/doubleSided`, "a boolean (true or false)", material.doubleSided);
  }
  const extensions = material.extensions;
  if (!extensions || typeof extensions !== "object") return;
  for (const [name, ranges] of Object.entries(EXTENSION_RANGES)) {
    const extension = (extensions as Json)[name];
    if (extension === undefined) continue;
    const at = `${path}/extensions/${name}`;
    // As with lights: three.js and Blender read a material's extensions whether listed or not.
    c.declareUsed(name, at);
    checkFactors(c, c.object(extension, at), at, ranges);
  }
}

/** A texture reference's own numbers: `scale` (normal textures), `strength` (occlusion), and its transform's. */
const TEXTURE_INFO_RANGES: Readonly<Record<string, Range>> = { scale: ANY, strength: UNIT };
const TRANSFORM_RANGES: Readonly<Record<string, Range>> = {
  offset: { length: 2 },
  rotation: ANY,
  scale: { length: 2 },
};

/**
 * A texture reference (`…Texture`, core or extension) at `path`: its numbers, and the UV set its
 * `KHR_texture_transform` may name instead of its own.
 */
export function checkTextureInfo(c: Checker, info: Json, path: string): void {
  c.int(info, "texCoord", path);
  checkFactors(c, info, path, TEXTURE_INFO_RANGES);
  const transform = (info.extensions as Json | undefined)?.KHR_texture_transform;
  if (transform === undefined) return;
  const at = `${path}/extensions/KHR_texture_transform`;
  c.declareUsed("KHR_texture_transform", at);
  checkFactors(c, c.object(transform, at), at, TRANSFORM_RANGES);
  c.int(transform as Json, "texCoord", at);
}

const EMISSIVE_STRENGTH = "KHR_materials_emissive_strength";

/**
 * An emissive factor past 1, as HDR tools and older exporters write a glow: scaled into 0..1 and its
 * emissive strength (`KHR_materials_emissive_strength`, which three.js and Blender read) by as much,
 * so the light emitted stays, as a light's colour past 1 goes into its intensity. Clamped, a glow of
 * 5 would be a fifth as bright.
 */
function brightEmission(c: Checker, material: Json, path: string): void {
  const factor = material.emissiveFactor;
  if (!Array.isArray(factor) || factor.length !== 3 || !factor.every(Number.isFinite)) return;
  const brightest = Math.max(...factor);
  if (!(brightest > 1)) return;
  const extensions = (material.extensions ??= {}) as Json;
  if (typeof extensions !== "object" || Array.isArray(extensions)) return;
  const held = extensions[EMISSIVE_STRENGTH] ??= {};
  if (!held || typeof held !== "object" || Array.isArray(held)) return;
  const extension = held as Json;
  const strength = extension.emissiveStrength ?? 1;
  if (!Number.isFinite(strength) || (strength as number) < 0) return;
  material.emissiveFactor = factor.map((v: number) => Math.max(v, 0) / brightest);
  extension.emissiveStrength = (strength as number) * brightest;
  c.declareUsed(EMISSIVE_STRENGTH, `${path}/extensions/${EMISSIVE_STRENGTH}`);
  c.repaired(
    `${path}/emissiveFactor`,
    `${JSON.stringify(factor)} past 1 scaled by 1/${brightest} into 0..1, its emissive strength by as much ` +
      `(${EMISSIVE_STRENGTH}: ${extension.emissiveStrength}), so the light emitted stays`,
  );
}

/** Each factor of `ranges` that `item` holds: numbers of the right count, brought into range. */
function checkFactors(c: Checker, item: Json, path: string, ranges: Readonly<Record<string, Range>>): void {
  for (const [key, range] of Object.entries(ranges)) {
    const value = item[key];
    if (value === undefined) continue;
    const list = range.length === undefined ? [value] : value;
    if (!Array.isArray(list) || list.length !== (range.length ?? 1) || !list.every(Number.isFinite)) {
      c.fail(`${path}/${key}`, expectation(range), value);
    }
    if (range.above !== undefined) {
      if ((value as number) > range.above) continue;
      delete item[key];
      c.repaired(`${path}/${key}`, `${value} is not above ${range.above}; left to the default`);
      continue;
    }
    const min = range.min ?? -Infinity, max = range.max ?? Infinity;
    // A factor a little past 1 (float rounding) or well past it (a game rip's "brighter"): shaders clamp it.
    if (list.every((v: number) => (v >= min && v <= max) || v === range.also)) continue;
    const clamped = list.map((v: number) => v === range.also ? v : Math.min(max, Math.max(min, v)));
    item[key] = range.length === undefined ? clamped[0] : clamped;
    c.repaired(`${path}/${key}`, `${JSON.stringify(value)} clamped to ${bounds(range)}`);
  }
}

/** What a factor must be, for a refusal: `3 numbers in 0..1`, `a number ≥ 1 (or 0)`. */
function expectation(range: Range): string {
  const count = range.length === undefined ? "a number" : `${range.length} numbers`;
  const also = range.also === undefined ? "" : ` (or ${range.also})`;
  if (range.above !== undefined) return `${count} > ${range.above}`;
  if (range.min === undefined) return count;
  return `${count} ${range.max === undefined ? "" : "in "}${bounds(range)}${also}`;
}

/** A range as the messages write it: `0..1`, `≥ 0`. */
function bounds(range: Range): string {
  return range.max === undefined ? `≥ ${range.min}` : `${range.min}..${range.max}`;
}
