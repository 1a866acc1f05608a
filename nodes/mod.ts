/**
 * Every built-in node and plug-in, as the plug-ins the default registry is made of.
 *
 * @module
 */
import type { Plugin } from "../runtime/node.ts";

export type { Plugin };
import { ioRead } from "./io/read.ts";
import { ioWrite } from "./io/write.ts";
import { decodeGltf } from "./decode/gltf.ts";
import { decodeAuto } from "./decode/auto.ts";
import { exportGltf } from "./export/gltf.ts";
import { exportJson } from "./export/json.ts";
import { constraintsResolve } from "./constraints/resolve.ts";
import { isGlb } from "../runtime/scene/gltf_io.ts";
import { freelancerPlugin } from "./decode/freelancer/mod.ts";
import { carnivoresPlugin } from "./decode/carnivores/mod.ts";
import { dsonPlugin } from "./decode/dson/mod.ts";
import { rigPlugin } from "./rig/mod.ts";
import { demoPlugin } from "./demo/mod.ts";

/** The core nodes: file I/O, glTF in and out, format sniffing and constraint resolution. */
export const corePlugin: Plugin = {
  nodes: [ioRead, ioWrite, decodeGltf, decodeAuto, exportGltf, exportJson, constraintsResolve],
  decoders: [{ format: "gltf", node: "decode.gltf", extensions: ["glb", "gltf"], sniff: isGlb }],
};

/** All built-in plug-ins, in registration order. */
export const BUILTIN_PLUGINS: readonly Plugin[] = [
  corePlugin,
  freelancerPlugin,
  carnivoresPlugin,
  dsonPlugin,
  rigPlugin,
  demoPlugin,
];
