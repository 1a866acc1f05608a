/**
 * The dson plug-in: its nodes, its decoder for `decode.auto` and its constraint resolver.
 *
 * @module
 */
import type { Plugin } from "../../../runtime/node.ts";

/** Nodes and plug-ins for dson files. */
export const dsonPlugin: Plugin = { nodes: [], decoders: [], resolvers: [] };
