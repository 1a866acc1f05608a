/**
 * The aircraft rig nodes.
 *
 * @module
 */
import type { Plugin } from "../../runtime/node.ts";

/** The rig nodes. */
export const rigPlugin: Plugin = { nodes: [] };
