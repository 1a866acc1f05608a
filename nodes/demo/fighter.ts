/**
 * `demo.fighter`: a procedural, deterministic fighter whose control panels, decoys and pre-rigged
 * parts exercise the aircraft rig (naming, mid-thickness hinges, horn balances, near-square panels,
 * mirrored and non-uniformly scaled parents). Its exact hinges come from `fighterTruth()`.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";
import { lazyRun } from "../../runtime/lazy_run.ts";

/** Default mesh density of `demo.fighter` (about 5,000 vertices). */
export const DEFAULT_FIGHTER_DETAIL = 2;

/** The procedural demo fighter as a source node. */
export const demoFighter = defineNode({
  type: "demo.fighter",
  version: 1,
  doc: "A procedural fighter (−Z forward, +Y up, metres) with ailerons, flaps, leading-edge flaps, " +
    "spoilers, canards, stabilators, twin canted rudders, split drag rudders and a dorsal air brake, plus " +
    "decoys and pre-rigged parts: the rig's test aircraft. Same bytes on every run.",
  inputs: {},
  outputs: {
    scene: { type: "scene", doc: "The fighter scene; its true hinges are given by fighterTruth()." },
  },
  params: {
    detail: {
      type: "number",
      integer: true,
      min: 1,
      max: 8,
      default: DEFAULT_FIGHTER_DETAIL,
      doc: "Mesh density: more span stations, chord divisions and fuselage rings per step.",
    },
  },
  run: lazyRun(new URL("./fighter_run.ts", import.meta.url)),
});
