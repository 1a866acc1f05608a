/**
 * export.gltf mends normals and tangent signs that lost their direction in scenes from other decoders
 * (a script building a scene, DSON, Carnivores, Freelancer data) by decode.gltf's rules, not as +Z and
 * +1: a zero or NaN normal takes its copies' or its triangles' direction, a tangent sign of 0 (three
 * components padded as VEC4) the handedness of the UVs, right on mirrored UV islands too.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";
import { lostSignScene, zeroNormalScene } from "../../support/lost_directions.ts";

/** Degrees between two 3-vectors. */
function angle(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const dot = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / Math.hypot(a[0], a[1], a[2]) /
    Math.hypot(b[0], b[1], b[2]);
  return (Math.acos(Math.max(-1, Math.min(1, dot))) * 180) / Math.PI;
}

/** `doc` through export.gltf: the scene read back, and the warnings. */
async function exported(doc: Document): Promise<{ back: Document; warnings: string[] }> {
  const ctx = testContext();
  const { bytes } = await runNode(exportGltf, { scene: doc }, {}, ctx);
  const report = await validateGltf(bytes.bytes);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  return { back: await readGltf(bytes.bytes), warnings: ctx.warnings.map((w) => w.message) };
}

/** The first primitive's attribute `semantic` of mesh `name` in `doc`. */
function attribute(doc: Document, name: string, semantic: string): ArrayLike<number> {
  const mesh = doc.getRoot().listMeshes().find((m) => m.getName() === name)!;
  return mesh.listPrimitives()[0].getAttribute(semantic)!.getArray()!;
}

for (const seed of [5, 6]) {
  Deno.test(`export.gltf: zero normals take their faces' direction, not +Z (hull and box, seed ${seed})`, async () => {
    const { doc, parts } = zeroNormalScene(seed, 0.15);
    const given = doc.getRoot().listAccessors().map((a) => a.getArray()!.slice());
    const { back, warnings } = await exported(doc);
    let zeroed = 0;
    for (const part of parts) {
      const normals = attribute(back, part.name, "NORMAL");
      for (let v = 0; v < part.zeroed.length; v++) {
        if (!part.zeroed[v]) continue;
        zeroed++;
        const off = angle(
          Array.from(normals).slice(3 * v, 3 * v + 3),
          part.normals.subarray(3 * v, 3 * v + 3),
        );
        assert.ok(off < 5, `${part.name} vertex ${v}: ${off.toFixed(1)}° from its faces' normal`);
      }
    }
    assert.ok(zeroed > 10, `${zeroed} zeroed normals`);
    assert.ok(
      warnings.some((w) => /NaN or of zero length given the direction of their copies/.test(w)),
      warnings.join("\n"),
    );
    // The scene given is not changed: the repair wrote into copies.
    assert.deepEqual(doc.getRoot().listAccessors().map((a) => a.getArray()!), given);
  });

  Deno.test(`export.gltf: tangent signs of 0 take the UVs' handedness on mirrored islands (seed ${seed})`, async () => {
    const { doc, meshes } = lostSignScene(seed);
    const { back, warnings } = await exported(doc);
    for (const mesh of meshes) {
      const tangents = attribute(back, mesh.name, "TANGENT"), normals = attribute(back, mesh.name, "NORMAL");
      let wrong = 0, signs = 0;
      for (let v = 0; v < mesh.damage.length; v++) {
        if (mesh.damage[v] & 1) signs++, wrong += tangents[4 * v + 3] === mesh.tangents[4 * v + 3] ? 0 : 1;
        if (mesh.damage[v] & 2) {
          const off = angle(
            Array.from(tangents).slice(4 * v, 4 * v + 3),
            mesh.tangents.subarray(4 * v, 4 * v + 3),
          );
          assert.ok(off < 5, `${mesh.name} vertex ${v}: tangent ${off.toFixed(1)}° from the UVs' direction`);
        }
        if (mesh.damage[v] & 4) {
          const off = angle(
            Array.from(normals).slice(3 * v, 3 * v + 3),
            mesh.normals.subarray(3 * v, 3 * v + 3),
          );
          assert.ok(off < 5, `${mesh.name} vertex ${v}: NaN normal mended ${off.toFixed(1)}° off`);
        }
      }
      assert.equal(wrong, 0, `${mesh.name}: ${wrong} of ${signs} signs of 0 against the UVs' handedness`);
      assert.ok(
        warnings.some((w) =>
          w.includes(`of mesh '${mesh.name}' set from the direction of its normal map's UVs`)
        ),
        warnings.join("\n"),
      );
    }
  });
}
