/**
 * Procedural demo sources.
 *
 * @module
 */
import type { Plugin } from "../../runtime/node.ts";

/** The demo source nodes. */
export const demoPlugin: Plugin = { nodes: [] };
