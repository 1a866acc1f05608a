/**
 * A morph dial past its clamped range (`clamped: true`, `min`/`max`) that no formula drives is kept
 * in range, as Daz shows it, by the decode and by a preset, each clamp a named warning. The figure
 * is code-made; the expected weights are the written dials clamped to the written ranges.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { generateFigure, type Json, shapePreset } from "./generate.ts";
import { applyPreset, decodeJson } from "./dson_runs.ts";

/** A morph of the generated figure moving vertex `vertex`, its channel's range as given. */
function morph(id: string, vertex: number, channel: Json, formulas?: Json[]): Json {
  return {
    id,
    name: id,
    parent: "#gen_figure_geo",
    channel: { id: "value", type: "float", value: 0, ...channel },
    ...(formulas ? { formulas } : {}),
    morph: { vertex_count: 16, deltas: { count: 1, values: [[vertex, 0, 1, 0]] } },
  };
}

/**
 * The figure with Heavy (0..1 clamped), Loose (0..1, not clamped), Driven (0..1 clamped, half of
 * Ctrl) and Ctrl, dialled to `dials` in the scene.
 */
function figure(dials: Record<string, number>): Json {
  const json = generateFigure({ side: 4, bones: 2 });
  (json.modifier_library as Json[]).push(
    morph("Heavy", 5, { min: 0, max: 1, clamped: true }),
    morph("Loose", 6, { min: 0, max: 1, clamped: false }),
    morph("Driven", 7, { min: 0, max: 1, clamped: true }, [{
      output: "#Driven?value",
      operations: [{ op: "push", url: "#Ctrl?value" }, { op: "push", val: 0.5 }, { op: "mult" }],
    }]),
    {
      id: "Ctrl",
      name: "Ctrl",
      parent: "#gen_figure_geo",
      channel: { id: "value", type: "float", value: 0 },
    },
  );
  const scene = json.scene as { modifiers: Json[] };
  for (const [id, value] of Object.entries(dials)) {
    scene.modifiers.push({
      id: `${id}-1`,
      url: `#${id}`,
      parent: "#gen_figure_geo-1",
      channel: { id: "value", current_value: value },
    });
  }
  return json;
}

function weightOf(scene: Document, id: string): number {
  const mesh = scene.getRoot().listMeshes()[0];
  const names = (mesh.getExtras() as { targetNames: string[] }).targetNames;
  assert.ok(names.includes(id), `a morph ${id}`);
  return mesh.getWeights()[names.indexOf(id)];
}

Deno.test("dson morph clamp: a scene's dial past a clamped morph's range is clamped, and warned", async () => {
  const { scene, warnings } = await decodeJson(figure({ Heavy: 1.5, Loose: 1.5, Ctrl: 1 }), "clamp.duf");
  assert.equal(weightOf(scene, "Heavy"), 1, "clamped: true, max 1");
  assert.equal(weightOf(scene, "Loose"), 1.5, "clamped: false keeps its dial");
  assert.equal(weightOf(scene, "Driven"), 0.5, "driven: half the controller");
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /clamp\.duf at \/modifier_library\/\d+\/channel: 1 morph dial\(s\) past their range/,
  );
  assert.match(warnings[0], /'Heavy' value 1\.5 → 1 \(limits 0\.\.1\)$/);
  // Below its minimum too, and a dial in range says nothing.
  const low = await decodeJson(figure({ Heavy: -0.25 }), "clamp.duf");
  assert.equal(weightOf(low.scene, "Heavy"), 0);
  assert.match(low.warnings.join("\n"), /'Heavy' value -0\.25 → 0 \(limits 0\.\.1\)/);
  const fine = await decodeJson(figure({ Heavy: 0.75 }), "clamp.duf");
  assert.equal(weightOf(fine.scene, "Heavy"), 0.75);
  assert.deepEqual(fine.warnings, []);
});

Deno.test("dson morph clamp: a preset's value past a clamped morph's range is clamped, and warned", async () => {
  const { scene } = await decodeJson(figure({}), "clamp.duf");
  const { scene: shaped, warnings } = await applyPreset(scene, shapePreset([["Heavy", 2], ["Loose", 2]]));
  assert.equal(weightOf(shaped, "Heavy"), 1);
  assert.equal(weightOf(shaped, "Loose"), 2);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /1 morph value\(s\) past their range \(clamped: true\) clamped to it.*\/Heavy value 2 → 1/,
  );
  // A driven morph dialled past its range: the formulas clamp the whole (own 2 + 0 → 1), no clamp warning.
  const { scene: driven, warnings: said } = await applyPreset(scene, shapePreset([["Driven", 2]]));
  assert.equal(weightOf(driven, "Driven"), 1);
  assert.deepEqual(said, []);
});
