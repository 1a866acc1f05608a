/**
 * The carnivores plug-in: its nodes, its decoder for `decode.auto` and its constraint resolver.
 *
 * @module
 */
import type { Plugin } from "../../../runtime/node.ts";

/** Nodes and plug-ins for carnivores files. */
export const carnivoresPlugin: Plugin = { nodes: [], decoders: [], resolvers: [] };
