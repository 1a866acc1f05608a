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
  version: 1,
  doc: "Decodes a mobile Carnivores .3dn model (Carnivores: Dinosaur Hunter, as CarnivoresIO exports it): " +
    "faces, points and bones in glTF axes like decode.3df (constraints.resolve builds the skin). The " +
    "texture is another file in these games: the model is untextured, its texel coordinates (pixels) " +
    "made UVs against a texture 256 wide and `texture_height` high.",
  inputs: { bytes: { type: "bytes", doc: "A .3dn file." } },
  outputs: { scene: { type: "scene", doc: "An untextured mesh with UVs and the bone table in extras." } },
  params: {
    scale: SCALE_PARAM,
    texture_height: {
      type: "number",
      integer: true,
      default: 256,
      min: 1,
      max: 4096,
      doc: "Height in pixels of the texture the model is drawn with (a .3dn does not say): V texels are " +
        "divided by it. 256 is the games' texture, and what CarnivoresIO assumes when it finds none.",
    },
  },
  run: lazyRun(new URL("./decode_3dn_run.ts", import.meta.url)),
});
