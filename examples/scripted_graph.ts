import { createRegistry, defineNode, runGraph } from "../mod.ts";

const countMeshes = defineNode({
  type: "stats.mesh_count",
  version: 1,
  doc: "Counts the meshes of a scene.",
  inputs: { scene: { type: "scene", doc: "Any scene." } },
  outputs: { count: { type: "number", doc: "How many meshes it has." } },
  params: {},
  run: ({ inputs }) => ({ count: inputs.scene.getRoot().listMeshes().length }),
});
const registry = createRegistry().register({ nodes: [countMeshes] });
const run = await runGraph({
  version: 1,
  nodes: {
    fighter: { type: "demo.fighter" },
    count: { type: "stats.mesh_count", inputs: { scene: "fighter.scene" } },
  },
  outputs: { meshes: "count.count" },
}, { registry, cacheDir: false });
console.log(`the demo fighter has ${run.outputs.meshes} meshes`);
