/**
 * Props scaled per axis, as Daz Studio users leave them (`prop_axis_scale_habits.ts`).
 *
 * Rigid followers stretched along one to three axes, mirrored, with `general_scale`, modelled in a
 * turned frame (`orientation`) and turned in any rotation order, under their rigidity group's modes:
 * decode, preset and bake place each within 1 mm of Daz (held-out seeds 30001-30060: 0 of 381
 * placements off before this test was written, and after; it guards that).
 *
 * Props turned under a group node scaled unevenly: DSON composes world rotation and scale apart, so
 * the group's stretch runs along each prop's own turned axes, which a glTF child cannot hold. Each
 * such prop more than 1 mm off is named by decode.dson, none within is (held-out seeds 5001-5200:
 * 143 of 413 props off silently -> named; seeds 5301-5340 here: fails before decode.dson v67). The same
 * when the file leaves the group unscaled and a pose preset scales it (dson.apply_preset v50: held-out
 * seeds 5001-5200, 143 of 413 silently -> named; seeds 5341-5370 here).
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { channels, posePreset, shapePreset } from "./generate.ts";
import { applyPreset, decodeJson } from "./dson_runs.ts";
import { drawnFollower, expectedFollower, shapedVertices } from "./follower_shape_habits.ts";
import { axisScaleCase, nestedScaleCase } from "./prop_axis_scale_habits.ts";

/** Farther than this from Daz's place (cm) is wrong. */
const TOLERANCE = 0.1;

Deno.test("dson rigid followers scaled per axis, mirrored, oriented: decode, preset and bake place them as Daz", async () => {
  let checked = 0;
  for (let seed = 19101; seed <= 19115; seed++) {
    const { c, followers, habits } = axisScaleCase(seed);
    const judge = (scene: Document, dials: ReadonlyMap<string, number>, stage: string) => {
      const shaped = shapedVertices(c, dials);
      followers.forEach((f, i) => {
        const want = expectedFollower(c, f, shaped), got = drawnFollower(scene, f.name);
        const off = Math.max(...want.map((p, v) => Math.hypot(...p.map((x, k) => x - got[v][k]))));
        assert.ok(off < TOLERANCE, `seed ${seed} ${stage}: ${habits[i]} ${off.toFixed(3)} cm off`);
        checked++;
      });
    };
    judge((await decodeJson(c.json, "scene.duf")).scene, c.dials, "decode");
    const dial = 0.2 + (seed % 7) / 10;
    const preset = await applyPreset(
      (await decodeJson(c.json, "scene.duf")).scene,
      shapePreset([["FBMHeavy", dial]]),
    );
    judge(preset.scene, new Map([...c.dials, ["FBMHeavy", dial]]), "preset");
    const baked = (await runNode(
      dsonBakeMorph,
      { scene: (await decodeJson(c.json, "scene.duf")).scene },
      { morph: "FBMHeavy", weight: 0.8 },
      testContext(),
    )).scene as Document;
    judge(baked, new Map([...c.dials, ["FBMHeavy", 0.8]]), "bake");
  }
  assert.ok(checked > 60, `${checked} placements`);
});

Deno.test("dson props turned under an unevenly scaled group: each one drawn over 1 mm off is named, none within", async () => {
  let off = 0, right = 0;
  for (let seed = 5301; seed <= 5340; seed++) {
    const { json, props } = nestedScaleCase(seed);
    const { scene, warnings } = await decodeJson(json, "scene.duf");
    for (const p of props) {
      const got = drawnFollower(scene, p.key.replace(/-1$/, ""));
      const far = Math.max(...p.drawn.map((q, i) => Math.hypot(...q.map((x, k) => x - got[i][k]))));
      const named = warnings.some((w) => w.includes("unevenly scaled parent") && w.includes(`'${p.key}'`));
      if (far > TOLERANCE) {
        off++;
        assert.ok(named, `seed ${seed}: ${p.habit}: ${far.toFixed(2)} cm off, not named`);
      } else {
        right++;
        assert.ok(!named, `seed ${seed}: ${p.habit}: within ${far.toFixed(3)} cm, yet named`);
      }
    }
  }
  // Both kinds met: the judge is not vacuous.
  assert.ok(off >= 10 && right >= 10, `${off} off, ${right} right`);
});

Deno.test("dson props turned under a group a preset scales unevenly: each one drawn over 1 mm off is named, none within", async () => {
  let off = 0, right = 0;
  for (let seed = 5341; seed <= 5370; seed++) {
    const { json, props } = nestedScaleCase(seed);
    // The file's group unscaled; the preset sets the scale the case drew.
    const group = (json.node_library as Record<string, unknown>[]).find((n) => n.id === "Group")!;
    const scale = (group.scale as { value: number }[]).map((c) => c.value);
    group.scale = channels("float", [1, 1, 1]);
    const { scene } = await decodeJson(json, "scene.duf");
    const preset = posePreset(scale.map((v, k) => ["Group", `scale/${"xyz"[k]}`, v] as const));
    const { scene: posed, warnings } = await applyPreset(scene, preset);
    for (const p of props) {
      const got = drawnFollower(posed, p.key.replace(/-1$/, ""));
      const far = Math.max(...p.drawn.map((q, i) => Math.hypot(...q.map((x, k) => x - got[i][k]))));
      const named = warnings.some((w) => w.includes("unevenly scaled parent") && w.includes(`'${p.key}'`));
      if (far > TOLERANCE) {
        off++;
        assert.ok(named, `seed ${seed}: ${p.habit}: ${far.toFixed(2)} cm off after the preset, not named`);
      } else {
        right++;
        assert.ok(!named, `seed ${seed}: ${p.habit}: within ${far.toFixed(3)} cm, yet named`);
      }
    }
  }
  assert.ok(off >= 8 && right >= 8, `${off} off, ${right} right`);
});
