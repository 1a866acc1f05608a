/**
 * A graph whose run the test holds: `slow` (a `qa.gate` node) waits until the test opens its gate,
 * and feeds the node group `grp`, in which `quick` needs nothing and `late` needs slow. The studio
 * server runs in the test's process, so the gate is a global the node awaits.
 *
 * @module
 */
import { join } from "node:path";

/** The gate the `qa.gate` node waits on (undefined or resolved: it does not wait). */
export const gate = globalThis as { qaGate?: Promise<void> };

/** Closes the gate: the next `qa.gate` to run waits until the function returned is called. */
export function hold(): () => void {
  let open = () => {};
  gate.qaGate = new Promise<void>((done) => open = done);
  return () => open();
}

/**
 * Custom nodes for the test graphs: `qa.gate` waits until the test opens its gate (never cached, so
 * every run waits; it warns "held"), `qa.echo` passes a string on (or fails, or warns, when asked).
 */
export const MODULE = `import { defineNode } from "${new URL("../../runtime/mod.ts", import.meta.url).href}";
export default { nodes: [
  defineNode({
    type: "qa.gate", version: 1, doc: "Waits for the test.", cache: false, inputs: {}, params: {},
    outputs: { value: { type: "string", doc: "g" } },
    run: async ({ ctx }) => { ctx.warn("held"); await globalThis.qaGate; return { value: "g" }; },
  }),
  defineNode({
    type: "qa.echo", version: 1, doc: "Echoes.",
    inputs: { value: { type: "string", optional: true, doc: "In." } },
    params: {
      value: { type: "string", default: "", doc: "Used when the input is absent." },
      fail: { type: "boolean", default: false, doc: "Fail instead." },
      say: { type: "string", default: "", doc: "A warning to raise, if any." },
    },
    outputs: { value: { type: "string", doc: "Out." } },
    run: ({ inputs, params, ctx }) => {
      if (params.fail) throw new Error("asked to fail");
      if (params.say) ctx.warn(params.say);
      return { value: inputs.value ?? params.value };
    },
  }),
] };
`;

/** A top graph: `slow` (held) feeds the group `grp`, in which `quick` needs nothing and `late` needs slow. */
export const GATED = {
  version: 1,
  modules: ["./qa.ts"],
  nodes: {
    slow: { type: "qa.gate" },
    grp: { type: "graph", graph: "inner.json", inputs: { x: "slow.value" } },
    tail: { type: "qa.echo", inputs: { value: "grp.late" } } as Record<string, unknown>,
  },
  outputs: { quick: "grp.quick", broken: "grp.broken", tail: "tail.value" },
};

/** The group `grp` runs. */
export const INNER = {
  version: 1,
  modules: ["./qa.ts"],
  inputs: { x: { type: "string" } },
  nodes: {
    quick: { type: "qa.echo", params: { value: "q", say: "quick has run" } },
    late: { type: "qa.echo", inputs: { value: { $input: "x" } } },
    broken: { type: "qa.echo", params: { fail: false } },
  },
  outputs: { quick: "quick.value", late: "late.value", broken: "broken.value" },
};

/** Writes the module, `gated` (default {@link GATED}) and {@link INNER} into `dir/graphs`; the top graph's path. */
export async function writeGatedGraphs(dir: string, gated: object = GATED): Promise<string> {
  await Deno.mkdir(join(dir, "graphs"));
  await Deno.writeTextFile(join(dir, "graphs", "qa.ts"), MODULE);
  await Deno.writeTextFile(join(dir, "graphs", "inner.json"), JSON.stringify(INNER));
  await Deno.writeTextFile(join(dir, "graphs", "gated.json"), JSON.stringify(gated));
  return join(dir, "graphs", "gated.json");
}
