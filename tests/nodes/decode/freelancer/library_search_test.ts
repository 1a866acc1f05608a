import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import type { Document, Material } from "@gltf-transform/core";
import { runGraph } from "../../../../mod.ts";
import { main } from "../../../../cli/main.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { flCrc32, formatId } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { indexLibrary } from "../../../../nodes/decode/freelancer/library/index.ts";
import { runNode, type TestContext, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { fighterCmp, libraryFile, writeGameTree } from "./game_tree.ts";
import { tempDir } from "../../../support/temp.ts";

/** A test context that also records every path read. */
function recordingContext(): TestContext & { reads: string[] } {
  const ctx = testContext();
  const reads: string[] = [];
  return { ...ctx, reads, readFile: (path) => (reads.push(resolve(path)), Deno.readFile(path)) };
}

async function decode(path: string, params: Record<string, unknown> = {}, ctx = recordingContext()) {
  const bytes = await Deno.readFile(path);
  const { scene } = await runNode(
    decodeCmp,
    { bytes: { bytes, name: "rh_fighter.cmp" } },
    { model_path: path, ...params } as never,
    ctx,
  );
  const doc = scene as Document;
  const report = getPartgraphExtras(doc.getRoot().getDefaultScene()!).libraries as Record<string, never>;
  const material = (name: string) => doc.getRoot().listMaterials().find((m) => m.getName() === name);
  return { doc, report, material, ctx, messages: ctx.warnings.map((w) => w.message) };
}

const red = (m: Material | undefined) => m?.getBaseColorFactor().slice(0, 3);

Deno.test("auto: the family .mat beside the ship folder and a .txm two levels up, nearest first", async () => {
  const tree = await writeGameTree();
  try {
    await Deno.remove(join(tree.data, "SHIPS/shiparch.ini"));
    await Deno.remove(join(tree.data, "FX/shared/special.mat"));
    const { doc, report, material, messages } = await decode(tree.fighter);
    assert.deepEqual(red(material("rh_paint")), [1, 0, 0]);
    assert.ok(material("rh_paint")!.getBaseColorTexture(), "texture from SHIPS/ships.txm");
    assert.equal(material("rh_glass")!.getAlphaMode(), "BLEND");
    assert.deepEqual(report.searched, [
      "SHIPS/RHEINLAND/rh_fighter",
      "SHIPS/RHEINLAND",
      "SHIPS",
      ".",
      "(the whole tree)",
    ]);
    assert.deepEqual(report.used, ["SHIPS/RHEINLAND/rh_playerships.mat", "SHIPS/ships.txm"]);
    assert.deepEqual(report.materials, [
      { id: formatId(flCrc32("rh_paint")), name: "rh_paint", library: "SHIPS/RHEINLAND/rh_playerships.mat" },
      { id: formatId(flCrc32("rh_glass")), name: "rh_glass", library: "SHIPS/RHEINLAND/rh_playerships.mat" },
      { id: formatId(flCrc32("special_glow")), name: null, library: null },
    ]);
    assert.deepEqual(report.textures, [{ name: "RH_Paint.dds", library: "SHIPS/ships.txm" }]);
    assert.deepEqual(report.missing, {
      meshes: [],
      materials: [formatId(flCrc32("special_glow"))],
      textures: [],
    });
    // The one material no library defines is still a named placeholder with its warning.
    assert.ok(
      doc.getRoot().listMaterials().some((m) =>
        m.getName() === `material_${formatId(flCrc32("special_glow"))}`
      ),
    );
    assert.ok(messages.some((m) => m.includes(formatId(flCrc32("special_glow")))), messages.join("\n"));
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("auto: what neither the inis nor the folder chain supply is found anywhere in the tree", async () => {
  const tree = await writeGameTree();
  try {
    await Deno.remove(join(tree.data, "SHIPS/shiparch.ini"));
    const { report, material } = await decode(tree.fighter);
    assert.deepEqual(report.used, [
      "SHIPS/RHEINLAND/rh_playerships.mat",
      "SHIPS/ships.txm",
      "FX/shared/special.mat",
    ]);
    assert.equal((report.materials as { library: string }[])[2].library, "FX/shared/special.mat");
    assert.ok(material("special_glow")!.getEmissiveFactor()[1] > 0.99);
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("auto: a library another archetype loads comes before the rest of the tree", async () => {
  const tree = await writeGameTree();
  try {
    await Deno.remove(join(tree.data, "FX/shared/special.mat"));
    await tree.write("SHIPS/GENERIC/ge_ships.mat", libraryFile([{ name: "special_glow", ec: [0, 0, 1] }]));
    await tree.write("AA/first_in_tree.mat", libraryFile([{ name: "special_glow", ec: [1, 0, 0] }]));
    const { report, material, messages } = await decode(tree.fighter);
    assert.ok(
      messages.includes("library 'fx\\SHARED\\special.mat' named by SHIPS/shiparch.ini is not under DATA"),
    );
    assert.equal((report.materials as { library: string }[])[2].library, "SHIPS/GENERIC/ge_ships.mat");
    assert.ok(material("special_glow")!.getEmissiveFactor()[2] > 0.99);
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("auto: an archetype ini's material_library in another folder is found and preferred", async () => {
  const tree = await writeGameTree();
  try {
    const { report, material, messages } = await decode(tree.fighter);
    assert.deepEqual(report.archetype_inis, ["SHIPS/shiparch.ini"]);
    assert.deepEqual(report.used, [
      "FX/shared/special.mat",
      "SHIPS/RHEINLAND/rh_playerships.mat",
      "SHIPS/ships.txm",
    ]);
    assert.deepEqual((report.missing as { materials: string[] }).materials, []);
    assert.ok(material("special_glow")!.getEmissiveFactor()[1] > 0.99);
    assert.deepEqual(messages, []);
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("auto: when two libraries define an id the nearest wins, with a warning naming both", async () => {
  const tree = await writeGameTree();
  try {
    await Deno.remove(join(tree.data, "SHIPS/shiparch.ini"));
    const path = await tree.write(
      "SHIPS/RHEINLAND/rh_fighter/rh_fighter.cmp",
      fighterCmp(["rh_paint", "rh_decal"]),
    );
    // Farther away, and read only because it alone defines rh_decal.
    await tree.write(
      "SHIPS/older.mat",
      libraryFile([{ name: "rh_paint", dc: [0, 1, 0] }, { name: "rh_decal" }]),
    );
    const { report, material, messages } = await decode(path);
    assert.deepEqual(red(material("rh_paint")), [1, 0, 0], "the nearer rh_playerships.mat's definition");
    assert.ok(material("rh_decal"));
    assert.deepEqual(report.used, [
      "SHIPS/RHEINLAND/rh_playerships.mat",
      "SHIPS/older.mat",
      "SHIPS/ships.txm",
    ]);
    // Named by the material's name (before, by its id alone).
    const duplicate = messages.find((m) => m.includes("material 'rh_paint'"));
    assert.ok(
      duplicate?.includes("SHIPS/RHEINLAND/rh_playerships.mat and SHIPS/older.mat"),
      messages.join("\n"),
    );
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("auto: a corrupt library is a warning naming it, not a failed model", async () => {
  const tree = await writeGameTree();
  try {
    const corrupt = new Uint8Array(80);
    corrupt.set([0x55, 0x54, 0x46, 0x20, 0x01, 0x01, 0, 0]); // a UTF header whose tree lies outside the file
    new DataView(corrupt.buffer).setUint32(8, 1 << 20, true);
    await tree.write("SHIPS/RHEINLAND/aa_broken.mat", corrupt);
    const { report, material, messages } = await decode(tree.fighter);
    assert.ok(
      messages.some((m) => m.startsWith("library 'SHIPS/RHEINLAND/aa_broken.mat' could not be read")),
      messages.join("\n"),
    );
    assert.equal((report.failed as { library: string }[])[0].library, "SHIPS/RHEINLAND/aa_broken.mat");
    assert.deepEqual(red(material("rh_paint")), [1, 0, 0]);
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("nothing outside data_root is read: model outside, ini path climbing out, link pointing out", async () => {
  const tree = await writeGameTree();
  try {
    await assert.rejects(
      decode(tree.fighter, { data_root: join(tree.data, "FX") }),
      /library search refused: the model .* is outside data_root/,
    );
    const outside = join(tree.base, "outside.mat");
    await Deno.writeFile(outside, libraryFile([{ name: "special_glow" }]));
    await Deno.remove(join(tree.data, "FX/shared/special.mat"));
    await Deno.symlink(outside, join(tree.data, "SHIPS/RHEINLAND/linked.mat"));
    await tree.write(
      "SHIPS/shiparch.ini",
      `[Ship]\nDA_archetype = ships\\rheinland\\rh_fighter\\rh_fighter.cmp\nmaterial_library = ..\\outside.mat\n`,
    );
    const { report, ctx } = await decode(tree.fighter, { data_root: tree.data });
    assert.deepEqual(report.refused, [
      "..\\outside.mat (climbs out of the search's top folder)",
      "SHIPS/RHEINLAND/linked.mat (a link to a file outside the search's top folder)",
    ]);
    assert.deepEqual((report.missing as { materials: string[] }).materials, [
      formatId(flCrc32("special_glow")),
    ]);
    const root = resolve(tree.data);
    assert.deepEqual(ctx.reads.filter((p) => !p.startsWith(root + "/")), []);
    assert.ok(ctx.reads.length >= 3, "the ini and the libraries inside were read");
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("libraries: none keeps today's output; a list is tried in order and may not leave data_root", async () => {
  const tree = await writeGameTree();
  try {
    const none = await decode(tree.fighter, { libraries: "none" });
    assert.equal(none.report, undefined);
    assert.equal(none.ctx.reads.length, 0);
    assert.ok(none.doc.getRoot().listMaterials().every((m) => m.getName().startsWith("material_0x")));
    const list = await decode(tree.fighter, {
      data_root: tree.data,
      libraries: ["SHIPS/RHEINLAND/rh_playerships.mat", "../outside.mat"],
    });
    assert.deepEqual(list.report.used, ["SHIPS/RHEINLAND/rh_playerships.mat"]);
    assert.deepEqual(list.report.refused, ["../outside.mat (outside data_root)"]);
    assert.deepEqual((list.report.missing as { textures: string[] }).textures, ["RH_Paint.dds"]);
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("graphs/freelancer.json with only the model: textured, valid, byte-identical, re-run when a library changes", async () => {
  const tree = await writeGameTree();
  const cacheDir = join(tree.base, "cache");
  try {
    const graph = new URL("../../../../graphs/freelancer.json", import.meta.url).pathname;
    const run = () =>
      runGraph(graph, { inputs: { model: tree.fighter }, cacheDir, outDir: join(tree.base, "out") });
    const first = await run();
    const glb = (first.outputs.glb as { bytes: Uint8Array }).bytes;
    const validation = await validateGltf(glb);
    assert.equal(validation.errors, 0, JSON.stringify(validation));
    const report = first.outputs.report as { libraries: { missing: Record<string, string[]> } };
    assert.deepEqual(report.libraries.missing, { meshes: [], materials: [], textures: [] });
    const fresh = await runGraph(graph, {
      inputs: { model: tree.fighter },
      cacheDir: false,
      outDir: join(tree.base, "out2"),
    });
    assert.deepEqual((fresh.outputs.glb as { bytes: Uint8Array }).bytes, glb);
    assert.equal((await run()).nodes.decode.state, "cached");
    await tree.write("SHIPS/ships.txm", libraryFile([], [{ name: "rh_paint.dds", color565: 0x07e0 }]));
    const edited = await run();
    assert.equal(edited.nodes.decode.state, "done", "a library the decode read changed");
    assert.notDeepEqual((edited.outputs.glb as { bytes: Uint8Array }).bytes, glb);
    // A library appearing in a folder the search lists changes the key too; the ini's library stays first.
    await tree.write(
      "SHIPS/RHEINLAND/rh_fighter/local.mat",
      libraryFile([{ name: "rh_paint", dc: [0, 1, 0] }]),
    );
    const added = await run();
    assert.equal(added.nodes.decode.state, "done");
    const libraries = (added.outputs.report as { libraries: { materials: { library: string }[] } }).libraries;
    assert.equal(libraries.materials[0].library, "SHIPS/RHEINLAND/rh_playerships.mat");
    assert.ok(
      added.warnings.some((w) =>
        w.message.includes("rh_playerships.mat and SHIPS/RHEINLAND/rh_fighter/local.mat")
      ),
      added.warnings.map((w) => w.message).join("\n"),
    );
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("a decode that searched the tree keeps its scene in the cache; one that needed no search does not", async () => {
  const tree = await writeGameTree();
  try {
    const graph = new URL("../../../../graphs/freelancer.json", import.meta.url).pathname;
    const stateAfterPoseChange = async (libraries: string) => {
      const options = { cacheDir: join(tree.base, `cache-${libraries}`), outDir: join(tree.base, "out") };
      const inputs = { model: tree.fighter, libraries };
      await runGraph(graph, { ...options, inputs });
      // A new pose: the resolve runs again, and needs the decoded scene.
      const again = await runGraph(graph, { ...options, inputs: { ...inputs, pose: { nothing: 1 } } });
      assert.equal(again.nodes.resolve.state, "done");
      return again.nodes.decode.state;
    };
    assert.equal(await stateAfterPoseChange("auto"), "cached", "the searched decode was stored and loaded");
    assert.equal(await stateAfterPoseChange("none"), "done", "the plain decode was not stored: it ran again");
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

Deno.test("a library's index is built once per content digest, whichever array holds the bytes", () => {
  const bytes = libraryFile([{ name: "rh_paint", dtName: "a.dds" }], [{ name: "a.dds", color565: 1 }]);
  const index = indexLibrary(bytes, "one.mat");
  assert.equal(indexLibrary(bytes.slice(), "copy.mat"), index);
  assert.deepEqual(index.materials.get(flCrc32("rh_paint"))?.diffuseTexture, { name: "a.dds", flags: 0x40 });
  assert.deepEqual([...index.textures], ["a.dds"]);
});

Deno.test("without a DATA folder or data_root the search stays in the model's own folder", async () => {
  const base = await tempDir({ prefix: "partgraph-fl-nodata-" });
  try {
    await Deno.mkdir(join(base, "ships/x"), { recursive: true });
    const model = join(base, "ships/x/x.cmp");
    await Deno.writeFile(model, fighterCmp(["rh_paint", "rh_glass"]));
    await Deno.writeFile(join(base, "ships/x/local.mat"), libraryFile([{ name: "rh_paint" }]));
    await Deno.writeFile(join(base, "ships/parent.mat"), libraryFile([{ name: "rh_glass" }]));
    const { report, ctx } = await decode(model);
    assert.deepEqual(report.searched, ["."]);
    assert.deepEqual(report.used, ["local.mat"]);
    assert.deepEqual((report.missing as { materials: string[] }).materials, [formatId(flCrc32("rh_glass"))]);
    assert.deepEqual(ctx.reads, [resolve(base, "ships/x/local.mat")]);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("inspect on a model in a game folder lists which library supplied each material", async () => {
  const tree = await writeGameTree();
  const out: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => void out.push(a.join(" "));
  try {
    assert.equal(await main(["inspect", tree.fighter, "--json"]), 0);
    const { summary, warnings } = JSON.parse(out.join("\n"));
    const sources = summary.libraries.materials.map((
      m: { name: string; library: string },
    ) => [m.name, m.library]);
    assert.deepEqual(sources, [
      ["rh_paint", "SHIPS/RHEINLAND/rh_playerships.mat"],
      ["rh_glass", "SHIPS/RHEINLAND/rh_playerships.mat"],
      ["special_glow", "FX/shared/special.mat"],
    ]);
    assert.deepEqual(warnings, []);
  } finally {
    console.log = log;
    await Deno.remove(tree.base, { recursive: true });
  }
});
