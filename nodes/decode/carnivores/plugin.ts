/**
 * The carnivores plug-in: `decode.3df`, `decode.car` and `decode.rsc`, their `decode.auto` entries
 * (`.3df`/`.car` sniffed by an exact size check, since neither format has a magic number; `.rsc` by
 * extension) and the bone resolver.
 *
 * @module
 */
import type { Plugin } from "../../../runtime/node.ts";
import { decode3df } from "./decode_3df.ts";
import { decodeCar } from "./decode_car.ts";
import { decodeRsc } from "./decode_rsc.ts";
import { is3df } from "./codec/parse_3df.ts";
import { isCar } from "./codec/parse_car.ts";
import { carnivoresResolver } from "./resolver.ts";

/** Nodes and plug-ins for carnivores files. */
export const carnivoresPlugin: Plugin = {
  nodes: [decode3df, decodeCar, decodeRsc],
  decoders: [
    { format: "3df", node: "decode.3df", extensions: ["3df"], sniff: is3df },
    { format: "car", node: "decode.car", extensions: ["car"], sniff: isCar },
    // No magic and no sniff: an .rsc is told by its extension (its layout is checked when decoded).
    { format: "rsc", node: "decode.rsc", extensions: ["rsc"] },
  ],
  resolvers: [carnivoresResolver],
};
