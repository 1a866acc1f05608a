/**
 * Regressions from the hostile-input campaign (issue 10), each made by code from the demo fighter:
 * every damaged glTF is a DecodeError naming the JSON path (or byte offset) and what was expected,
 * found before glTF-Transform sees it, in time linear in the file's size.
 */
import assert from "node:assert/strict";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { buildFighterScene } from "../../../nodes/demo/fighter_run.ts";
import { writeGlb, writeGltfJson } from "../../../runtime/scene/gltf_io.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { MAX_HIERARCHY_DEPTH } from "../../../runtime/depth.ts";
import { runNode, testContext } from "../../support/context.ts";
import { rig } from "../rig/pipeline.ts";
import { fighterWithAileronAt } from "../../support/deep_fighter.ts";
import { glbOf, meshoptGlb } from "../../support/shapes.ts";
import { basisuQuadGlb, uastcKtx2 } from "../../support/ktx2.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

const FIGHTER = await writeGltfJson(buildFighterScene(1), { generator: "test" });

/** The fighter's glTF JSON, changed by `edit`, as .gltf bytes. */
function damaged(edit: (json: Json) => void, suffix = ""): Uint8Array {
  const json = JSON.parse(new TextDecoder().decode(FIGHTER));
  edit(json);
  return new TextEncoder().encode(JSON.stringify(json) + suffix);
}

/** Decodes and returns the DecodeError it must raise. */
async function rejection(bytes: Uint8Array, name = "damaged.gltf"): Promise<DecodeError> {
  try {
    await runNode(decodeGltf, { bytes: { bytes, name } });
  } catch (error) {
    assert.ok(error instanceof DecodeError, `typed error, got ${error}`);
    assert.doesNotMatch(error.found, /^(Range|Type)Error/, "not a wrapped JavaScript message");
    return error;
  }
  assert.fail("decoded a damaged file");
}

function where(error: DecodeError): string {
  return "jsonPath" in error.at ? error.at.jsonPath : `byte ${error.at.offset}`;
}

Deno.test("the undamaged fighter decodes (so every rejection below is the damage's doing)", async () => {
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: FIGHTER, name: "fighter.gltf" } });
  assert.ok(scene.getRoot().listMeshes().length > 10);
});

Deno.test("an accessor count beyond its buffer view is refused at that count (was a RangeError on write)", async () => {
  const error = await rejection(damaged((j) => j.accessors[16].count = 65535));
  assert.equal(where(error), "/accessors/16/count");
  assert.match(error.expected, /fits the view's \d+ bytes/);
});

Deno.test("wrong types where glTF-Transform expects arrays or objects are refused by JSON path", async () => {
  assert.equal(
    where(await rejection(damaged((j) => j.nodes[15].translation = "0 0 0"))),
    "/nodes/15/translation",
  );
  // (A null is read as absent, or in a list as an empty object, as writers mean it: tests/nodes/messy_gltf_test.ts.)
  assert.equal(where(await rejection(damaged((j) => j.images = [7]))), "/images/0");
  assert.equal(where(await rejection(damaged((j) => j.meshes[2].primitives = {}))), "/meshes/2/primitives");
  assert.equal(where(await rejection(damaged((j) => j.nodes[3].name = 16))), "/nodes/3/name");
  const factor = await rejection(
    damaged((j) => j.materials[0].pbrMetallicRoughness = { baseColorFactor: [1, {}, 0, 1] }),
  );
  assert.equal(where(factor), "/materials/0/pbrMetallicRoughness/baseColorFactor");
});

Deno.test("a rotation off unit length is made unit with a warning naming it; a near-zero one is refused", async () => {
  // As an exporter rounding to one decimal writes a quarter turn: viewers normalise it.
  const ctx = testContext();
  const { scene } = await runNode(
    decodeGltf,
    { bytes: { bytes: damaged((j) => j.nodes[15].rotation = [0.7, 0, 0, 0.7]), name: "rounded.gltf" } },
    {},
    ctx,
  );
  const [x, , , w] = scene.getRoot().listNodes()[15].getRotation();
  assert.ok(Math.abs(x - Math.SQRT1_2) < 1e-7 && Math.abs(w - Math.SQRT1_2) < 1e-7, `${x}, ${w}`);
  assert.deepEqual(ctx.warnings.map((w) => w.message), [
    `rounded.gltf at /nodes/15/rotation: rotation of length ${Number(Math.hypot(0.7, 0.7).toPrecision(6))} ` +
    "made unit length",
  ]);
  const error = await rejection(damaged((j) => j.nodes[15].rotation = [0, 0, 0, 0.001]));
  assert.equal(where(error), "/nodes/15/rotation");
  assert.equal(error.expected, "a unit quaternion (length 1 ± 0.0005)");
  assert.equal(error.found, "0.001");
  // Six written digits, as exporters round them, are within the tolerance: no warning.
  const exact = testContext();
  await runNode(
    decodeGltf,
    {
      bytes: { bytes: damaged((j) => j.nodes[15].rotation = [0.707107, 0, 0, 0.707107]), name: "ok.gltf" },
    },
    {},
    exact,
  );
  assert.deepEqual(exact.warnings, []);
});

Deno.test("indices past the last vertex and attributes of the wrong type are refused", async () => {
  const oob = await rejection(damaged((j) => {
    const primitive = j.meshes[0].primitives[0];
    j.accessors[primitive.attributes.POSITION].count = 3; // fewer vertices than the indices use
    j.accessors[primitive.attributes.NORMAL].count = 3;
  }));
  assert.match(where(oob), /^\/meshes\/0\/primitives\/0\/indices$/);
  assert.match(oob.found, /at element \d+/);
  const type = await rejection(damaged((j) => {
    const position = j.accessors[j.meshes[0].primitives[0].attributes.POSITION];
    Object.assign(position, { type: "VEC2", min: undefined, max: undefined });
  }));
  assert.match(where(type), /^\/meshes\/0\/primitives\/0\/attributes\/POSITION$/);
});

Deno.test("a node that is its own ancestor is refused (a cycle, not an endless walk)", async () => {
  const error = await rejection(damaged((j) => {
    const parent = j.nodes.findIndex((n: Json) => n.children?.length);
    j.nodes[j.nodes[parent].children[0]].children = [parent];
  }));
  assert.match(error.expected, /one parent|without cycles/);
});

Deno.test("JSON nested 10,000 deep is refused before any recursive walk (was a stack overflow)", async () => {
  const deep = "[".repeat(10_000) + "]".repeat(10_000);
  const text = new TextDecoder().decode(damaged((j) => j.extras = { deep: "DEEP" }));
  const error = await rejection(new TextEncoder().encode(text.replace('"DEEP"', deep)));
  assert.match(error.expected, /nested at most 64 deep/);
  assert.ok("offset" in error.at && error.at.offset > 0);
});

Deno.test("a byteStride replaced by a huge array is refused at once (was 63 s for 2.6 MB)", async () => {
  const glb = await writeGlb(buildFighterScene(1), { generator: "test" });
  const length = new DataView(glb.buffer).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  json.bufferViews[0].byteStride = Array.from({ length: 600_000 }, (_, i) => i);
  const bytes = glbOf(json, glb.subarray(28 + length));
  assert.ok(bytes.length > 2_500_000, `${bytes.length} bytes`);
  const started = performance.now();
  const error = await rejection(bytes, "stride.glb");
  const ms = performance.now() - started;
  assert.equal(where(error), "/bufferViews/0/byteStride");
  // Half the 63 s it took before: tells the old walk from the refusal, under any load.
  assert.ok(ms < 30_000, `${ms.toFixed(0)} ms`);
});

Deno.test("GLB container damage names the byte offset: a chunk longer than the file, a wrong version", async () => {
  const glb = await writeGlb(buildFighterScene(1), { generator: "test" });
  const long = glb.slice();
  new DataView(long.buffer).setUint32(12, 0x7fffffff, true);
  assert.equal(where(await rejection(long, "long.glb")), "byte 12");
  const v3 = glb.slice();
  new DataView(v3.buffer).setUint32(4, 3, true);
  assert.equal(where(await rejection(v3, "v3.glb")), "byte 4");
  // Version 1 is binary glTF 1.0, whose header has a content format (0) where version 2's first chunk has its type.
  const v1 = glb.slice();
  new DataView(v1.buffer).setUint32(4, 1, true);
  assert.equal(where(await rejection(v1, "v1.glb")), "byte 16");
  // A BIN chunk whose type is damaged is skipped, leaving buffer 0 without data.
  const noBin = glb.slice();
  const jsonLength = new DataView(noBin.buffer).getUint32(12, true);
  new DataView(noBin.buffer).setUint32(20 + jsonLength + 4, 0x12345678, true);
  const missing = await rejection(noBin, "nobin.glb");
  assert.equal(where(missing), "/buffers/0");
  assert.match(missing.expected, /binary chunk/);
});

Deno.test("an accessor without data may not claim memory out of proportion to the file", async () => {
  const error = await rejection(damaged((j) => {
    delete j.accessors[0].bufferView;
    j.accessors[0].count = 2 ** 31;
  }));
  assert.equal(where(error), "/accessors/0/count");
});

Deno.test("a hierarchy deeper than the bound is refused at its deepest node, in linear time (was a stack overflow in the rig, and 9.6 s to check 100,000 levels)", async () => {
  const over = await fighterWithAileronAt(MAX_HIERARCHY_DEPTH + 1);
  const error = await rejection(over.bytes);
  assert.equal(where(error), `/nodes/${over.aileron}`);
  assert.match(error.expected, new RegExp(`at most ${MAX_HIERARCHY_DEPTH} levels deep`));
  assert.equal(error.found, String(MAX_HIERARCHY_DEPTH + 1));
  const far = await rejection((await fighterWithAileronAt(100_000)).bytes);
  assert.equal(far.found, "100000");
});

Deno.test("a hierarchy at the bound decodes, and the rig finds and hinges the panel at its bottom", async () => {
  const { bytes, aileron } = await fighterWithAileronAt(MAX_HIERARCHY_DEPTH);
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "deep.gltf" } });
  const name = scene.getRoot().listNodes()[aileron].getName();
  const { report } = await rig(scene);
  // Its pivot takes its place in the hierarchy, the panel one level under it.
  const pivot = report.parts.find((p) => p.name === `HINGE_auto_${name}`);
  assert.ok(pivot?.hinge, `${name} rigged with a hinge: ${report.parts.map((p) => p.name)}`);
  assert.equal(pivot.path.split("/").length, MAX_HIERARCHY_DEPTH, pivot.path);
});

Deno.test("accessors aliasing the same bytes may not claim more than 16× the buffers (1,000 made a 1 MB GLB 787 MB)", async () => {
  const json = JSON.parse(new TextDecoder().decode(FIGHTER));
  const buffers = json.buffers.reduce((sum: number, b: Json) => sum + b.byteLength, 0);
  const budget = 16 * buffers + (1 << 20);
  const positions = json.accessors.filter((a: Json) => a.type === "VEC3" && a.componentType === 5126);
  const largest = positions.reduce((a: Json, b: Json) => (b.count > a.count ? b : a));
  const bytes = largest.count * 12;
  // Copies of the largest accessor, over its own view, until their data passes the budget.
  const copies = Math.ceil(budget / bytes) + 1;
  const first = json.accessors.length;
  const error = await rejection(damaged((j) => {
    for (let k = 0; k < copies; k++) j.accessors.push({ ...largest });
  }));
  const at = Number(where(error).match(/^\/accessors\/(\d+)\/count$/)?.[1]);
  assert.ok(at >= first && at < first + copies, where(error));
  assert.match(error.expected, new RegExp(`at most ${budget} bytes of accessor data`));
  assert.ok(Number(error.found) > budget);
  // A few aliases (as interleaved or shared views have) are nothing unusual.
  const { scene } = await runNode(decodeGltf, {
    bytes: { bytes: damaged((j) => j.accessors.push({ ...largest }, { ...largest })), name: "two.gltf" },
  });
  assert.equal(scene.getRoot().listAccessors().length, first + 2);
});

Deno.test("a meshopt view may not decode out of proportion to its compressed bytes (a 1 KB file allocated 1.1 GB)", async () => {
  const codec = "/bufferViews/0/extensions/EXT_meshopt_compression";
  const bomb = await rejection(meshoptGlb(2 ** 26), "bomb.glb");
  assert.equal(where(bomb), `${codec}/count`);
  assert.match(bomb.expected, /at most 81920 bytes \(256 × the compressed 64 \+ 64 KiB\)/);
  assert.equal(bomb.found, String(2 ** 26 * 12));
  // 2³³ elements threw a RangeError from the allocation instead.
  assert.equal(where(await rejection(meshoptGlb(2 ** 33), "huge.glb")), `${codec}/count`);
  // The source must be a buffer with data; a view without meshopt may not read the fallback.
  const noSource = await rejection(
    meshoptGlb(100, (j) => j.bufferViews[0].extensions.EXT_meshopt_compression.buffer = 1),
  );
  assert.equal(where(noSource), `${codec}/buffer`);
  const plain = await rejection(meshoptGlb(100, (j) => delete j.bufferViews[0].extensions));
  assert.equal(where(plain), "/bufferViews/0/buffer");
  const short = await rejection(
    meshoptGlb(100, (j) => j.bufferViews[0].extensions.EXT_meshopt_compression.count = 99),
  );
  assert.match(short.expected, /covering the view's 1200 bytes/);
});

Deno.test("a meshopt view names one extension, EXT_ or KHR_, and a filter the decoder has", async () => {
  const codec = "/bufferViews/0/extensions/EXT_meshopt_compression";
  const both = await rejection(meshoptGlb(100, (j) => {
    const view = j.bufferViews[0].extensions;
    view.KHR_meshopt_compression = view.EXT_meshopt_compression;
  }));
  assert.equal(where(both), "/bufferViews/0/extensions");
  // A filter the decoder does not know it skips, leaving the data encoded.
  const unknown = await rejection(
    meshoptGlb(100, (j) => j.bufferViews[0].extensions.EXT_meshopt_compression.filter = "BOGUS"),
  );
  assert.equal(where(unknown), `${codec}/filter`);
  // COLOR is KHR_meshopt_compression's; under EXT_ it is refused.
  const color = await rejection(
    meshoptGlb(100, (j) => j.bufferViews[0].extensions.EXT_meshopt_compression.filter = "COLOR"),
  );
  assert.match(color.expected, /NONE, OCTAHEDRAL, QUATERNION, EXPONENTIAL$/);
});

Deno.test("KHR_mesh_quantization widens the attribute types, to its table and no further", async () => {
  const fighter = JSON.parse(new TextDecoder().decode(FIGHTER));
  const primitive = fighter.meshes.findIndex((m: Json) => m.primitives[0].attributes.NORMAL !== undefined);
  const at = `/meshes/${primitive}/primitives/0/attributes`;
  const { POSITION: position, NORMAL: normal } = fighter.meshes[primitive].primitives[0].attributes;
  const quantized = (edit: (json: Json) => void) =>
    damaged((json) => {
      json.extensionsUsed = [...(json.extensionsUsed ?? []), "KHR_mesh_quantization"];
      edit(json);
    });
  // int16 positions (as gltfpack writes them): read, with the extension; without it listed (a tool that rebuilt
  // the list from extension objects: this one has none), read with the extension added, named (v68; refused before).
  const int16 = (json: Json) =>
    Object.assign(json.accessors[position], { componentType: 5122, normalized: true });
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: quantized(int16), name: "q.gltf" } });
  assert.ok(scene.getRoot().listAccessors()[position].getArray() instanceof Int16Array);
  const unlisted = testContext();
  await runNode(decodeGltf, { bytes: { bytes: damaged(int16), name: "q.gltf" } }, {}, unlisted);
  assert.ok(unlisted.warnings.some((w) => /\/extensionsUsed: 'KHR_mesh_quantization' added/.test(w.message)));
  // Normals must stay signed: unsigned bytes are refused even with the extension; raw shorts (the flag lost)
  // are read normalized, named (v68; refused before).
  const unsigned = await rejection(quantized((json) => json.accessors[normal].componentType = 5121));
  assert.equal(where(unsigned), `${at}/NORMAL`);
  assert.match(unsigned.expected, /VEC3 in FLOAT, BYTE normalized, SHORT normalized$/);
  assert.match(unsigned.found, /VEC3 in UNSIGNED_BYTE"$/);
  const raw = testContext();
  await runNode(
    decodeGltf,
    { bytes: { bytes: quantized((json) => json.accessors[normal].componentType = 5122), name: "q.gltf" } },
    {},
    raw,
  );
  assert.ok(
    raw.warnings.some((w) =>
      new RegExp(`/accessors/${normal}/normalized: .*read normalized`).test(w.message)
    ),
  );
  const normalizedShorts = (json: Json) =>
    Object.assign(json.accessors[normal], { componentType: 5122, normalized: true });
  await runNode(decodeGltf, { bytes: { bytes: quantized(normalizedShorts), name: "q.gltf" } });
});

Deno.test("integer texture coordinates, colours and weights must be normalized, joints must not be", async () => {
  const fighter = JSON.parse(new TextDecoder().decode(FIGHTER));
  const primitive = fighter.meshes.findIndex((m: Json) => m.primitives[0].attributes.NORMAL !== undefined);
  const at = `/meshes/${primitive}/primitives/0/attributes`;
  const { NORMAL: normal } = fighter.meshes[primitive].primitives[0].attributes;
  // The normals' accessor (VEC3 floats) worn as each semantic, in integers of its byte length.
  const as = (semantic: string, type: string, componentType: number, normalized: boolean) =>
    damaged((json) => {
      const count = json.accessors[normal].count;
      const view = json.bufferViews[json.accessors[normal].bufferView];
      json.accessors.push({
        bufferView: json.accessors[normal].bufferView,
        componentType,
        normalized,
        count,
        type,
      });
      json.meshes[primitive].primitives[0].attributes[semantic] = json.accessors.length - 1;
      assert.ok(view.byteLength >= count * 4, "the view holds the integers");
    });
  // Unnormalized integer texture coordinates are KHR_mesh_quantization's: read with it listed, named (v68).
  const texcoords = testContext();
  await runNode(
    decodeGltf,
    { bytes: { bytes: as("TEXCOORD_0", "VEC2", 5123, false), name: "t.gltf" } },
    {},
    texcoords,
  );
  assert.ok(texcoords.warnings.some((w) => /'KHR_mesh_quantization' added/.test(w.message)));
  for (
    const [semantic, type, code] of [["TEXCOORD_0", "VEC2", 5123], ["COLOR_0", "VEC4", 5121], [
      "WEIGHTS_0",
      "VEC4",
      5121,
    ]] as const
  ) {
    if (semantic === "TEXCOORD_0") {
      await runNode(decodeGltf, { bytes: { bytes: as(semantic, type, code, true), name: "n.gltf" } });
      continue;
    }
    const refused = await rejection(as(semantic, type, code, false));
    assert.equal(where(refused), `${at}/${semantic}`);
    assert.match(refused.expected, /normalized/);
    await runNode(decodeGltf, { bytes: { bytes: as(semantic, type, code, true), name: "n.gltf" } });
  }
  assert.equal(where(await rejection(as("JOINTS_0", "VEC4", 5121, true))), `${at}/JOINTS_0`);
});

Deno.test("an extension partgraph cannot read: refused when required, a warning naming it when only used", async () => {
  const using = (name: string, required: boolean) =>
    damaged((json) => {
      json.extensionsUsed = [...(json.extensionsUsed ?? []), "KHR_texture_transform", name];
      if (required) json.extensionsRequired = ["KHR_texture_transform", name];
      json.nodes[0].extensions = { [name]: { lod: [1] } };
    });
  const refused = await rejection(using("MSFT_lod", true), "lods.gltf");
  assert.equal(where(refused), "/extensionsRequired/1");
  assert.equal(refused.found, "'MSFT_lod'");
  assert.equal(refused.file, "lods.gltf");
  const ctx = testContext();
  const { scene } = await runNode(
    decodeGltf,
    { bytes: { bytes: using("MSFT_lod", false), name: "lods.gltf" } },
    {},
    ctx,
  );
  assert.deepEqual(ctx.warnings.map((w) => w.message), [
    "lods.gltf uses extension 'MSFT_lod', which partgraph does not read: its data is left out of the scene",
  ]);
  assert.deepEqual(
    scene.getRoot().listExtensionsUsed().map((e: { extensionName: string }) => e.extensionName),
    [
      "KHR_texture_transform",
    ],
  );
  // The extensions it reads, required or not, pass without a word.
  const known = testContext();
  await runNode(
    decodeGltf,
    { bytes: { bytes: using("KHR_materials_unlit", true), name: "unlit.gltf" } },
    {},
    known,
  );
  assert.deepEqual(known.warnings, []);
});

Deno.test("a material's texture without an image (its own source, or one from an extension the file uses) is left out with a warning", async () => {
  const quad = await basisuQuadGlb(uastcKtx2(8, 8, () => [200, 20, 20]));
  const length = new DataView(quad.buffer).getUint32(12, true);
  const bin = quad.subarray(20 + length + 8);
  const edited = (edit: (json: Json) => void) => {
    const json = JSON.parse(new TextDecoder().decode(quad.subarray(20, 20 + length)));
    edit(json);
    return glbOf(json, bin);
  };
  // As written: the KTX2 image comes through KHR_texture_basisu, which the file uses.
  await runNode(decodeGltf, { bytes: { bytes: edited(() => {}), name: "quad.glb" } });
  // The extension's name damaged (glTF-Transform failed on `null.setWrapS`), or not declared used:
  // viewers draw the material without the texture, and so does the scene, with a warning.
  const withoutImage = async (edit: (json: Json) => void) => {
    const ctx = testContext();
    const { scene } = await runNode(
      decodeGltf,
      { bytes: { bytes: edited(edit), name: "quad.glb" } },
      {},
      ctx,
    );
    assert.equal(scene.getRoot().listMaterials()[0].getBaseColorTexture(), null);
    return ctx.warnings.map((w) => w.message);
  };
  const warning = "quad.glb at /materials/0/pbrMetallicRoughness/baseColorTexture: texture 0 has no image; " +
    "the material is kept without it";
  assert.ok(
    (await withoutImage((json) =>
      json.textures[0].extensions = { KHR_texture_basisx: json.textures[0].extensions.KHR_texture_basisu }
    )).includes(warning),
  );
  assert.ok((await withoutImage((json) => json.extensionsUsed = [])).includes(warning));
  // An extension's source out of range is refused where it is written.
  const beyond = await rejection(
    edited((json) => json.textures[0].extensions.KHR_texture_basisu.source = 4),
    "quad.glb",
  );
  assert.equal(where(beyond), "/textures/0/extensions/KHR_texture_basisu/source");
});
