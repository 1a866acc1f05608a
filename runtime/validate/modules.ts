/**
 * The custom node modules a graph names, loaded into a child registry so one graph's modules never
 * leak into another's.
 *
 * @module
 */
import type { GraphSource } from "../graph.ts";
import { loadModule } from "../modules.ts";
import type { Registry } from "../registry.ts";
import type { Report } from "./report.ts";

/** Loads a graph's custom modules into a child registry; `failed` when one could not be loaded. */
export async function loadModules(
  raw: unknown,
  source: GraphSource,
  registry: Registry,
  issue: Report,
): Promise<{ registry: Registry; failed: boolean }> {
  if (raw === undefined) return { registry, failed: false };
  if (!Array.isArray(raw)) {
    issue("invalid_graph", "/modules", "expected a list of module paths");
    return { registry, failed: true };
  }
  const child = registry.child();
  let failed = false;
  for (const [i, path] of raw.entries()) {
    if (typeof path !== "string") {
      issue("invalid_graph", `/modules/${i}`, "expected a module path");
      failed = true;
      continue;
    }
    try {
      const loaded = await loadModule(source.dir, path);
      child.register(loaded.plugin, loaded.digest);
    } catch (error) {
      issue("unreadable_module", `/modules/${i}`, `cannot load '${path}': ${errorText(error)}`);
      failed = true;
    }
  }
  return { registry: child, failed };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
