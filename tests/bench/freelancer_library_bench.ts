/**
 * Library discovery over a code-built game tree shaped like retail's `DATA/SHIPS`: 142 compounds in
 * 10 families, each ship using 4 family materials (family `.mat` beside the ship folders, textures
 * inside it), 1 material of its own folder's `.mat`, 1 shared material whose texture sits in a `.txm`
 * two levels up, and, for every other ship, 1 light material only `shiparch.ini` names (in `FX/`).
 * Run: `deno bench --frozen --allow-read --allow-write tests/bench/freelancer_library_bench.ts`.
 * Prints how many used materials and textures come out real with `libraries: none` and `auto`, and
 * the batch time per model (figures recorded in docs/freelancer.md).
 */
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { decodeCmp } from "../../nodes/decode/freelancer/decode_cmp.ts";
import { runNode, testContext } from "../support/context.ts";
import { fighterCmp, libraryFile } from "../nodes/decode/freelancer/game_tree.ts";

const FAMILIES = 10;
const SHIPS = 142;

const base = await Deno.makeTempDir({ prefix: "partgraph-fl-bench-" });
globalThis.addEventListener("unload", () => Deno.removeSync(base, { recursive: true }));
const data = join(base, "DATA");
const write = async (relative: string, bytes: Uint8Array | string) => {
  const path = join(data, relative);
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeFile(path, typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
  return path;
};
const ini: string[] = [];
const models: string[] = [];
for (let f = 0; f < FAMILIES; f++) {
  const family = (k: number) => `fam${f}_mat${k}`;
  await write(
    `SHIPS/FAM${f}/fam${f}_ships.mat`,
    libraryFile(
      Array.from({ length: 4 }, (_, k) => ({ name: family(k), dtName: `${family(k)}.dds` })),
      Array.from({ length: 4 }, (_, k) => ({ name: `${family(k)}.dds`, color565: 31 * k + f })),
    ),
  );
}
await write("SHIPS/shared.mat", libraryFile([{ name: "shared_glass", dtName: "glass.dds" }]));
await write("universal.txm", libraryFile([], [{ name: "glass.dds", color565: 0x001f }]));
await write("FX/lights.mat", libraryFile([{ name: "light_red", ec: [1, 0, 0] }]));
for (let s = 0; s < SHIPS; s++) {
  const f = s % FAMILIES;
  const folder = `SHIPS/FAM${f}/ship${s}`;
  const materials = [0, 1, 2, 3].map((k) => `fam${f}_mat${k}`).concat(`ship${s}_decal`, "shared_glass");
  if (s % 2 === 0) materials.push("light_red");
  await write(`${folder}/ship${s}_own.mat`, libraryFile([{ name: `ship${s}_decal` }]));
  models.push(await write(`${folder}/ship${s}.cmp`, fighterCmp(materials)));
  if (s % 2 === 0) {
    ini.push(
      "[Ship]",
      `DA_archetype = ${folder.replaceAll("/", "\\")}\\ship${s}.cmp`,
      "material_library = fx\\lights.mat",
    );
  }
}
await write("SHIPS/shiparch.ini", ini.join("\r\n"));

async function batch(libraries: "auto" | "none") {
  const counts = { materials: 0, real: 0, textures: 0, textured: 0 };
  const started = performance.now();
  for (const model of models) {
    const { scene } = await runNode(
      decodeCmp,
      { bytes: { bytes: await Deno.readFile(model), name: "ship.cmp" } },
      { libraries, model_path: model },
      testContext(),
    );
    for (const material of (scene as Document).getRoot().listMaterials()) {
      counts.materials++;
      if (!material.getName().startsWith("material_0x")) counts.real++;
    }
    counts.textured += (scene as Document).getRoot().listTextures().length;
  }
  return { ...counts, msPerModel: (performance.now() - started) / models.length };
}

/** One ship that also uses a material no library defines: the search reads the whole tree for it. */
async function missingEverywhere() {
  const path = await write("SHIPS/FAM0/odd/odd.cmp", fighterCmp(["fam0_mat0", "defined_nowhere"]));
  const started = performance.now();
  const ctx = testContext();
  await runNode(decodeCmp, { bytes: { bytes: await Deno.readFile(path), name: "odd.cmp" } }, {
    model_path: path,
  }, ctx);
  const ms = performance.now() - started;
  await Deno.remove(join(path, ".."), { recursive: true });
  return ms;
}

const none = await batch("none");
const cold = await batch("auto");
const warm = await batch("auto");
console.log(
  `${models.length} compounds: none ${none.real}/${none.materials} materials real, ${none.textured} textures; ` +
    `auto ${cold.real}/${cold.materials} real, ${cold.textured} textures; ` +
    `${none.msPerModel.toFixed(2)} ms/model none, ${cold.msPerModel.toFixed(2)} cold, ${
      warm.msPerModel.toFixed(2)
    } warm`,
);
console.log(
  `a model using an id no library defines (the whole tree searched): ${
    (await missingEverywhere()).toFixed(1)
  } ms`,
);

Deno.bench("decode.cmp libraries: none", async () => {
  await runNode(decodeCmp, { bytes: { bytes: await Deno.readFile(models[0]), name: "s.cmp" } }, {
    libraries: "none",
    model_path: models[0],
  });
});
Deno.bench("decode.cmp libraries: auto (indexes remembered)", async () => {
  await runNode(decodeCmp, { bytes: { bytes: await Deno.readFile(models[0]), name: "s.cmp" } }, {
    model_path: models[0],
  });
});
