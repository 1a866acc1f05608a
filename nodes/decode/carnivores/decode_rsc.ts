/**
 * `decode.rsc` — a Carnivores area resource file (`.rsc`) to a scene: every map object (trees,
 * rocks, huts, animated objects) as a named node with its mesh, texture and animation, its TObjInfo
 * in extras, the ground textures as images on flat quads, and (C2) each object's far billboard.
 *
 * @module
 */
import { lazyRun } from "../../../runtime/lazy_run.ts";
import { defineNode } from "../../../runtime/node.ts";
import { INTERPOLATION_PARAM, MAX_FRAMES_PARAM, SCALE_PARAM } from "./params.ts";

/** `decode.rsc` node definition. */
export const decodeRsc = defineNode({
  type: "decode.rsc",
  // 2: a C2 object's far billboard is an upright, colour-keyed quad (billboard_NN) in a row behind the
  // ground textures (before, read past and left out). 10: the texture-size search is bounded by the
  // objects its walks read, not by the walks (a damaged area of 1,849 objects searched for minutes).
  // 11: an object texture that is a picture of a width not dividing 256 written at its own width is named.
  // 12: an object's animation the games cannot time (AniTime 0 ms) at 1 frame per second; one shorter
  // than a 24 fps frame named (clip_rate.ts).
  // 13: an object texture written as RGB565 is named (texture_565.ts).
  // 14: points past 50 km from the origin (a damaged coordinate) are named in a warning, with the first's byte.
  // 15: the texture-size search tries only the objects where the chain of objects breaks (and the last
  // reached), and reads no empty object or sound after its repair: areas with transparent billboards whose
  // repair the old search ran out of budget for are read (held-out seeds 501-560: 11 of 60 wrong texture
  // fields and 11 of 60 frame counts refused -> none), and a cut area is refused in less than a parse.
  version: 15,
  doc: "Decodes a Carnivores .rsc (area resources): one node per map object (obj_00, obj_01, …) built " +
    "like decode.3df, animated objects with a morph clip like decode.car's, TObjInfo in extras; objects " +
    "side by side along +X so none overlaps; ground textures as flat one-cell quads; a C2 object's far " +
    "billboard as an upright quad over its X–Y extent, texel 0 cut out, in a row behind them. The layout " +
    "(C1 or C2) is the one whose sections end exactly at the end of the file.",
  inputs: { bytes: { type: "bytes", doc: "A .rsc file." } },
  outputs: { scene: { type: "scene", doc: "The area's objects and ground textures." } },
  params: {
    scale: SCALE_PARAM,
    version: {
      type: "enum",
      values: ["auto", "c1", "c2"],
      default: "auto",
      doc: "Which game's layout: auto picks the one of C1 (Carnivores) and C2 (Carnivores 2, Ice Age) " +
        "that fits the file exactly, and refuses a file both or neither fit.",
    },
    interpolation: INTERPOLATION_PARAM,
    max_frames: MAX_FRAMES_PARAM,
  },
  run: lazyRun(new URL("./decode_rsc_run.ts", import.meta.url)),
});
