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

Deno.test("a Cmpnd entry a mod tool named otherwise names the part by its Object name", async () => {
  for (const seed of SEEDS) {
    const file = fragmentPartsCmp(seed);
    const warnings = await decode(file.cmp, seed);
    const { entry, part } = file.misnamedEntry!;
    const said = warnings.filter((w) => w.includes(`Cmpnd entry '${entry}' is named neither Root nor Part_`));
    assert.equal(said.length, 1, `seed ${seed}:\n${warnings.join("\n")}`);
    assert.ok(said[0].startsWith(`part '${part}': `), said[0]);
  }
});

Deno.test("a misspelt library folder inside a fragment names the part whose fragment it is", async () => {
  for (const seed of SEEDS) {
    const file = fragmentPartsCmp(seed);
    const warnings = await decode(file.cmp, seed);
    const { part, fragment } = file.misspeltLibrary!;
    const said = warnings.filter((w) => w.includes(`entry 'VMeshLibary' is not read`));
    assert.equal(said.length, 1, `seed ${seed}:\n${warnings.join("\n")}`);
    assert.ok(said[0].includes(fragment), said[0]);
    assert.ok(said[0].startsWith(`part '${part}': `), said[0]);
  }
});

Deno.test("a damaged MaterialAnim entry names the parts and LODs drawing its material", async () => {
  let several = 0;
  for (const seed of SEEDS) {
    const file = fragmentPartsCmp(seed);
    const warnings = await decode(file.cmp, seed);
    const { material, users } = file.damagedAnim!;
    const said = warnings.filter((w) => w.startsWith(`ship${seed}.cmp: MaterialAnim/${material}: `));
    assert.equal(said.length, 1, `seed ${seed}:\n${warnings.join("\n")}`);
    const tail = said[0].indexOf(`material '${material}' is drawn on `);
    assert.ok(tail > 0, said[0]);
    const named = [...said[0].slice(tail).matchAll(/part '([^']+)' LOD (\d+)/g)].map((
      m,
    ) => [m[1], Number(m[2])]);
    const truth = [...users].map(([part, lods]) => [part, [...lods][0]]);
    assert.deepEqual(named, truth.slice(0, 4), said[0]);
    const more = /and (\d+) more parts?\b/.exec(said[0]);
    assert.equal(more ? Number(more[1]) : 0, Math.max(0, truth.length - 4), said[0]);
    if (truth.length > 1) several++;
  }
  assert.ok(several >= 2, "the exhaust is drawn by several parts in some seeds");
});
