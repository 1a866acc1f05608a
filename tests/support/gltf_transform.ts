/**
 * A GLB after glTF-Transform's own transforms (`@gltf-transform/functions`), as users optimise files
 * before they reach partgraph. The transforms run in a child Deno: the package loads `sharp`, a native
 * module needing environment and FFI access the test run does not grant.
 *
 * Run directly: `deno run --frozen -A tests/support/gltf_transform.ts <in.glb> <out.glb> <recipe>`.
 *
 * @module
 */
import { fileURLToPath as fromFileUrl } from "node:url";

/** Named transform lists, each as a user would run them. */
export const RECIPES = {
  "dedup + prune": "dedup, prune",
  "weld": "weld",
  "unweld": "unweld",
  "reorder": "reorder",
  "flatten + join keeping names": "flatten, join keeping names",
  /** What `gltf-transform optimize` does to the node tree by default. */
  "optimize's defaults": "dedup, flatten, join, weld",
} as const;

/** A recipe's name. */
export type Recipe = keyof typeof RECIPES;

/** `glb` after `recipe`, transformed in a child process. */
export async function transformedGlb(glb: Uint8Array, recipe: Recipe): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: "partgraph-gltf-transform-" });
  try {
    await Deno.writeFile(`${dir}/in.glb`, glb);
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--frozen",
        "--config",
        fromFileUrl(new URL("../../deno.json", import.meta.url)),
        "-A",
        fromFileUrl(import.meta.url),
        `${dir}/in.glb`,
        `${dir}/out.glb`,
        recipe,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) throw new Error(`glTF-Transform child failed: ${new TextDecoder().decode(stderr)}`);
    return await Deno.readFile(`${dir}/out.glb`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function main([input, output, recipe]: string[]): Promise<void> {
  const { NodeIO } = await import("@gltf-transform/core");
  const { ALL_EXTENSIONS } = await import("@gltf-transform/extensions");
  const functions = await import("@gltf-transform/functions");
  const { MeshoptEncoder } = await import("meshoptimizer");
  await MeshoptEncoder.ready;
  const steps = {
    dedup: functions.dedup(),
    prune: functions.prune(),
    weld: functions.weld(),
    unweld: functions.unweld(),
    reorder: functions.reorder({ encoder: MeshoptEncoder }),
    flatten: functions.flatten(),
    join: functions.join(),
    "join keeping names": functions.join({ keepNamed: true }),
  };
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  const doc = await io.readBinary(await Deno.readFile(input));
  const names = RECIPES[recipe as Recipe].split(", ") as (keyof typeof steps)[];
  await doc.transform(...names.map((name) => steps[name]));
  await Deno.writeFile(output, await io.writeBinary(doc));
}

if (import.meta.main) await main(Deno.args);
