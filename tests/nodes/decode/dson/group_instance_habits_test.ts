/**
 * Daz Studio instances of group nodes (`group_instance_habits.ts`): each copy draws the group's
 * whole subtree — props, nested groups and instances inside it — at the instance's place.
 */
import assert from "node:assert/strict";
import { MAX_INSTANCE_NODES } from "../../../../nodes/decode/dson/codec/instances.ts";
import { decodeJson, sweepSeeds } from "./dson_runs.ts";
import type { Json } from "./generate.ts";
import { groupInstanceCase } from "./group_instance_habits.ts";
import { instanceExtra } from "./instance_habits.ts";
import { boxGeometry, channel3, type InstanceCase } from "./instance_habits.ts";
import { judge } from "./instance_judge.ts";

const habits = (c: InstanceCase) => c.habits.join(", ") || "plain";

Deno.test("dson group instances, seeds 1-40: every copy of a group's subtree drawn at its instance's place", async () => {
  await sweepSeeds(1, 40, "dson group instances, seeds 1-40", groupInstanceCase, judge, habits);
});

Deno.test("dson group instances, held-out seeds 12001-12040: the same", async () => {
  await sweepSeeds(
    12001,
    12040,
    "dson group instances, held-out seeds 12001-12040",
    groupInstanceCase,
    judge,
    habits,
  );
});

/** A scene node of the group-instance scenes: a group, a box prop or an instance of `target`. */
function sceneNode(id: string, kind: "group" | "prop" | "instance", parent?: string, target?: string): Json {
  return {
    id,
    url: kind === "prop" ? "#Box" : `#${kind}`,
    translation: channel3([10, 0, 0]),
    ...(parent ? { parent: `#${parent}` } : {}),
    ...(kind === "prop" ? { geometries: [{ id: `${id} geometry`, url: "#Box_geo" }] } : {}),
    ...(target ? { extra: instanceExtra(target, false) } : {}),
  };
}

function groupScene(nodes: Json[]): Json {
  return {
    file_version: "0.6.0.0",
    asset_info: { id: "/Scenes/Hostile.duf", type: "scene" },
    geometry_library: [boxGeometry("Box_geo", [0, 0, 0], 10)],
    node_library: [
      { id: "Box", type: "node" },
      { id: "instance", type: "node" },
      { id: "group", type: "node", extra: [{ type: "studio/node/group_node" }] },
    ],
    scene: { nodes },
  };
}

Deno.test("dson group instances: groups of two instances of the group below, 30 deep, stop at the copy bound with a warning (2^30 copies asked)", async () => {
  const nodes = [sceneNode("G0", "group"), sceneNode("Box 0", "prop", "G0")];
  for (let level = 1; level <= 30; level++) {
    nodes.push(sceneNode(`G${level}`, "group"));
    for (const k of [1, 2]) nodes.push(sceneNode(`I${level}.${k}`, "instance", `G${level}`, `G${level - 1}`));
  }
  // The bound shows in what is built (a count, never a clock: the suite runs on loaded machines).
  const { scene, warnings } = await decodeJson(groupScene(nodes), "Hostile.duf");
  assert.ok(scene.getRoot().listNodes().length <= MAX_INSTANCE_NODES + nodes.length);
  assert.ok(warnings.some((w) => /past the 50000 instance copies/.test(w)), warnings.join("\n"));
});

Deno.test("dson group instances: an instance inside a group that a copy of it reaches is a loop, warned by name; the scene decodes", async () => {
  // A copies group G, which holds B; B copies group H, which holds A.
  const nodes = [
    sceneNode("G", "group"),
    sceneNode("H", "group"),
    sceneNode("Box G", "prop", "G"),
    sceneNode("Box H", "prop", "H"),
    sceneNode("A", "instance", "H", "G"),
    sceneNode("B", "instance", "G", "H"),
  ];
  const { warnings } = await decodeJson(groupScene(nodes), "Loop.duf");
  assert.ok(
    warnings.some((w) => /node instance '(A|B)' is part of a loop of instances/.test(w)),
    warnings.join("\n"),
  );
});
