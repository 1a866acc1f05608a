/**
 * glTF 1.0 materials as 2.0 metal-rough ones. 1.0 drew a material with GLSL shaders (a technique
 * and its parameter values) or with `KHR_materials_common`'s Blinn, Phong, Lambert or constant
 * lighting; 2.0 has neither. As gltf-pipeline's `updateVersion` reads them: the diffuse colour
 * (linearised: 1.0 shaders used it as stored) or texture is the base colour, transparency its
 * alpha, emission the emissive colour or texture, and a constant material is unlit. Beyond
 * gltf-pipeline: shininess becomes roughness (the Blinn-Phong exponent's usual correspondence,
 * `(2 / (n + 2))^¼`), a technique's states give `doubleSided` (no face culling) and blending, and a
 * technique whose values name no colour partgraph recognises (a custom shader effect) is a warning
 * at its path, drawn plain. Ambient is left out (gltf-pipeline reads it as emission, which makes a
 * white-ambient model glow). Textures and samplers keep their fields 2.0 has. Render states 2.0
 * cannot draw are named at their path: front-face culling (drawn double-sided, so the back faces 1.0
 * showed are drawn), culling every face, and additive blending (drawn as ordinary transparency).
 *
 * @module
 */
import type { Json } from "./checker.ts";
import { commonFields, type Gltf1Reader, pointer } from "./gltf1_reader.ts";

const GL_BLEND = 3042;
const GL_CULL_FACE = 2884;
const GL_FRONT = 1028, GL_FRONT_AND_BACK = 1032;
const GL_ONE = 1;
const GL_RGB = 6407;
const GL_RGBA = 6408;
/** WebGL 1's `ALPHA`. */
export const GL_ALPHA = 6406;
/** WebGL 1's `LUMINANCE`. */
export const GL_LUMINANCE = 6409;
/** WebGL 1's `LUMINANCE_ALPHA`. */
export const GL_LUMINANCE_ALPHA = 6410;

/** The formats 1.0 allows a texture (WebGL 1's unsized ones). */
const FORMATS = new Set([GL_ALPHA, GL_RGB, GL_RGBA, GL_LUMINANCE, GL_LUMINANCE_ALPHA]);

/** Parameter names a technique gives its diffuse colour or texture (COLLADA2GLTF's, and Cesium's samples' uniforms). */
export const DIFFUSE = ["diffuse", "u_diffuse", "u_tex", "tex", "texture", "u_texture", "diffuseTexture"];
const EMISSION = ["emission", "u_emission"];
/** Parameter names a technique gives its Blinn-Phong exponent. */
export const SHININESS = ["shininess", "u_shininess"];
const SPECULAR = ["specular", "u_specular"];
const TRANSPARENCY = ["transparency", "u_transparency"];

/** A material slot (by 2.0 material index) whose 1.0 texture is uploaded as grey or alpha. */
export interface FormatSlot {
  readonly material: number;
  readonly slot: "baseColorTexture" | "emissiveTexture";
  /** `GL_ALPHA`, `GL_LUMINANCE` or `GL_LUMINANCE_ALPHA`. */
  readonly format: number;
  /** The 1.0 texture's id, for the warning. */
  readonly texture: string;
}

/** What the upgrade of materials made, for the rest of the upgrade. */
export interface UpgradedMaterials {
  readonly materials: Json[];
  readonly textures: Json[];
  readonly images: Json[];
  readonly samplers: Json[];
  /** Whether a material became unlit (KHR_materials_unlit must be listed as used). */
  readonly unlit: boolean;
  /** Warnings at 1.0 paths. */
  readonly notes: string[];
  /**
   * Blended materials whose diffuse texture is RGB (`format` or `internalFormat` 6407), by 2.0
   * index: 1.0 draws them without the image's alpha, which 2.0 would blend by.
   */
  readonly rgbDiffuse: number[];
  /** Base colour and emissive slots whose texture 1.0 uploads as grey or alpha (`gltf1_texture_formats.ts`). */
  readonly formatSlots: FormatSlot[];
}

/** Reads images, samplers, textures and materials. */
export function upgradeMaterials(r: Gltf1Reader): UpgradedMaterials {
  const notes: string[] = [];
  const samplers = r.items("samplers").map(([id, item]) => {
    const out = commonFields(id, item);
    for (const key of ["magFilter", "minFilter", "wrapS", "wrapT"]) {
      if (item[key] !== undefined && item[key] !== null) out[key] = item[key];
    }
    return out;
  });
  const images = r.items("images").map(([id, item], i) => {
    const path = `/images/${pointer(id)}`;
    const out = commonFields(id, item);
    const binary = r.optionalObject(
      r.optionalObject(item, "extensions", path) ?? {},
      "KHR_binary_glTF",
      path,
    );
    if (binary) {
      out.bufferView = r.ref(
        "bufferViews",
        binary.bufferView,
        `${path}/extensions/KHR_binary_glTF/bufferView`,
      );
      out.mimeType = binary.mimeType;
      for (const key of ["bufferView", "mimeType"]) {
        r.paths.moved(`/images/${i}/${key}`, `${path}/extensions/KHR_binary_glTF/${key}`);
      }
    } else if (item.uri !== undefined) out.uri = item.uri;
    return out;
  });
  const textureFormats = new Map<number, number>();
  const textureIds: string[] = [];
  const textures = r.items("textures").map(([id, item], i) => {
    const path = `/textures/${pointer(id)}`;
    const out = commonFields(id, item);
    if (item.source !== undefined && item.source !== null) {
      out.source = r.ref("images", item.source, `${path}/source`);
    }
    if (item.sampler !== undefined && item.sampler !== null) {
      out.sampler = r.ref("samplers", item.sampler, `${path}/sampler`);
    }
    textureIds.push(id);
    textureFormats.set(i, uploadFormat(item, path, notes));
    return out;
  });
  let unlit = false;
  const rgbDiffuse: number[] = [];
  const formatSlots: FormatSlot[] = [];
  /** Notes a slot whose texture is uploaded as grey or alpha. */
  const grey = (material: number, slot: FormatSlot["slot"], texture: number) => {
    const format = textureFormats.get(texture)!;
    if (format !== GL_RGB && format !== GL_RGBA) {
      formatSlots.push({ material, slot, format, texture: textureIds[texture] });
    }
  };
  const customTechniques = new Set<string>();
  const statesNoted = new Set<string>();
  const materials = r.items("materials").map(([id, item], m) => {
    const path = `/materials/${pointer(id)}`;
    const common = r.optionalObject(
      r.optionalObject(item, "extensions", path) ?? {},
      "KHR_materials_common",
      path,
    );
    const look = common
      ? commonLook(r, common, `${path}/extensions/KHR_materials_common`)
      : techniqueLook(r, item, path);
    // Once per technique, however many materials draw with it.
    if (look.states && !statesNoted.has(look.technique!)) {
      statesNoted.add(look.technique!);
      const at = `/techniques/${pointer(look.technique!)}/states/functions`;
      notes.push(...look.states.map((note) => `${at}/${note}`));
    }
    if (look.custom) {
      customTechniques.add(look.custom);
      notes.push(
        `${path}/technique: technique '${look.custom}' draws with its own GLSL and gives no diffuse colour or texture ` +
          "partgraph recognises (glTF 2.0 carries no shaders): drawn as a plain light grey, rough material",
      );
    }
    const pbr: Json = { metallicFactor: 0, roughnessFactor: look.roughness };
    const colour = [...(look.diffuse.colour ?? [1, 1, 1, 1])];
    if (look.transparency !== undefined) colour[3] *= look.transparency;
    if (look.diffuse.colour || look.transparency !== undefined) pbr.baseColorFactor = colour;
    // Where the values 2.0 keeps as the base colour and emission are in the 1.0 material.
    const diffuseKey = look.diffuse.colour ? "baseColorFactor" : "baseColorTexture";
    if (look.diffuse.at) r.paths.moved(`/materials/${m}/pbrMetallicRoughness/${diffuseKey}`, look.diffuse.at);
    const emissionKey = look.emission.colour ? "emissiveFactor" : "emissiveTexture";
    if (look.emission.at) r.paths.moved(`/materials/${m}/${emissionKey}`, look.emission.at);
    if (look.diffuse.texture !== undefined) {
      pbr.baseColorTexture = { index: look.diffuse.texture };
      // 1.0 drew an RGB texture without its alpha; 2.0 blends by the image's own (gltf1_rgb_textures.ts).
      if (textureFormats.get(look.diffuse.texture) === GL_RGB && look.blend) rgbDiffuse.push(m);
      grey(m, "baseColorTexture", look.diffuse.texture);
    }
    const out: Json = { ...commonFields(id, item), pbrMetallicRoughness: pbr };
    if (look.emission.colour) out.emissiveFactor = look.emission.colour.slice(0, 3);
    if (look.emission.texture !== undefined) {
      out.emissiveTexture = { index: look.emission.texture };
      out.emissiveFactor ??= [1, 1, 1];
      grey(m, "emissiveTexture", look.emission.texture);
    }
    if (look.blend) out.alphaMode = "BLEND";
    if (look.doubleSided) out.doubleSided = true;
    if (look.unlit) {
      out.extensions = { KHR_materials_unlit: {} };
      unlit = true;
    }
    return out;
  });
  return { materials, textures, images, samplers, unlit, notes, rgbDiffuse, formatSlots };
}

/**
 * The format WebGL 1 uploads a 1.0 texture's image in. WebGL 1 asks `format` and `internalFormat`
 * to be the same; either saying RGB means the alpha is not uploaded, else `internalFormat` (what
 * the texture stores) wins. A value 1.0 does not define is read as RGBA (the default), with a note.
 */
function uploadFormat(item: Json, path: string, notes: string[]): number {
  let format = GL_RGBA;
  for (const key of ["format", "internalFormat"]) {
    const value = item[key];
    if (value === undefined || value === null) continue;
    if (typeof value === "number" && FORMATS.has(value)) {
      if (format !== GL_RGB) format = value;
    } else {
      notes.push(
        `${path}/${key}: ${JSON.stringify(value)} is no texture format glTF 1.0 defines ` +
          "(6406, 6407, 6408, 6409 or 6410): read as RGBA (6408), the default",
      );
    }
  }
  return format;
}

/** A colour or texture value. */
interface Channel {
  readonly colour?: number[];
  readonly texture?: number;
  /** Its 1.0 path. */
  readonly at?: string;
}

/** What a 1.0 material looks like, in 2.0 terms. */
interface Look {
  readonly diffuse: Channel;
  readonly emission: Channel;
  readonly transparency?: number;
  readonly roughness: number;
  readonly blend: boolean;
  readonly doubleSided: boolean;
  readonly unlit: boolean;
  /** The id of a technique whose values could not be read as a look. */
  readonly custom?: string;
  /** The technique's id, and notes on its render states 2.0 cannot draw (paths below its `functions`). */
  readonly technique?: string;
  readonly states?: readonly string[];
}

/** `KHR_materials_common`: its lighting model, values and flags (also read from `values`, where writers put them). */
function commonLook(r: Gltf1Reader, common: Json, path: string): Look {
  const values = r.optionalObject(common, "values", path) ?? {};
  const vpath = `${path}/values`;
  const technique = typeof common.technique === "string" ? common.technique.toUpperCase() : "";
  const transparency = numberValue(r, values, ["transparency"], vpath);
  const flag = (key: string) => common[key] === true || values[key] === true;
  return {
    diffuse: channel(r, values, ["diffuse"], vpath),
    emission: channel(r, values, ["emission"], vpath),
    transparency,
    roughness: technique === "BLINN" || technique === "PHONG"
      ? roughnessOf(values, numberValue(r, values, ["shininess"], vpath))
      : 1,
    blend: flag("transparent") || (transparency !== undefined && transparency < 1),
    doubleSided: flag("doubleSided"),
    unlit: technique === "CONSTANT",
  };
}

/** A material drawn by a technique: its values over the technique's parameter defaults, and its states. */
function techniqueLook(r: Gltf1Reader, material: Json, path: string): Look {
  const values: Json = {};
  let technique: Json | undefined;
  let techniqueId: string | undefined;
  if (material.technique !== undefined && material.technique !== null) {
    r.ref("techniques", material.technique, `${path}/technique`);
    techniqueId = material.technique as string;
    technique = r.items("techniques").find(([id]) => id === techniqueId)![1];
    const tpath = `/techniques/${pointer(techniqueId)}`;
    const parameters = r.optionalObject(technique, "parameters", tpath) ?? {};
    for (const [name, parameter] of Object.entries(parameters)) {
      if (parameter && typeof parameter === "object" && (parameter as Json).value !== undefined) {
        values[name] = (parameter as Json).value;
      }
    }
  }
  Object.assign(values, r.optionalObject(material, "values", path) ?? {});
  const vpath = `${path}/values`;
  const diffuse = channel(r, values, DIFFUSE, vpath);
  const transparency = numberValue(r, values, TRANSPARENCY, vpath);
  const states = technique
    ? r.optionalObject(technique, "states", `/techniques/${pointer(techniqueId!)}`)
    : undefined;
  const enabled = Array.isArray(states?.enable) ? states.enable : [];
  const custom = technique && !diffuse.colour && diffuse.texture === undefined ? techniqueId : undefined;
  const functions = states?.functions && typeof states.functions === "object" ? states.functions as Json : {};
  const culled = enabled.includes(GL_CULL_FACE) && Array.isArray(functions.cullFace)
    ? functions.cullFace[0]
    : undefined;
  const stateNotes: string[] = [];
  if (culled === GL_FRONT) {
    stateNotes.push(
      "cullFace: 1.0 culls the front faces, drawing only the back ones; glTF 2.0 culls back faces or none: drawn double-sided",
    );
  } else if (culled === GL_FRONT_AND_BACK) {
    stateNotes.push(
      "cullFace: 1.0 culls every face, drawing nothing (a depth-only shape); glTF 2.0 draws it",
    );
  }
  // An additive blend (destination colour times ONE) adds light; glTF 2.0 blends only over.
  const blendFunc = Array.isArray(functions.blendFuncSeparate)
    ? functions.blendFuncSeparate
    : functions.blendFunc;
  if (enabled.includes(GL_BLEND) && Array.isArray(blendFunc) && blendFunc[1] === GL_ONE) {
    stateNotes.push(
      `${Array.isArray(functions.blendFuncSeparate) ? "blendFuncSeparate" : "blendFunc"}: ` +
        "1.0 blends it additively (it adds light, a glow); glTF 2.0 blends only over: drawn as ordinary transparency",
    );
  }
  return {
    diffuse: custom ? { colour: [0.8, 0.8, 0.8, 1] } : diffuse,
    emission: channel(r, values, EMISSION, vpath),
    transparency,
    roughness: roughnessOf(values, numberValue(r, values, SHININESS, vpath)),
    // A technique blends only when its states enable blending, whatever its transparency says.
    blend: enabled.includes(GL_BLEND),
    // 1.0 enables nothing a technique does not list: without CULL_FACE both sides are drawn.
    doubleSided: technique !== undefined && (!enabled.includes(GL_CULL_FACE) || culled === GL_FRONT),
    unlit: false,
    custom,
    technique: techniqueId,
    states: stateNotes.length ? stateNotes : undefined,
  };
}

/** Roughness for a Blinn-Phong exponent; 1 without one, or with a black specular colour (no highlight). */
export function roughnessOf(values: Json, shininess: number | undefined): number {
  const specular = [...SPECULAR].map((name) => values[name]).find(Array.isArray) as unknown[] | undefined;
  const black = specular !== undefined && specular.slice(0, 3).every((v) => v === 0);
  if (shininess === undefined || black || !(shininess >= 0)) return 1;
  return Math.min(1, Math.pow(2 / (shininess + 2), 0.25));
}

/** The first of `names` present: a colour (3 or 4 numbers, linearised) or a texture id. */
function channel(r: Gltf1Reader, values: Json, names: readonly string[], path: string): Channel {
  const name = names.find((n) => values[n] !== undefined && values[n] !== null);
  if (name === undefined) return {};
  const value = values[name];
  const at = `${path}/${pointer(name)}`;
  if (typeof value === "string") return { texture: r.ref("textures", value, at), at };
  // Some writers wrap a texture id in an array of one.
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === "string") {
    return { texture: r.ref("textures", value[0], `${at}/0`), at };
  }
  if (
    Array.isArray(value) && (value.length === 3 || value.length === 4) &&
    value.every((v) => typeof v === "number" && Number.isFinite(v))
  ) {
    const [red, green, blue, alpha = 1] = value as number[];
    return { colour: [...[red, green, blue].map(linear), clamp(alpha)], at };
  }
  r.fail(at, "a colour (3 or 4 numbers) or a texture id", value);
}

/** The first of `names` present as a number (or an array of one). */
function numberValue(
  r: Gltf1Reader,
  values: Json,
  names: readonly string[],
  path: string,
): number | undefined {
  const name = names.find((n) => values[n] !== undefined && values[n] !== null);
  if (name === undefined) return undefined;
  const raw = values[name];
  const value = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    r.fail(`${path}/${pointer(name)}`, "a number", raw);
  }
  return value;
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** sRGB to linear (1.0 shaders used colours as stored, that is as sRGB on screen). */
export function linear(value: number): number {
  const c = clamp(value);
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}
