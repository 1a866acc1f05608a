/**
 * `decode.3dn` — a mobile Carnivores `.3dn` model (Carnivores: Dinosaur Hunter; CarnivoresIO exports
 * it) to a scene: mesh, face flags and the bone table, like `decode.3df`. The texture is another file
 * in these games, so the model comes untextured, its pixel texels made UVs against `texture_height`.
 * Layout: `codec/parse_3dn.ts` (from Tibbee/CarnivoresIO `parsers/export_3dn.py`, `core/core.py`).
 *
 * @module
 */
import { lazyRun } from "../../../runtime/lazy_run.ts";
import { defineNode } from "../../../runtime/node.ts";
import { SCALE_PARAM } from "./params.ts";

/** `decode.3dn` node definition. */
export const decode3dn = defineNode({
  type: "decode.3dn",
  // 2: the header's model (image) and sprite names kept in extras (`model_name`, `sprite`); `texture` reads the
  // picture (a file, or found by that image name in a folder) and textures the model with it.
  // 3: a picture with no alpha under sfOpacity faces has its black texels made transparent (the PC games'
  // colour key of texel 0x0000), with a warning.
  // 4: a point record copied from a .3df (int16 owner + a set uint16 hide, as C3Dit reads a .3dn) keeps
  // the bone its low half names, with a warning, where the int32 read named none.
  // 5: a header image name holding the file's name (`RAPTOR.TGA`, `models\RAPTOR.TGA`) finds that file.
  // 6: a PNG saved RGBA with alpha 255 throughout counts as a picture with no alpha for the colour key.
  // 7: a picture of alpha 0 throughout (a 16-bit Targa declaring an attribute bit no texel sets) is
  // read as opaque, with a warning, where it hid the model's translucent and keyed faces.
  // 8: a palette, grey or 16-bit PNG is colour-keyed like any other picture (was used as it is, warned).
  // 9: points past 50 km from the origin (a damaged coordinate) are named in a warning, with the first's byte.
  version: 9,
  doc: "Decodes a mobile Carnivores .3dn model (Carnivores: Dinosaur Hunter, as CarnivoresIO exports it): " +
    "faces, points and bones in glTF axes like decode.3df (constraints.resolve builds the skin); the " +
    "header's image and sprite names are kept in extras. The texture is another file in these games: " +
    "`texture` names it, or the folder where it is found by the image name the header gives; without " +
    "it the model is untextured, its texel coordinates (pixels) made UVs against a texture 256 wide " +
    "and `texture_height` high.",
  inputs: { bytes: { type: "bytes", doc: "A .3dn file." } },
  outputs: {
    scene: {
      type: "scene",
      doc: "A mesh with UVs (textured when `texture` finds the picture) and the bone table in extras.",
    },
  },
  params: {
    scale: SCALE_PARAM,
    texture_height: {
      type: "number",
      integer: true,
      default: 256,
      min: 1,
      max: 4096,
      doc: "Height in pixels of the texture the model is drawn with (a .3dn does not say): V texels are " +
        "divided by it. 256 is the games' texture, and what CarnivoresIO assumes when it finds none. " +
        "A picture `texture` finds gives its own height instead.",
    },
    texture: {
      type: "path",
      access: "read",
      default: "",
      doc: "The model's texture picture (Targa, PNG or BMP, told by its bytes), relative to the working " +
        "folder like every read path; or a folder (the game's `models`, a mod's texture folder) where the " +
        "picture named as the .3dn header's image name says — else as the model file — is found, any " +
        "case and a .tga, .png or .bmp extension. A path written on Windows (`Models\\RAPTOR.TGA`) is " +
        "read as Windows reads it, with a warning. A picture with no alpha under faces with sfOpacity has its black " +
        "texels made transparent, as the PC games colour-key texel 0x0000 (a warning says so). Empty: the model " +
        "is untextured.",
    },
  },
  run: lazyRun(new URL("./decode_3dn_run.ts", import.meta.url)),
});
