// deno-lint-ignore-file no-explicit-any -- the generated schema is walked as plain JSON
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { graphSchema } from "../../runtime/schema.ts";
import { createRegistry } from "../../mod.ts";
import { readGraphFile } from "../../runtime/graph.ts";
import { validateScope } from "../../runtime/validate.ts";

const root = new URL("../../", import.meta.url);

Deno.test("the committed JSON Schema is the one generated from the node declarations", async () => {
  const committed = JSON.parse(await Deno.readTextFile(new URL("schema/graph.schema.json", root)));
  assertEquals(committed, graphSchema(createRegistry()), "run: deno task docs");
});

Deno.test("the schema lists every node type with its parameters", () => {
  const schema = graphSchema(createRegistry()) as Record<string, any>;
  const nodes = schema.properties.nodes.additionalProperties;
  const types = nodes.properties.type.anyOf[0].enum as string[];
  for (const node of createRegistry().list()) {
    assert(types.includes(node.type), node.type);
    const branch = nodes.allOf.find((b: any) => b.if.properties.type.const === node.type);
    assertEquals(
      Object.keys(branch.then.properties.params.properties).sort(),
      Object.keys(node.params).sort(),
    );
  }
});

Deno.test("every ready-made graph in graphs/ is valid", async () => {
  const registry = createRegistry();
  for await (const entry of Deno.readDir(new URL("graphs/", root))) {
    if (!entry.name.endsWith(".json")) continue;
    const { source, issue } = await readGraphFile(new URL(`graphs/${entry.name}`, root).pathname);
    assert(source, issue?.message);
    const { issues } = await validateScope(source, registry);
    assertEquals(issues, [], entry.name);
  }
});
