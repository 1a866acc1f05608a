/**
 * The repair check of a primitive's numbered attribute sets (`repair_attribute_sets.ts`) builds its map
 * of sets only for a primitive it may repair: sets numbered 0…n−1 with as many joint as weight sets
 * (every primitive of a retail-shaped Freelancer compound, `realistic_cmp.ts` seeds 81-84) are told in
 * one pass over the semantics. A rip's lone `TEXCOORD_1` or unpaired `JOINTS_0` (drawn by code on seeds
 * 85-88) is still renumbered or left out, with its warning.
 */
import assert from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { decodeModel } from "../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../nodes/decode/freelancer/codec/build_scene.ts";
import { resolveFreelancerScene } from "../../../nodes/decode/freelancer/resolver_run.ts";
import { repairForExport } from "../../../nodes/export/repair.ts";
import { setMaps } from "../../../nodes/export/repair_attribute_sets.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { prng } from "../../support/prng.ts";

// The test builds scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

Deno.test("numbered sets in order are told without a map of them (seeds 81-84)", () => {
  for (let seed = 81; seed <= 84; seed++) {
    const warn = () => {};
    const doc = buildScene(
      decodeModel({ bytes: realisticCmp(seed, { parts: 10 }), name: "r.cmp" }, [], warn),
      warn,
    );
    resolveFreelancerScene(doc, {}, warn);
    const before = setMaps.count;
    assert.equal(repairForExport(doc, warn), doc, `seed ${seed}`);
    assert.equal(setMaps.count - before, 0, `seed ${seed}: maps built for primitives in order`);
  }
});

Deno.test("a lone TEXCOORD_1 or unpaired JOINTS_0 is still repaired (seeds 85-88)", () => {
  for (let seed = 85; seed <= 88; seed++) {
    const next = prng(seed);
    const doc = new Document();
    const buffer = doc.createBuffer();
    const vertices = 3 + Math.floor(next() * 20);
    const accessor = (type: "VEC2" | "VEC3" | "VEC4", size: number) =>
      doc.createAccessor("", buffer).setType(type).setArray(
        new Float32Array(vertices * size).map(() => next()),
      );
    const lone = next() < 0.5;
    const primitive = doc.createPrimitive().setAttribute("POSITION", accessor("VEC3", 3));
    if (lone) primitive.setAttribute("TEXCOORD_1", accessor("VEC2", 2));
    else {
      primitive.setAttribute(
        "JOINTS_0",
        doc.createAccessor("", buffer).setType("VEC4").setArray(new Uint16Array(vertices * 4)),
      );
    }
    doc.createScene("s").addChild(doc.createNode("n").setMesh(doc.createMesh("rip").addPrimitive(primitive)));
    const before = setMaps.count;
    const messages: string[] = [];
    const repaired = repairForExport(doc, (m) => messages.push(m));
    assert.ok(setMaps.count - before >= 1, `seed ${seed}`);
    const semantics = repaired.getRoot().listMeshes()[0].listPrimitives()[0].listSemantics().sort();
    assert.deepEqual(semantics, lone ? ["POSITION", "TEXCOORD_0"] : ["POSITION"], `seed ${seed}`);
    assert.ok(
      messages.some((m) => lone ? /renumbered/.test(m) : /JOINTS_0 left out/.test(m)),
      messages.join("\n"),
    );
  }
});
