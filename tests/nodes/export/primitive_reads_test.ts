/**
 * The export's repair check looks at each primitive's attributes once (`primitive_attributes.ts`): its
 * scans (empty primitives, indices past the last vertex, UV sets, misnamed and numbered attributes,
 * influences, tangents, colours) were handed one map per primitive instead of asking glTF-Transform's
 * `listSemantics` 4 times and `getAttribute` 8 times each; the GLB writer reads each primitive's
 * attributes once too (it asked `listSemantics` once and `getAttribute` per semantic). The scans list
 * each mesh's primitives once (they asked `listPrimitives` 8 times per mesh). Retail-shaped
 * Freelancer compounds made by code (`realistic_cmp.ts`, seeds 91-94), decoded and resolved; the
 * written bytes are those of glTF-Transform's own writer. A primitive with a lone `TEXCOORD_1`, a
 * misspelt `texcoord_0` and a `COLOR_0` past 1 (seeds 95-98) is still repaired and warned.
 */
import assert from "node:assert/strict";
import { Document, Mesh, Primitive } from "@gltf-transform/core";
import { decodeModel } from "../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../nodes/decode/freelancer/codec/build_scene.ts";
import { resolveFreelancerScene } from "../../../nodes/decode/freelancer/resolver_run.ts";
import { repairForExport } from "../../../nodes/export/repair.ts";
import { primitiveListings } from "../../../nodes/export/primitive_attributes.ts";
import { attributeReads } from "../../../runtime/scene/primitive_attributes.ts";
import { writeGlbVia } from "../../../runtime/scene/gltf_io.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { prng } from "../../support/prng.ts";

// The test builds scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

/** Calls of `Primitive`'s `listSemantics` and `getAttribute` while `run` runs. */
async function primitiveGetterCalls(run: () => unknown): Promise<number> {
  const { listSemantics, getAttribute } = Primitive.prototype;
  let calls = 0;
  Primitive.prototype.listSemantics = function () {
    calls++;
    return listSemantics.call(this);
  };
  Primitive.prototype.getAttribute = function (semantic: string) {
    calls++;
    return getAttribute.call(this, semantic);
  };
  try {
    await run();
  } finally {
    Object.assign(Primitive.prototype, { listSemantics, getAttribute });
  }
  return calls;
}

function freelancerScene(seed: number): Document {
  const warn = () => {};
  const doc = buildScene(
    decodeModel({ bytes: realisticCmp(seed, { parts: 10 }), name: "r.cmp" }, [], warn),
    warn,
  );
  resolveFreelancerScene(doc, {}, warn);
  return doc;
}

function primitivesOf(doc: Document): number {
  return doc.getRoot().listMeshes().reduce((sum, mesh) => sum + mesh.listPrimitives().length, 0);
}

Deno.test("the repair check reads each primitive's attributes once (seeds 91-94)", async () => {
  for (let seed = 91; seed <= 94; seed++) {
    const doc = freelancerScene(seed);
    const primitives = primitivesOf(doc);
    assert.ok(primitives > 0, `seed ${seed}`);
    const reads = attributeReads.count;
    const calls = await primitiveGetterCalls(() => assert.equal(repairForExport(doc, () => {}), doc));
    assert.equal(calls, 0, `seed ${seed}: getter calls for ${primitives} primitives`);
    assert.equal(attributeReads.count - reads, primitives, `seed ${seed}: reads of ${primitives} primitives`);
  }
});

Deno.test("the repair check lists each mesh's primitives once (seeds 91-94)", () => {
  for (let seed = 91; seed <= 94; seed++) {
    const doc = freelancerScene(seed);
    const meshes = doc.getRoot().listMeshes().length;
    const list = Mesh.prototype.listPrimitives;
    let calls = 0;
    Mesh.prototype.listPrimitives = function () {
      calls++;
      return list.call(this);
    };
    const listed = primitiveListings.count;
    try {
      assert.equal(repairForExport(doc, () => {}), doc);
    } finally {
      Mesh.prototype.listPrimitives = list;
    }
    // One by the scans' reader; one by the transform fallbacks' alignment (runtime/scene), run first.
    assert.ok(calls <= 2 * meshes, `seed ${seed}: ${calls} listings of ${meshes} meshes`);
    assert.equal(primitiveListings.count - listed, meshes, `seed ${seed}`);
  }
});

Deno.test("the GLB writer reads each primitive's attributes once, same bytes (seeds 91-94)", async () => {
  for (let seed = 91; seed <= 94; seed++) {
    const doc = freelancerScene(seed);
    const options = { generator: "t" };
    const expected = await writeGlbVia(doc, options, "gltf-transform");
    const reads = attributeReads.count;
    let glb: Uint8Array | undefined;
    const calls = await primitiveGetterCalls(async () =>
      glb = await writeGlbVia(doc, options, "direct-only")
    );
    assert.equal(calls, 0, `seed ${seed}: getter calls`);
    assert.equal(attributeReads.count - reads, primitivesOf(doc), `seed ${seed}`);
    assert.deepEqual(glb, expected, `seed ${seed}: bytes`);
  }
});

Deno.test("a lone TEXCOORD_1, a misspelt texcoord_0 and a colour past 1 are still repaired (seeds 95-98)", () => {
  for (let seed = 95; seed <= 98; seed++) {
    const next = prng(seed);
    const doc = new Document();
    const buffer = doc.createBuffer();
    const vertices = 3 + Math.floor(next() * 20);
    const accessor = (type: "VEC2" | "VEC3" | "VEC4", size: number, scale = 1) =>
      doc.createAccessor("", buffer).setType(type).setArray(
        new Float32Array(vertices * size).map(() => next() * scale),
      );
    const primitive = doc.createPrimitive().setAttribute("POSITION", accessor("VEC3", 3));
    const kind = seed % 3;
    if (kind === 0) primitive.setAttribute("TEXCOORD_1", accessor("VEC2", 2));
    if (kind === 1) primitive.setAttribute("texcoord_0", accessor("VEC2", 2));
    primitive.setAttribute("COLOR_0", accessor("VEC4", 4, 3));
    doc.createScene("s").addChild(doc.createNode("n").setMesh(doc.createMesh("rip").addPrimitive(primitive)));
    const messages: string[] = [];
    const repaired = repairForExport(doc, (m) => messages.push(m));
    const semantics = repaired.getRoot().listMeshes()[0].listPrimitives()[0].listSemantics().sort();
    const uv = kind === 2 ? [] : ["TEXCOORD_0"];
    assert.deepEqual(semantics, ["COLOR_0", "POSITION", ...uv], `seed ${seed}`);
    const expected = [/colour|clamp/i, kind === 0 ? /renumbered/ : kind === 1 ? /renamed/ : /./];
    for (const pattern of expected) assert.ok(messages.some((m) => pattern.test(m)), messages.join("\n"));
  }
});
