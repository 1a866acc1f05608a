/**
 * The texture of a `.3dn` (the mobile Carnivores games'), which is another file: the `texture`
 * parameter of `decode.3dn`. It names the picture itself, or the folder it sits in — the model's own
 * folder in the games' `models` directory, or a mod's texture folder — where the picture is found by
 * the name the `.3dn` header gives: its 32-byte name field is the image's name (the Carnivores Wiki's
 * first write-up of the format calls it "Image name", as a `.car`'s header name is its texture's),
 * else the model file's own name. Pictures are Targa, PNG or BMP, told by their bytes.
 *
 * When faces carry sfOpacity and the picture has no alpha (a 24-bit Targa, a BMP, an RGB PNG, or
 * alpha 255 throughout), its black texels are made transparent: the PC games colour-key texel 0x0000
 * for such a model (`GenerateAlphaFlags`; `carnivores-dson.md` A.4), and a foliage picture converted
 * from them keeps its cut-out leaves as black. A picture with alpha is used as it is — unless that alpha
 * is 0 throughout (a 16-bit Targa declaring an attribute bit no texel sets), which would hide every
 * translucent and keyed face: it is read as opaque, with a warning.
 *
 * Found as every Carnivores sidecar is (`vtl_files.ts`, `io.read`): names match without regard to
 * case, and a path written on Windows (`Models\RAPTOR.TGA.`) is read as Windows reads it, with a
 * warning. A picture that is not there leaves the model untextured, with a warning naming what was
 * looked for (as `io.read` leaves out a `.gltf`'s missing image).
 *
 * @module
 */
import { basename, extname, join } from "node:path";
import type { RunContext, WarningSink } from "../../../runtime/node.ts";
import { ByteWindow } from "../../../runtime/binary.ts";
import { decodeTga, targaTopLeft } from "../../../runtime/image/tga.ts";
import { decodeBmp } from "../../../runtime/image/bmp.ts";
import { encodePng } from "../../../runtime/scene/png.ts";
import { pngHeader, rgbaOfPng } from "../../../runtime/scene/png_pixels.ts";
import { caseMatches } from "./vtl_candidates.ts";

/** A texture read from a file beside the model: PNG bytes and the picture's size. */
export interface Picture {
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** The file it was read from. */
  readonly file: string;
}

/** Picture extensions looked for by name, in the order a tie is broken (the mobile games' first). */
const EXTENSIONS = [".tga", ".png", ".bmp"];

type Ctx = Pick<RunContext, "readFile" | "listDir">;

/**
 * What a path is on disk, read as Windows reads it when it is missing as written (`\` between folders,
 * trailing dots and spaces dropped, any case: the lookup `vtl_files.ts` makes for `.vtl` entries), with
 * a warning; case twins are a named guess.
 */
async function locate(path: string, ctx: Ctx, warn: WarningSink): Promise<string | undefined> {
  const read = path.replaceAll("\\", "/").split("/").map((s) =>
    s === "." || s === ".." ? s : s.replace(/[. ]+$/, "") || s
  ).join("/");
  const matches = await caseMatches(read, ctx);
  if (!matches.length) return undefined;
  if (matches.length > 1 && matches[0] !== read) {
    warn(
      `texture: cannot tell which of ${matches.map((m) => `'${m}'`).join(", ")} is '${path}' (they differ ` +
        `only in case); read '${matches[0]}', the first by name — name the file exactly`,
      { candidates: matches, read: matches[0] },
    );
  } else if (matches[0] !== path) {
    warn(`texture: '${path}' is not on disk as written (as a Windows user writes it); read '${matches[0]}'`);
  }
  return matches[0];
}

/** A name as Windows compares it: trailing dots and spaces dropped, any case. */
const windowsKey = (name: string) => name.replace(/[. ]+$/, "").toLowerCase();

/**
 * The header's image name as a file stem and the extension it names: the field may hold the file's
 * own name (`RAPTOR.TGA`), at times with the folder it sat in (`models\RAPTOR.TGA`).
 */
function imageStem(name: string): { stem: string; extension?: string } {
  const base = name.split(/[\\/]/).pop() ?? "";
  const extension = extname(base).toLowerCase();
  return EXTENSIONS.includes(extension)
    ? { stem: base.slice(0, -extension.length), extension }
    : { stem: base };
}

/**
 * The pictures in `folder` named `stem` (any case, a picture extension), the one of `extension` (else
 * the first of {@link EXTENSIONS}) first.
 */
async function byName(folder: string, stem: string, ctx: Ctx, extension?: string): Promise<string[]> {
  const wanted = windowsKey(stem);
  if (!wanted) return [];
  const names = (await ctx.listDir(folder)).filter((name) => {
    const ext = extname(name).toLowerCase();
    return EXTENSIONS.includes(ext) && windowsKey(basename(name, extname(name))) === wanted;
  });
  const rank = (name: string) =>
    extname(name).toLowerCase() === extension ? -1 : EXTENSIONS.indexOf(extname(name).toLowerCase());
  return names.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1)).map((name) => join(folder, name));
}

/**
 * Reads the `.3dn`'s picture: `entry` is a picture file, or a folder where the picture named
 * `imageName` (the header's name), else `modelFile`'s stem, is looked for; `colourKey` when some face
 * has sfOpacity (see the module doc). Undefined, with a warning,
 * when there is none; a file that is no picture is a `DecodeError` naming it.
 *
 * @example
 * ```ts
 * const picture = await read3dnTexture("models", model.name, "raptor.3dn", false, ctx, ctx.warn);
 * ```
 */
export async function read3dnTexture(
  entry: string,
  imageName: string,
  modelFile: string | undefined,
  colourKey: boolean,
  ctx: Ctx,
  warn: WarningSink,
): Promise<Picture | undefined> {
  const decode = async (file: string) =>
    keyBlack(await decodePicture(file, await ctx.readFile(file)), colourKey, warn);
  const path = await locate(entry, ctx, warn);
  if (!path) {
    warn(`texture: '${entry}' is not on disk; the model is untextured`, { path: entry });
    return undefined;
  }
  if (!(await Deno.stat(path)).isDirectory) return decode(path);
  const named = imageStem(imageName);
  const stems = [named.stem, modelFile ? basename(modelFile, extname(modelFile)) : ""]
    .filter((s, i, all) => windowsKey(s) && all.findIndex((t) => windowsKey(t) === windowsKey(s)) === i);
  for (const [i, stem] of stems.entries()) {
    const found = await byName(path, stem, ctx, i === 0 ? named.extension : undefined);
    if (!found.length) continue;
    if (i > 0) {
      warn(
        `texture: no picture in '${path}' is named '${imageName}' (the image name in the .3dn header); ` +
          `read '${found[0]}', named after the model file`,
        { path: found[0] },
      );
    }
    if (found.length > 1) {
      warn(
        `texture: ${found.map((f) => `'${f}'`).join(", ")} are all named '${stem}'; read '${found[0]}' ` +
          `(the extension the header names first, else ${EXTENSIONS.join(", ")} in that order)`,
        { candidates: found, read: found[0] },
      );
    }
    return decode(found[0]);
  }
  warn(
    `texture: no picture (${EXTENSIONS.join(", ")}) in '${path}' is named ${
      stems.map((s) => `'${s}'`).join(" or ") || "(the header names no image)"
    }; the model is untextured`,
    { path },
  );
  return undefined;
}

/** A decoded picture: RGBA pixels, top row first, or PNG bytes kept as they are. */
interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly file: string;
  readonly rgba?: Uint8Array;
  readonly png?: Uint8Array;
}

/**
 * A picture file's pixels: a PNG kept as it is, a BMP or Targa (told by their bytes) decoded — a
 * Targa's rows put top first as its descriptor's origin says (most tools write them bottom-up).
 */
function decodePicture(file: string, bytes: Uint8Array): Pixels {
  const png = pngHeader(bytes);
  if (png) return { png: bytes, width: png.width, height: png.height, file };
  const bmp = bytes[0] === 0x42 && bytes[1] === 0x4d;
  const window = ByteWindow.of(bytes, bmp ? "bmp" : "tga", file);
  const image = bmp ? decodeBmp(window) : decodeTga(window);
  const { width, height } = image;
  let rgba = image.data;
  if (!bmp && !targaTopLeft(window)) {
    rgba = new Uint8Array(image.data.length);
    const row = 4 * width;
    for (let y = 0; y < height; y++) {
      rgba.set(image.data.subarray(y * row, (y + 1) * row), (height - 1 - y) * row);
    }
  }
  return { rgba, width, height, file };
}

/**
 * The picture as PNG bytes, its black texels made transparent when `colourKey` and it has no alpha — no
 * alpha channel, or one that is 255 throughout (many tools save RGBA whatever the picture holds). A PNG
 * is kept as it is unless it is keyed.
 */
async function keyBlack(pixels: Pixels, colourKey: boolean, warn: WarningSink): Promise<Picture> {
  const { width, height, file } = pixels;
  let changed = false;
  const asIs = () => ({
    png: pixels.png && !changed ? pixels.png : encodePng(width, height, rgba),
    width,
    height,
    file,
  });
  if (!colourKey && pixels.png) return { png: pixels.png, width, height, file };
  const rgba = pixels.rgba ?? rgbaOfPng(pixels.png!, (await import("fast-png")).decode).data;
  // Alpha 0 throughout hides the whole model: it is no alpha, but an attribute bit a 16-bit Targa
  // declares and no texel sets (the games' X1R5G5B5 words written out as they are).
  let visible = false;
  for (let i = 3; i < rgba.length && !visible; i += 4) visible = rgba[i] !== 0;
  if (!visible) {
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
    changed = true;
    warn(
      `texture: '${file}' has alpha 0 throughout (an attribute bit its header declares and no texel sets, ` +
        "as the games' 16-bit texels written out as they are): read as opaque",
      { file },
    );
  }
  if (!colourKey) return asIs();
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return asIs();
  let black = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i] === 0 && rgba[i + 1] === 0 && rgba[i + 2] === 0) {
      rgba[i + 3] = 0;
      black++;
    }
  }
  if (!black) return asIs();
  warn(
    `texture: ${black} black texels of '${file}' made transparent: the picture has no alpha, and faces ` +
      "with sfOpacity (0x4) colour-key black, as the PC games key texel 0x0000",
    { file, texels: black },
  );
  return { png: encodePng(width, height, rgba), width, height, file };
}
