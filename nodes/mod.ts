/**
 * Every built-in node and plug-in, as the plug-ins the default registry is made of.
 *
 * @module
 */
import type { Plugin } from "../runtime/node.ts";

export type { Plugin };
import { ioRead } from "./io/read.ts";
import { ioWrite } from "./io/write.ts";
import { decodeAuto } from "./decode/auto.ts";
import { exportGltf } from "./export/gltf.ts";
import { exportJson } from "./export/json.ts";
import { constraintsResolve } from "./constraints/resolve.ts";
import { gltfPlugin } from "./decode/gltf/plugin.ts";
import { freelancerPlugin } from "./decode/freelancer/plugin.ts";
import { carnivoresPlugin } from "./decode/carnivores/plugin.ts";
import { dsonPlugin } from "./decode/dson/plugin.ts";
import { rigPlugin } from "./rig/mod.ts";
import { demoPlugin } from "./demo/mod.ts";
import { texturesPlugin } from "./textures/mod.ts";
import { scenePlugin } from "./scene/mod.ts";

/** The core nodes: file I/O, export, format sniffing and constraint resolution. */
export const corePlugin: Plugin = {
  nodes: [ioRead, ioWrite, decodeAuto, exportGltf, exportJson, constraintsResolve],
};

/** All built-in plug-ins, in registration order. */
export const BUILTIN_PLUGINS: readonly Plugin[] = [
  corePlugin,
  gltfPlugin,
  freelancerPlugin,
  carnivoresPlugin,
  dsonPlugin,
  rigPlugin,
  texturesPlugin,
  scenePlugin,
  demoPlugin,
];
