/**
 * The dson plug-in: `decode.dson` (also picked by `decode.auto` for .duf/.dsf), `dson.bake_morph`,
 * `dson.apply_preset`, and the resolver `constraints.resolve` uses on DSON scenes (morph baking with rigidity).
 *
 * @module
 */
import type { Plugin } from "../../../runtime/node.ts";
import { dsonApplyPreset } from "./apply_preset.ts";
import { dsonBakeMorph } from "./bake_morph.ts";
import { decodeDson } from "./decode_dson.ts";
import { dsonResolver } from "./resolver.ts";
import { looksLikePlainDson } from "./codec/text.ts";

import { describeDson } from "./codec/describe.ts";

export { describeDson };

/** Nodes and plug-ins for dson files. */
export const dsonPlugin: Plugin = {
  nodes: [decodeDson, dsonBakeMorph, dsonApplyPreset],
  // Gzip DSON cannot be told from other gzip data without inflating it, so only plain-text DSON
  // is sniffed; gzip files are picked by their extension.
  decoders: [{
    format: "dson",
    node: "decode.dson",
    extensions: ["duf", "dsf"],
    sniff: looksLikePlainDson,
    describe: describeDson,
  }],
  resolvers: [dsonResolver],
};
