/**
 * Pose preset keys as Daz, scripts and hand edits write them (`key_habits.ts`): each channel's
 * frame-0 value against its closed form (a key's value, or a span's midpoint from the
 * Kochanek–Bartels tangents worked out independently); a kind the spec does not name is one warning
 * counting the keys. Before dson.apply_preset v32 the flattened `[time, value, "TCB", t, c, b]` was
 * read as no interpolation (tension, continuity and bias dropped) and an unnamed kind as Catmull-Rom,
 * both silently.
 */
import assert from "node:assert/strict";
import { readDsonPreset } from "../../../../nodes/decode/dson/codec/preset_read.ts";
import { dsonBytes } from "./generate.ts";
import { keyCase, namedChannels } from "./key_habits.ts";
import { splineAt } from "../../../../nodes/decode/dson/codec/formula_spline.ts";
import { prng } from "../../../support/prng.ts";

async function sweep(from: number, to: number, label: string): Promise<void> {
  const wrong: string[] = [];
  let silent = 0, channels = 0, badChannels = 0, unsaid = 0;
  for (let seed = from; seed <= to; seed++) {
    const c = keyCase(seed);
    const warnings: string[] = [];
    const read = await readDsonPreset(dsonBytes(c.preset), "Blend.duf", (m) => warnings.push(m));
    const said = c.odd === 0
      ? warnings.length === 0
      : warnings.some((w) => w.includes(`${c.odd} key(s) with an interpolation`));
    let bad = 0;
    c.channels.forEach((channel, k) => {
      channels++;
      const got = read.channels[k]?.value ?? NaN;
      if (Math.abs(got - channel.expected) > 1e-9 * Math.max(1, Math.abs(channel.expected))) {
        bad++;
        wrong.push(
          `seed ${seed} channel ${k} (${channel.habits.join(", ")}): ${got}, expected ${channel.expected}`,
        );
      }
    });
    if (!said) unsaid++;
    if (!said) wrong.push(`seed ${seed}: warnings ${JSON.stringify(warnings)}, ${c.odd} unnamed kinds`);
    badChannels += bad;
    if (bad && !warnings.length) silent++;
  }
  console.log(
    `${label}: ${badChannels} of ${channels} channels wrong, ${silent} preset(s) wrong without a warning; ` +
      `${unsaid} preset(s) with an unnamed interpolation not warned`,
  );
  assert.deepEqual(wrong, []);
}

Deno.test("dson preset keys, seeds 1-40: every channel's frame-0 value is its Kochanek–Bartels closed form", async () => {
  await sweep(1, 40, "dson preset keys, seeds 1-40");
});

Deno.test("dson preset keys, held-out seeds 4001-4040: the same", async () => {
  await sweep(4001, 4040, "dson preset keys, held-out seeds 4001-4040");
});

Deno.test("dson formula spline_tcb: on its keys and at interior midpoints of evenly spaced keys sharing one tension, continuity and bias, the Kochanek–Bartels closed form", () => {
  const r = prng(77);
  for (let trial = 0; trial < 40; trial++) {
    const [t, c, b] = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
    const step = 10 + r() * 50, x0 = -90 + r() * 40;
    const keys = Array.from({ length: 5 }, (_, k) => [x0 + k * step, r() * 2 - 1, t, c, b]);
    for (const [x, y] of keys) assert.equal(splineAt("spline_tcb", keys, x), y);
    for (const i of [1, 2]) {
      const [p0, p1, p2, p3] = [keys[i - 1][1], keys[i][1], keys[i + 1][1], keys[i + 2][1]];
      const out = (1 - t) * (1 + c) * (1 + b) / 2 * (p1 - p0) + (1 - t) * (1 - c) * (1 - b) / 2 * (p2 - p1);
      const into = (1 - t) * (1 - c) * (1 + b) / 2 * (p2 - p1) + (1 - t) * (1 + c) * (1 - b) / 2 * (p3 - p2);
      const got = splineAt("spline_tcb", keys, keys[i][0] + step / 2)!;
      const want = (p1 + p2) / 2 + (out - into) / 8;
      assert.ok(Math.abs(got - want) < 1e-12, `trial ${trial} span ${i}: ${got}, expected ${want}`);
    }
  }
});

async function sweepNames(from: number, to: number, label: string): Promise<void> {
  const wrong: string[] = [];
  let total = 0;
  for (let seed = from; seed <= to; seed++) {
    const { preset, channels } = namedChannels(seed);
    const read = await readDsonPreset(dsonBytes(preset), "Named.duf", () => {});
    total += channels.length;
    for (const want of channels) {
      const got = read.channels.find((c) => c.url === want.url);
      if (
        got?.kind !== "joint" || got.target !== want.target || got.channel !== want.channel ||
        got.value !== want.value
      ) {
        wrong.push(
          `seed ${seed}: ${want.url} read as ${
            JSON.stringify(got ?? read.skipped.find((s) => s.url === want.url)?.reason)
          }`,
        );
      }
    }
  }
  console.log(`${label}: ${wrong.length} of ${total} joint channels not read as their bone's channel`);
  assert.deepEqual(wrong, []);
}

Deno.test("dson preset channel names, seeds 1-40: the spec's, the node property's and Daz Studio's own names pose the bone's channel", async () => {
  await sweepNames(1, 40, "dson preset channel names, seeds 1-40");
});

Deno.test("dson preset channel names, held-out seeds 5001-5040: the same", async () => {
  await sweepNames(5001, 5040, "dson preset channel names, held-out seeds 5001-5040");
});
