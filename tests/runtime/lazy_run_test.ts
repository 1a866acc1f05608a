/** `lazyRun`: a node whose run lives in another module loads it on its first run, once, and says when it cannot. */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { createRegistry, defineNode, type GraphFile, lazyRun, runGraph } from "../../runtime/mod.ts";
import { importOnUse } from "../../runtime/lazy_run.ts";

/** A `test.triple` node whose run module is "imported" by `load`. */
function tripleNode(load: URL | (() => Promise<unknown>)) {
  return defineNode({
    type: "test.triple",
    version: 1,
    doc: "Triples a number.",
    inputs: {},
    outputs: { value: { type: "number", doc: "Three times the parameter." } },
    params: { value: { type: "number", default: 1, doc: "The number." } },
    run: lazyRun(load),
  });
}

const graph = (value: number): GraphFile => ({
  version: 1,
  nodes: {
    a: { type: "test.triple", params: { value } },
    b: { type: "test.triple", params: { value: value + 1 } },
  },
  outputs: { a: "a.value", b: "b.value" },
});

Deno.test("a lazy run module is loaded on the first run, once, and its run gives the outputs", async () => {
  let loads = 0;
  const node = tripleNode(() => {
    loads++;
    return Promise.resolve({
      run: ({ params }: { params: { value: number } }) => ({ value: 3 * params.value }),
    });
  });
  const registry = createRegistry([{ nodes: [node] }]);
  assertEquals(registry.get("test.triple")?.params.value.default, 1);
  assertEquals(loads, 0, "declaring and registering the node loads nothing");
  const first = await runGraph(graph(2), { registry, cacheDir: false });
  const second = await runGraph(graph(5), { registry, cacheDir: false });
  assertEquals([first.outputs, second.outputs], [{ a: 6, b: 9 }, { a: 15, b: 18 }]);
  assertEquals(loads, 1, "two nodes in two runs share one load");
});

Deno.test("a run module without `run` is a clear error; a failed import is tried again", async () => {
  const noRun = tripleNode(() => Promise.resolve({ other: 1 }));
  await rejects(
    async () => await noRun.run({} as never),
    (error: unknown) => error instanceof TypeError && error.message.includes("must export `run`"),
  );
  let attempts = 0;
  const flaky = tripleNode(() =>
    ++attempts === 1
      ? Promise.reject(new SyntaxError("being edited"))
      : Promise.resolve({ run: () => ({ value: 7 }) })
  );
  await rejects(async () => await flaky.run({} as never), SyntaxError);
  assertEquals(await flaky.run({} as never), { value: 7 });
  assert(attempts === 2);
});

Deno.test("a lazy run module given by URL is imported on the first run", async () => {
  const source = "export const run = ({ params }) => ({ value: 3 * params.value });";
  const node = tripleNode(new URL(`data:application/javascript,${encodeURIComponent(source)}`));
  const run = await runGraph(graph(4), { registry: createRegistry([{ nodes: [node] }]), cacheDir: false });
  assertEquals(run.outputs, { a: 12, b: 15 });
});

Deno.test("importOnUse keeps a module's import, and not one that failed: a later call imports again", async () => {
  const first = importOnUse<typeof import("node:path")>("node:path");
  assert(first === importOnUse("node:path"), "one promise per module");
  assertEquals(typeof (await first).join, "function");
  const missing = new URL("./no_such_module.ts", import.meta.url).href;
  const failed = importOnUse(missing);
  await rejects(failed, TypeError);
  const again = importOnUse(missing);
  assert(again !== failed, "a failed import is not kept");
  await rejects(again, TypeError);
});
