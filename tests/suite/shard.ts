/**
 * The non-browser suite in a few modules: each `shard_NN.ts` beside this file imports its share of the
 * test modules under `tests/` (every Nth, in path order) into one isolate. Run one module per isolate,
 * the ~450 modules each paid 0.4–0.8 CPU-s to start an isolate and evaluate the same npm packages and
 * runtime again — a third of the suite's time on two cores; imported together they share one copy.
 * `deno test tests/…` still runs any module on its own. The studio's tests keep their own run (with
 * `-A`), grouped by theme the same way (`tests/studio/themes/`), so that a theme's modules also share
 * one browser page.
 *
 * @module
 */

/** Where the test modules live, relative to this file. */
const TESTS = new URL("../", import.meta.url);
/** Folders whose modules the shards leave alone: the studio's (run apart, with `-A`) and the shards'. */
const LEFT_OUT = ["studio/", "suite/"];
/** A test module's name as `deno test` finds them in a folder (`x_test.ts`, `x.test.ts`, `test.ts`). */
const TEST_MODULE = /(^|[_.])test\.(ts|tsx|mts|js|jsx|mjs)$/;

/** Every test module under `tests/` but the left-out folders, as paths relative to `tests/`, sorted. */
export async function testModules(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(new URL(dir, TESTS))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) {
        if (!LEFT_OUT.includes(`${path}/`)) await walk(`${path}/`);
      } else if (entry.isFile && TEST_MODULE.test(entry.name)) found.push(path);
    }
  };
  await walk("");
  // Code-point order, not locale order, so every machine deals the same modules to the same shard.
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Imports the test modules of the shard `shardUrl` names (`shard_03.ts`: the fourth of as many shards
 * as there are `shard_NN.ts` files beside it). A module that fails to load becomes one failing test
 * naming it, so the shard's other modules still run.
 */
export async function importShard(shardUrl: string): Promise<void> {
  const index = Number(/shard_(\d+)\.ts$/.exec(shardUrl)?.[1]);
  const folder = new URL(".", shardUrl);
  const shards: string[] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (/^shard_\d+\.ts$/.test(entry.name)) shards.push(entry.name);
  }
  if (!Number.isInteger(index) || index >= shards.length) {
    throw new Error(`${shardUrl}: not one of the ${shards.length} shards beside it`);
  }
  const modules = (await testModules()).filter((_, i) => i % shards.length === index);
  for (const module of modules) {
    try {
      await import(new URL(module, TESTS).href);
    } catch (error) {
      Deno.test(`tests/${module} loads`, () => {
        throw error;
      });
    }
  }
}
