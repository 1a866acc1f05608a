/**
 * The graph the studio runs to preview a model file that is not a GLB: read, decode (any format the
 * runtime knows), resolve its constraints (Freelancer joints, Carnivores bones), write a GLB.
 *
 * @module
 */
import { dirname } from "node:path";
import type { GraphSource } from "../mod.ts";
import { graphFromObject } from "../runtime/graph.ts";

/**
 * The preview graph for the model at `abs`, an absolute path already checked by the sandbox. A
 * Freelancer model keeps every LOD as LancerEdit's `$lodN` nodes (`lods: "all"`): the preview's LOD
 * selector shows one level at a time.
 */
export function modelPreviewGraph(abs: string): GraphSource {
  const options: Record<string, string> = /\.(cmp|3db|vms)$/i.test(abs) ? { lods: "all" } : {};
  return graphFromObject(
    {
      version: 1,
      name: "studio-preview",
      nodes: {
        read: { type: "io.read", params: { path: abs } },
        decode: { type: "decode.auto", inputs: { bytes: "read.bytes" }, params: { options } },
        resolve: { type: "constraints.resolve", inputs: { scene: "decode.scene" } },
        export: { type: "export.gltf", inputs: { scene: "resolve.scene" } },
      },
      outputs: { glb: "export.bytes" },
    },
    dirname(abs),
    "<studio preview>",
  );
}
