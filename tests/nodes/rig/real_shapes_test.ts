/**
 * The rig on aircraft shaped like the files users bring, not like our generators: a game rip (one
 * skinned mesh, bones named for the surfaces, under a Z-up centimetre armature, the skinned node at
 * the root) and collision proxies named by the engines' import conventions beside the surfaces.
 * Each surface must get its true hinge (axis within 1°, line within 2 % of chord), kind and side,
 * or be flagged; no proxy may be rigged.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { mat4 } from "gl-matrix";
import { sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { axisErrorDegrees, distanceToLine, newScene } from "./fixtures.ts";
import { gameRip, lightAircraft, placed, type ShapePart } from "./real_shapes.ts";
import { rig, type RigResult } from "./pipeline.ts";
import { rotationTo } from "./turned.ts";
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { packedPartsGlb } from "../../support/msfs_packed.ts";

/** Asserts every surface's hinge, kind and side against its truth; `panel` names its rigged node. */
function assertSurfaces(result: RigResult, parts: ShapePart[], panel: (part: ShapePart) => string): void {
  for (const part of parts) {
    if (!part.truth) continue;
    const name = panel(part);
    const found = result.report.parts.find((p) => p.panel === name) as
      | (RigResult["report"]["parts"][number] & { fit: { confidence: string; rule: string } })
      | undefined;
    assert(found?.hinge && found.fit, `${name} rigged`);
    const { root, tip, kind, side } = part.truth;
    const middle = [0, 1, 2].map((k) => (root[k] + tip[k]) / 2) as Vec3;
    const degrees = axisErrorDegrees(found.hinge.world.axis, sub(tip, root));
    const offset = distanceToLine(middle, found.hinge.world.origin, found.hinge.world.axis) / found.fit.chord;
    const what = `${name}: ${degrees.toFixed(3)}°, ${(offset * 100).toFixed(2)} % of chord, ` +
      `${found.fit.confidence}, rule ${found.fit.rule}`;
    assert(degrees < 1 && offset < 0.02, what);
    assertEquals([found.kind, found.side, found.fit.confidence], [kind, side, "good"], what);
  }
}

Deno.test("a game rip's skinned surfaces keep their edge hinges: the fixed tail ahead is found where skinning draws it", async () => {
  // Before: the body was read unskinned at the skinned node (the armature's raised or centimetre
  // space), so the tailplane and fin were not found ahead of the elevators and rudder: judged
  // all-moving, pivoted at quarter chord and judged good (elevators 25 % of chord off).
  const swept = { sweep: 35, dihedral: 10 };
  const cases = [
    [{}, 1, { unit: 1, lift: 0.6, zUp: false }],
    [{}, 2, { unit: 0.01 }],
    [swept, 3, { unit: 1, lift: 0.6, zUp: false }],
    [swept, 4, { unit: 0.01, lift: 1.2 }],
    [swept, 5, { unit: 0.01, lift: 0.5, zUp: false }],
  ] as const;
  for (const [shape, seed, options] of cases) {
    const parts = lightAircraft(shape);
    const { doc, bones } = gameRip(parts, seed, options);
    const result = await rig(doc, { forward: "-Z", up: "+Y" });
    assertSurfaces(result, parts, (part) => bones.get(part.name)!);
    for (const part of result.report.parts) {
      assert(
        (part.fit as { rule?: string } | null)?.rule !== "all_moving",
        `${part.panel} is no all-moving surface`,
      );
    }
  }
});

Deno.test('a game rip facing +Z or Z-up: "auto" finds the frame from the skinned shape and bone names', async () => {
  // Before: read unskinned, the Z-up centimetre airframe gave wrong frames, some judged good.
  for (const [forward, up] of [["-Z", "+Y"], ["+Z", "+Y"], ["+X", "+Y"], ["-Y", "+Z"]] as const) {
    const parts = placed(
      lightAircraft({ sweep: 35, dihedral: 10 }),
      mat4.fromQuat(mat4.create(), rotationTo(forward, up)),
    );
    const { doc, bones } = gameRip(parts, 7);
    const result = await rig(doc, { forward: "auto", up: "auto" });
    const frame = result.report.frame;
    assertEquals([frame.forward, frame.up, frame.confidence], [forward, up, "good"], `${forward}/${up}`);
    assertSurfaces(result, parts, (part) => bones.get(part.name)!);
  }
});

Deno.test("collision proxies named by import convention beside the surfaces are not rigged", async () => {
  const parts = lightAircraft();
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  const buffer = doc.getRoot().listBuffers()[0];
  const proxies: string[] = [];
  for (const part of parts) {
    const names = part.truth
      ? [
        part.name,
        `UCX_${part.name}`,
        `UBX_${part.name}_01`,
        `${part.name}-colonly`,
        `${part.name}_col`,
        `${part.name}-convcol`,
        `${part.name}_hitbox`,
      ]
      : [part.name];
    proxies.push(...names.slice(1));
    for (const name of names) {
      const primitive = doc.createPrimitive()
        .setAttribute(
          "POSITION",
          doc.createAccessor(`${name}.p`, buffer).setType("VEC3").setArray(new Float32Array(part.positions)),
        )
        .setIndices(
          doc.createAccessor(`${name}.i`, buffer).setType("SCALAR").setArray(new Uint32Array(part.indices)),
        );
      scene.addChild(doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive)));
    }
  }
  const result = await rig(doc);
  const rigged = result.report.parts.map((p) => p.panel);
  assertEquals(rigged.filter((name) => proxies.includes(name!)), []);
  assertSurfaces(result, parts, (part) => part.name);
});

Deno.test("a Flight Simulator aircraft (Asobo's packing) rigs as its parts: every surface's true hinge, kind and side", async () => {
  // Before decode.gltf v19 the file was refused at its first normal (signed bytes); read as glTF
  // reads it, each surface's two primitives would have drawn the whole surface twice, wound inside out.
  const parts = lightAircraft({ sweep: 20, dihedral: 5 });
  const ctx = testContext();
  const bytes = packedPartsGlb(parts);
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "cub.gltf" } }, {}, ctx);
  assert(
    ctx.warnings.some((w) =>
      /wound against their own normals \(MSFS packing\): turned round/.test(w.message)
    ),
  );
  const result = await rig(scene as Document, { forward: "-Z", up: "+Y" });
  assertSurfaces(result, parts, (part) => part.name);
});
