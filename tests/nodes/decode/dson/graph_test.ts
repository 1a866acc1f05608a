/**
 * `graphs/dson.json` end to end: read → decode.dson → constraints.resolve → export.gltf → io.write,
 * on the corpus files (the rigidity file with a code-made morph baked through the graph).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runGraph } from "../../../../mod.ts";
import { readGltf } from "../../../../runtime/scene/gltf_io.ts";
import { describeDson } from "../../../../nodes/decode/dson/codec/describe.ts";
import { corpusFile, withoutCorpus } from "../../../support/corpus.ts";
import { validateGltf } from "../../../support/validator.ts";
import { dsonBytes, generateFigure, type Json, readJsonFile } from "./generate.ts";
import { tempDir } from "../../../support/temp.ts";

const GRAPH = new URL("../../../../graphs/dson.json", import.meta.url).pathname;

async function build(
  name: string,
  bytes: Uint8Array,
  inputs: Record<string, unknown> = {},
): Promise<Uint8Array> {
  const dir = await tempDir();
  try {
    await Deno.writeFile(join(dir, name), bytes);
    const out = join(dir, "out");
    await runGraph(GRAPH, { inputs: { model: join(dir, name), ...inputs }, outDir: out, cacheDir: false });
    return await Deno.readFile(join(out, "model.glb"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "graphs/dson.json turns the corpus geograft into a valid skinned GLB, deterministically",
  ignore: withoutCorpus("dson/game_engine_mouth_geograft.duf"),
  async fn() {
    const bytes = await Deno.readFile(corpusFile("dson/game_engine_mouth_geograft.duf")!);
    const glb = await build("mouth.duf", bytes);
    const report = await validateGltf(glb);
    assert.equal(report.errors, 0, report.messages.join("\n"));
    const summary = describeDson(await readGltf(glb));
    assert.equal((summary.bones as string[]).length, 41);
    assert.equal((summary.unresolved as Json[]).length, 2, "the extras travel through the GLB");
    assert.deepEqual(await build("mouth.duf", bytes), glb, "same input, same bytes");
  },
});

Deno.test({
  name: "graphs/dson.json bakes a morph with the rigidity group honoured",
  ignore: withoutCorpus("dson/synthetic_rigidity.dsf"),
  async fn() {
    const json = await readJsonFile(corpusFile("dson/synthetic_rigidity.dsf")!);
    // Lift the right half of the strip by 4 cm: the button's reference quad tilts.
    const vertices = ((json.geometry_library as Json[])[0].vertices as Json).values as number[][];
    const deltas = vertices.map((p, i) => [i, 0, 0, p[0] > 10 ? (p[0] - 10) * 0.4 : 0]).filter((d) =>
      d[3] !== 0
    );
    json.modifier_library = [{
      id: "Tilt",
      name: "Tilt",
      parent: "#rigidity_test_geo",
      morph: { vertex_count: 10, deltas: { count: deltas.length, values: deltas } },
    }];
    const glb = await build("tilt.dsf", dsonBytes(json), { morph: "Tilt" });
    const report = await validateGltf(glb);
    assert.equal(report.errors, 0, report.messages.join("\n"));
    const doc = await readGltf(glb);
    const positions = new Map<number, number[]>();
    for (const primitive of doc.getRoot().listMeshes()[0].listPrimitives()) {
      const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
      const array = primitive.getAttribute("POSITION")!.getArray()!;
      ids.forEach((v, i) => positions.set(v, [0, 1, 2].map((k) => array[i * 3 + k] * 100)));
    }
    const d = (a: number, b: number) =>
      Math.hypot(...[0, 1, 2].map((k) => positions.get(a)![k] - positions.get(b)![k]));
    // The reference quad turned by atan(0.4) about y and stretched along x by √1.16 (10 → 10.77 cm):
    // the button turns with it and, with scale_modes [primary, primary, none], grows by √1.16 in
    // both in-plane directions — it stays a flat square, tilted like the quad.
    const side = 4 * Math.sqrt(1.16);
    assert.ok(Math.abs(d(6, 7) - side) < 1e-4 && Math.abs(d(7, 8) - side) < 1e-4, `${d(6, 7)} ${d(7, 8)}`);
    assert.ok(Math.abs(d(6, 8) - side * Math.SQRT2) < 1e-4);
    const slope = (positions.get(7)![2] - positions.get(6)![2]) /
      (positions.get(7)![0] - positions.get(6)![0]);
    assert.ok(Math.abs(slope - 0.4) < 1e-5, `slope ${slope}`);
    // The free corner of the strip took the morph: 10 cm right of the fold, lifted 4 cm.
    assert.ok(Math.abs(positions.get(2)![2] - 4) < 1e-4);
  },
});

Deno.test("graphs/dson.json applies an optional pose preset after the bake; without one the bytes are unchanged", async () => {
  const figure = generateFigure({ side: 4, bones: 2, figureId: "Fig" });
  const bytes = dsonBytes(figure);
  const preset = {
    file_version: "0.6.1.0",
    asset_info: { id: "/code/bend.duf", type: "preset_pose" },
    scene: { animations: [{ url: "name://@selection/Fig_bone1:?rotation/x/value", keys: [[0, 45]] }] },
  };
  const plain = await build("fig.duf", bytes);
  assert.deepEqual(
    await build("fig.duf", bytes, { preset: null }),
    plain,
    "an absent preset changes nothing",
  );
  const glb = await build("fig.duf", bytes, { preset: { bytes: dsonBytes(preset), name: "bend.duf" } });
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  const bone = (doc: Awaited<ReturnType<typeof readGltf>>) =>
    doc.getRoot().listNodes().find((n) => n.getName() === "Fig_bone1")!.getRotation();
  const [q1, q0] = [bone(await readGltf(glb)), bone(await readGltf(plain))];
  const turn = 2 * Math.acos(Math.min(1, Math.abs(q1.reduce((s, x, k) => s + x * q0[k], 0)))) * 180 / Math.PI;
  assert.ok(Math.abs(turn - 45) < 1e-3, `the bone turned ${turn}°`);
});
