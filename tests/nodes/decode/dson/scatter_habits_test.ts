/**
 * Daz Studio instance groups (`scatter_habits.ts`, `studio/node/group_instance` with
 * `instance_items`): each item draws the target's content at its own place under the scatter node.
 * Before decode.dson v54 the node drew nothing, silently.
 */
import assert from "node:assert/strict";
import { MAX_INSTANCE_NODES } from "../../../../nodes/decode/dson/codec/instances.ts";
import { decodeJson, sweepSeeds } from "./dson_runs.ts";
import type { Json } from "./generate.ts";
import type { InstanceCase } from "./instance_habits.ts";
import { judge } from "./instance_judge.ts";
import { scatterCase } from "./scatter_habits.ts";

const habits = (c: InstanceCase) => c.habits.join(", ");

Deno.test("dson instance groups, seeds 1-40: every item draws the target at its place", async () => {
  await sweepSeeds(1, 40, "dson instance groups, seeds 1-40", scatterCase, judge, habits);
});

Deno.test("dson instance groups, held-out seeds 14001-14040: the same", async () => {
  await sweepSeeds(
    14001,
    14040,
    "dson instance groups, held-out seeds 14001-14040",
    scatterCase,
    judge,
    habits,
  );
});

Deno.test("dson instance groups: an item's unreadable values are read as no move, turn or scale, counted in one warning naming the group", async () => {
  const c = scatterCase(1);
  const nodes = (c.json.scene as { nodes: Json[] }).nodes;
  const scatter = nodes.find((n) => n.id === "UltraScatter")!;
  const entry = (scatter.extra as Json[]).find((e) => e.type === "studio/node/group_instance")!;
  (entry.instance_items as unknown[]).push({ name: "broken", translation: ["a", 0], scale: "big" }, 7);
  const { warnings } = await decodeJson(c.json, "Forest.duf");
  assert.deepEqual(warnings, [
    "dson: instance group 'UltraScatter': 3 item value(s) unreadable, read as no move, turn or scale",
  ]);
});

Deno.test("dson instance groups: a scatter past the copy bound draws the items that fit and says how many", async () => {
  const c = scatterCase(2);
  const scatter = (c.json.scene as { nodes: Json[] }).nodes.find((n) => n.id === "UltraScatter")!;
  const entry = (scatter.extra as Json[]).find((e) => e.type === "studio/node/group_instance")!;
  const count = MAX_INSTANCE_NODES; // each item adds its own node and the target's content
  entry.instance_items = Array.from({ length: count }, (_, k) => ({ translation: [k, 0, 0] }));
  const { scene, warnings } = await decodeJson(c.json, "Forest.duf");
  assert.equal(warnings.length, 1, warnings.join("\n"));
  const [, drawn] = /(\d+) of its (\d+) items drawn/.exec(warnings[0])!.map(Number);
  assert.ok(drawn > 0 && drawn < count, warnings[0]);
  const items = scene.getRoot().listNodes().filter((n) => /^UltraScatter \d+$/.test(n.getName()));
  assert.equal(items.length, drawn);
  assert.ok(scene.getRoot().listNodes().length <= MAX_INSTANCE_NODES + 100);
});
