/**
 * Rigid followers on a geograft that the decode merges into its body (`graft_follower_habits.ts`): the
 * decode and a bake of the graft's shape draw each where Daz does — its written place moved by the
 * best-fit rigid transform of its reference vertices from the graft's base to its shaped vertices,
 * worked out in the generator. Seeds 1–10 were developed against; 20001–20040 (decode) and
 * 20101–20140 (bake) were held out.
 */
import type { Document } from "@gltf-transform/core";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { prng } from "../../../support/prng.ts";
import { decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { drawnFollower } from "./follower_shape_habits.ts";
import {
  expectedGraftFollower,
  GRAFT_SHAPE,
  type GraftFollowerCase,
  graftFollowerCase,
} from "./graft_follower_habits.ts";

/** Farther than this from Daz's place (cm) is wrong: float32 positions in metres round far below it. */
const TOLERANCE = 1e-3;

function judgeAt(c: GraftFollowerCase, scene: Document, dial: number, warnings: readonly string[]): Verdict {
  const off: string[] = [];
  for (const f of c.followers) {
    const want = expectedGraftFollower(c, f, dial);
    const got = drawnFollower(scene, f.name);
    const worst = Math.max(...want.map((p, i) => Math.hypot(...p.map((x, k) => x - got[i][k]))));
    if (worst > TOLERANCE) off.push(`${f.name} ${worst.toFixed(3)} cm off`);
  }
  return off.length
    ? {
      wrong: off.join(", "),
      warned: warnings.some((w) => /rigid follower/.test(w) && /keep their place/.test(w)),
    }
    : undefined;
}

const describe = (c: GraftFollowerCase) => c.habits.join(", ");

Deno.test("dson graft followers: the decode fits each to its graft's shaped vertices in the merged mesh (held-out seeds)", async () => {
  await sweepSeeds(
    20001,
    20040,
    "dson graft followers decoded, seeds 20001-20040",
    graftFollowerCase,
    async (c) => {
      const { scene, warnings } = await decodeJson(c.json, "scene.duf");
      return judgeAt(c, scene, c.dial, warnings);
    },
    describe,
  );
});

Deno.test("dson graft followers: a bake of the graft's shape refits each (held-out seeds)", async () => {
  await sweepSeeds(
    20101,
    20140,
    "dson graft followers baked, seeds 20101-20140",
    graftFollowerCase,
    async (c) => {
      const weight = Math.round((0.2 + prng(c.seed * 41 + 3)() * 0.8) * 1000) / 1000;
      const decoded = await decodeJson(c.json, "scene.duf");
      const ctx = testContext();
      const scene =
        (await runNode(dsonBakeMorph, { scene: decoded.scene }, { morph: GRAFT_SHAPE, weight }, ctx))
          .scene as Document;
      return judgeAt(c, scene, weight, ctx.warnings.map((w) => w.message));
    },
    describe,
  );
});
