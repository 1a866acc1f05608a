/**
 * Cases `deno task fuzz` found, kept as regressions: each is rebuilt from its (format, seed, index),
 * so the fixture is made by code, and must now end in a valid output or a typed error.
 */
import assert from "node:assert/strict";
import { fuzzInput, runFuzzCase } from "./pipeline.ts";
import type { FuzzFormat } from "./seeds.ts";

const FOUND: { format: FuzzFormat; seed: number; index: number; was: string }[] = [
  // A damaged BIN chunk header: buffer 0 had no data and glTF-Transform read `undefined.buffer`.
  { format: "glb", seed: 1, index: 9131, was: "TypeError wrapped in a DecodeError" },
  // A material sampling TEXCOORD_1 on a primitive with one UV set: the validator's error was missed
  // because the refusal asked for one issue and got a warning. Now repaired (TEXCOORD_0) and valid.
  { format: "cmp", seed: 1, index: 875, was: "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS in the output" },
  // A texture whose only image came through a KHR_texture_basisu whose name was damaged: glTF-Transform
  // dropped the sourceless texture and failed on the material using it (`null.setWrapS`).
  { format: "ktx2", seed: 0xf022, index: 20, was: "TypeError wrapped in a DecodeError" },
];

for (const { format, seed, index, was } of FOUND) {
  Deno.test(`fuzz regression ${format} seed ${seed} case ${index} (was: ${was})`, async () => {
    const { name, bytes } = await fuzzInput(format, seed, index);
    const result = await runFuzzCase(bytes, name);
    assert.ok(result.outcome === "ok" || result.outcome === "typed", `${result.outcome}: ${result.detail}`);
  });
}
