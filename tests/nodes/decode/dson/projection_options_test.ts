/**
 * Daz's fitting options on generated dressed scenes (`projection_options.ts`): a body morph's
 * auto-follow switched off or on in the scene, an item's own follower switched off, and the mesh
 * smoothing modifier Daz puts on clothing. Each item vertex is checked against the swell's formula
 * and the item's own delta worked out in the generator; a smoothing modifier must be named.
 */
import assert from "node:assert/strict";
import { shapePreset } from "./generate.ts";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";
import { optionsCase } from "./projection_options.ts";
import { facetTolerance, MORPH, worstError } from "./swell_body.ts";

/** Decodes seeds `seeds`; counts wrong items, wrong ones no warning names, and unnamed smoothing. */
async function measure(seeds: readonly number[]) {
  let wrong = 0, silentWrong = 0, unnamed = 0;
  const details: string[] = [];
  for (const seed of seeds) {
    const c = optionsCase(seed);
    const run = await withContentFiles(c.files, (root) => decodeJson(c.scene, `options_${seed}.duf`, [root]));
    const error = worstError(run.scene, "Shirt", c.expected, 1);
    const tolerance = facetTolerance(c.offset, 1, c.weight);
    const named = run.warnings.some((w) => /smoothing/i.test(w));
    if (error > tolerance) {
      wrong++;
      if (run.warnings.length === 0) silentWrong++;
      details.push(`seed ${seed} ${c.kind}: ${error.toFixed(4)} cm (tolerance ${tolerance.toFixed(4)})`);
    }
    if (c.mustWarn && !named) unnamed++, details.push(`seed ${seed} ${c.kind}: smoothing not named`);
    if (!c.mustWarn) assert.ok(!named, `seed ${seed}: ${run.warnings.join("\n")}`);
  }
  return { wrong, silentWrong, unnamed, details };
}

Deno.test("dson projection options: auto-follow switched in the scene and smoothing named (24 seeds, 24 held out)", async () => {
  for (const [label, seeds] of [["dev", 1], ["held-out", 1001]] as const) {
    const result = await measure(Array.from({ length: 24 }, (_, k) => seeds + k));
    console.log(`${label}: ${JSON.stringify({ ...result, details: result.details.slice(0, 6) })}`);
    assert.equal(result.wrong, 0, result.details.join("\n"));
    assert.equal(result.unnamed, 0, result.details.join("\n"));
  }
});

Deno.test("dson projection options: a body morph switched off in the scene stays off the shirt when a preset dials it", async () => {
  const c = optionsCase(7); // body_off
  assert.equal(c.kind, "body_off");
  const modifiers = (c.scene.scene as { modifiers: { channel: Record<string, unknown> }[] }).modifiers;
  modifiers[0].channel.current_value = 0;
  const { decoded, shaped } = await withContentFiles(c.files, async (root) => {
    const decoded = await decodeJson(c.scene, "off.duf", [root]);
    return { decoded, shaped: await applyPreset(decoded.scene, shapePreset([[MORPH, 0.7]])) };
  });
  assert.deepEqual(decoded.warnings, []);
  assert.ok(worstError(shaped.scene, "Shirt", c.expected, 1) < 1e-4, shaped.warnings.join("\n"));
  assert.ok(!shaped.warnings.some((w) => /projected/.test(w)), shaped.warnings.join("\n"));
});

Deno.test("dson projection options: the smoothing warning word for word, and none when smoothing is off", async () => {
  for (const seed of [4, 20]) await smoothingSaid(seed);
});

/** Seed `seed`'s smoothing is named once, and not at all with "Enable Smoothing" off. */
async function smoothingSaid(seed: number) {
  const c = optionsCase(seed);
  assert.equal(c.kind, "smoothing");
  const run = await withContentFiles(c.files, (root) => decodeJson(c.scene, "smooth.duf", [root]));
  const said = run.warnings.filter((w) => /smoothing/.test(w));
  assert.equal(said.length, 1, run.warnings.join("\n"));
  assert.match(
    said[0],
    /^dson: (\S*Shirt\.dsf at \/modifier_library\/0|smooth\.duf at \/scene\/modifiers\/1): Daz smooths 'Shirt' \(instance 'Shirt-1'\) with its mesh smoothing modifier '(SmoothingModifier|DzMeshSmoothModifier)' \(Base Shape Matching, [1-4] iteration\(s\)\)( and pushes it out of 'Genesis9(-1)?'( \(3 collision iteration\(s\)\))?)? after morphs and the pose deform it; neither smoothing nor collision is applied here/,
  );
  // "Enable Smoothing" off: Daz neither smooths nor collides, and nothing is said.
  const shirt = c.files[1][1] as {
    modifier_library: { extra: { channels?: { channel: Record<string, unknown> }[] }[] }[];
  };
  const enable = shirt.modifier_library[0].extra[1].channels![0].channel;
  assert.equal(enable.id, "Enable Smoothing");
  enable.value = enable.current_value = false;
  const off = await withContentFiles(c.files, (root) => decodeJson(c.scene, "smooth.duf", [root]));
  assert.ok(!off.warnings.some((w) => /smooth/.test(w)), off.warnings.join("\n"));
}
