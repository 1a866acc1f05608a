/**
 * The freelancer plug-in: its nodes, its decoder for `decode.auto` and its constraint resolver.
 *
 * @module
 */
import type { Plugin } from "../../../runtime/node.ts";

/** Nodes and plug-ins for freelancer files. */
export const freelancerPlugin: Plugin = { nodes: [], decoders: [], resolvers: [] };
