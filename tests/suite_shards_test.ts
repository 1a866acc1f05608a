/**
 * The suite's shards (`tests/suite/shard.ts`): every test module outside the studio is dealt to exactly
 * one shard, and the README's test command runs the shards, so no module is left out of `deno task test`.
 */
import assert from "node:assert/strict";
import { importShard, testModules } from "./suite/shard.ts";

Deno.test("suite shards: every non-browser test module, this one among them, none of the studio's", async () => {
  const modules = await testModules();
  assert(modules.includes("suite_shards_test.ts"), "this module is found");
  assert(modules.includes("runtime/layers_test.ts") && modules.includes("nodes/rig/copies_names_test.ts"));
  assert(!modules.some((m) => m.startsWith("studio/") || m.startsWith("suite/")), modules.join("\n"));
  assert(!modules.some((m) => m.endsWith("shard.ts") || !/(^|[_.\/])test\.ts$/.test(m)), modules.join("\n"));
  assert.deepEqual([...modules].sort(), modules, "sorted, so every machine deals them alike");
  assert(modules.length > 300, `${modules.length} modules`);
});

Deno.test("suite shards: the test task runs every shard file, and a shard file outside the set is refused", async () => {
  const shards = [...Deno.readDirSync(new URL("suite/", import.meta.url))]
    .map((entry) => entry.name)
    .filter((name) => /^shard_\d+\.ts$/.test(name))
    .sort();
  assert(shards.length >= 2, shards.join(", "));
  // Numbered 0…N-1 with none missing: a gap would deal some modules to no shard.
  assert.deepEqual(shards.map((name) => Number(/\d+/.exec(name)![0])), shards.map((_, i) => i));
  const tasks = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url))).tasks;
  assert.match(tasks.test, /--parallel [^&]* tests\/suite\/shard_\*\.ts &&/);
  await assert.rejects(
    importShard(new URL(`suite/shard_${shards.length}.ts`, import.meta.url).href),
    /not one of the \d+ shards/,
  );
});
