/**
 * The direct GLB writer against glTF-Transform's: the same bytes, byte for byte, on decoded real
 * and realistic scenes, big grids, odd cases and seeded random scenes; the fallback where it must be.
 */
import assert from "node:assert/strict";
import { Accessor, Document } from "@gltf-transform/core";
import { KHRDracoMeshCompression } from "@gltf-transform/extensions";
import {
  type ChunkWriter,
  readGltf,
  writeGlb,
  writeGlbVia,
  type WriteOptions,
} from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { valueFacts } from "../../../runtime/scene/array_facts.ts";
import { buildLargeGlb } from "../../support/large_glb.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { randomScene, sceneWithBuffer } from "../../support/random_scene.ts";
import { runNode, testContext } from "../../support/context.ts";
import { corpusFile, withoutCorpus } from "../../support/corpus.ts";
import { decodeCmp } from "../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../nodes/constraints/resolve.ts";
import { decodeCar } from "../../../nodes/decode/carnivores/decode_car.ts";
import { decode3df } from "../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeDson } from "../../../nodes/decode/dson/decode_dson.ts";

const OPTIONS: WriteOptions = { generator: GENERATOR };

/**
 * Asserts the direct writer handles `doc` (or, with `via: "direct"`, writeGlb's fallback does) and
 * gives glTF-Transform's bytes, in both name spellings.
 */
async function assertSameBytes(
  doc: Document,
  label: string,
  via: ChunkWriter = "direct-only",
): Promise<void> {
  for (const uniqueNames of [false, true]) {
    const options = { ...OPTIONS, uniqueNames };
    const reference = await writeGlbVia(doc, options, "gltf-transform");
    const direct = await writeGlbVia(doc, options, via);
    assertEqualBytes(direct, reference, `${label}${uniqueNames ? ", unique names" : ""}`);
  }
}

function assertEqualBytes(actual: Uint8Array, expected: Uint8Array, label: string): void {
  assert.equal(actual.byteLength, expected.byteLength, `${label}: length`);
  const at = actual.findIndex((byte, i) => byte !== expected[i]);
  assert.equal(at, -1, `${label}: first different byte at ${at}`);
}

Deno.test("a 200k-vertex grid read from GLB writes the same bytes both ways", async () => {
  const doc = await readGltf(await buildLargeGlb(200_000));
  await assertSameBytes(doc, "grid");
});

Deno.test("realistic resolved Freelancer compounds write the same bytes both ways", async () => {
  const ctx = testContext();
  for (let seed = 1; seed <= 4; seed++) {
    const bytes = realisticCmp(seed, { parts: 6 + seed * 3 });
    const { scene } = await runNode(decodeCmp, { bytes: { bytes, name: `m${seed}.cmp` } }, {
      libraries: "none",
    }, ctx);
    await assertSameBytes(scene, `realistic ${seed} decoded`);
    const resolved = await runNode(constraintsResolve, { scene }, {}, ctx);
    await assertSameBytes(resolved.scene, `realistic ${seed} resolved`);
  }
});

Deno.test({
  name: "the Carnivores .3df (skin) writes the same bytes both ways",
  ignore: withoutCorpus("carnivores/synthetic_quad.3df"),
  async fn() {
    const bytes = Deno.readFileSync(corpusFile("carnivores/synthetic_quad.3df")!);
    await assertSameBytes((await runNode(decode3df, { bytes: { bytes, name: "q.3df" } })).scene, "3df");
  },
});

Deno.test({
  name: "the Carnivores .car (sparse morph targets, animations) writes the same bytes both ways",
  ignore: withoutCorpus("carnivores/synthetic_quad.car"),
  async fn() {
    const bytes = Deno.readFileSync(corpusFile("carnivores/synthetic_quad.car")!);
    const { scene } = await runNode(decodeCar, { bytes: { bytes, name: "q.car" } });
    assert.ok(scene.getRoot().listAccessors().some((accessor: Accessor) => accessor.getSparse()));
    await assertSameBytes(scene, "car");
  },
});

for (const file of ["game_engine_mouth_geograft.duf", "synthetic_rigidity.dsf"]) {
  Deno.test({
    name: `DSON ${file} writes the same bytes both ways`,
    ignore: withoutCorpus(`dson/${file}`),
    async fn() {
      const bytes = Deno.readFileSync(corpusFile(`dson/${file}`)!);
      const roots = [corpusFile("dson")!];
      const { scene } = await runNode(decodeDson, { bytes: { bytes, name: file } }, { content_roots: roots });
      await assertSameBytes(scene, file);
    },
  });
}

Deno.test({
  name: "the sketchbook airplane GLB writes the same bytes both ways",
  ignore: withoutCorpus("aircraft/sketchbook_airplane.glb"),
  async fn() {
    const doc = await readGltf(Deno.readFileSync(corpusFile("aircraft/sketchbook_airplane.glb")!));
    await assertSameBytes(doc, "sketchbook airplane");
  },
});

const scene = sceneWithBuffer;

Deno.test("odd cases write the same bytes both ways", async () => {
  const { doc, accessor } = scene();
  const position = accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, -0]), "p");
  const mesh = doc.createMesh("odd");
  // Several primitives sharing one position accessor, with 8-, 16- and 32-bit indices and none.
  for (const Indices of [Uint8Array, Uint16Array, Uint32Array]) {
    mesh.addPrimitive(
      doc.createPrimitive().setAttribute("POSITION", position)
        .setIndices(
          accessor("SCALAR", new Indices([0, 1, 2, 2, 1, 3].slice(0, Indices === Uint8Array ? 3 : 6))),
        ),
    );
  }
  // Normalized 8- and 16-bit attributes whose elements pad to 4 bytes, two UV sets, colours.
  mesh.addPrimitive(
    doc.createPrimitive().setAttribute(
      "POSITION",
      accessor("VEC3", new Float32Array([0, 0, 0, 1, 2, 3, 4, 5, NaN])),
    )
      .setAttribute(
        "NORMAL",
        accessor("VEC3", new Int8Array([0, 127, 0, -127, 0, 0, 0, 0, 127])).setNormalized(true),
      )
      .setAttribute(
        "TEXCOORD_0",
        accessor("VEC2", new Uint16Array([0, 65535, 1, 2, 3, 4])).setNormalized(true),
      )
      .setAttribute("TEXCOORD_1", accessor("VEC2", new Int16Array([-1, 1, 7, -7, 0, 0])).setNormalized(true))
      .setAttribute(
        "COLOR_0",
        accessor("VEC3", new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255])).setNormalized(true),
      )
      .setAttribute("_FLAGS", accessor("SCALAR", new Uint8Array([1, 2, 3]))),
  );
  // A primitive with zero vertices and a mesh with no primitives.
  mesh.addPrimitive(doc.createPrimitive().setAttribute("POSITION", accessor("VEC3", new Float32Array(0))));
  doc.createMesh("empty");
  // An accessor nothing uses, images of odd lengths (their padding), extras on an accessor.
  accessor("MAT4", new Float32Array(16).fill(2), "orphan").setExtras({ b: 1, a: 2 });
  for (const length of [1, 3, 5, 8, 9]) {
    doc.createTexture(`t${length}`).setMimeType("image/png").setImage(new Uint8Array(length).fill(length));
  }
  doc.createScene().addChild(doc.createNode("n").setMesh(mesh));
  await assertSameBytes(doc, "odd cases");
});

Deno.test("sparse accessors (morph targets) write the same bytes both ways, placed among the views", async () => {
  const { doc, accessor } = scene();
  const position = accessor("VEC3", new Float32Array(3 * 300).map((_, i) => i % 7));
  const primitive = doc.createPrimitive().setAttribute("POSITION", position)
    .setIndices(accessor("SCALAR", new Uint16Array([0, 1, 2, 2, 1, 299])));
  for (const [t, touched] of [[0, [4, 280]], [1, []], [2, [0, 1, 2, 299]]] as const) {
    const offsets = new Float32Array(3 * 300);
    for (const vertex of touched) offsets[3 * vertex + (vertex % 3)] = vertex / 10;
    primitive.addTarget(
      doc.createPrimitiveTarget(`t${t}`).setAttribute("POSITION", accessor("VEC3", offsets).setSparse(true)),
    );
  }
  doc.createMesh().addPrimitive(primitive);
  doc.createTexture("after").setMimeType("image/png").setImage(new Uint8Array([1, 2, 3]));
  await assertSameBytes(doc, "sparse");
  // Only zeros: the writer makes no sparse views at all.
  const zeros = scene();
  zeros.doc.createMesh().addPrimitive(
    zeros.doc.createPrimitive().setAttribute(
      "POSITION",
      zeros.accessor("VEC3", new Float32Array(9)).setSparse(true),
    ),
  );
  await assertSameBytes(zeros.doc, "sparse zeros");
});

Deno.test("NaN payloads, −0 and infinities in interleaved floats are kept bit for bit", async () => {
  const { doc, accessor } = scene();
  const values = new Float32Array(8);
  new Uint32Array(values.buffer).set([0x7fc00123, 0x80000000, 0x7f800000, 0xff800000, 0xffc0ffff, 1, 2, 3]);
  doc.createMesh().addPrimitive(
    doc.createPrimitive().setAttribute("TEXCOORD_0", accessor("VEC2", values))
      .setAttribute("TEXCOORD_1", accessor("VEC2", new Float32Array(8))),
  );
  await assertSameBytes(doc, "NaN payloads");
  const glb = await writeGlbVia(doc, OPTIONS, "direct-only");
  const back = await readGltf(glb);
  const read = back.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("TEXCOORD_0")!;
  assert.deepEqual(new Uint32Array(read.getArray()!.slice().buffer), new Uint32Array(values.buffer));
});

Deno.test("seeded random scenes write the same bytes both ways", async () => {
  for (let seed = 1; seed <= 60; seed++) await assertSameBytes(randomScene(seed), `random scene ${seed}`);
});

Deno.test("writing leaves the document's arrays and images as they were", async () => {
  const doc = randomScene(7);
  const root = doc.getRoot();
  const arrays = root.listAccessors().map((a) => [a.getArray(), a.getComponentType()]);
  const images = root.listTextures().map((t) => t.getImage());
  await writeGlbVia(doc, OPTIONS, "direct-only");
  assert.deepEqual(root.listAccessors().map((a) => [a.getArray(), a.getComponentType()]), arrays);
  assert.ok(root.listAccessors().every((a, i) => a.getArray() === arrays[i][0]));
  assert.ok(root.listTextures().every((t, i) => t.getImage() === images[i]));
});

Deno.test("scenes outside the direct writer's subset fall back to glTF-Transform's bytes", async () => {
  // Attributes of one primitive with different counts (an invalid file, which the writer writes as it may).
  const counts = scene();
  counts.doc.createMesh().addPrimitive(
    counts.doc.createPrimitive().setAttribute("POSITION", counts.accessor("VEC3", new Float32Array(9)))
      .setAttribute("NORMAL", counts.accessor("VEC3", new Float32Array(6))),
  );
  // Draco declared: the extension lays out its own views.
  const draco = scene();
  draco.doc.createExtension(KHRDracoMeshCompression);
  draco.doc.createMesh().addPrimitive(
    draco.doc.createPrimitive().setAttribute("POSITION", draco.accessor("VEC3", new Float32Array(9))),
  );
  // A texture without an image.
  const imageless = scene();
  imageless.doc.createTexture("none").setMimeType("image/png");
  imageless.doc.createTexture("some").setMimeType("image/png").setImage(new Uint8Array([1, 2, 3]));
  for (
    const [label, doc, reason] of [
      ["different counts", counts.doc, /different counts/],
      ["draco", draco.doc, /KHR_draco_mesh_compression/],
      ["imageless texture", imageless.doc, /no image/],
    ] as const
  ) {
    await assert.rejects(writeGlbVia(doc, OPTIONS, "direct-only"), reason, label);
    const reference = await writeGlbVia(doc, OPTIONS, "gltf-transform").catch((error) => error);
    const written = await writeGlb(doc, OPTIONS).catch((error) => error);
    if (reference instanceof Error) assert.equal(String(written), String(reference), label);
    else assertEqualBytes(written, reference, label);
  }
});

Deno.test("writeGlb (the cache codec's and export's writer) writes the direct writer's bytes", async () => {
  const doc = randomScene(11);
  assertEqualBytes(await writeGlb(doc, OPTIONS), await writeGlbVia(doc, OPTIONS, "gltf-transform"), "as is");
  const unique = { ...OPTIONS, uniqueNames: true };
  assertEqualBytes(await writeGlb(doc, unique), await writeGlbVia(doc, unique, "gltf-transform"), "unique");
});

Deno.test("the direct writer's accessor counts and bounds are the document's", async () => {
  const { doc, accessor } = scene();
  const position = accessor("VEC3", new Float32Array([1, 2, 3, -1, 5, 0.1]));
  doc.createMesh().addPrimitive(doc.createPrimitive().setAttribute("POSITION", position));
  const glb = await writeGlbVia(doc, OPTIONS, "direct-only");
  const json = JSON.parse(
    new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true))),
  );
  assert.deepEqual(json.accessors[0], {
    type: "VEC3",
    componentType: Accessor.ComponentType.FLOAT,
    count: 2,
    max: [1, 5, Math.fround(3)],
    min: [-1, 2, Math.fround(0.1)],
    bufferView: 0,
    byteOffset: 0,
  });
  assert.deepEqual(json.bufferViews[0], {
    buffer: 0,
    byteOffset: 0,
    byteLength: 24,
    byteStride: 12,
    target: 34962,
  });
  assert.equal(json.buffers[0].byteLength, 24);
});

Deno.test("glb writer: bounds (array_facts.ts) are glTF-Transform's getMin/getMax through Math.fround, -0, NaN and ±Infinity included", () => {
  const doc = new Document();
  const columns = [
    [-0, 0, 0.1, -0],
    [0, -0, NaN, 1e39],
    [NaN, Infinity, -Infinity, NaN],
    [3.3, -2.2, 1e-46, 7],
  ];
  const array = new Float32Array(columns[0].length * columns.length);
  columns.forEach((column, j) => column.forEach((v, i) => array[i * columns.length + j] = v));
  for (const [type, size] of [["VEC4", 4], ["VEC2", 2], ["SCALAR", 1]] as const) {
    const accessor = doc.createAccessor().setType(type).setArray(array);
    const { min, max } = valueFacts(array, size);
    const same = (a: readonly number[], b: number[]) =>
      a.every((v, i) => Object.is(v, b[i])) && a.length === b.length;
    assert.ok(same(min, accessor.getMin([]).map(Math.fround)), `${type} min ${min}`);
    assert.ok(same(max, accessor.getMax([]).map(Math.fround)), `${type} max ${max}`);
  }
});
