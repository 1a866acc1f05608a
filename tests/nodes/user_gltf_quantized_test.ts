/**
 * `KHR_mesh_quantization` files as quantizers and the tools after them leave them (tests/nodes/user_gltf/
 * quant_files.ts): the extension left unlisted, normals without `normalized`, byte-aligned interleaving,
 * texture coordinates whose normalized flag or texture transform was lost, positions whose dequantizing
 * node scale was lost. Each decodes as its clean twin does, or is named by mesh; clean files and twins
 * decode with no warning. Development used seeds 1-20, the measurement 301-500 (decode.gltf v68); these
 * are 801 on.
 */
import { deepEqual, ok as assert } from "node:assert/strict";
import { quantFile, type QuantHabit } from "./user_gltf/quant_files.ts";
import { judgeQuant } from "./user_gltf/quant_judge.ts";

async function cases(habit: QuantHabit, count: number) {
  const out = [];
  for (let seed = 801; seed < 801 + count; seed++) {
    const c = await quantFile(habit, seed);
    out.push({ c, j: await judgeQuant(c) });
  }
  return out;
}

const shown = (j: { outcome: string; why: string; said: readonly string[] }) =>
  `${j.outcome}: ${j.why}\n${j.said.join("\n")}`;

Deno.test("quantized attributes with the extension unlisted, normals unflagged or strides byte-aligned read as meant", async () => {
  const said = {
    unlisted: /\/extensionsUsed: 'KHR_mesh_quantization' added/,
    "normal-flag": /\/accessors\/\d+\/normalized: mesh '[^']+''s NORMAL in signed bytes without normalized/,
    "byte-stride": /\/bufferViews\/\d+\/byteStride: 9 is not a multiple of 4/,
  } as const;
  for (const habit of ["unlisted", "normal-flag", "byte-stride"] as const) {
    for (const { c, j } of await cases(habit, 3)) {
      assert(j.outcome === "right", `${c.name} [${c.variant}] ${shown(j)}`);
      assert(j.said.some((w) => said[habit].test(w)), `${c.name}: ${shown(j)}`);
    }
  }
});

Deno.test("integer texture coordinates without their normalized flag are read normalized; without their transform, named", async () => {
  for (const { c, j } of await cases("uv-flag", 3)) {
    assert(j.outcome === "right", `${c.name} [${c.variant}] ${shown(j)}`);
    // Past three alike, the rest are counted by name on one line.
    for (const name of c.habitOn) assert(j.said.some((w) => w.includes(`'${name}'`)), `${name}: ${shown(j)}`);
    assert(j.said.some((w) => /read normalized \(65535 is 1\)/.test(w)), shown(j));
  }
  for (const { c, j } of await cases("uv-transform-lost", 3)) {
    assert(j.outcome === "warned", `${c.name} [${c.variant}] ${shown(j)}`);
    assert(j.said.some((w) => /12 bits would be 4095/.test(w)), shown(j));
  }
});

Deno.test("integer positions no node scales back are named, and left out of the unit judgment", async () => {
  for (const { c, j } of await cases("no-dequant", 4)) {
    assert(j.outcome === "warned", `${c.name} [${c.variant}] ${shown(j)}`);
    assert(!j.said.some((w) => /the size of the model's other parts/.test(w)), shown(j));
  }
});

Deno.test("clean quantized files and every case's clean twin decode with no warning", async () => {
  for (const habit of ["clean", "unlisted", "uv-flag", "no-dequant"] as const) {
    for (const { c, j } of await cases(habit, 3)) deepEqual(j.falseWarnings, [], `${c.name}`);
  }
});
