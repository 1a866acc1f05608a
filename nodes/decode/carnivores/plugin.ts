/**
 * The carnivores plug-in: `decode.3df`, `decode.car`, `decode.rsc` and `decode.3dn`, their
 * `decode.auto` entries (`.3df`/`.car`/`.3dn` sniffed by an exact size check, since none has a magic
 * number; `.rsc` by extension) and the bone resolver.
 *
 * @module
 */
import type { Plugin } from "../../../runtime/node.ts";
import { decode3df } from "./decode_3df.ts";
import { decodeCar } from "./decode_car.ts";
import { decodeRsc } from "./decode_rsc.ts";
import { decode3dn } from "./decode_3dn.ts";
import { is3dn } from "./codec/parse_3dn.ts";
import { is3df } from "./codec/parse_3df.ts";
import { isCar } from "./codec/parse_car.ts";
import { carnivoresResolver } from "./resolver.ts";

/** Nodes and plug-ins for carnivores files. */
export const carnivoresPlugin: Plugin = {
  nodes: [decode3df, decodeCar, decodeRsc, decode3dn],
  decoders: [
    { format: "3df", node: "decode.3df", extensions: ["3df"], sniff: is3df },
    { format: "car", node: "decode.car", extensions: ["car"], sniff: isCar },
    { format: "3dn", node: "decode.3dn", extensions: ["3dn"], sniff: is3dn },
    // No magic and no sniff: an .rsc is told by its extension (its layout is checked when decoded).
    { format: "rsc", node: "decode.rsc", extensions: ["rsc"] },
  ],
  resolvers: [carnivoresResolver],
};
