/**
 * A compound fragment's warnings name the part it belongs to: retail's exporter names fragments by
 * digits (`ship_lod11219021512.3db`), so the fragment's file name and "the part" did not tell a modder
 * which part of the ship to look at. A mesh whose `VMeshData` is misspelt names the parts drawing it.
 * Files from `fragment_parts.ts`.
 */
import assert from "node:assert/strict";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { fragmentPartsCmp } from "./fragment_parts.ts";

/** Seeds developed on; the held-out ones are in the report's measurement, not here. */
const SEEDS = [821, 822, 823, 824, 825, 826];

async function decode(cmp: Uint8Array, seed: number): Promise<string[]> {
  const ctx = testContext();
  await runNode(
    decodeCmp,
    { bytes: { bytes: cmp, name: `ship${seed}.cmp` } },
    { libraries: "none" } as never,
    ctx,
  );
  return ctx.warnings.map((w) => w.message);
}

Deno.test("every warning about a compound's fragment names the part whose fragment it is", async () => {
  for (const seed of SEEDS) {
    const file = fragmentPartsCmp(seed);
    const warnings = await decode(file.cmp, seed);
    for (const { kind, part, fragment } of file.habits) {
      const said = warnings.filter((w) => w.includes(fragment));
      assert.ok(said.length >= 1, `seed ${seed} ${kind}: warned about ${fragment}:\n${warnings.join("\n")}`);
      // The fragment reader's own warnings begin with the part; the scene's (a mesh it lacks) name it.
      for (const w of said) assert.ok(w.includes(`part '${part}'`), `seed ${seed} ${kind}: ${w}`);
      assert.ok(said.some((w) => w.startsWith(`part '${part}': ${fragment}/`)), said.join("\n"));
    }
  }
});

Deno.test("a mesh whose VMeshData leaf is misspelt names the part and LOD drawing it", async () => {
  for (const seed of SEEDS) {
    const file = fragmentPartsCmp(seed);
    const warnings = await decode(file.cmp, seed);
    const { name, users } = file.misspeltMesh!;
    const said = warnings.filter((w) =>
      w.startsWith(`mesh '${name}'`) && w.includes("entry 'VMeshDat' is not read")
    );
    assert.equal(said.length, 1, `seed ${seed}:\n${warnings.join("\n")}`);
    const [[part, lods]] = [...users];
    assert.ok(said[0].endsWith(`; drawn on part '${part}' LOD ${[...lods][0]}`), said[0]);
  }
});

Deno.test("the same compounds without the habits decode without a warning", async () => {
  for (const seed of SEEDS) {
    assert.deepEqual(await decode(fragmentPartsCmp(seed, true).cmp, seed), [], `seed ${seed}`);
  }
});
