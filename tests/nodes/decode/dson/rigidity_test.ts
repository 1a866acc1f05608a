import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { describeDson } from "../../../../nodes/decode/dson/codec/describe.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { settleExtras } from "../../../../runtime/scene/copy.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { corpusFile, withoutCorpus } from "../../../support/corpus.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { dsonBytes, type Json, readJsonFile } from "./generate.ts";

const RIGIDITY = "dson/synthetic_rigidity.dsf";
const BEND_DEGREES = 60;

/** Rotates the part of the strip right of x = 10 about the line x = 10, z = 0 (a fold). */
function bend([x, y, z]: number[], degrees = BEND_DEGREES): number[] {
  if (x <= 10) return [x, y, z];
  const a = (degrees * Math.PI) / 180;
  const dx = x - 10;
  return [10 + dx * Math.cos(a) - z * Math.sin(a), y, dx * Math.sin(a) + z * Math.cos(a)];
}

/** The corpus file plus a code-made morph whose deltas take every vertex to `shape(vertex)`. */
async function withMorph(
  shape: (p: number[]) => number[],
  name = "Bend",
  dropRigidity = false,
): Promise<{ json: Json; doc: Document }> {
  const json = await readJsonFile(corpusFile(RIGIDITY)!);
  const geometry = (json.geometry_library as Json[])[0];
  if (dropRigidity) delete geometry.rigidity;
  const vertices = (geometry.vertices as Json).values as number[][];
  const deltas = vertices.map((p, i) => [i, ...shape(p).map((c, k) => c - p[k])]).filter((d) =>
    d.slice(1).some((c) => c !== 0)
  );
  json.modifier_library = [{
    id: name,
    name,
    parent: "#rigidity_test_geo",
    channel: { id: "value", type: "float", value: 0 },
    morph: { vertex_count: vertices.length, deltas: { count: deltas.length, values: deltas } },
  }];
  const { scene } = await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "rigidity.dsf" } });
  return { json, doc: scene };
}

/** Positions per DSON vertex (cm) read back from a scene. */
function dsonPositions(doc: Document): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const primitive of doc.getRoot().listMeshes()[0].listPrimitives()) {
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const positions = primitive.getAttribute("POSITION")!.getArray()!;
    ids.forEach((v, i) => out.set(v, [0, 1, 2].map((k) => positions[i * 3 + k] * 100)));
  }
  return out;
}

function distance(a: number[], b: number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

const BUTTON = [6, 7, 8, 9];
const BUTTON_EDGES = [[6, 7], [7, 8], [8, 9], [9, 6], [6, 8], [7, 9]];

Deno.test({
  name: "dson rigidity: the corpus group, weights and mask are decoded into extras and _RIGIDITY",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    const json = await readJsonFile(corpusFile(RIGIDITY)!);
    const { doc } = await withMorph((p) => p);
    const source = (json.geometry_library as Json[])[0].rigidity as Json;
    const sourceGroup = (source.groups as Json[])[0];
    const mesh = doc.getRoot().listMeshes()[0];
    const rigidity = (getPartgraphExtras(mesh).dson as Json).rigidity as Json;
    const group = (rigidity.groups as Json[])[0];
    assert.equal(group.id, sourceGroup.id);
    assert.equal(group.rotation_mode, "full");
    assert.deepEqual(group.scale_modes, sourceGroup.scale_modes);
    assert.deepEqual(group.reference_vertices, (sourceGroup.reference_vertices as Json).values);
    assert.deepEqual(group.mask_vertices, (sourceGroup.mask_vertices as Json).values);
    const weightByVertex = new Map((source.weights as Json).values as [number, number][]);
    for (const primitive of mesh.listPrimitives()) {
      const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
      const weights = primitive.getAttribute("_RIGIDITY")!.getArray()!;
      ids.forEach((v, i) => assert.equal(weights[i], weightByVertex.get(v) ?? 0));
    }
    assert.equal((describeDson(doc).rigidity_groups as Json[]).length, 1);
    assert.equal(mesh.listPrimitives().length, 2, "one primitive per surface (Cloth, Button)");
  },
});

Deno.test({
  name: "dson rigidity: baking a bend keeps the button rigid while unweighted vertices follow the morph",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    const { json, doc } = await withMorph((p) => bend(p));
    const vertices = ((json.geometry_library as Json[])[0].vertices as Json).values as number[][];
    const ctx = testContext();
    const { scene } = await runNode(
      constraintsResolve,
      { scene: doc },
      { morph: "Bend", morph_weight: 1 },
      ctx,
    );
    const baked = dsonPositions(scene);
    for (const [a, b] of BUTTON_EDGES) {
      const rest = distance(vertices[a], vertices[b]);
      assert.ok(Math.abs(distance(baked.get(a)!, baked.get(b)!) - rest) / rest < 1e-6, `edge ${a}-${b}`);
    }
    // Unweighted vertices take the morph exactly (to float32 precision of metres).
    for (let v = 0; v < 6; v++) {
      const want = bend(vertices[v]);
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(baked.get(v)![k] - want[k]) < 1e-4, `vertex ${v}`);
    }
    // The button turned with the right half of the strip: its normal is the folded half's normal.
    const [p6, p7, p9] = [baked.get(6)!, baked.get(7)!, baked.get(9)!];
    const u = [0, 1, 2].map((k) => p7[k] - p6[k]);
    const w = [0, 1, 2].map((k) => p9[k] - p6[k]);
    const normal = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const length = Math.hypot(...normal);
    const a = (BEND_DEGREES * Math.PI) / 180;
    assert.ok(
      Math.abs(normal[0] / length + Math.sin(a)) < 1e-5 && Math.abs(normal[2] / length - Math.cos(a)) < 1e-5,
    );
    // The morph is gone from the mesh and recorded as baked.
    const mesh = scene.getRoot().listMeshes()[0];
    assert.deepEqual((mesh.getExtras() as Json).targetNames, []);
    assert.equal(((getPartgraphExtras(mesh).dson as Json).baked_morphs as Json[])[0].name, "Bend");
    const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
    assert.equal(report.errors, 0, report.messages.join("\n"));
  },
});

Deno.test({
  name: "dson rigidity: without the rigidity group the same bend distorts the button (the check can fail)",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    const { json, doc } = await withMorph((p) => bend(p), "Bend", true);
    const vertices = ((json.geometry_library as Json[])[0].vertices as Json).values as number[][];
    const { scene } = await runNode(dsonBakeMorph, { scene: doc }, { morph: "Bend", weight: 1 });
    const baked = dsonPositions(scene);
    const rest = distance(vertices[6], vertices[8]);
    assert.ok(Math.abs(distance(baked.get(6)!, baked.get(8)!) - rest) / rest > 1e-3);
  },
});

Deno.test({
  name: "dson rigidity: dson.bake_morph and constraints.resolve give the same bytes; the input is untouched",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    const { doc } = await withMorph((p) => bend(p));
    const before = await writeGlb(doc, { generator: GENERATOR });
    const viaNode = (await runNode(dsonBakeMorph, { scene: doc }, { morph: "Bend", weight: 0.5 })).scene;
    const viaResolve =
      (await runNode(constraintsResolve, { scene: doc }, { morph: "Bend", morph_weight: 0.5 })).scene;
    assert.deepEqual(
      await writeGlb(viaNode, { generator: GENERATOR }),
      await writeGlb(viaResolve, { generator: GENERATOR }),
    );
    assert.deepEqual(await writeGlb(doc, { generator: GENERATOR }), before);
  },
});

Deno.test({
  name:
    "dson rigidity: an in-plane stretch scales the button by the primary ratio in-plane but not along its normal",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    // Stretch x by 2 about x = 15 for everything: the reference quad (x 10..20) doubles its width.
    const stretch = ([x, y, z]: number[]) => [15 + (x - 15) * 2, y, z];
    const { json, doc } = await withMorph(stretch);
    const vertices = ((json.geometry_library as Json[])[0].vertices as Json).values as number[][];
    const baked = dsonPositions((await runNode(dsonBakeMorph, { scene: doc }, { morph: "Bend" })).scene);
    // Reference points: a 10×10 square that became 20×10; the primary axis is x with ratio 2, and
    // scale_modes [primary, primary, none] scale both in-plane axes by 2.
    const width = distance(baked.get(6)!, baked.get(7)!);
    const height = distance(baked.get(7)!, baked.get(8)!);
    assert.ok(Math.abs(width - 2 * distance(vertices[6], vertices[7])) < 1e-4, `width ${width}`);
    assert.ok(Math.abs(height - 2 * distance(vertices[7], vertices[8])) < 1e-4, `height ${height}`);
    // z is not scaled: the button stays 0.5 cm above the strip.
    for (const v of BUTTON) assert.ok(Math.abs(baked.get(v)![2] - 0.5) < 1e-4);
  },
});

Deno.test({
  name: "dson rigidity: an unknown morph name is a clear error listing the morphs",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    const { doc } = await withMorph((p) => bend(p));
    await assert.rejects(
      () => runNode(dsonBakeMorph, { scene: doc }, { morph: "Nope" }),
      /no morph named 'Nope'.*Bend/,
    );
  },
});

Deno.test({
  name: "dson rigidity: an empty morph name passes the scene through unchanged",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    const { doc } = await withMorph((p) => bend(p));
    const { scene } = await runNode(dsonBakeMorph, { scene: doc }, {});
    assert.deepEqual(
      await writeGlb(scene, { generator: GENERATOR }),
      await writeGlb(doc, { generator: GENERATOR }),
    );
  },
});

Deno.test({
  name: "dson rigidity: a reference node gives the scale frame (its X axis, turned 45° about z)",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    const json = await readJsonFile(corpusFile(RIGIDITY)!);
    const geometry = (json.geometry_library as Json[])[0];
    const group = ((geometry.rigidity as Json).groups as Json[])[0];
    group.rotation_mode = "none";
    group.scale_modes = ["primary", "none", "none"];
    group.reference = "#frame";
    (json.node_library as Json[]).push({
      id: "frame",
      type: "node",
      orientation: [{ id: "z", value: 45 }],
    });
    ((json.scene as Json).nodes as Json[]).push({ id: "frame-1", url: "#frame" });
    const vertices = (geometry.vertices as Json).values as number[][];
    // Stretch x by 2 about x = 15 for every vertex.
    const deltas = vertices.map((p, i) => [i, p[0] - 15, 0, 0]);
    json.modifier_library = [{
      id: "Stretch",
      parent: "#rigidity_test_geo",
      morph: { vertex_count: 10, deltas: { count: 10, values: deltas } },
    }];
    const doc = (await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "frame.dsf" } })).scene;
    const baked = dsonPositions((await runNode(dsonBakeMorph, { scene: doc }, { morph: "Stretch" })).scene);
    // Independently: the reference square's RMS spread along d = (1, 1)/√2 goes from 5 to √62.5,
    // so the button scales by √2.5 along d and not across it; the centroid (15, 5) stays.
    const d = [Math.SQRT1_2, Math.SQRT1_2];
    const e = [-Math.SQRT1_2, Math.SQRT1_2];
    const ratio = Math.sqrt(2.5);
    for (const v of BUTTON) {
      const offset = [vertices[v][0] - 15, vertices[v][1] - 5];
      const along = offset[0] * d[0] + offset[1] * d[1];
      const across = offset[0] * e[0] + offset[1] * e[1];
      const want = [15 + ratio * along * d[0] + across * e[0], 5 + ratio * along * d[1] + across * e[1], 0.5];
      for (let k = 0; k < 3; k++) {
        assert.ok(Math.abs(baked.get(v)![k] - want[k]) < 1e-4, `vertex ${v} axis ${k}`);
      }
    }
  },
});

Deno.test({
  name: "dson.bake_morph: baking a scene it owns, in place, gives the bytes of baking a copy",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    const copied = (await withMorph((p) => bend(p), "Bend")).doc;
    const owned = (await withMorph((p) => bend(p), "Bend")).doc;
    settleExtras(owned); // as the executor does when it hands a scene over
    const params = { morph: "Bend", weight: 0.5 };
    const fromCopy = (await runNode(dsonBakeMorph, { scene: copied }, params)).scene;
    const ctx = { ...testContext(), owns: () => true };
    const inPlace = (await runNode(dsonBakeMorph, { scene: owned }, params, ctx)).scene;
    assert.ok(inPlace === owned && fromCopy !== copied);
    const glb = (doc: Document) => writeGlb(doc, { generator: GENERATOR });
    assert.deepStrictEqual(await glb(inPlace), await glb(fromCopy));
  },
});

Deno.test({
  name:
    "dson rigidity: a group leaving scale_modes unsaid reads none, named at its path (the spec gives no default)",
  ignore: withoutCorpus(RIGIDITY),
  async fn() {
    const json = await readJsonFile(corpusFile(RIGIDITY)!);
    const group = (((json.geometry_library as Json[])[0].rigidity as Json).groups as Json[])[0];
    delete group.scale_modes;
    delete group.rotation_mode;
    const ctx = testContext();
    const doc =
      (await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "unsaid.dsf" } }, {}, ctx))
        .scene;
    const said = ctx.warnings.map((w) => w.message).filter((m) =>
      m.includes("/rigidity/groups/0/scale_modes")
    );
    assert.equal(said.length, 1, ctx.warnings.map((w) => w.message).join("\n"));
    const [kept] =
      (getPartgraphExtras(doc.getRoot().listMeshes()[0]).dson as { rigidity: { groups: Json[] } })
        .rigidity.groups;
    assert.equal(kept.rotation_mode, "none");
    assert.deepEqual(kept.scale_modes, ["none", "none", "none"]);
  },
});
