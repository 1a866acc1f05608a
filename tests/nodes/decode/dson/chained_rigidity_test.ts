/**
 * Rigidity along fitted items layered on fitted items (`chained_rigidity_habits.ts`): a belt fitted
 * to a coat follows the coat's projected shapes as Daz draws the coat, its buttons and buckles kept
 * rigid, so the belt over them follows them. Fitting goes body → coat → belt: the decode fits the
 * coat's rigidity into its projected morph at the scene's dial before projecting it onto the belt
 * (decode.dson v72), and a preset fits each item before the items fitted to it take its morphs
 * (dson.apply_preset v55). Before, the belt took the coat's plain projected morph, the cloth under
 * the buckle, silently. A belt that took the coat's morph before the preset (the decode, an earlier
 * preset) is projected again from the coat's new fit (v56; v55 named it).
 */
import assert from "node:assert/strict";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";
import { shapePreset } from "./generate.ts";
import { BODY, body, BODY_FILE, bodyTube, facetTolerance, fileOf, instance, MORPH } from "./swell_body.ts";
import { BELLY, bellyModifier, PBM } from "./preset_rigidity_habits.ts";
import { beltExpectedAt, chainedRigidityCase } from "./chained_rigidity_habits.ts";
import { drawnShirt } from "./drawn_garment.ts";

/**
 * How the shapes are dialled: `saved`, in the saved scene; `preset`, saved at 0 and dialled by a shape
 * preset; `decoded`, saved with the shapes dialled elsewhere (the decode projects them onto coat and
 * belt) and re-dialled by a shape preset; `twice`, saved at 0, dialled elsewhere by one shape preset
 * (which projects them onto coat and belt) and re-dialled by another.
 */
export type ChainMode = "saved" | "preset" | "decoded" | "twice";

/** Tallies, over seeds `from`..`to`, of the coat's groups a belt lies over: belt right, off and named, off silently. */
export async function chainTally(from: number, to: number, mode: ChainMode, log = false) {
  const t = { right: 0, rightNamed: 0, offNamed: 0, offSilent: 0, worst: 0, silent: [] as string[] };
  const bodyFile = body([bellyModifier(bodyTube)]);
  for (let seed = from; seed <= to; seed++) {
    const c = chainedRigidityCase(seed);
    if (!c) continue;
    const dials = c.coat.dials;
    const elsewhere = dials.map(([m, v]) => [m, Math.round((1.3 - v) * 1000) / 1000] as const);
    const values = new Map(mode === "saved" ? dials : mode === "decoded" ? elsewhere : []);
    const scene = {
      file_version: "0.6.1.0",
      asset_info: { id: "/scenes/layered.duf", type: "scene" },
      scene: {
        nodes: [instance(BODY), instance("Shirt", BODY), instance("Belt", "Shirt")],
        modifiers: [MORPH, PBM].map((id) => ({
          id: `${id}-1`,
          url: `${encodeURI(BODY_FILE)}#${id}`,
          parent: `#${BODY}_geo-1`,
          channel: { id: "value", current_value: values.get(id) ?? 0 },
        })),
      },
    };
    const files = [[BODY_FILE, bodyFile], [fileOf("Shirt"), c.coat.file], [fileOf("Belt"), c.file]] as const;
    const { scene: decoded, warnings } = await withContentFiles(files, async (dir) => {
      const run = await decodeJson(scene, "layered.duf", [dir]);
      if (mode === "saved") return run;
      const first = mode === "twice" ? await applyPreset(run.scene, shapePreset(elsewhere)) : run;
      const shaped = await applyPreset(first.scene, shapePreset(dials));
      const earlier = mode === "twice" ? [...run.warnings, ...first.warnings] : run.warnings;
      return { scene: shaped.scene, warnings: [...earlier, ...shaped.warnings] };
    });
    const belt = drawnShirt(decoded, false, "Belt");
    const expected = beltExpectedAt(c, dials);
    // The faceted coat's projection against the ideal cylinder's, as preset_rigidity_test bounds it.
    const tolerance = dials.reduce(
      (sum, [m, v]) => sum + facetTolerance(c.coat.offset, 1, v) * (m === PBM ? BELLY : 1),
      0,
    ) + 0.01;
    for (const group of c.covered) {
      const off = Math.max(
        ...group.belt.map((v) => Math.hypot(...expected[v].map((x, k) => x - belt.get(v)![k]))),
      );
      const named = warnings.some((w) => w.includes("Belt") && w.includes(`'${group.id}'`));
      if (off <= tolerance) named ? t.rightNamed++ : t.right++;
      else {
        t.worst = Math.max(t.worst, off);
        if (named) t.offNamed++;
        else {t.offSilent++,
            t.silent.push(`seed ${seed} ${group.id} (${c.habits.join(", ")}): ${off.toFixed(3)} cm`);}
      }
    }
  }
  if (log) console.log(JSON.stringify({ ...t, silent: t.silent.slice(0, 5) }));
  return t;
}

Deno.test("dson chained rigidity: a belt on a coat saved with the body shaped follows the coat's rigid parts", async () => {
  const t = await chainTally(1, 16, "saved");
  console.log(`chained rigidity (saved), seeds 1-16: ${JSON.stringify(t)}`);
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
  assert.ok(t.right >= 5, JSON.stringify(t));
});

Deno.test("dson chained rigidity: a belt on a coat a preset shapes follows the coat's rigid parts", async () => {
  const t = await chainTally(1, 16, "preset");
  console.log(`chained rigidity (preset), seeds 1-16: ${JSON.stringify(t)}`);
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
  assert.ok(t.right >= 5, JSON.stringify(t));
});

Deno.test("dson chained rigidity: a preset re-dialling a decoded coat projects the belt over it again", async () => {
  // The belt holds the morph the decode projected from the coat fitted at the saved dial; the preset
  // fits the coat again at its dial and projects the coat's new shape onto the belt, as Daz does
  // (dson.apply_preset v56). Before (v55), the belt kept the old projection and was named (dev seeds
  // 1-16: one group off, named).
  const t = await chainTally(1, 16, "decoded");
  console.log(`chained rigidity (decoded, re-dialled), seeds 1-16: ${JSON.stringify(t)}`);
  assert.deepEqual([t.offNamed, t.offSilent, t.rightNamed], [0, 0, 0], JSON.stringify(t));
  assert.ok(t.right >= 20, JSON.stringify(t));
});

Deno.test("dson chained rigidity: a second preset re-dialling the coat projects the belt over it again", async () => {
  // The first preset projects the coat's fitted morph onto the belt at its dial; the second fits the
  // coat at another and projects it onto the belt again (dson.apply_preset v56).
  const t = await chainTally(1, 16, "twice");
  console.log(`chained rigidity (twice), seeds 1-16: ${JSON.stringify(t)}`);
  assert.deepEqual([t.offNamed, t.offSilent, t.rightNamed], [0, 0, 0], JSON.stringify(t));
  assert.ok(t.right >= 20, JSON.stringify(t));
});
