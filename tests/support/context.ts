/**
 * A {@link RunContext} for calling a node's run function directly in tests, without a graph.
 * Warnings are collected; files are read and written for real; `invoke` finds built-in nodes.
 *
 * @module
 */
import type { AnyNodeDef, JsonValue, RunContext } from "../../runtime/node.ts";
import { BUILTIN_PLUGINS } from "../../nodes/mod.ts";
import { withDefaults } from "../../runtime/params.ts";
import { sha256Hex } from "../../runtime/canonical.ts";
import { createRegistry, type Registry } from "../../runtime/registry.ts";

/** A test context plus the warnings it collected. */
export interface TestContext extends RunContext {
  readonly warnings: { message: string; detail?: Record<string, JsonValue> }[];
}

let builtins: Registry | undefined;

/** Creates a context whose `invoke` and `plugins` see every built-in node and plug-in. */
export function testContext(nodeId = "test"): TestContext {
  const plugins = builtins ??= createRegistry(BUILTIN_PLUGINS);
  const nodes = { get: (type: string) => plugins.get(type) };
  const warnings: TestContext["warnings"] = [];
  const ctx: TestContext = {
    nodeId,
    warnings,
    plugins,
    warn: (message, detail) => void warnings.push({ message, detail }),
    readFile: (path) => Deno.readFile(path),
    fileDigest: async (path) => sha256Hex(await Deno.readFile(path)),
    cheapToRecompute() {},
    writeFile: (path, bytes) => Deno.writeFile(path, bytes),
    owns: () => false, // the test keeps its inputs, to compare them afterwards
    async listDir(path) {
      try {
        return (await Array.fromAsync(Deno.readDir(path))).map((e) => e.name).sort();
      } catch {
        return [];
      }
    },
    async invoke(type, inputs, params = {}) {
      const node = nodes.get(type);
      if (!node) throw new Error(`unknown node type ${type}`);
      return await node.run({
        inputs,
        params: withDefaults(node.params, params),
        ctx: { ...ctx, nodeId: `${nodeId}/${type}` },
      });
    },
  };
  return ctx;
}

/**
 * Runs a node definition with the given inputs and parameters (defaults filled in).
 *
 * @example
 * ```ts
 * const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "a.glb" } });
 * ```
 */
export async function runNode(
  node: AnyNodeDef,
  inputs: Record<string, unknown>,
  params: Record<string, JsonValue> = {},
  ctx: TestContext = testContext(),
  // deno-lint-ignore no-explicit-any
): Promise<Record<string, any>> {
  // The registry's view of the node carries the parameters its plug-ins declare (`pluginParams`).
  const def = ctx.plugins.get(node.type) ?? node;
  return await def.run({ inputs, params: withDefaults(def.params, params), ctx });
}
