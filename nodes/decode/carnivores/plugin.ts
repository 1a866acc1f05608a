/**
 * The carnivores plug-in: `decode.3df` and `decode.car`, their `decode.auto` entries (sniffed by an
 * exact size check, since neither format has a magic number) and the bone resolver.
 *
 * @module
 */
import type { Plugin } from "../../../runtime/node.ts";
import { decode3df } from "./decode_3df.ts";
import { decodeCar } from "./decode_car.ts";
import { is3df } from "./codec/parse_3df.ts";
import { isCar } from "./codec/parse_car.ts";
import { carnivoresResolver } from "./resolver.ts";

/** Nodes and plug-ins for carnivores files. */
export const carnivoresPlugin: Plugin = {
  nodes: [decode3df, decodeCar],
  decoders: [
    { format: "3df", node: "decode.3df", extensions: ["3df"], sniff: is3df },
    { format: "car", node: "decode.car", extensions: ["car"], sniff: isCar },
  ],
  resolvers: [carnivoresResolver],
};
