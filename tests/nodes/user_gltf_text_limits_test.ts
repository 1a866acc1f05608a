/**
 * Parts declared with limits written as text, as 3ds Max's user-defined properties come through
 * Blender's FBX import and glTF export (tests/nodes/user_gltf/text_limit_files.ts), through
 * `graphs/aircraft_file.json`: every part keeps the limits it declares. Before rig.parts v13 the text
 * was dropped without a word and the defaults applied. Seeds 1–2 here; the measurement's held-out seeds
 * are 1001–1030.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { textLimitFile } from "./user_gltf/text_limit_files.ts";
import { judgeTextLimits } from "./user_gltf/text_limit_judge.ts";
import { editedGlb } from "../support/shapes.ts";

Deno.test("text limits: parts declared through Blender's FBX import keep their limits, named", async () => {
  for (const seed of [1, 2]) {
    const file = await textLimitFile(seed);
    const judged = await judgeTextLimits(file);
    assertEquals([judged.refused, judged.wrong, judged.right], [undefined, [], file.limits.size], file.name);
    assert(
      judged.warnings.some((w) => w.startsWith("part limits written as text")),
      judged.warnings.join("\n"),
    );
  }
});

Deno.test("ctrl_type as typed into 3ds Max's properties (`Rotation`, ` rotation`) declares the part, written back as the word", async () => {
  for (const seed of [4, 5]) {
    const file = await textLimitFile(seed, { typed: true });
    const judged = await judgeTextLimits(file);
    assertEquals([judged.refused, judged.wrong, judged.right], [undefined, [], file.limits.size], file.name);
    assert(judged.warnings.some((w) => w.startsWith("ctrl_type read (and written) as its word")));
  }
});

/** Seed 3's file with one extra of its first declared part set to `value`, judged; and that part's name. */
async function judgedWithExtra(key: string, value: string) {
  const file = await textLimitFile(3);
  const [name] = file.limits.keys();
  const bytes = editedGlb(file.bytes, (json) => {
    const node = (json.nodes as { name?: string; extras?: Record<string, unknown> }[]).find((n) =>
      n.name === name
    )!;
    node.extras![key] = value;
  });
  return { name, judged: await judgeTextLimits({ ...file, bytes }) };
}

Deno.test("a ctrl_type that is neither rotation nor translation is named, not dropped silently", async () => {
  const { name, judged } = await judgedWithExtra("ctrl_type", "hinge");
  assert(
    judged.warnings.some((w) =>
      w.startsWith("ctrl_type neither rotation nor translation") && w.includes(`'${name}'`)
    ),
    judged.warnings.join("\n"),
  );
  assertEquals(judged.wrong.map((w) => w.silent), [false]);
});

Deno.test("text limits: a limit that is no number is named as left out", async () => {
  const { name, judged } = await judgedWithExtra("min", "about -20");
  assert(
    judged.warnings.some((w) => w.includes("no number left out") && w.includes(`'${name}' min "about -20"`)),
    judged.warnings.join("\n"),
  );
  // Named, so not silent.
  assertEquals(judged.wrong.map((w) => w.silent), [false]);
});
