/**
 * Alias channels as Daz content ships them (`alias_habits.ts`): the scene's dial on an alias
 * instance moves its target, and a preset dialling an alias sets its morph, with or without
 * formulas on the mesh. Expected weights come from the generator's own reading of the targets.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { aliasCase } from "./alias_habits.ts";
import { applyPreset, decodeJson } from "./dson_runs.ts";
import { generateFigure, type Json, morphM, shapePreset } from "./generate.ts";

const weights = (doc: Document) => {
  const mesh = doc.getRoot().listMeshes()[0];
  const names = mesh.getExtras().targetNames as string[];
  return new Map(names.map((n, k) => [n, mesh.getWeights()[k]]));
};

const near = (got: Map<string, number>, want: ReadonlyMap<string, number>, what: string) => {
  for (const [morph, weight] of want) {
    assert.ok(
      Math.abs((got.get(morph) ?? NaN) - weight) < 1e-6,
      `${what}: ${morph} ${got.get(morph)} != ${weight}`,
    );
  }
};

Deno.test("dson alias habits: scene dials on alias instances and presets dialling aliases reach their targets", async () => {
  let plain = 0;
  for (let seed = 1; seed <= 24; seed++) {
    const c = aliasCase(seed);
    const run = await decodeJson(c.json, "alias.duf");
    assert.deepEqual(run.warnings, [], `seed ${seed}`);
    near(weights(run.scene), c.scene, `seed ${seed} scene`);
    const shaped = await applyPreset(run.scene, shapePreset(c.preset));
    assert.deepEqual(shaped.warnings, [], `seed ${seed} preset`);
    near(weights(shaped.scene), c.afterPreset, `seed ${seed} preset`);
    if (!c.formulas) plain++;
  }
  assert.ok(plain >= 6, `only ${plain} cases without formulas`);
});

/** F with plain morph M (one vertex up 1 cm) and alias OLD of it; the scene dials `dials` [instance id, value]. */
function plainFigure(dials: [string, number][]): Json {
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.modifier_library as Json[]).push(
    morphM(),
    {
      id: "OLD",
      name: "OLD",
      parent: "#F_geo",
      channel: { id: "value", type: "alias", name: "OLD", label: "OLD", target_channel: "F:#M?value" },
    },
  );
  const modifiers = (json.scene as Json).modifiers as Json[];
  for (const id of ["M", "OLD"]) {
    const dial = dials.find(([d]) => d === id);
    modifiers.push({
      id: `${id}-1`,
      url: `#${id}`,
      parent: "#F_geo-1",
      ...(dial ? { channel: { id: "value", current_value: dial[1] } } : {}),
    });
  }
  return json;
}

Deno.test("dson alias habits: a target's own scene dial wins over its alias's, and a disagreeing pair is warned", async () => {
  const agree = await decodeJson(plainFigure([["M", 0.4], ["OLD", 0.4]]), "alias.duf");
  assert.deepEqual(agree.warnings, []);
  assert.equal(weights(agree.scene).get("M"), 0.4);
  const differ = await decodeJson(plainFigure([["M", 0.4], ["OLD", 0.7]]), "alias.duf");
  assert.equal(weights(differ.scene).get("M"), 0.4);
  assert.equal(differ.warnings.length, 1, differ.warnings.join("\n"));
  assert.match(differ.warnings[0], /alias 'OLD' to 0\.7 and its target 'M' to 0\.4; 'M' keeps 0\.4/);
  // The morph's record names its alias, and a preset dialling it (no formula on the mesh) sets M.
  const records = (agree.scene.getRoot().listMeshes()[0].getExtras().partgraph as Json).dson as Json;
  assert.deepEqual((records.morphs as Json[]).find((m) => m.id === "M")?.aliases, ["OLD"]);
  const shaped = await applyPreset(agree.scene, shapePreset([["OLD", 0.9]]));
  assert.deepEqual(shaped.warnings, []);
  assert.equal(weights(shaped.scene).get("M"), 0.9);
  // Both named: M's own value wins, and neither is missing.
  const both = await applyPreset(agree.scene, shapePreset([["OLD", 0.9], ["M", 0.2]]));
  assert.deepEqual(both.warnings, []);
  assert.equal(weights(both.scene).get("M"), 0.2);
});
