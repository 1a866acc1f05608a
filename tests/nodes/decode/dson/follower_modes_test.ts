/**
 * Rigid followers whose `rigidity_group` asks for other modes than turned-and-unscaled
 * (`follower_shape_habits.ts` with `modes`: grown evenly with a wider waist, slid without turning,
 * stretched per axis): the decode, a shape preset and a bake draw each where its group's modes put it,
 * worked out by `rigidity_reference.ts` (Kabsch, closed-form eigenvectors, Rodrigues swings), not by
 * the code under test. A follower stretched along axes other than its node's own is a shear no glTF
 * node holds: it may be off, but only when a warning names it. Seeds 1–20 were developed against;
 * 19001–19040 (decode), 19101–19140 (preset) and 19201–19240 (bake) were held out.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { prng } from "../../../support/prng.ts";
import { shapePreset } from "./generate.ts";
import { applyPreset, decodeJson } from "./dson_runs.ts";
import {
  drawnFollower,
  expectedFollower,
  type FollowerShapeCase,
  followerShapeCase,
  shapedVertices,
} from "./follower_shape_habits.ts";

/** Farther than this from Daz's place (cm) is wrong: float32 positions in metres round far below it. */
const TOLERANCE = 1e-3;

/** Followers drawn, those off Daz's place, and those off without a warning naming them. */
interface Tally {
  followers: number;
  moded: number;
  wrong: string[];
  silent: string[];
}

function judgeAt(
  c: FollowerShapeCase,
  scene: Document,
  dials: ReadonlyMap<string, number>,
  warnings: readonly string[],
  tally: Tally,
): void {
  const shaped = shapedVertices(c, dials);
  const sheared = warnings.filter((w) => /rigid follower.*shear/.test(w));
  for (const f of c.followers) {
    tally.followers++;
    if (f.rotation !== "full" || f.scale.some((s) => s !== "none")) tally.moded++;
    const want = expectedFollower(c, f, shaped);
    const got = drawnFollower(scene, f.name);
    const worst = Math.max(...want.map((p, i) => Math.hypot(...p.map((x, k) => x - got[i][k]))));
    if (worst <= TOLERANCE) continue;
    const line = `seed ${c.seed} ${f.name} (${f.rotation}, ${f.scale.join("/")}) ${worst.toFixed(3)} cm off`;
    tally.wrong.push(line);
    if (!sheared.some((w) => w.includes(`'${f.name}-1'`))) tally.silent.push(line);
  }
}

async function sweep(from: number, to: number, run: (c: FollowerShapeCase, tally: Tally) => Promise<void>) {
  const tally: Tally = { followers: 0, moded: 0, wrong: [], silent: [] };
  for (let seed = from; seed <= to; seed++) await run(followerShapeCase(seed, { modes: true }), tally);
  console.log(
    `followers with modes, seeds ${from}-${to}: ${tally.followers} followers (${tally.moded} with modes), ` +
      `${tally.wrong.length} off Daz's place, ${tally.silent.length} silently`,
  );
  assert.ok(tally.moded >= 20, `only ${tally.moded} followers with modes: the sweep would not tell`);
  assert.deepEqual(tally.silent, [], "followers off Daz's place with no warning naming them");
  // A shear is rare: most stretched followers are placed exactly.
  assert.ok(tally.wrong.length * 5 <= tally.moded, tally.wrong.join("\n"));
  return tally;
}

Deno.test("dson followers: the decode applies each one's rotation and scale modes (held-out seeds)", async () => {
  await sweep(19001, 19040, async (c, tally) => {
    const { scene, warnings } = await decodeJson(c.json, "scene.duf");
    judgeAt(c, scene, c.dials, warnings, tally);
  });
});

Deno.test("dson followers: a shape preset applies each one's rotation and scale modes (held-out seeds)", async () => {
  await sweep(19101, 19140, async (c, tally) => {
    const dial = Math.round((0.1 + prng(c.seed * 31 + 7)() * 0.9) * 1000) / 1000;
    const decoded = await decodeJson(c.json, "scene.duf");
    const { scene, warnings } = await applyPreset(decoded.scene, shapePreset([["FBMHeavy", dial]]));
    judgeAt(c, scene, new Map([...c.dials, ["FBMHeavy", dial]]), [...decoded.warnings, ...warnings], tally);
  });
});

Deno.test("dson followers: a bake applies each one's rotation and scale modes (held-out seeds)", async () => {
  await sweep(19201, 19240, async (c, tally) => {
    const weight = Math.round((0.2 + prng(c.seed * 37 + 11)() * 1.0) * 1000) / 1000;
    const decoded = await decodeJson(c.json, "scene.duf");
    const ctx = testContext();
    const scene = (await runNode(dsonBakeMorph, { scene: decoded.scene }, { morph: "FBMHeavy", weight }, ctx))
      .scene as Document;
    const warnings = [...decoded.warnings, ...ctx.warnings.map((w) => w.message)];
    judgeAt(c, scene, new Map([...c.dials, ["FBMHeavy", weight]]), warnings, tally);
  });
});

Deno.test("dson followers: modes outside the vocabulary are read as turned and unscaled, said at their path", async () => {
  const c = followerShapeCase(3, { modes: true });
  const nodes =
    (c.json.scene as { nodes: { extra?: { rigidity_group?: Record<string, unknown> }[] }[] }).nodes;
  const at = nodes.findIndex((n) => n.extra?.[0]?.rigidity_group);
  const group = nodes[at].extra![0].rigidity_group!;
  group.rotation_mode = "spin";
  group.scale_modes = ["primary", "wide"];
  const { warnings } = await decodeJson(c.json, "scene.duf");
  const rotation = warnings.filter((w) =>
    w.includes(`/scene/nodes/${at}/extra/0/rigidity_group/rotation_mode`)
  );
  const scale = warnings.filter((w) => w.includes(`/scene/nodes/${at}/extra/0/rigidity_group/scale_modes`));
  assert.equal(rotation.length, 1, warnings.join("\n"));
  assert.match(rotation[0], /"spin", expected one of none, full, primary, secondary; read as 'full'/);
  assert.equal(scale.length, 1, warnings.join("\n"));
  assert.match(scale[0], /\["primary","wide"\], expected 3 of/);
});
