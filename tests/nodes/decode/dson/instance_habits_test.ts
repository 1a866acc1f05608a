/**
 * Daz Studio node instances (`instance_habits.ts`): each geometry drawn at its own place and once
 * per instance reaching it (directly or through other instances), at the instance's place; an
 * instance of a target that is not in the scene draws nothing and is warned of by name. Before
 * decode.dson v44 instances were empty nodes: every copy missing, without a word.
 */
import assert from "node:assert/strict";
import { decodeAndExport, decodeJson, sweepSeeds } from "./dson_runs.ts";
import { type InstanceCase, instanceCase } from "./instance_habits.ts";
import { judge } from "./instance_judge.ts";
import { validateGltf } from "../../../support/validator.ts";
import { generateFigure } from "./generate.ts";
import { worldPositions } from "./posed_positions.ts";

const habits = (c: InstanceCase) => c.habits.join(", ") || "plain";

Deno.test("dson instances, seeds 1-40: every copy drawn at its instance's place; deleted targets warned", async () => {
  await sweepSeeds(1, 40, "dson instances, seeds 1-40", instanceCase, judge, habits);
});

Deno.test("dson instances, held-out seeds 8001-8040: the same", async () => {
  await sweepSeeds(8001, 8040, "dson instances, held-out seeds 8001-8040", instanceCase, judge, habits);
});

Deno.test("dson instances: copies share their target's mesh and the exported GLB is valid", async () => {
  const seed = [...Array(40).keys()].map((k) => k + 1).find((s) =>
    instanceCase(s).habits.includes("instance of an instance")
  )!;
  const c = instanceCase(seed);
  const { scene, glb } = await decodeAndExport(c.json, "Forest.duf");
  const meshes = scene.getRoot().listMeshes().length;
  const users = scene.getRoot().listNodes().filter((n) => n.getMesh()).length;
  assert.equal(meshes, c.centres.size, "one mesh per geometry");
  assert.equal(users, [...c.expected.values()].reduce((n, m) => n + m.length, 0));
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson instances: a loop of instances and an instance of a rigged figure draw nothing, each warned by name", async () => {
  const c = instanceCase(5);
  const nodes = (c.json.scene as { nodes: Record<string, unknown>[] }).nodes;
  const target = (id: string) => [
    { type: "studio/node/instance" },
    {
      type: "studio_node_channels",
      channels: [{ channel: { id: "Instance Target", type: "node", node: `#${id}` } }],
    },
  ];
  nodes.push({ id: "A", url: "#instance", extra: target("B") }, {
    id: "B",
    url: "#instance",
    extra: target("A"),
  });
  const { warnings } = await decodeJson(c.json, "Forest.duf");
  assert.ok(
    warnings.some((w) => /node instance '(A|B)' is part of a loop of instances/.test(w)),
    warnings.join("\n"),
  );
});

Deno.test("dson instances: an instance written over the figure's own definition copies the figure once, posed, with its own skin (v44-v49 drew nothing)", async () => {
  const json = generateFigure({ side: 3, bones: 2 });
  (json.scene as { nodes: Record<string, unknown>[] }).nodes.push({
    id: "Crowd 1",
    url: "#gen_figure",
    translation: [{ id: "x", value: 200 }],
    extra: [
      { type: "studio/node/instance" },
      {
        type: "studio_node_channels",
        channels: [{ channel: { id: "Instance Target", type: "node", node: "#gen_figure-1" } }],
      },
    ],
  });
  const { scene, warnings } = await decodeJson(json, "Crowd.duf");
  assert.deepEqual(warnings, []);
  const skinned = scene.getRoot().listNodes().filter((n) => n.getMesh());
  assert.equal(skinned.length, 2);
  const [own, copy] = skinned.map((n) => worldPositions(n));
  own.forEach((p, i) => assert.deepEqual(copy[i].map((v, a) => Number((v - p[a]).toFixed(6))), [2, 0, 0]));
});
