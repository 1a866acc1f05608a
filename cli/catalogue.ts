/**
 * The CLI commands that describe the node set: `nodes` and `schema`. They need only the nodes'
 * declarations, so this module loads no run code (glTF-Transform, codecs, the cache) — start-up is
 * most of what these commands cost.
 *
 * @module
 */
import { importOnUse } from "../runtime/lazy_run.ts";
import { createRegistry } from "../runtime/registry.ts";
import { BUILTIN_PLUGINS } from "../nodes/mod.ts";
import { catalogueMarkdown, catalogueText } from "../runtime/catalogue.ts";
import { EXIT } from "./exit.ts";
import type { Opts } from "./shared.ts";

/** `nodes`: the node catalogue as text, Markdown or JSON. */
export function nodesCommand(opts: Opts): number {
  const registry = createRegistry(BUILTIN_PLUGINS);
  if (opts.json) {
    const nodes = registry.list().map((n) => ({
      type: n.type,
      version: n.version,
      doc: n.doc,
      inputs: n.inputs,
      outputs: n.outputs,
      params: Object.fromEntries(Object.entries(n.params).map(([k, p]) => [k, { ...p, check: undefined }])),
    }));
    console.log(JSON.stringify(nodes, null, 2));
  } else console.log(opts.markdown ? catalogueMarkdown(registry) : catalogueText(registry));
  return EXIT.ok;
}

/** `schema`: the graph-file JSON Schema. */
export async function schemaCommand(opts: Opts): Promise<number> {
  const { graphSchema } = await importOnUse<typeof import("../runtime/schema.ts")>(
    "../runtime/schema.ts",
    import.meta.url,
  );
  const text = JSON.stringify(graphSchema(createRegistry(BUILTIN_PLUGINS)), null, 2) + "\n";
  if (opts.out) {
    const [{ resolve }, { atomicWrite }] = await Promise.all([
      importOnUse<typeof import("node:path")>("node:path"),
      importOnUse<typeof import("../runtime/fs.ts")>("../runtime/fs.ts", import.meta.url),
    ]);
    await atomicWrite(resolve(opts.out), new TextEncoder().encode(text));
  } else console.log(text.trimEnd());
  return EXIT.ok;
}
