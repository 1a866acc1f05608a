/**
 * Plug-in parameters: a resolver declares the parameters it reads; `constraints.resolve` takes them
 * at the top level, checked by the same code as node parameters, and passes each resolver only its own.
 */
import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { BUILTIN_PLUGINS, checkGraph, createRegistry, defineNode, runGraph } from "../../mod.ts";
import { defineResolver, type JsonValue, type Plugin } from "../../runtime/node.ts";
import type { GraphFile } from "../../runtime/graph.ts";
import { setSourceInfo } from "../../runtime/scene/source.ts";
import { tempDir } from "../support/temp.ts";

/** A custom module: a source of empty "toy" scenes and a resolver for them with one parameter. */
function toyPlugin(seen: JsonValue[], resolverVersion?: number): Plugin {
  const toyScene = defineNode({
    type: "toy.scene",
    version: 1,
    doc: "An empty scene recorded as a 'toy' file.",
    inputs: {},
    outputs: { scene: { type: "scene", doc: "The scene." } },
    params: {},
    run() {
      const scene = new Document();
      setSourceInfo(scene, { format: "toy", forward: "-Z", up: "+Y", metresPerUnit: 1 });
      return { scene };
    },
  });
  const toyResolver = defineResolver({
    formats: ["toy"],
    version: resolverVersion,
    params: { grip: { type: "number", default: 1, min: 0, doc: "How hard the toy holds (toy)." } },
    resolve({ params }) {
      const grip: number = params.grip; // typed from the spec
      seen.push({ grip });
    },
  });
  return { nodes: [toyScene], resolvers: [toyResolver] };
}

const graph = (params: Record<string, JsonValue>): GraphFile => ({
  version: 1,
  nodes: {
    toy: { type: "toy.scene" },
    resolved: { type: "constraints.resolve", params, inputs: { scene: "toy.scene" } },
  },
  outputs: { scene: "resolved.scene" },
});

Deno.test("a resolver's parameter is constraints.resolve's: checked, defaulted, and passed only to it", async () => {
  const seen: JsonValue[] = [];
  const registry = createRegistry([...BUILTIN_PLUGINS, toyPlugin(seen)]);
  assert("grip" in registry.get("constraints.resolve")!.params, "listed with the node's parameters");

  const bad = await checkGraph(graph({ grip: -2 }), { registry });
  assertEquals(bad.map((i) => [i.kind, i.path]), [["bad_param", "/nodes/resolved/params/grip"]]);
  const typo = await checkGraph(graph({ gryp: 2 }), { registry });
  assertEquals(typo.map((i) => i.kind), ["unknown_param"]);
  assert(typo[0].message.includes("did you mean 'grip'"), typo[0].message);

  const run = await runGraph(graph({ grip: 3 }), { registry, cacheDir: false });
  const unset = await runGraph(graph({}), { registry, cacheDir: false });
  assertEquals(seen, [{ grip: 3 }, { grip: 1 }], "the resolver gets its own parameters, defaults applied");
  assertEquals([...run.warnings, ...unset.warnings], [], "other resolvers' defaults are not worth a word");

  // Another resolver's parameter set on a toy scene is accepted by the graph but named as unused.
  const other = await runGraph(graph({ morph: "Smile" }), { registry, cacheDir: false });
  assertEquals(other.warnings.map((w) => w.message), [
    "'toy' scenes take no parameter 'morph' (the dson resolver's); it is ignored",
  ]);
});

Deno.test("two plug-ins may not declare one parameter name with different specs", () => {
  const clash = defineResolver({
    formats: ["clash"],
    params: { morph: { type: "number", default: 0, doc: "Not the DSON morph." } },
    resolve() {},
  });
  throws(
    () => createRegistry([...BUILTIN_PLUGINS, { resolvers: [clash] }]),
    /parameter 'morph' of 'constraints.resolve' is declared by both the dson resolver and the clash resolver/,
  );
});

Deno.test("a resolver's version is in constraints.resolve's key: a bumped resolver misses the cache", async () => {
  const cacheDir = await tempDir();
  const seen: JsonValue[] = [];
  const run = (version?: number) =>
    runGraph(graph({ grip: 2 }), {
      registry: createRegistry([...BUILTIN_PLUGINS, toyPlugin(seen, version)]),
      cacheDir,
    });
  assertEquals((await run()).nodes.resolved.state, "done");
  assertEquals((await run(1)).nodes.resolved.state, "cached", "no version is version 1");
  assertEquals((await run(2)).nodes.resolved.state, "done", "version 2 re-resolves");
  assertEquals((await run(2)).nodes.resolved.state, "cached");
  assertEquals(seen.length, 2, "the resolver ran once per version");
  throws(() => createRegistry([toyPlugin(seen, 1.5)]), /resolver 'toy' needs an integer version >= 1/);
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("a resolver from a custom module is keyed by the module's source", async () => {
  const dir = await tempDir();
  const runtime = (file: string) => new URL(`../../runtime/${file}`, import.meta.url).href;
  await Deno.writeTextFile(
    `${dir}/scene.ts`,
    `import { Document } from "@gltf-transform/core";
    import { defineNode } from "${runtime("node.ts")}";
    import { setSourceInfo } from "${runtime("scene/source.ts")}";
    export default { nodes: [defineNode({
      type: "toy.scene", version: 1, doc: "A toy scene.", inputs: {}, params: {},
      outputs: { scene: { type: "scene", doc: "The scene." } },
      run() {
        const scene = new Document();
        setSourceInfo(scene, { format: "toy", forward: "-Z", up: "+Y", metresPerUnit: 1 });
        return { scene };
      },
    })] };`,
  );
  const resolverModule = (name: string) =>
    `export default { resolvers: [{ formats: ["toy"], resolve({ scene }) {
      scene.getRoot().listScenes()[0]?.setName("${name}") ?? scene.createScene("${name}");
    } }] };`;
  const names: string[] = [];
  for (const [file, name] of [["a.ts", "one"], ["a.ts", "one"], ["b.ts", "two"]]) {
    await Deno.writeTextFile(`${dir}/${file}`, resolverModule(name));
    const g = { ...graph({}), modules: ["./scene.ts", `./${file}`] };
    await Deno.writeTextFile(`${dir}/graph.json`, JSON.stringify(g));
    const run = await runGraph(`${dir}/graph.json`, { cacheDir: `${dir}/cache` });
    names.push(
      `${run.nodes.resolved.state}:${(run.outputs.scene as Document).getRoot().listScenes()[0].getName()}`,
    );
  }
  assertEquals(names, ["done:one", "cached:one", "done:two"]);
  await Deno.remove(dir, { recursive: true });
});
