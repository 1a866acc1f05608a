/**
 * Fuzzing: 4,500 seeded mutations (15,000 under `deno task heldout`) of code-built `.3df`, `.car` and `.vtl` files (bit flips, hostile counts,
 * truncation, appended and removed bytes) through the full decode nodes — and the bone resolver for
 * `.3df` — must each give a scene or a typed DecodeError: never a RangeError, a hang or a huge
 * allocation.
 */
import assert from "node:assert/strict";
import type { AnyNodeDef } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeCar } from "../../../../nodes/decode/carnivores/decode_car.ts";
import { carnivoresResolver } from "../../../../nodes/decode/carnivores/resolver.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { animatedCar, animation, limbModel } from "./fixtures.ts";
import { parseVtl } from "../../../../nodes/decode/carnivores/codec/parse_vtl.ts";
import { encodeVtl } from "../../../support/carnivores/vtl.ts";
import { prng } from "../../../support/prng.ts";
import { heldOutCount } from "../../../support/heldout.ts";

/** In the suite the first 500 of each stream (was 1,500); `deno task heldout` runs all 5,000. */
const MUTATIONS_PER_FORMAT = heldOutCount(5_000, 500);
/** Each path (decoded, rejected) must be taken by more than a tenth of the mutations. */
const TENTH = MUTATIONS_PER_FORMAT / 10;
const SEED = 0x3df_ca7;

const HOSTILE = [0, 1, -1, 2, 7, 255, 256, 511, 512, 513, 1024, 65535, 0x7fffffff, -0x80000000, 0x10000];

/** One random mutation of `base`; `headerBytes` bounds the count fields it targets more often. */
function mutate(base: Uint8Array, headerBytes: number, random: () => number): Uint8Array {
  const int = (n: number) => Math.floor(random() * n);
  const kind = int(6);
  if (kind === 0) {
    const out = base.slice();
    for (let i = 1 + int(4); i > 0; i--) out[int(out.length)] ^= 1 << int(8);
    return out;
  }
  if (kind === 1 || kind === 2) {
    const out = base.slice();
    const span = kind === 1 ? headerBytes : out.length;
    const at = Math.min(int(span / 4) * 4, out.length - 4);
    const value = random() < 0.7 ? HOSTILE[int(HOSTILE.length)] : int(2 ** 32) | 0;
    new DataView(out.buffer).setInt32(at, value, true);
    return out;
  }
  if (kind === 3) return base.slice(0, int(base.length));
  if (kind === 4) {
    const extra = Uint8Array.from({ length: 1 + int(600) }, () => int(256));
    return new Uint8Array([...base, ...extra]);
  }
  const from = int(base.length);
  const to = Math.min(base.length, from + 1 + int(64));
  return new Uint8Array([...base.subarray(0, from), ...base.subarray(to)]);
}

async function fuzz(node: AnyNodeDef, base: Uint8Array, headerBytes: number, name: string, seed: number) {
  const random = prng(seed);
  const outcomes = { decoded: 0, rejected: 0 };
  for (let i = 0; i < MUTATIONS_PER_FORMAT; i++) {
    const bytes = mutate(base, headerBytes, random);
    const ctx = testContext();
    try {
      const { scene } = await runNode(node, { bytes: { bytes, name } }, {}, ctx);
      if (node === decode3df) await carnivoresResolver.resolve({ scene, params: {}, ctx });
      outcomes.decoded++;
    } catch (error) {
      if (!(error instanceof DecodeError)) {
        assert.fail(`mutation ${i} (seed ${seed}) of ${name} threw ${error}\n${(error as Error).stack}`);
      }
      assert.equal(typeof (error.at as { offset: number }).offset, "number");
      outcomes.rejected++;
    }
  }
  return outcomes;
}

Deno.test("fuzz: mutated .3df files decode (and resolve) or give a DecodeError", async () => {
  const outcomes = await fuzz(decode3df, encode3df(limbModel()), 16, "fuzz.3df", SEED);
  // Both paths must be exercised for the test to mean anything.
  assert.ok(outcomes.decoded > TENTH && outcomes.rejected > TENTH, JSON.stringify(outcomes));
});

Deno.test("fuzz: mutated .car files decode or give a DecodeError", async () => {
  const outcomes = await fuzz(decodeCar, encodeCar(animatedCar()), 52, "fuzz.car", SEED + 1);
  assert.ok(outcomes.decoded > TENTH && outcomes.rejected > TENTH, JSON.stringify(outcomes));
});

Deno.test("fuzz: mutated .vtl files (both layouts) parse for the limb model or give a DecodeError", () => {
  const model = limbModel();
  const clip = animation("walk", 10, 4, model.points, 0);
  const random = prng(SEED + 2);
  const outcomes = { parsed: 0, rejected: 0 };
  for (let i = 0; i < MUTATIONS_PER_FORMAT; i++) {
    const layout = i % 2 ? "engine" : "animator";
    const bytes = mutate(encodeVtl(clip, { layout }), 16, random);
    try {
      parseVtl(bytes, "fuzz.vtl", "fuzz", model.points.count, () => {});
      outcomes.parsed++;
    } catch (error) {
      if (!(error instanceof DecodeError)) assert.fail(`mutation ${i} threw ${error}`);
      outcomes.rejected++;
    }
  }
  assert.ok(outcomes.parsed > TENTH && outcomes.rejected > TENTH, JSON.stringify(outcomes));
});
