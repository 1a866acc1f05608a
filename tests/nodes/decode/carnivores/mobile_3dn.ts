/**
 * Mobile Carnivores model folders as players and modders keep them: a `.3dn` (as CarnivoresIO's
 * `export_3dn` writes it, `encode_3dn.ts`) in a `models` folder with its texture picture beside it —
 * named as the header's name field says (the image name), in whatever case the game's archive or a
 * Windows tool left, as Targa (bottom-up 24-bit as most tools write it, top-down 32-bit), PNG or BMP;
 * a sprite name in the header; Blender's default object name in the header, the picture named after
 * the file; a path typed on Windows; a copy as PNG beside the Targa; hi-res pictures (256×512,
 * 512×512 with texels over 512); no picture at all. Each case is judged by sampling the decoded
 * texture at every face corner's UV: it must show the texel the file names.
 *
 * @module
 */
import { decode as decodePng } from "fast-png";
import type { Document } from "@gltf-transform/core";
import { join } from "node:path";
import { encode3dn } from "../../../support/carnivores/encode_3dn.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { decode3dn } from "../../../../nodes/decode/carnivores/decode_3dn.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { type FaceSpec, faceTable, pointTable } from "./fixtures.ts";
import { faceCorners, modelNode, summaryOf } from "./probe.ts";
import { bmpFile, bmpInfo40 } from "../../../support/bmp.ts";
import { prng } from "../../../support/prng.ts";

/** The habits, one case each per seed. */
export const MOBILE_HABITS = [
  "tga_by_header_name_other_case",
  "tga_top_down_32",
  "png_texture",
  "bmp_texture",
  "blender_name_file_stem",
  "windows_typed_path",
  "tga_and_png_copy",
  "sprite_name",
  "tall_256x512",
  "hi_res_512",
  "no_picture",
  "foliage_black_key",
  "header_name_with_extension",
  "tga16_attribute_bit_unset",
] as const;

/** One habit. */
export type MobileHabit = typeof MOBILE_HABITS[number];

/** Rows at the top of a foliage picture painted black, the colour key of its cut-out leaves. */
export const BLACK_ROWS = 16;

/**
 * The colour the picture has at (x, y): every texel told apart from its neighbours, never black — but
 * for the top {@link BLACK_ROWS} rows of a `keyed` (foliage) picture, which are black.
 */
export function colourAt(x: number, y: number, keyed = false): [number, number, number] {
  if (keyed && y < BLACK_ROWS) return [0, 0, 0];
  return [x & 255, y & 255, ((x >> 8) * 2 + (y >> 8)) * 32 + 8];
}

/** A model of `faces` random triangles whose texels lie inside a `w`×`h` picture. */
function model(random: () => number, w: number, h: number, uMax = 256): Model3df {
  const n = 6 + Math.floor(random() * 10);
  const points = Array.from({ length: n * 3 }, () => [random() * 100, random() * 100, random() * 100]);
  const texel = () =>
    [Math.floor(random() * Math.min(w, uMax)), Math.floor(random() * h)] as [number, number];
  const faces: FaceSpec[] = Array.from({ length: n }, (_, f) => ({
    v: [f * 3, f * 3 + 1, f * 3 + 2],
    uv: [texel(), texel(), texel()],
  }));
  return { faces: faceTable(faces), points: pointTable(points), bones: [], texture: undefined };
}

/** A Targa of the picture: 24-bit bottom-up (descriptor 0), or 32-bit top-down (0x28). */
function tga(w: number, h: number, topDown: boolean, keyed = false): Uint8Array {
  const depth = topDown ? 4 : 3;
  const out = new Uint8Array(18 + w * h * depth);
  out[2] = 2;
  new DataView(out.buffer).setUint16(12, w, true);
  new DataView(out.buffer).setUint16(14, h, true);
  out[16] = depth * 8;
  out[17] = topDown ? 0x28 : 0;
  for (let row = 0; row < h; row++) {
    const y = topDown ? row : h - 1 - row;
    for (let x = 0; x < w; x++) {
      const [r, g, b] = colourAt(x, y, keyed);
      out.set(depth === 4 ? [b, g, r, 255] : [b, g, r], 18 + (row * w + x) * depth);
    }
  }
  return out;
}

/**
 * A 16-bit Targa (X1R5G5B5, the games' own texel format) whose descriptor declares one attribute bit
 * that no texel sets — as a converter writing the games' words out leaves it: alpha 0 throughout.
 */
function tga16(w: number, h: number, topDown: boolean): Uint8Array {
  const out = new Uint8Array(18 + w * h * 2);
  const view = new DataView(out.buffer);
  out[2] = 2;
  view.setUint16(12, w, true);
  view.setUint16(14, h, true);
  out[16] = 16;
  out[17] = (topDown ? 0x20 : 0) | 1;
  for (let row = 0; row < h; row++) {
    const y = topDown ? row : h - 1 - row;
    for (let x = 0; x < w; x++) {
      const [r, g, b] = colourAt(x, y);
      view.setUint16(18 + (row * w + x) * 2, (r >> 3) << 10 | (g >> 3) << 5 | b >> 3, true);
    }
  }
  return out;
}

/** A colour channel as a 16-bit Targa keeps it: 5 bits, read back as `c·255/31`. */
const fiveBit = (c: number) => Math.floor((c >> 3) * 255 / 31);

/** A 24-bit bottom-up BMP of the picture. */
function bmp(w: number, h: number, keyed = false): Uint8Array {
  const stride = Math.ceil(w * 3 / 4) * 4;
  const pixels = new Array<number>(stride * h).fill(0);
  for (let row = 0; row < h; row++) {
    for (let x = 0; x < w; x++) {
      const [r, g, b] = colourAt(x, h - 1 - row, keyed);
      pixels.splice(row * stride + x * 3, 3, b, g, r);
    }
  }
  return bmpFile(bmpInfo40(w, h, 24), pixels);
}

/** A PNG of the picture. */
async function png(
  w: number,
  h: number,
  keyed = false,
  channels: 3 | 4 = 3,
  depth: 8 | 16 = 8,
): Promise<Uint8Array> {
  const { encode } = await import("fast-png");
  // 16-bit samples as a tool widens 8-bit ones (v × 257), which read back exactly.
  const data = depth === 16
    ? new Uint16Array(w * h * channels).fill(65535)
    : new Uint8Array(w * h * channels).fill(255);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      data.set(colourAt(x, y, keyed).map((v) => v * (depth === 16 ? 257 : 1)), (y * w + x) * channels);
    }
  }
  return encode({ width: w, height: h, data, channels, depth });
}

/** A case: its folder on disk, the `texture` parameter, and what the output must hold. */
export interface MobileCase {
  readonly habit: MobileHabit;
  readonly model: Model3df;
  readonly bytes: Uint8Array;
  readonly file: string;
  readonly texture: string;
  /** The picture's size when there is one to find; undefined when none is. */
  readonly picture?: readonly [number, number];
  readonly sprite?: string;
  readonly name: string;
  /** Set when faces carry sfOpacity over a picture without alpha: its black texels must come out transparent. */
  readonly keyed?: boolean;
  /** Patterns one warning each must match. */
  readonly warnings: readonly RegExp[];
}

/** Writes the case's mod folder under `root` and returns it. */
export async function mobileCase(habit: MobileHabit, seed: number, root: string): Promise<MobileCase> {
  const random = prng(seed * 7919 + MOBILE_HABITS.indexOf(habit));
  const stem = ["raptor", "trex", "stego", "para", "ankylo"][Math.floor(random() * 5)];
  const [w, h] = habit === "tall_256x512" ? [256, 512] : habit === "hi_res_512" ? [512, 512] : [256, 256];
  const m = model(random, w, h, habit === "hi_res_512" ? 512 : 256);
  const models = join(root, "models");
  await Deno.mkdir(models, { recursive: true });
  const upper = random() < 0.5;
  const blender = habit === "blender_name_file_stem";
  const withExtension = habit === "header_name_with_extension";
  // The header names the image file itself (`RAPTOR.TGA`, at times with the folder it sat in), and the
  // model file is named otherwise, as a mod renames it.
  const name = blender
    ? "Cube"
    : withExtension
    ? `${random() < 0.5 ? "models\\" : ""}${upper ? `${stem}.tga`.toUpperCase() : `${stem}.tga`}`
    : upper
    ? stem.toUpperCase()
    : stem[0].toUpperCase() + stem.slice(1);
  const sprite = habit === "sprite_name" ? `${stem}_spr` : undefined;
  const warnings: RegExp[] = [];
  const write = (file: string, bytes: Uint8Array) => Deno.writeFile(join(models, file), bytes);
  const picName = (ext: string) => (upper ? `${stem}.${ext}`.toUpperCase() : `${stem}.${ext}`);
  let texture = models;
  let picture: [number, number] | undefined = [w, h];
  switch (habit) {
    case "png_texture":
      await write(picName("png"), await png(w, h));
      break;
    case "bmp_texture":
      await write(picName("bmp"), bmp(w, h));
      break;
    case "tga_top_down_32":
      await write(picName("tga"), tga(w, h, true));
      break;
    case "tga_and_png_copy":
      await write(picName("tga"), tga(w, h, false));
      await write(`${stem}.png`, await png(w, h));
      warnings.push(/are all named/);
      break;
    case "windows_typed_path":
      await write(`${stem}.tga`, tga(w, h, false));
      texture = `${root}\\Models\\${stem.toUpperCase()}.TGA`;
      warnings.push(/not on disk as written/);
      break;
    case "blender_name_file_stem":
      await write(picName("tga"), tga(w, h, false));
      warnings.push(/named after the model file/);
      break;
    case "no_picture":
      picture = undefined;
      warnings.push(/untextured/);
      break;
    case "foliage_black_key": {
      // A plant: some faces double-sided with sfOpacity (flags 5, as the PC games' foliage), its
      // leaves cut out of black in a picture with no alpha (24-bit Targa, BMP or RGB PNG) or alpha 255.
      for (let f = 0; f < m.faces.count; f++) if (random() < 0.6) m.faces.flags[f] = 5;
      m.faces.flags[0] = 5;
      for (let f = 0; f < m.faces.count; f++) {
        if (random() < 0.5) {
          for (let k = 0; k < 3; k++) m.faces.texels[f * 6 + k * 2 + 1] = Math.floor(random() * 16);
        }
      }
      // Alpha 255 throughout is no alpha: an RGBA PNG or a 32-bit Targa as tools save them; a 16-bit PNG
      // (keyed only from decode.3dn v8: before, used as it is, warned).
      const kind = Math.floor(random() * 6);
      if (kind === 0) await write(picName("tga"), tga(w, h, false, true));
      else if (kind === 1) await write(picName("bmp"), bmp(w, h, true));
      else if (kind === 2) await write(picName("png"), await png(w, h, true));
      else if (kind === 3) await write(picName("png"), await png(w, h, true, 4));
      else if (kind === 4) await write(picName("png"), await png(w, h, true, 3, 16));
      else await write(picName("tga"), tga(w, h, true, true));
      warnings.push(/black texels .* transparent/);
      break;
    }
    case "tga16_attribute_bit_unset":
      // Some faces translucent (sfTransparent), drawn with the picture's alpha: none must vanish.
      for (let f = 0; f < m.faces.count; f++) if (random() < 0.4) m.faces.flags[f] = 8;
      await write(picName("tga"), tga16(w, h, random() < 0.5));
      warnings.push(/alpha 0 throughout/);
      break;
    case "hi_res_512":
      await write(picName("tga"), tga(w, h, random() < 0.5));
      warnings.push(/512 pixels wide/);
      break;
    default:
      await write(picName("tga"), tga(w, h, false));
  }
  const file = withExtension ? `${stem}_mod${seed}.3dn` : `${stem}.3dn`;
  const bytes = encode3dn(m, { name, sprite });
  await write(file, bytes);
  const keyed = habit === "foliage_black_key";
  return { habit, model: m, bytes, file, texture, picture, sprite, name, keyed, warnings };
}

/** How a case came out. */
export type MobileOutcome = "right" | "wrong_warned" | "wrong_silent" | "refused";

/**
 * Decodes the case (with `texture` as the parameter, or none as decode.3dn v1 could) and judges it:
 * every face corner's UV must land on the texel the file names in the picture decoded, and the header's
 * names must be in the extras.
 */
export async function mobileOutcome(
  c: MobileCase,
  withTexture = true,
): Promise<{ outcome: MobileOutcome; detail: string }> {
  const ctx = testContext();
  let doc: Document;
  try {
    doc = (await runNode(decode3dn, { bytes: { bytes: c.bytes, name: c.file } }, {
      ...(withTexture ? { texture: c.texture } : {}),
    }, ctx)).scene as Document;
  } catch (error) {
    if (error instanceof DecodeError) return { outcome: "refused", detail: error.message };
    throw error;
  }
  const warned = ctx.warnings.length > 0;
  const wrong = (detail: string) => ({ outcome: warned ? "wrong_warned" : "wrong_silent", detail } as const);
  const summary = summaryOf(doc);
  if (summary.model_name !== c.name) return wrong(`model name ${summary.model_name} ≠ ${c.name}`);
  if (summary.sprite !== c.sprite) return wrong(`sprite ${summary.sprite} ≠ ${c.sprite}`);
  const images = doc.getRoot().listTextures();
  if (!c.picture) {
    if (images.length) return wrong("a texture made up");
    const missed = c.warnings.filter((p) => !ctx.warnings.some((w) => p.test(w.message)));
    return missed.length
      ? wrong(`no warning matching ${missed.join(", ")}`)
      : { outcome: "right", detail: "" };
  }
  if (images.length !== 1) return wrong(`${images.length} textures`);
  const decoded = decodePng(images[0].getImage()!);
  const [w, h] = c.picture;
  if (decoded.width !== w || decoded.height !== h) return wrong(`picture ${decoded.width}×${decoded.height}`);
  const channels = decoded.channels;
  const mesh = modelNode(doc).getMesh()!;
  for (let f = 0; f < c.model.faces.count; f++) {
    const corners = faceCorners(mesh, f);
    for (let k = 0; k < 3; k++) {
      const [u, v] = corners[k].uv!;
      const x = Math.round(u * w), y = Math.round(v * h);
      const [tx, ty] = [c.model.faces.texels[f * 6 + k * 2], c.model.faces.texels[f * 6 + k * 2 + 1]];
      const black = c.keyed && ty < BLACK_ROWS;
      // The colour key: a black texel of a keyed picture is transparent, every other texel opaque.
      const colour = colourAt(tx, ty, c.keyed).map((v) =>
        c.habit === "tga16_attribute_bit_unset" ? fiveBit(v) : v
      );
      const want = [...colour, ...(channels === 4 ? [black ? 0 : 255] : [])];
      if (c.keyed && channels !== 4) {
        return wrong("a foliage picture without alpha: its black leaves' surround drawn");
      }
      const at = (y * w + x) * channels;
      const got = Array.from(decoded.data.subarray(at, at + channels));
      if (got.some((g, i) => g !== want[i])) {
        return wrong(`face ${f} corner ${k}: sampled ${got} at (${x}, ${y}), the file names ${want}`);
      }
    }
  }
  const missed = c.warnings.filter((p) => !ctx.warnings.some((w) => p.test(w.message)));
  if (missed.length) return wrong(`no warning matching ${missed.join(", ")}`);
  return { outcome: "right", detail: "" };
}
