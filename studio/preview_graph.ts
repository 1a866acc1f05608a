/**
 * The graph the studio runs to preview a model file that is not a GLB: read, decode (any format the
 * runtime knows), resolve its constraints (Freelancer joints, Carnivores bones), write a GLB.
 *
 * @module
 */
import { dirname } from "node:path";
import type { GraphSource } from "../runtime/mod.ts";
import { graphFromObject } from "../runtime/graph.ts";

/** The preview graph for the model at `abs`, an absolute path already checked by the sandbox. */
export function modelPreviewGraph(abs: string): GraphSource {
  return graphFromObject(
    {
      version: 1,
      name: "studio-preview",
      nodes: {
        read: { type: "io.read", params: { path: abs } },
        decode: { type: "decode.auto", inputs: { bytes: "read.bytes" } },
        resolve: { type: "constraints.resolve", inputs: { scene: "decode.scene" } },
        export: { type: "export.gltf", inputs: { scene: "resolve.scene" } },
      },
      outputs: { glb: "export.bytes" },
    },
    dirname(abs),
    "<studio preview>",
  );
}
