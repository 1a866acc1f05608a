/**
 * The graph the studio runs to preview a model file that is not a GLB: read, decode (any format the
 * runtime knows), resolve its constraints (Freelancer joints, Carnivores bones), write a GLB. The
 * decoders look for what the file references where the format's own tools do, so a preview shows
 * the model's textures and figures rather than placeholders.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { GraphSource, JsonValue } from "../mod.ts";
import { graphFromObject } from "../runtime/graph.ts";

/**
 * The preview graph for the model at `abs`, an absolute path already checked by the sandbox.
 *
 * - A Freelancer model keeps every LOD as LancerEdit's `$lodN` nodes (`lods: "all"`: the preview's
 *   LOD selector shows one level at a time), and its missing meshes, materials and textures are
 *   searched for as `graphs/freelancer.json` does, from the model's folder up to the nearest `DATA`.
 * - A DSON file's `/data/…` references resolve against its Daz content directories: the folders
 *   above it that hold a `data` folder, nearest first, among those `inside` accepts (the sandbox's).
 *
 * @example
 * ```ts
 * const graph = await modelPreviewGraph("/games/DATA/SHIPS/x/x.cmp", () => true);
 * ```
 */
export async function modelPreviewGraph(abs: string, inside: (dir: string) => boolean): Promise<GraphSource> {
  const options: Record<string, JsonValue> = /\.(cmp|3db|vms)$/i.test(abs)
    ? { lods: "all", model_path: abs }
    : /\.(duf|dsf)$/i.test(abs)
    ? { content_roots: await contentRoots(abs, inside) }
    : {};
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

/** The folders above `file` that hold a folder named `data` (any case) and that `inside` accepts. */
async function contentRoots(file: string, inside: (dir: string) => boolean): Promise<string[]> {
  const roots: string[] = [];
  const holdsData = async (dir: string) => {
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (entry.name.toLowerCase() === "data" && (await Deno.stat(join(dir, entry.name))).isDirectory) {
          return true;
        }
      }
    } catch {
      // A folder we may not list holds no content directory we could read either.
    }
    return false;
  };
  for (let dir = dirname(file); inside(dir); dir = dirname(dir)) {
    if (await holdsData(dir)) roots.push(dir);
    if (dirname(dir) === dir) break;
  }
  return roots;
}
