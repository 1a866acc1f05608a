/**
 * Rigidity groups of garments under a body shape Daz projects onto them
 * (`projected_rigidity_habits.ts`). Daz applies rigidity to projected morphs (formats B.10, D7); the
 * projected morph target here is linear in the body's dial and moves the participants as the surface
 * under them moves, so each group whose participants end up off Daz's rigid place (the independent
 * formulation's) must be named. Before decode.dson v70 none was (dev seeds 1-40: every such group
 * silent). Saved with the body shape dialled, the decode (v72) fits the rigidity into the projected
 * morph at that dial; when a shape preset dials it, `dson.apply_preset` (v54) does: no group is off.
 */
import assert from "node:assert/strict";
import { applyPreset, decodeJson, withContentFiles } from "./dson_runs.ts";
import { shapePreset } from "./generate.ts";
import { BODY, body, BODY_FILE, facetTolerance, fileOf, instance, MORPH } from "./swell_body.ts";
import { type ProjectedRigidityCase, projectedRigidityCase } from "./projected_rigidity_habits.ts";
import { drawnShirt } from "./drawn_garment.ts";

/**
 * Tallies of groups over `from`..`to`: off Daz's place and named, off and silent, right and named,
 * right. `preset`: the scene saved with the body shape at 0 and a shape preset dialling it.
 */
export async function tally(from: number, to: number, log = false, preset = false) {
  const t = {
    offNamed: 0,
    offSilent: 0,
    rightNamed: 0,
    right: 0,
    silent: [] as string[],
    named: [] as string[],
  };
  const root = BODY_FILE;
  for (let seed = from; seed <= to; seed++) {
    const c: ProjectedRigidityCase = projectedRigidityCase(seed);
    const scene = {
      file_version: "0.6.1.0",
      asset_info: { id: "/scenes/dressed.duf", type: "scene" },
      scene: {
        nodes: [instance(BODY), instance("Shirt", BODY)],
        modifiers: [{
          id: `${MORPH}-1`,
          url: `${encodeURI(root)}#${MORPH}`,
          parent: `#${BODY}_geo-1`,
          channel: { id: "value", current_value: preset ? 0 : c.dial },
        }],
      },
    };
    const { scene: decoded, warnings } = await withContentFiles(
      [[BODY_FILE, body()], [fileOf("Shirt"), c.file]],
      async (dir) => {
        const run = await decodeJson(scene, "dressed.duf", [dir]);
        if (!preset) return run;
        const shaped = await applyPreset(run.scene, shapePreset([[MORPH, c.dial]]));
        // The decode's own warnings stand beside the preset's (a group without reference facets).
        return { scene: shaped.scene, warnings: [...run.warnings, ...shaped.warnings] };
      },
    );
    const said = warnings.filter((w) => w.includes("rigidity group(s) of this item"));
    const drawn = drawnShirt(decoded);
    // The faceted body's projection against the ideal cylinder's, as the projection tests bound it.
    const tolerance = facetTolerance(Math.min(c.offset, 10), 1, c.dial) + 0.01;
    for (const group of c.groups) {
      const off = Math.max(
        0,
        ...group.mask.map((v) => Math.hypot(...c.expected[v].map((x, k) => x - drawn.get(v)![k]))),
      );
      // A group without reference facets is named by its own warning (nothing to fit); a vertex it
      // shares with another group is placed by that group.
      const named = said.some((w) => w.includes(`'${group.id}'`)) ||
        (group.unreferenced &&
          warnings.some((w) => w.includes("have no reference vertex") && w.includes(`'${group.id}'`)));
      const about = `seed ${seed} ${group.id} (${c.habits.join(", ")}): ${off.toFixed(3)} cm`;
      if (off > tolerance) {
        if (named) t.offNamed++;
        else t.offSilent++, t.silent.push(about);
      } else if (said.some((w) => w.includes(`'${group.id}'`))) t.rightNamed++, t.named.push(about);
      else t.right++;
    }
  }
  if (log) console.log(JSON.stringify({ ...t, silent: t.silent.slice(0, 5), named: t.named.slice(0, 5) }));
  return t;
}

Deno.test("dson projected rigidity: a garment group Daz keeps rigid under a projected body shape is rigid", async () => {
  // Saved with the body shape dialled: before decode.dson v70 every group off Daz's place was silent;
  // v70 named them; v72 fits the rigidity into the projected morph at the scene's dial (the preset's
  // fit, preset_rigidity.ts), so none is off (before v72, dev seeds 1-40: groups off, named).
  const t = await tally(1, 40);
  console.log(
    `projected rigidity, seeds 1-40: ${t.offNamed} groups off named, ${t.offSilent} silent, ` +
      `${t.rightNamed} right but named, ${t.right} right`,
  );
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
  assert.ok(t.right >= 30, JSON.stringify(t));
});

Deno.test("dson projected rigidity: under a shape preset dialling the body shape the groups are rigid", async () => {
  // Decoded at 0, the body shape is projected by dson.apply_preset (preset_project.ts); before
  // decode.dson v70's check reached it (dson.apply_preset v53), every group off was silent; v53
  // named them (26 off, named); v54 fits the rigidity into the projected morph at the preset's dial
  // (preset_rigidity.ts), so none is off (preset_rigidity_test.ts has the preset's own habits).
  const t = await tally(1, 20, false, true);
  console.log(
    `projected rigidity by a preset, seeds 1-20: ${t.offNamed} groups off named, ${t.offSilent} silent, ` +
      `${t.rightNamed} right but named, ${t.right} right`,
  );
  assert.deepEqual([t.offNamed, t.offSilent], [0, 0], JSON.stringify(t));
  assert.ok(t.right >= 30, JSON.stringify(t));
});
