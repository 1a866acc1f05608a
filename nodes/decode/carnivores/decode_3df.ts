/**
 * `decode.3df` — a Carnivores `.3df` model (mesh, texture, bone table) to a scene. The result is a
 * usable static mesh on its own; `constraints.resolve` turns the bone table it keeps in
 * `extras.partgraph.carnivores.bones` into joints and a skin.
 *
 * @module
 */
import { lazyRun } from "../../../runtime/lazy_run.ts";
import { defineNode, type JsonValue } from "../../../runtime/node.ts";
import { INTERPOLATION_PARAM, MAX_FRAMES_PARAM, SCALE_PARAM } from "./params.ts";

/** Checks the `animations` parameter: a list of non-empty path strings. */
function checkAnimations(value: JsonValue): string | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string" && v !== "")
    ? undefined
    : "expected a list of .vtl paths or globs (strings)";
}

/** `decode.3df` node definition. */
export const decode3df = defineNode({
  type: "decode.3df",
  // 15: `animations` match names without regard to case (a Windows mod's RUN.VTL for "run.vtl"), a
  // glob reads one file per clip — backups and copies (run_old, "Copy of run", "run (2)") left out
  // with a warning — and case twins with different bytes are a named guess.
  // 16: a texture that is a picture of a width not dividing 256 (96, 160, 192, 200, 240 …) written at
  // its own width is named in a warning, like 32/64/128-wide ones.
  // 17: `animations` entries written on Windows (`Anims\RUN.VTL`, a trailing dot or space) are read
  // with `/` separators and the dots and spaces Windows drops dropped, with a warning.
  // 18: a .vtl clip timed as decode.car v15's (AniTime 0 ms → 1 frame per second; under a 24 fps frame named).
  // 19: a texture written as RGB565 (a converter's Direct3D format) is named (texture_565.ts).
  // 20: points past 50 km from the origin (a damaged coordinate) are named in a warning, with the first's byte.
  // 21: points naming bones in a file with no bone table (a .car converted to .3df) are named.
  version: 22,
  doc: "Decodes a Carnivores .3df model: faces, points, bones and texture, in glTF axes (the model " +
    "faces +Z). Faces are grouped into primitives by alpha (opaque | mask | blend) × double-sided; " +
    "the bone table is kept for constraints.resolve, which builds the skin. .vtl animations named by " +
    "`animations` become morph-target clips like decode.car's.",
  inputs: { bytes: { type: "bytes", doc: "A .3df file." } },
  outputs: { scene: { type: "scene", doc: "A static textured mesh with the bone table in extras." } },
  params: {
    scale: SCALE_PARAM,
    animations: {
      type: "json",
      default: [],
      doc: "Paths of .vtl animations of this model (Animator/C3Dit), relative to the working folder like " +
        'every read path; `*` and `?` may stand in the file name ("raptor/*.vtl"). Each file is one ' +
        "clip named after it, as C3Dit names the clips of the .car it builds. Names match without regard " +
        "to case, as on Windows, and a path written there (`anims\\run.vtl.`) is read with `/` between folders " +
        "and the trailing dots and spaces Windows drops dropped, with a warning; a glob takes one file per clip, leaving backups and copies (run_old.vtl, " +
        '"Copy of run.vtl", "run (2).vtl") out with a warning.',
      schema: { type: "array", items: { type: "string" } },
      check: checkAnimations,
    },
    interpolation: INTERPOLATION_PARAM,
    max_frames: MAX_FRAMES_PARAM,
  },
  run: lazyRun(new URL("./decode_3df_run.ts", import.meta.url)),
});
