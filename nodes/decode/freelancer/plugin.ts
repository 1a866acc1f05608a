/**
 * The freelancer plug-in: `decode.cmp` (registered for `decode.auto` by the UTF signature and the
 * `cmp`, `3db`, `vms` and `sph` extensions) and the `Cons` constraint resolver for `constraints.resolve`.
 *
 * @module
 */
import type { JsonValue, Plugin } from "../../../runtime/node.ts";
import { summarizeLibraries, summarizeParts } from "./codec/summary.ts";
import { decodeCmp } from "./decode_cmp.ts";
import { freelancerResolver } from "./resolver.ts";
import { isUtf } from "./codec/utf.ts";

/** Nodes and plug-ins for freelancer files. */
export const freelancerPlugin: Plugin = {
  nodes: [decodeCmp],
  decoders: [{
    format: "cmp",
    node: "decode.cmp",
    extensions: ["cmp", "3db", "vms", "sph"],
    sniff: isUtf,
    describe: (scene) => ({
      parts: summarizeParts(scene) as unknown as JsonValue,
      libraries: summarizeLibraries(scene),
    }),
  }],
  resolvers: [freelancerResolver],
};
