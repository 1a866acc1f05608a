/**
 * The carnivores plug-in: `decode.3df`, `decode.car`, `decode.rsc` and `decode.3dn`, their
 * `decode.auto` entries (`.3df`/`.car`/`.3dn` sniffed by an exact size check, since none has a magic
 * number, and `.3df`/`.car` then by their layout, padded or edited — `codec/sniff.ts`; `.rsc` by
 * extension) and the bone resolver.
 *
 * @module
 */
import type { Plugin } from "../../../runtime/node.ts";
import { decode3df } from "./decode_3df.ts";
import { decodeCar } from "./decode_car.ts";
import { decodeRsc } from "./decode_rsc.ts";
import { decode3dn } from "./decode_3dn.ts";
import { is3dn } from "./codec/parse_3dn.ts";
import { sniff3df, sniffCar } from "./codec/sniff.ts";
import { carnivoresResolver } from "./resolver.ts";

/** Nodes and plug-ins for carnivores files. */
export const carnivoresPlugin: Plugin = {
  nodes: [decode3df, decodeCar, decodeRsc, decode3dn],
  decoders: [
    { format: "3df", node: "decode.3df", extensions: ["3df"], sniff: sniff3df },
    { format: "car", node: "decode.car", extensions: ["car"], sniff: sniffCar },
    { format: "3dn", node: "decode.3dn", extensions: ["3dn"], sniff: is3dn },
    // No magic and no sniff: an .rsc is told by its extension (its layout is checked when decoded).
    { format: "rsc", node: "decode.rsc", extensions: ["rsc"] },
  ],
  resolvers: [carnivoresResolver],
};
