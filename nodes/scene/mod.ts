/**
 * Scene nodes: `scene.uninstance`, GPU instancing expanded into plain nodes for clients that cannot
 * read it.
 *
 * @module
 */
import type { Plugin } from "../../runtime/node.ts";
import { sceneUninstance } from "./uninstance.ts";

/** The scene nodes. */
export const scenePlugin: Plugin = { nodes: [sceneUninstance] };
