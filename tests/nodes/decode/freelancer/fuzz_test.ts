import assert from "node:assert/strict";
import { decodeModel } from "../../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../../nodes/decode/freelancer/codec/build_scene.ts";
import { resolveFreelancerScene } from "../../../../nodes/decode/freelancer/resolver_run.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { buildCompound, CONSTRAINTS } from "./fixtures.ts";
import { prng } from "../../../support/prng.ts";
import { heldOutCount } from "../../../support/heldout.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";

// The tests build scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

/** A small but complete compound: Root + Turret (rev) + Barrel (pris), shared mesh, material, texture. */
const SMALL = buildCompound({
  constraints: CONSTRAINTS.filter((c) => ["TURRET", "Barrel"].includes(c.child)),
}).bytes;

/** Decodes, builds and resolves; returns "ok" or "decode-error", and rethrows anything else. */
function attempt(bytes: Uint8Array): "ok" | "decode-error" {
  try {
    const warn = () => {};
    const doc = buildScene(decodeModel({ bytes, name: "fuzz.cmp" }, [], warn), warn);
    resolveFreelancerScene(doc, { Turret: 10 }, warn);
    return "ok";
  } catch (error) {
    if (error instanceof DecodeError) {
      const offset = (error.at as { offset?: number }).offset;
      assert.ok(
        typeof offset === "number" && offset >= 0 && offset <= bytes.length,
        `offset ${offset} inside the file`,
      );
      return "decode-error";
    }
    throw error;
  }
}

Deno.test("the small fixture decodes cleanly (so the mutations below start from a valid file)", () => {
  assert.equal(attempt(SMALL), "ok");
  assert.ok(SMALL.length < 8000, `${SMALL.length} bytes`);
});

Deno.test("truncation at every offset is a DecodeError naming an offset inside the file", () => {
  for (let length = 0; length < SMALL.length; length++) {
    const result = attempt(SMALL.slice(0, length));
    // Only the padding after the last payload may go without changing what is read.
    if (length < SMALL.length - 3) assert.equal(result, "decode-error", `truncated to ${length}`);
  }
});

Deno.test("huge counts and offsets: 0xFFFFFFFF at every 2-byte position (u16 counts and u32 offsets)", () => {
  let errors = 0;
  for (let at = 0; at + 4 <= SMALL.length; at += 2) {
    const bytes = SMALL.slice();
    new DataView(bytes.buffer).setUint32(at, 0xffffffff, true);
    if (attempt(bytes) === "decode-error") errors++;
  }
  assert.ok(errors > 100, `${errors} errors`);
});

// The suite runs the first 500 of the held-out run's 10,000 (the same stream): a random sample beside
// the exhaustive truncations and huge values above; `deno task heldout` runs all 10,000.
Deno.test("seeded random mutations (500; 10,000 under deno task heldout): every outcome is success or a DecodeError", () => {
  const random = prng(0x5eed);
  const outcomes = { ok: 0, "decode-error": 0 };
  for (let i = 0; i < heldOutCount(10_000, 500); i++) {
    const bytes = SMALL.slice();
    const flips = 1 + Math.floor(random() * 8);
    for (let f = 0; f < flips; f++) {
      const at = Math.floor(random() * bytes.length);
      const kind = random();
      bytes[at] = kind < 0.25
        ? 0xff
        : kind < 0.4
        ? 0
        : kind < 0.5
        ? bytes[at] ^ (1 << Math.floor(random() * 8))
        : Math.floor(random() * 256);
    }
    outcomes[attempt(bytes)]++;
  }
  assert.ok(outcomes.ok > 0 && outcomes["decode-error"] > 0, JSON.stringify(outcomes));
});
