/**
 * Alias channels in formulas: a modifier whose channel is `"type": "alias"` reflects its
 * `target_channel` (the DSON spec's channel_alias), so a formula pushing the alias's value reads
 * the target's. The expected weights are the target's dial, worked out here.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { generateFigure, type Json, morphM, shapePreset } from "./generate.ts";
import { applyPreset, decodeJson } from "./dson_runs.ts";

/** Figure F: morph M driven by `reads`'s value; CTRL at `dial`; `aliases` [id, target URL] as alias modifiers. */
function figure(dial: number, reads: string, aliases: [string, string][]): Json {
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.modifier_library as Json[]).push(
    morphM({
      formulas: [{ output: "F:#M?value", operations: [{ op: "push", url: `F:#${reads}?value` }] }],
    }),
    {
      id: "CTRL",
      name: "CTRL",
      parent: "#F_geo",
      channel: { id: "value", type: "float", value: 0, current_value: dial },
    },
    ...aliases.map(([id, target]) => ({
      id,
      name: id,
      parent: "#F_geo",
      // As the spec's example writes one: no value of its own.
      channel: { id: "value", type: "alias", name: id, label: id, target_channel: target },
    })),
  );
  const modifiers = (json.scene as Json).modifiers as Json[];
  for (const id of ["M", "CTRL", ...aliases.map(([id]) => id)]) {
    modifiers.push({ id: `${id}-1`, url: `#${id}`, parent: "#F_geo-1" });
  }
  return json;
}

const weightOf = (scene: Document) => {
  const mesh = scene.getRoot().listMeshes()[0];
  return mesh.getWeights()[(mesh.getExtras().targetNames as string[]).indexOf("M")];
};

Deno.test("dson alias: a formula reading an alias reads its target, through a chain; a preset re-drives it", async () => {
  const direct = await decodeJson(figure(0.6, "ALIAS", [["ALIAS", "F:#CTRL?value"]]), "alias.duf");
  assert.deepEqual(direct.warnings, []);
  assert.equal(weightOf(direct.scene), 0.6);
  const chain = await decodeJson(
    figure(0.45, "OUTER", [["OUTER", "F:#ALIAS?value"], ["ALIAS", "F:#CTRL?value"]]),
    "alias.duf",
  );
  assert.deepEqual(chain.warnings, []);
  assert.equal(weightOf(chain.scene), 0.45);
  const shaped = await applyPreset(direct.scene, shapePreset([["CTRL", 0.25]]));
  assert.equal(weightOf(shaped.scene), 0.25);
  // A preset dialling the alias dials its target (decode.dson v35, apply_preset v28), not named missing.
  const viaAlias = await applyPreset(direct.scene, shapePreset([["ALIAS", 0.25]]));
  assert.equal(weightOf(viaAlias.scene), 0.25);
  assert.deepEqual(viaAlias.warnings, []);
  const viaChain = await applyPreset(chain.scene, shapePreset([["OUTER", 0.8]]));
  assert.equal(weightOf(viaChain.scene), 0.8);
  assert.deepEqual(viaChain.warnings, []);
  // Both set: the target's own value wins (the alias only reflects it).
  const both = await applyPreset(direct.scene, shapePreset([["ALIAS", 0.25], ["CTRL", 0.5]]));
  assert.equal(weightOf(both.scene), 0.5);
});

Deno.test("dson alias: a loop of aliases, or one without a target, leaves the morph as written, warned", async () => {
  for (const aliases of [[["A", "F:#B?value"], ["B", "F:#A?value"]], [["A", ""]]] as [string, string][][]) {
    const { scene, warnings } = await decodeJson(figure(0.6, "A", aliases), "alias.duf");
    assert.equal(weightOf(scene), 0);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /M/);
  }
});
