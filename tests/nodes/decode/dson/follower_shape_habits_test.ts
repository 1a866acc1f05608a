/**
 * Rigid followers on a figure whose body shape moves its surface and its joints
 * (`follower_shape_habits.ts`): the decode, a shape preset and a bake each draw every follower where
 * Daz does — its written place moved by the best-fit rigid transform of its reference vertices from
 * the base mesh to the shaped one, worked out in the generator, not by the code under test. Seeds
 * 1–20 were developed against; 18001–18040 (decode), 18101–18140 (preset) and 18201–18240 (bake)
 * were held out.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { prng } from "../../../support/prng.ts";
import { shapePreset } from "./generate.ts";
import { applyPreset, decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import {
  drawnFollower,
  expectedFollower,
  type FollowerShapeCase,
  followerShapeCase,
  shapedVertices,
} from "./follower_shape_habits.ts";

/** Farther than this from Daz's place (cm) is wrong: float32 positions in metres round far below it. */
const TOLERANCE = 1e-3;

/** How far each follower is drawn from where Daz draws it at `dials`; the worst as a verdict. */
function judgeAt(
  c: FollowerShapeCase,
  scene: Document,
  dials: ReadonlyMap<string, number>,
  warnings: string[],
) {
  const shaped = shapedVertices(c, dials);
  const off: string[] = [];
  for (const f of c.followers) {
    const want = expectedFollower(c, f, shaped);
    const got = drawnFollower(scene, f.name);
    const worst = Math.max(...want.map((p, i) => Math.hypot(...p.map((x, k) => x - got[i][k]))));
    if (worst > TOLERANCE) off.push(`${f.name} ${worst.toFixed(3)} cm off`);
  }
  const verdict: Verdict = off.length
    ? {
      wrong: off.join(", "),
      warned: warnings.some((w) => /rigid follower/.test(w) && /stays|keep/.test(w)),
    }
    : undefined;
  return verdict;
}

const describe = (c: FollowerShapeCase) => c.habits.join(", ");

async function judgeDecode(c: FollowerShapeCase): Promise<Verdict> {
  const { scene, warnings } = await decodeJson(c.json, "scene.duf");
  return judgeAt(c, scene, c.dials, warnings);
}

/** A shape preset dialling the body shape to another value (seeded). */
async function judgePreset(c: FollowerShapeCase): Promise<Verdict> {
  const dial = Math.round((0.1 + prng(c.seed * 31 + 7)() * 0.9) * 1000) / 1000;
  const decoded = await decodeJson(c.json, "scene.duf");
  const { scene, warnings } = await applyPreset(decoded.scene, shapePreset([["FBMHeavy", dial]]));
  return judgeAt(c, scene, new Map([...c.dials, ["FBMHeavy", dial]]), warnings);
}

/** The body shape baked at a seeded weight. */
async function judgeBake(c: FollowerShapeCase): Promise<Verdict> {
  const weight = Math.round((0.2 + prng(c.seed * 37 + 11)() * 1.0) * 1000) / 1000;
  const decoded = await decodeJson(c.json, "scene.duf");
  const ctx = testContext();
  const scene = (await runNode(dsonBakeMorph, { scene: decoded.scene }, { morph: "FBMHeavy", weight }, ctx))
    .scene as Document;
  return judgeAt(c, scene, new Map([...c.dials, ["FBMHeavy", weight]]), ctx.warnings.map((w) => w.message));
}

Deno.test("dson followers: the decode fits each to its reference vertices at the file's shape (held-out seeds)", async () => {
  await sweepSeeds(
    18001,
    18040,
    "dson followers decoded, seeds 18001-18040",
    followerShapeCase,
    judgeDecode,
    describe,
  );
});

Deno.test("dson followers: a shape preset refits each as the shape moves its vertices and joints (held-out seeds)", async () => {
  await sweepSeeds(
    18101,
    18140,
    "dson followers preset, seeds 18101-18140",
    followerShapeCase,
    judgePreset,
    describe,
  );
});

Deno.test("dson followers: a bake refits each as the baked shape moves its vertices and joints (held-out seeds)", async () => {
  await sweepSeeds(
    18201,
    18240,
    "dson followers baked, seeds 18201-18240",
    followerShapeCase,
    judgeBake,
    describe,
  );
});

Deno.test("dson followers: one decoded without its reference vertices keeps its place, said by name", async () => {
  const c = followerShapeCase(3);
  const { scene } = await decodeJson(c.json, "scene.duf");
  for (const node of scene.getRoot().listNodes()) {
    const dson = getPartgraphExtras(node).dson as { rigid_follow?: Record<string, unknown> } | undefined;
    if (!dson?.rigid_follow) continue;
    const { vertices: _, ...older } = dson.rigid_follow;
    setPartgraphExtras(node, { dson: { ...dson, rigid_follow: older } as never });
  }
  const { warnings } = await applyPreset(scene, shapePreset([["FBMHeavy", 0.9]]));
  const said = warnings.filter((w) => w.includes("not refitted to their reference vertices"));
  assert.equal(said.length, 1, warnings.join("\n"));
  assert.match(said[0], /2 rigid follower\(s\).*'Earring-1', 'Ring-1'/);
});
