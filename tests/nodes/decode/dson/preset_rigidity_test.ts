/**
 * Rigidity on the morphs a shape preset projects onto clothing (`preset_rigidity_habits.ts`): once
 * `dson.apply_preset` sets the body's dial, Daz's rigid place of every button, buckle and zip is
 * known, and the projected morph target holds it (dson.apply_preset v54). Before, the target moved
 * the participants as the cloth under them moves, the groups named (v53) — and a second preset
 * re-dialling the shape, or a preset re-dialling a shape the decode projected, said nothing. Judged
 * against the independent formulation (`rigidity_reference.ts`) on the ideal cylinder's shapes.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";
import { shapePreset } from "./generate.ts";
import { BODY, body, BODY_FILE, bodyTube, facetTolerance, fileOf, instance, MORPH } from "./swell_body.ts";
import { BELLY, bellyModifier, PBM, presetRigidityCase } from "./preset_rigidity_habits.ts";
import type { V3 } from "./rigidity_reference.ts";
import { drawnShirt } from "./drawn_garment.ts";

/**
 * How each case is reached: `preset`, saved at 0 and dialled by a shape preset; `redial`, a first
 * preset dialling the shapes elsewhere, then the case's; `decoded`, saved with the shapes dialled
 * elsewhere (the decode projects them), then the case's preset; `bake`, the case's preset and then the
 * first shape baked at another weight (`dson.bake_morph`); `saved`, saved with the case's dials and
 * decoded, no preset (decode.dson v72 fits rigidity at the scene's dial); `savedBake`, so decoded and
 * the first shape baked at another weight.
 */
export type Mode = "preset" | "redial" | "decoded" | "bake" | "saved" | "savedBake";

/** Tallies of groups over seeds `from`..`to`: off Daz's place and named, off and silent, right and named, right. */
export async function tally(from: number, to: number, mode: Mode, log = false) {
  const t = {
    offNamed: 0,
    offSilent: 0,
    rightNamed: 0,
    right: 0,
    /** Off the ideal shapes, yet where the rigidity puts the pipeline's own projection: the projection's error. */
    projection: 0,
    worst: 0,
    silent: [] as string[],
    named: [] as string[],
  };
  const bodyFile = body([bellyModifier(bodyTube)]);
  for (let seed = from; seed <= to; seed++) {
    const c = presetRigidityCase(seed);
    // Elsewhere: the first preset's (redial) or the saved scene's (decoded) dials.
    const elsewhere = c.dials.map(([m, v]) => [m, Math.round((1.3 - v) * 1000) / 1000] as const);
    const fromSaved = mode === "saved" || mode === "savedBake";
    const saved = new Map(mode === "decoded" ? elsewhere : fromSaved ? c.dials : []);
    const sceneAt = (values: ReadonlyMap<string, number>) => ({
      file_version: "0.6.1.0",
      asset_info: { id: "/scenes/dressed.duf", type: "scene" },
      scene: {
        nodes: [instance(BODY), instance("Shirt", BODY)],
        modifiers: [MORPH, PBM].map((id) => ({
          id: `${id}-1`,
          url: `${encodeURI(BODY_FILE)}#${id}`,
          parent: `#${BODY}_geo-1`,
          channel: { id: "value", current_value: values.get(id) ?? 0 },
        })),
      },
    });
    const scene = sceneAt(saved);
    const files = [[BODY_FILE, bodyFile], [fileOf("Shirt"), c.file]] as const;
    let finalDials: (readonly [string, number])[] = c.dials.map((d) => [...d] as const);
    const { scene: decoded, warnings } = await withContentFiles(
      files,
      async (dir) => {
        const run = await decodeJson(scene, "dressed.duf", [dir]);
        const said = [...run.warnings];
        let current = run.scene;
        if (mode === "redial") {
          const first = await applyPreset(current, shapePreset(elsewhere));
          said.push(...first.warnings), current = first.scene;
        }
        if (!fromSaved) {
          const shaped = await applyPreset(current, shapePreset(c.dials));
          said.push(...shaped.warnings), current = shaped.scene;
        }
        if (mode === "bake" || mode === "savedBake") {
          const [morph, value] = c.dials[0];
          const weight = Math.round((value < 0.6 ? value + 0.35 : value - 0.35) * 1000) / 1000;
          const ctx = testContext();
          current = (await runNode(dsonBakeMorph, { scene: current }, { morph, weight }, ctx))
            .scene as Document;
          said.push(...ctx.warnings.map((w) => w.message));
          finalDials = c.dials.map(([m, v]) => [m, m === morph ? weight : v] as const);
        }
        return { scene: current, warnings: said };
      },
    );
    const expected = c.expectedAt(finalDials);
    const drawn = drawnShirt(decoded);
    // The faceted body's projection against the ideal cylinder's, as the projection tests bound it;
    // the belly's push varies with the angle as well, so its bound is taken as its amplitude's share
    // of the swell's, doubled.
    const tolerance = finalDials.reduce(
      (sum, [m, v]) => sum + facetTolerance(Math.min(c.offset, 10), 1, v) * (m === PBM ? 2 * BELLY / 2 : 1),
      0,
    ) + 0.01;
    // Where the rigidity puts the pipeline's own plain projection of each shape (a decode of the file
    // saved at that dial projects it plain), summed: read only when a group is off the ideal shapes.
    let projected: V3[] | undefined;
    const ownProjection = async () =>
      projected ??= await withContentFiles(files, async (dir) => {
        const out = c.rest.map((p) => [...p] as V3);
        for (const [m, v] of finalDials) {
          const plain = drawnShirt(
            (await decodeJson(sceneAt(new Map([[m, v]])), "plain.duf", [dir])).scene,
            true,
          );
          const rigid = c.rigidOf(c.rest.map((_, i) => plain.get(i)!));
          rigid.forEach((p, i) => p.forEach((x, k) => out[i][k] += x - c.rest[i][k]));
        }
        return out;
      });
    const gap = (at: readonly V3[], mask: readonly number[]) =>
      Math.max(0, ...mask.map((v) => Math.hypot(...at[v].map((x, k) => x - drawn.get(v)![k]))));
    for (const group of c.groups) {
      const off = gap(expected, group.mask);
      const named = warnings.some((w) => w.includes(`'${group.id}'`)) ||
        (group.unreferenced &&
          warnings.some((w) => w.includes("have no reference vertex") && w.includes(`'${group.id}'`)));
      const about = `seed ${seed} ${group.id} (${c.habits.join(", ")}): ${off.toFixed(3)} cm`;
      if (off > tolerance && gap(await ownProjection(), group.mask) < 1e-3) t.projection++;
      else if (off > tolerance) {
        t.worst = Math.max(t.worst, off);
        if (named) t.offNamed++;
        else t.offSilent++, t.silent.push(about);
      } else if (named) t.rightNamed++, t.named.push(about);
      else t.right++;
    }
  }
  if (log) console.log(JSON.stringify({ ...t, silent: t.silent.slice(0, 5), named: t.named.slice(0, 5) }));
  return t;
}

const report = (what: string, t: Awaited<ReturnType<typeof tally>>) =>
  console.log(
    `${what}: ${t.right} groups right, ${t.rightNamed} right but named, ${t.offNamed} off named, ` +
      `${t.offSilent} off silently (worst ${
        t.worst.toFixed(3)
      } cm); ${t.projection} off the ideal shapes by ` +
      "the projection's own error, where the rigidity puts the projected morph",
  );

Deno.test("dson preset rigidity: buttons, buckles and zips stay rigid under the shape a preset dials", async () => {
  // Before dson.apply_preset v54: dev seeds 1-16, every group off Daz's place was named, none right.
  const t = await tally(1, 16, "preset");
  report("preset rigidity, seeds 1-16", t);
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
  assert.ok(t.right >= 20, JSON.stringify(t));
});

Deno.test("dson preset rigidity: a second preset re-dialling the shape fits the rigid parts again", async () => {
  // Before v54 the first preset named the groups at its dial; the second said nothing.
  const t = await tally(1, 12, "redial");
  report("preset rigidity re-dialled, seeds 1-12", t);
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
});

Deno.test("dson preset rigidity: a preset re-dialling a shape the decode projected fits the rigid parts", async () => {
  // The decode (v71 marks what it projects) names the groups; the preset fits them at its dial.
  const t = await tally(1, 12, "decoded");
  report("preset rigidity over a decoded projection, seeds 1-12", t);
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
});

Deno.test("dson preset rigidity: baking a shape after the preset fits rigidity at the baked weight", async () => {
  // The target holds the participants fitted at the preset's dial; the bake refits the plain morph.
  const t = await tally(1, 12, "bake");
  report("preset rigidity then a bake, seeds 1-12", t);
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
});

Deno.test("dson preset rigidity: a scene saved with the body shaped is decoded with the rigid parts fitted", async () => {
  // Before decode.dson v72 the decode projected a plain target and named the groups it moved (dev
  // seeds 1-16: 16 off named, 1 off silently, up to 3.3 mm).
  const t = await tally(1, 16, "saved");
  report("decoded at the saved dials, seeds 1-16", t);
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
  assert.ok(t.right >= 20, JSON.stringify(t));
});

Deno.test("dson preset rigidity: baking a shape the decode fitted refits rigidity at the baked weight", async () => {
  // A guard: the decode's record keeps the plain deltas (rigid.plain) as the preset's does.
  const t = await tally(1, 12, "savedBake");
  report("decoded at the saved dials then a bake, seeds 1-12", t);
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
});
