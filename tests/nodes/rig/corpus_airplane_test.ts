/**
 * The rig on a real Blender export (Sketchbook's airplane, MIT; faces +Z): ailerons, elevators and
 * rudder found with their sides, fitted hinges against the authored pivots (`*_parent` empties with
 * the hinge along their local Z) — as exported, and Draco-compressed or quantized and meshopt-compressed,
 * as web optimisers leave aircraft; and after glTF-Transform's own transforms (welded, deduplicated,
 * reordered, flattened…): the same surfaces on the same hinges, or, once `join` has merged
 * them into the body, a warning naming the options that keep them apart.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { type Recipe, transformedGlb } from "../../support/gltf_transform.ts";
import { optimisedGlb } from "../../support/compressed.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { runNode, testContext } from "../../support/context.ts";
import { glbOf } from "../../support/shapes.ts";
import { corpusFile, withoutCorpus } from "../../support/corpus.ts";
import { validateGltf } from "../../support/validator.ts";
import { axisErrorDegrees, distanceToLine } from "./fixtures.ts";
import { nodeNamed, rig, type RigResult } from "./pipeline.ts";

const SAMPLE = "aircraft/sketchbook_airplane.glb";

async function decode() {
  const bytes = await Deno.readFile(corpusFile(SAMPLE)!);
  return (await runNode(decodeGltf, { bytes: { bytes, name: "sketchbook_airplane.glb" } })).scene;
}

let plainRig: Promise<{ source: Document; result: RigResult }> | undefined;
/**
 * The airplane decoded and rigged with its frame (+Z forward) once for the tests that only read the
 * result (the rig leaves its input untouched); the byte-identity test rigs twice afresh.
 */
function rigPlain(): Promise<{ source: Document; result: RigResult }> {
  return plainRig ??= decode().then(async (source) => ({
    source,
    result: await rig(source, { forward: "+Z" }),
  }));
}

/** Surfaces and sides as authored, and each fitted hinge on its authored pivot (`*_parent`'s Z). */
function assertAuthoredHinges(source: Document, result: RigResult, shaftDegrees = 0.01): void {
  const found = result.report.parts.map((p) => [p.panel, p.kind, p.side]);
  assertEquals(found, [
    ["aileron_parent.L", "aileron", "left"],
    ["aileron_parent.R", "aileron", "right"],
    ["elevator_parent.L", "elevator", "left"],
    ["elevator_parent.R", "elevator", "right"],
    ["rotor_parent", "propeller", "centre"],
    ["rudder_parent", "rudder", "centre"],
  ]);
  // The propeller (`rotor`, two blades): its shaft along the aircraft's forward axis (+Z) through the
  // authored `rotor` node's origin, a positive angle clockwise seen from behind. Measured: 3e-6° and
  // 2e-7 m off.
  const rotor = result.report.parts.find((p) => p.panel === "rotor_parent")!;
  const rotorWorld = nodeNamed(source, "rotor").getWorldMatrix();
  const rotorOrigin: Vec3 = [rotorWorld[12], rotorWorld[13], rotorWorld[14]];
  const shaft = axisErrorDegrees(rotor.hinge!.world.axis, [0, 0, 1]);
  assert(shaft <= shaftDegrees && rotor.hinge!.world.axis[2] > 0, `shaft ${shaft}° off +Z`);
  assert(distanceToLine(rotorOrigin, rotor.hinge!.world.origin, rotor.hinge!.world.axis) <= 1e-5);
  assertEquals([rotor.group, rotor.positive, rotor.min, rotor.max], [
    "propellers",
    "clockwise_from_behind",
    null,
    null,
  ]);
  assertEquals((rotor.fit as unknown as { confidence: string }).confidence, "good");
  for (const part of result.report.parts.filter((p) => p !== rotor)) {
    const authored = nodeNamed(source, part.panel!).getWorldMatrix();
    const origin: Vec3 = [authored[12], authored[13], authored[14]];
    const axis = normalize([authored[8], authored[9], authored[10]]);
    const degrees = axisErrorDegrees(part.hinge!.world.axis, axis);
    const offset = distanceToLine(origin, part.hinge!.world.origin, part.hinge!.world.axis);
    assert(degrees <= 1, `${part.panel}: axis ${degrees}° from the authored pivot`);
    assert(offset <= 0.005, `${part.panel}: line ${offset * 1000} mm from the authored pivot`);
    // The report notices the authored pivot: the empty's Z lies on the fitted hinge.
    const authoredPivot = part.fit!.authored_pivot;
    assertEquals(authoredPivot.axis, "Z");
    assert(
      Math.abs(authoredPivot.degrees - degrees) < 1e-6 && Math.abs(authoredPivot.offset - offset) < 1e-6,
    );
  }
}

Deno.test({
  name: "sketchbook airplane (+Z forward): surfaces, sides and hinges match the authored pivots",
  ignore: withoutCorpus(SAMPLE),
  async fn() {
    const { source, result } = await rigPlain();
    assertAuthoredHinges(source, result);
  },
});

for (const kind of ["draco", "quantized meshopt"] as const) {
  Deno.test({
    name:
      `sketchbook airplane, ${kind}-compressed: decoded and rigged, the same surfaces on the authored pivots`,
    ignore: withoutCorpus(SAMPLE),
    async fn() {
      const bytes = await optimisedGlb(await Deno.readFile(corpusFile(SAMPLE)!), kind);
      const json = JSON.parse(
        new TextDecoder().decode(bytes.subarray(20, 20 + new DataView(bytes.buffer).getUint32(12, true))),
      );
      const used = kind === "draco"
        ? ["KHR_draco_mesh_compression"]
        : ["EXT_meshopt_compression", "KHR_mesh_quantization"];
      assertEquals([...json.extensionsUsed].sort(), used, "the file really is compressed so");
      const source = (await runNode(decodeGltf, { bytes: { bytes, name: "airplane.glb" } })).scene;
      const result = await rig(source, { forward: "+Z" });
      assertAuthoredHinges(source, result);
      const report = await validateGltf(await writeGlb(result.scene, { generator: GENERATOR }));
      assertEquals(report.errors, 0, report.messages.join("\n"));
    },
  });
}

Deno.test({
  name:
    "sketchbook airplane with its transforms rounded to 3 decimals (as some exporters write): the same hinges",
  ignore: withoutCorpus(SAMPLE),
  async fn() {
    const bytes = await Deno.readFile(corpusFile(SAMPLE)!);
    const length = new DataView(bytes.buffer).getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
    for (const node of json.nodes) {
      for (const key of ["translation", "rotation", "scale"]) {
        if (node[key]) node[key] = node[key].map((v: number) => Math.round(v * 1000) / 1000);
      }
    }
    const ctx = testContext();
    const rounded = (await runNode(
      decodeGltf,
      {
        bytes: { bytes: glbOf(json, bytes.subarray(28 + length)), name: "rounded.glb" },
      },
      {},
      ctx,
    )).scene;
    // Two rotations end more than 0.0005 off unit length: decode refused the file before; now it
    // normalises them, each named.
    assertEquals(
      ctx.warnings.filter((w) => /rotation of length .* made unit length/.test(w.message)).length,
      2,
    );
    const result = await rig(rounded, { forward: "+Z" });
    assertAuthoredHinges(rounded, result, 0.2);
    const exact = (await rigPlain()).result;
    result.report.parts.forEach((part, i) => {
      const twin = exact.report.parts[i];
      assert(axisErrorDegrees(part.hinge!.world.axis, twin.hinge!.world.axis) < 0.2, part.panel!);
      assert(
        distanceToLine(part.hinge!.world.origin, twin.hinge!.world.origin, twin.hinge!.world.axis) < 0.001,
      );
      assertEquals([part.side, part.positive], [twin.side, twin.positive]);
    });
  },
});

Deno.test({
  name: "sketchbook airplane: positive angles move trailing edges down and the rudder right",
  ignore: withoutCorpus(SAMPLE),
  async fn() {
    const { result } = await rigPlain();
    assertEquals(result.report.parts.map((p) => p.positive), [
      "trailing_edge_down",
      "trailing_edge_down",
      "trailing_edge_down",
      "trailing_edge_down",
      "clockwise_from_behind",
      "trailing_edge_right",
    ]);
    // Aircraft frame (aft, up, left), right-hand rule: a positive turn about a moves an aft point
    // along a × aft. Trailing edge down needs a = right (−left); trailing edge right needs a = up.
    for (const part of result.report.parts.slice(0, 4)) {
      assert(part.hinge!.aircraft.axis[2] < -0.9, part.panel!);
    }
    assert(result.report.parts[5].hinge!.aircraft.axis[1] > 0.8);
    // A propeller turns right-handed about forward (−aft): clockwise seen from behind.
    assert(result.report.parts[4].hinge!.aircraft.axis[0] < -0.99);
  },
});

Deno.test({
  name: "sketchbook airplane: rigged GLB validates and is byte-identical across runs",
  ignore: withoutCorpus(SAMPLE),
  async fn() {
    const a = await writeGlb((await rig(await decode(), { forward: "+Z" })).scene, { generator: GENERATOR });
    const b = await writeGlb((await rig(await decode(), { forward: "+Z" })).scene, { generator: GENERATOR });
    assertEquals(a, b);
    const report = await validateGltf(a);
    assertEquals(report.messages, []);
    assertEquals(report.errors, 0);
  },
});

Deno.test({
  name: "sketchbook airplane: the default −Z forward is recognised as backwards and warned about",
  ignore: withoutCorpus(SAMPLE),
  async fn() {
    const facing = (warnings: { message: string }[]) =>
      warnings.filter((w) => w.message.includes("other way"));
    assertEquals(facing((await rig(await decode())).ctx.warnings).length, 1);
    assertEquals(facing((await rigPlain()).result.ctx.warnings), []);
  },
});

/** The corpus airplane after a glTF-Transform `recipe`, decoded as a user's file would be. */
async function transformed(recipe: Recipe): Promise<Document> {
  const bytes = await transformedGlb(await Deno.readFile(corpusFile(SAMPLE)!), recipe);
  return (await runNode(decodeGltf, { bytes: { bytes, name: "optimised.glb" } })).scene;
}

Deno.test({
  name:
    "sketchbook airplane through glTF-Transform's transforms that keep nodes apart: the same surfaces on the same hinges",
  ignore: withoutCorpus(SAMPLE),
  async fn() {
    const reference = (await rigPlain()).result;
    const recipes: Recipe[] = ["dedup + prune", "weld", "unweld", "reorder", "flatten + join keeping names"];
    for (const what of recipes) {
      const result = await rig(await transformed(what), { forward: "+Z" });
      assertEquals(
        result.report.parts.map((p) => [p.kind, p.side]),
        reference.report.parts.map((p) => [p.kind, p.side]),
        what,
      );
      result.report.parts.forEach((part, i) => {
        const want = reference.report.parts[i].hinge!.world;
        const got = part.hinge!.world;
        const degrees = axisErrorDegrees(got.axis, want.axis);
        const offset = distanceToLine(got.origin, want.origin, want.axis);
        assert(
          degrees <= 0.01 && offset <= 1e-5,
          `${what}, ${part.panel}: ${degrees}°, ${offset} m`,
        );
      });
      assertEquals(result.ctx.warnings.filter((w) => w.message.includes("weak")), [], what);
    }
  },
});

Deno.test({
  name:
    "sketchbook airplane joined by glTF-Transform (optimize's defaults): nothing rigged, and the warning says how to keep the surfaces",
  ignore: withoutCorpus(SAMPLE),
  async fn() {
    const result = await rig(await transformed("optimize's defaults"), { forward: "+Z" });
    assertEquals(result.report.parts, []);
    const warning = result.ctx.warnings.find((w) => w.message.startsWith("no node name suggests"));
    assert(warning?.message.includes("joined into its 3 meshes"), warning?.message);
    assert(warning!.message.includes("--join false --flatten false"));
  },
});
