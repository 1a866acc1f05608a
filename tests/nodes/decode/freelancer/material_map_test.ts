/**
 * The game's `[MaterialMap]` (`EXE/dacom.ini`) and the materials it gives their shaders: the map's
 * rules as Librelancer applies them (patterns last to first, unanchored and case-sensitive against
 * the lower-cased name; exact keys against the type), retail's table when no `dacom.ini` is found,
 * the install's own when it is (read through the run context, so it keys the cache), and nomad
 * materials drawn as Librelancer's `Nomad.glsl` draws them facing the viewer. Fixtures are built by
 * code; expected pixels are worked out from the shader's sums.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { decodePng } from "./png_pixels.ts";
import type { Document, Material } from "@gltf-transform/core";
import { runGraph } from "../../../../mod.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import {
  materialMapType,
  readMaterialMap,
  RETAIL_MATERIAL_MAP,
} from "../../../../nodes/decode/freelancer/codec/material_map.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import {
  encodeString,
  encodeU32,
  encodeUtf,
  utfDir,
  utfLeaf,
} from "../../../support/freelancer/encode_utf.ts";
import { concat, ddsHeader } from "../../../support/freelancer/images.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { fighterCmp, libraryFile, writeGameTree } from "./game_tree.ts";
import {
  assertValid,
  decodeTree as decode,
  freelancerExtras as extrasOf,
  materialNamed as material,
  triangleModel,
} from "./triangle_models.ts";

const ini = (text: string) => new TextEncoder().encode(text);

/** An uncompressed 32-bit DDS of `texels.length` × 1, each `[r, g, b, a]` (stored B, G, R, A). */
const rgbaDds = (texels: readonly (readonly number[])[]) =>
  concat(
    ddsHeader(texels.length, 1, { bits: 32, pfFlags: 0x41, masks: [0xff0000, 0xff00, 0xff, 0xff000000] }),
    texels.flatMap(([r, g, b, a]) => [b, g, r, a]),
  );
const texture = (name: string, dds: Uint8Array) => utfDir(name, [utfLeaf("MIPS", dds)]);

/** The base-colour texture's texels, `[r, g, b, a]` each. */
function texels(m: Material): number[][] {
  const png = decodePng(m.getBaseColorTexture()!.getImage()!);
  const data = png.data as Uint8Array;
  return Array.from({ length: png.width * png.height }, (_, i) => [...data.subarray(4 * i, 4 * i + 4)]);
}

// ---------------------------------------------------------------------------------------------
// The rules

Deno.test("[MaterialMap]: the last matching pattern wins, unanchored, against the lower-cased name; keys against the type", () => {
  const warnings: string[] = [];
  const map = readMaterialMap(
    ini(
      [
        "[Shaders]",
        "name = ^hull.* = Nebula ; another section's lines are not the map's",
        "[MaterialMap] ; evaluated bottom to top",
        "DcDtEcEt = DcDtEt",
        "name = ^hull.* = DcDtTwo",
        "name = ^hull_glow$ = NebulaTwo",
        "name = x{2,3} = Nebula",
        "Name = ^bad( = DcDt",
        "name = no type here",
        "DcDtEcEt = DcDt",
        "name = ^DcDtOcOt$ = DcDt",
      ].join("\r\n"),
    ),
    "EXE/dacom.ini",
    (m) => warnings.push(m),
  );
  const type = (stored: string, name: string) => materialMapType(map, stored, name);
  // Both hull patterns match; the one listed last is tried first.
  assert.deepEqual(type("DcDt", "HULL_GLOW"), { type: "NebulaTwo", rule: "name = ^hull_glow$" });
  assert.deepEqual(type("DcDt", "hull_plate"), { type: "DcDtTwo", rule: "name = ^hull.*" });
  // Unanchored, and a comma inside the regex is part of it: `x{2,3}` matches inside the name.
  assert.deepEqual(type("DcDt", "ship_xxx_1"), { type: "Nebula", rule: "name = x{2,3}" });
  // Exact keys rewrite the type, case-sensitively; the first of a repeated key is kept.
  assert.deepEqual(type("DcDtEcEt", "panel"), { type: "DcDtEt", rule: "DcDtEcEt" });
  assert.equal(type("dcdtecet", "panel"), undefined);
  assert.equal(type("DcDt", "DcDtEcEt"), undefined, "the name is looked up in lower case");
  // Librelancer looks the stored type up in the patterns too; the name's rule wins over it.
  assert.deepEqual(type("DcDtOcOt", "panel"), { type: "DcDt", rule: "name = ^DcDtOcOt$" });
  assert.deepEqual(type("DcDtOcOt", "hull_x"), { type: "DcDtTwo", rule: "name = ^hull.*" });
  // A rule giving the stored type back rewrites nothing.
  assert.equal(type("DcDtTwo", "hull_x"), undefined);
  assert.equal(warnings.length, 3, warnings.join("\n"));
  assert.match(warnings[0], /EXE\/dacom\.ini \[MaterialMap\]: the pattern '\^bad\(' does not compile/);
  assert.match(warnings[1], /'name = no type here' is not '<regex> = <type>'/);
  assert.match(warnings[2], /'DcDtEcEt' is listed again; the first, 'DcDtEt', is kept/);
});

Deno.test("[MaterialMap]: of several sections the last counts; a file without one rewrites nothing, with a warning", () => {
  const warnings: string[] = [];
  const two = readMaterialMap(
    ini("[MaterialMap]\nname = ^a$ = Nebula\n[materialmap]\nname = ^b$ = Nebula\n"),
    "dacom.ini",
    (m) => warnings.push(m),
  );
  assert.equal(materialMapType(two, "DcDt", "a"), undefined);
  assert.equal(materialMapType(two, "DcDt", "b")?.type, "Nebula");
  const none = readMaterialMap(ini("[Engine]\nx = 1\n"), "dacom.ini", (m) => warnings.push(m));
  assert.equal(materialMapType(none, "DcDtEcEt", "tlr_material"), undefined);
  assert.deepEqual(warnings, ["dacom.ini has no [MaterialMap] section; no material type is rewritten"]);
});

Deno.test("the built-in retail table: trade lanes, nomads, alpha masks, glass, and the two type rewrites", () => {
  const type = (stored: string, name: string) => materialMapType(RETAIL_MATERIAL_MAP, stored, name)?.type;
  assert.equal(type("DcDt", "tlr_material"), "NebulaTwo");
  assert.equal(type("DcDt", "tlr_material_2"), undefined, "anchored at both ends");
  assert.equal(type("DcDtBtOcOtTwo", "Nomad_Hull_01"), "NomadMaterialNoBendy");
  assert.equal(type("DcDt", "n-texture04"), "NomadMaterialNoBendy");
  // `^alpha_mask.*2side` is listed after `^alpha_mask.*`, so it is tried first.
  assert.equal(type("DcDtOcOt", "alpha_mask_rail_2side"), "DcDtTwo");
  assert.equal(type("DcDtOcOt", "alpha_mask_rail"), "DcDt");
  assert.equal(type("DcDtOcOt", "planet_dome_glass"), "GFGlassMaterial");
  assert.equal(type("DcDtOcOt", "c_glass"), "HighGlassMaterial");
  assert.equal(type("DcDtOcOt", "rh_glass"), undefined);
  assert.equal(type("EcEtOcOt", "x"), "DcDtOcOt");
  assert.equal(type("DcDtEcEt", "x"), "DcDtEt");
});

// ---------------------------------------------------------------------------------------------
// Decoding with retail's table (no dacom.ini: a model given alone)

Deno.test("retail's table draws a trade-lane ring additive and alpha masks cut out; the stored type is kept in extras", async () => {
  // Half-transparent and opaque texels in a 32-bit texture: not DXT1, so only the name makes a mask.
  const lane = [[0, 0, 0, 255], [255, 128, 0, 255]];
  const { scene } = await decode(
    triangleModel(
      [
        { name: "tlr_material", type: "DcDt", dc: [0.2, 0.2, 0.2], dtName: "lane.dds" },
        { name: "alpha_mask_rail", type: "DcDtOcOt", oc: 1, dtName: "rail.dds" },
        { name: "detailmap_hull", type: "DcDt", dtName: "rail.dds" },
        { name: "hull", type: "DcDtOcOt", oc: 1, dtName: "rail.dds" },
      ],
      {
        textures: [
          texture("lane.dds", rgbaDds(lane)),
          texture("rail.dds", rgbaDds([[200, 200, 200, 255], [200, 200, 200, 0]])),
        ],
      },
    ),
    "lane.3db",
  );
  const ring = material(scene, "tlr_material");
  assert.equal(ring.getAlphaMode(), "BLEND");
  assert.ok(ring.getExtension("KHR_materials_unlit") && ring.getDoubleSided(), "NebulaTwo: unlit, two-sided");
  assert.equal(ring.getBaseColorTexture()!.getName(), "lane.dds (additive)");
  // Black adds nothing (transparent); opaque orange adds itself.
  assert.deepEqual(texels(ring), [[0, 0, 0, 0], [255, 128, 0, 255]]);
  assert.deepEqual(extrasOf(ring), {
    material_id: extrasOf(ring).material_id,
    type: "NebulaTwo",
    stored_type: "DcDt",
    material_map: "name = ^tlr_material$",
  });
  const rail = material(scene, "alpha_mask_rail");
  assert.equal(rail.getAlphaMode(), "MASK", "DcDt (not blended), alpha-tested by its name");
  assert.equal(rail.getAlphaCutoff(), 0.5);
  assert.equal(extrasOf(rail).stored_type, "DcDtOcOt");
  assert.equal(
    material(scene, "detailmap_hull").getAlphaMode(),
    "MASK",
    "BtDetailMapMaterial is alpha-tested",
  );
  assert.equal(extrasOf(material(scene, "detailmap_hull")).type, "BtDetailMapMaterial");
  const hull = material(scene, "hull");
  assert.equal(hull.getAlphaMode(), "BLEND", "a name no rule matches keeps its type");
  assert.equal(extrasOf(hull).stored_type, undefined);
  await assertValid(scene);
});

// ---------------------------------------------------------------------------------------------
// Nomad materials

Deno.test("nomad: unlit, two-sided, blended, the ramp's facing texel added to the diffuse texture", async () => {
  const ramp = [[255, 0, 0, 255], [0, 0, 0, 128], [10, 20, 30, 128]]; // facing: the last texel
  const { scene, warnings } = await decode(
    triangleModel(
      [
        // Authored as retail's nomad hulls are (DcDtBtOcOtTwo), drawn as NomadMaterialNoBendy by name.
        { name: "nomad_hull", type: "DcDtBtOcOtTwo", dc: [0, 0, 1], oc: 0.25, dtName: "hull.dds" },
        // A nomad type naming its own ramp, black and opaque where it faces: the texture as stored.
        {
          name: "own_ramp",
          type: "NomadMaterial",
          dtName: "hull.dds",
          leaves: [utfLeaf("Nt_name", encodeString("dark.dds")), utfLeaf("Nt_flags", encodeU32(0))],
        },
      ],
      {
        textures: [
          texture("hull.dds", rgbaDds([[100, 200, 250, 255], [0, 0, 0, 0], [255, 255, 255, 128]])),
          texture("NomadRGB1_NomadAlpha1", rgbaDds(ramp)),
          texture("dark.dds", rgbaDds([[255, 255, 255, 255], [0, 0, 0, 255]])),
        ],
      },
    ),
    "nomad.3db",
  );
  assert.deepEqual(warnings, []);
  const hull = material(scene, "nomad_hull");
  assert.equal(hull.getAlphaMode(), "BLEND");
  assert.ok(hull.getExtension("KHR_materials_unlit") && hull.getDoubleSided());
  assert.deepEqual(hull.getBaseColorFactor(), [1, 1, 1, 1], "Dc and Oc play no part");
  assert.equal(hull.getBaseColorTexture()!.getName(), "hull.dds (nomad)");
  // rgb + (10, 20, 30) capped at 255; alpha × 128/255.
  assert.deepEqual(texels(hull), [[110, 220, 255, 128], [10, 20, 30, 0], [255, 255, 255, 64]]);
  assert.equal(extrasOf(hull).type, "NomadMaterialNoBendy");
  assert.equal(extrasOf(hull).stored_type, "DcDtBtOcOtTwo");
  const own = material(scene, "own_ramp");
  assert.equal(own.getBaseColorTexture()!.getName(), "hull.dds");
  assert.deepEqual(texels(own), [[100, 200, 250, 255], [0, 0, 0, 0], [255, 255, 255, 128]]);
  assert.equal(extrasOf(own).stored_type, undefined);
  await assertValid(scene);
});

Deno.test("nomad: the default ramp is found by library search in another library of the tree", async () => {
  const tree = await writeGameTree();
  try {
    const model = await tree.write("SHIPS/NOMAD/no_fighter/no_fighter.cmp", fighterCmp(["nomad_skin"]));
    await tree.write(
      "SHIPS/NOMAD/nomad_ships.mat",
      libraryFile([{ name: "nomad_skin", type: "DcDtBtOcOtTwo", dtName: "nomad_skin.dds" }], [
        { name: "nomad_skin.dds", color565: 0x001f },
      ]),
    );
    // The ramp lives far from the ship, as a shared effect texture: pure green, opaque.
    await tree.write(
      "FX/nomad_fx.txm",
      libraryFile([], [{ name: "NomadRGB1_NomadAlpha1", color565: 0x07e0 }]),
    );
    const ctx = testContext();
    const { scene } = await runNode(
      decodeCmp,
      { bytes: { bytes: await Deno.readFile(model), name: "no_fighter.cmp" } },
      { model_path: model } as never,
      ctx,
    );
    const doc = scene as Document;
    const report = getPartgraphExtras(doc.getRoot().getDefaultScene()!).libraries as Record<string, never>;
    assert.deepEqual(report.missing, { meshes: [], materials: [], textures: [] });
    assert.deepEqual(report.textures, [
      { name: "nomad_skin.dds", library: "SHIPS/NOMAD/nomad_ships.mat" },
      { name: "NomadRGB1_NomadAlpha1", library: "FX/nomad_fx.txm" },
    ]);
    assert.deepEqual(report.material_map, {
      source: "built-in retail [MaterialMap]",
      rewritten: [{
        name: "nomad_skin",
        stored_type: "DcDtBtOcOtTwo",
        type: "NomadMaterialNoBendy",
        rule: "name = ^nomad.*$",
      }],
    });
    const skin = doc.getRoot().listMaterials().find((m) => m.getName() === "nomad_skin")!;
    // DXT1 blue (0,0,255) plus green (0,255,0): cyan, opaque.
    assert.deepEqual(texels(skin)[0], [0, 255, 255, 255]);
    assert.deepEqual(ctx.warnings.map((w) => w.message), []);
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

// ---------------------------------------------------------------------------------------------
// The install's own dacom.ini

Deno.test("EXE/dacom.ini beside DATA replaces retail's table, keys the cache, and a link out of the install is refused", async () => {
  const tree = await writeGameTree();
  const cacheDir = join(tree.base, "cache");
  const dacom = join(tree.base, "EXE", "dacom.ini");
  try {
    await Deno.mkdir(join(tree.base, "EXE"));
    await Deno.writeTextFile(dacom, "[MaterialMap]\r\nname = ^rh_paint$ = NebulaTwo\r\n");
    const graph = new URL("../../../../graphs/freelancer.json", import.meta.url).pathname;
    const run = () =>
      runGraph(graph, { inputs: { model: tree.fighter }, cacheDir, outDir: join(tree.base, "out") });
    const first = await run();
    const report = (first.outputs.report as { libraries: Record<string, unknown> }).libraries;
    assert.deepEqual(report.material_map, {
      source: "EXE/dacom.ini",
      rewritten: [{ name: "rh_paint", stored_type: "DcDt", type: "NebulaTwo", rule: "name = ^rh_paint$" }],
    });
    assert.equal((await run()).nodes.decode.state, "cached");
    // Edited: the decode runs again, and the paint is drawn as stored.
    await Deno.writeTextFile(dacom, "[MaterialMap]\r\nname = ^nothing$ = NebulaTwo\r\n");
    const edited = await run();
    assert.equal(edited.nodes.decode.state, "done", "dacom.ini is part of the cache key");
    assert.equal(
      (edited.outputs.report as { libraries: Record<string, unknown> }).libraries.material_map,
      undefined,
    );

    // A link to a file outside the install is not read: retail's table stands, with a warning.
    const outside = await Deno.makeTempFile({ suffix: ".ini" });
    try {
      await Deno.writeTextFile(outside, "[MaterialMap]\nname = ^rh_paint$ = NebulaTwo\n");
      await Deno.remove(dacom);
      await Deno.symlink(outside, dacom);
      const ctx = testContext();
      const { scene } = await runNode(
        decodeCmp,
        { bytes: { bytes: await Deno.readFile(tree.fighter), name: "rh_fighter.cmp" } },
        { model_path: tree.fighter } as never,
        ctx,
      );
      const paint = (scene as Document).getRoot().listMaterials().find((m) => m.getName() === "rh_paint")!;
      assert.equal(extrasOf(paint).type, "DcDt");
      assert.deepEqual(ctx.warnings.map((w) => w.message), [
        "EXE/dacom.ini (a link to a file outside the search's top folder): not read; the built-in retail [MaterialMap] is used",
      ]);
    } finally {
      await Deno.remove(outside);
    }
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
});

// ---------------------------------------------------------------------------------------------
// The user's choice: material_map

Deno.test("material_map: retail ignores the install's dacom.ini, none draws every stored Type, auto reads it", async () => {
  const tree = await writeGameTree();
  try {
    await Deno.mkdir(join(tree.base, "EXE"));
    // A mod's map that draws the fighter's paint additive.
    await Deno.writeTextFile(
      join(tree.base, "EXE", "dacom.ini"),
      "[MaterialMap]\nname = ^rh_paint$ = NebulaTwo\n",
    );
    const bytes = { bytes: await Deno.readFile(tree.fighter), name: "rh_fighter.cmp" };
    const decodeWith = async (material_map: string) => {
      const ctx = testContext();
      const { scene } = await runNode(
        decodeCmp,
        { bytes },
        { model_path: tree.fighter, material_map } as never,
        ctx,
      );
      const doc = scene as Document;
      const paint = doc.getRoot().listMaterials().find((m) => m.getName() === "rh_paint")!;
      const report = getPartgraphExtras(doc.getRoot().getDefaultScene()!).libraries as Record<
        string,
        unknown
      >;
      return { paint, report, warnings: ctx.warnings.map((w) => w.message) };
    };
    const auto = await decodeWith("auto");
    assert.equal(extrasOf(auto.paint).type, "NebulaTwo");
    assert.equal(auto.paint.getAlphaMode(), "BLEND");
    assert.equal((auto.report.material_map as { source: string }).source, "EXE/dacom.ini");
    const retail = await decodeWith("retail");
    assert.equal(extrasOf(retail.paint).type, "DcDt", "retail's table has no rule for rh_paint");
    assert.equal(retail.paint.getAlphaMode(), "OPAQUE");
    assert.equal(retail.report.material_map, undefined);
    assert.deepEqual(retail.warnings, auto.warnings, "the same library search, the same warnings");
  } finally {
    await Deno.remove(tree.base, { recursive: true });
  }
  // A model given alone: retail's table makes tlr_material additive and nomad_hull a nomad; none keeps both as stored.
  const model = triangleModel([
    { name: "tlr_material", type: "DcDt", dc: [0.2, 0.2, 0.2] },
    { name: "nomad_hull", type: "DcDtOcOtTwo", oc: 0.5 },
  ]);
  for (const libraries of ["auto", "none"]) {
    const run = async (material_map: string) => {
      const ctx = testContext();
      const { scene } = await runNode(
        decodeCmp,
        { bytes: { bytes: encodeUtf(model), name: "lane.3db" } },
        { libraries, material_map } as never,
        ctx,
      );
      return scene as Document;
    };
    const retail = await run("retail");
    assert.equal(extrasOf(material(retail, "tlr_material")).type, "NebulaTwo", libraries);
    assert.equal(extrasOf(material(retail, "nomad_hull")).type, "NomadMaterialNoBendy", libraries);
    const none = await run("none");
    const lane = material(none, "tlr_material");
    assert.deepEqual(extrasOf(lane), { material_id: extrasOf(lane).material_id, type: "DcDt" }, libraries);
    assert.equal(lane.getAlphaMode(), "OPAQUE");
    assert.equal(lane.getExtension("KHR_materials_unlit"), null);
    const hull = material(none, "nomad_hull");
    assert.equal(extrasOf(hull).type, "DcDtOcOtTwo");
    assert.equal(hull.getAlphaMode(), "BLEND");
    assert.deepEqual(hull.getBaseColorFactor()[3], 0.5, "Oc drawn as stored, not by the nomad shader");
    await assertValid(none);
  }
});
