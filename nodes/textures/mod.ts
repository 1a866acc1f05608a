/**
 * Texture nodes: `textures.to_png`, KTX2 (Basis Universal) textures re-encoded as PNG for clients
 * that cannot read them.
 *
 * @module
 */
import type { Plugin } from "../../runtime/node.ts";
import { texturesToPng } from "./to_png.ts";

/** The texture nodes. */
export const texturesPlugin: Plugin = { nodes: [texturesToPng] };
