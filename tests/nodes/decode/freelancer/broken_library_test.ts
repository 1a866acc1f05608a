/**
 * A library the search cannot read (a family `.mat` cut short by a failed copy) is skipped with a
 * warning that says what it may have cost: what no library read defines, and the parts drawing it
 * (before, the file and the error alone: a modder could not tell whether the skip mattered, or where).
 * Models from `shared_users.ts`, in a game tree written per seed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { prng } from "../../../support/prng.ts";
import { tempDir } from "../../../support/temp.ts";
import { namedParts } from "./named_parts.ts";
import { sharedUsersCmp } from "./shared_users.ts";
import { partlessCmp } from "./partless_warnings.ts";

/** Seeds developed on; the held-out ones are in the report's measurement, not here. */
const SEEDS = [831, 832, 833, 834];

/**
 * Decodes `ship<seed>.cmp` in a game tree beside its `.mat` cut short (at a seeded byte past the
 * header), and with `intact` an intact copy of the `.mat` in the folder above; the warnings, and the
 * parts and LODs drawing what no readable library defines.
 */
async function decodeBesideBroken(seed: number, intact: boolean) {
  const file = sharedUsersCmp(seed);
  const random = prng(seed * 7 + 1);
  const base = await tempDir();
  const folder = join(base, "DATA", "SHIPS", `ship${seed}`);
  await Deno.mkdir(folder, { recursive: true });
  const model = join(folder, `ship${seed}.cmp`);
  await Deno.writeFile(model, file.cmp);
  const cut = 56 + Math.floor(random() * (file.mat.length / 2));
  await Deno.writeFile(join(folder, `ship${seed}.mat`), file.mat.slice(0, cut));
  if (intact) await Deno.writeFile(join(base, "DATA", "SHIPS", "shared.mat"), file.mat);
  const ctx = testContext();
  await runNode(
    decodeCmp,
    { bytes: { bytes: file.cmp, name: `ship${seed}.cmp` } },
    { model_path: model } as never,
    ctx,
  );
  await Deno.remove(base, { recursive: true });
  // What no library defines: every material when the .mat is lost (all are in it), else the two it
  // lacks; the LODs whose .vms was not merged; the parts drawing any of them, in part order.
  const lacking = new Map<string, Set<number>>();
  const add = (users: Map<string, Set<number>>) => {
    for (const [part, lods] of users) {
      for (const lod of lods) (lacking.get(part) ?? lacking.set(part, new Set()).get(part)!).add(lod);
    }
  };
  for (const [material, users] of file.materialUsers) {
    if (!intact || file.missingMaterials.has(material)) add(users);
  }
  for (const users of file.missingMeshes.values()) add(users);
  if (intact) {
    for (const materials of file.missingTextures.values()) {
      for (const m of materials) add(file.materialUsers.get(m)!);
    }
  }
  const ordered = new Map(file.parts.filter((p) => lacking.has(p)).map((p) => [p, lacking.get(p)!] as const));
  return { warnings: ctx.warnings.map((w) => w.message), lacking: ordered, file };
}

for (const intact of [false, true]) {
  Deno.test(`a library cut short is skipped naming what no library read defines and its parts${intact ? " (a copy elsewhere is read)" : ""}`, async () => {
    for (const seed of SEEDS) {
      const { warnings, lacking } = await decodeBesideBroken(seed, intact);
      const said = warnings.filter((w) =>
        w.startsWith(`library 'SHIPS/ship${seed}/ship${seed}.mat' could not be read`)
      );
      assert.equal(said.length, 1, `seed ${seed}:\n${warnings.join("\n")}`);
      const at = said[0].indexOf("; no library read defines ");
      assert.ok(at > 0, said[0]);
      const { parts, more } = namedParts(said[0].slice(at));
      const expected = [...lacking].map(([part, lods]) =>
        [part, [...lods].sort((a, b) => a - b)] as [string, number[]]
      );
      assert.deepEqual(parts, expected.slice(0, 4), said[0]);
      assert.equal(more, Math.max(0, expected.length - 4), said[0]);
    }
  });
}

Deno.test("a library cut short whose loss costs nothing says so", async () => {
  for (const seed of SEEDS) {
    // The lower LODs' .vms beside the model, and an older copy cut short that sorts before it.
    const file = partlessCmp(seed, true);
    const base = await tempDir();
    const folder = join(base, "DATA", "SHIPS", `ship${seed}`);
    await Deno.mkdir(folder, { recursive: true });
    const model = join(folder, `ship${seed}.cmp`);
    await Deno.writeFile(model, file.cmp);
    await Deno.writeFile(join(folder, `ship${seed}.vms`), file.vms);
    await Deno.writeFile(join(folder, `old_ship${seed}.vms`), file.vms.slice(0, 56 + (seed % 40)));
    const ctx = testContext();
    await runNode(
      decodeCmp,
      { bytes: { bytes: file.cmp, name: `ship${seed}.cmp` } },
      { model_path: model } as never,
      ctx,
    );
    await Deno.remove(base, { recursive: true });
    const warnings = ctx.warnings.map((w) => w.message);
    const said = warnings.filter((w) =>
      w.startsWith(`library 'SHIPS/ship${seed}/old_ship${seed}.vms' could not be read`)
    );
    assert.equal(said.length, 1, `seed ${seed}:\n${warnings.join("\n")}`);
    assert.ok(
      said[0].endsWith("; every mesh, material and texture the model uses was found in the libraries read"),
      said[0],
    );
  }
});
