/**
 * Node matrices as glTF's translation, rotation and scale hold them: every matrix made of them comes
 * out as it went in (mirrored ones and ones flattening an axis too: decomposed, a scale of 0 was
 * divided by and the rotation lost), and what they cannot hold (a shear, a projective bottom row, TRS
 * beside the matrix) is read as the nearest transform they can, with a warning naming the node.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { mat4, quat, vec3 } from "gl-matrix";
import type { Node } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { messyGlb } from "../../support/messy_gltf.ts";
import { validateGltf } from "../../support/validator.ts";

/** Decodes and exports the base file with `matrices` as extra root nodes `M0`, `M1`…; the output's nodes and warnings. */
async function throughExport(
  matrices: number[][],
  extra: (node: Record<string, unknown>, i: number) => void = () => {},
) {
  const bytes = await messyGlb((json) => {
    matrices.forEach((matrix, i) => {
      const node = { name: `M${i}`, matrix };
      extra(node, i);
      json.scenes[0].nodes.push(json.nodes.push(node) - 1);
    });
  });
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "matrices.glb" } }, {}, ctx);
  const out = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  const report = await validateGltf(out);
  assertEquals(report.errors, 0, report.messages.join("\n"));
  const nodes = (await readGltf(out)).getRoot().listNodes();
  return {
    node: (i: number) => nodes.find((n) => n.getName() === `M${i}`)!,
    warnings: ctx.warnings.map((w) => w.message),
  };
}

/** The largest difference between `node`'s matrix and `expected`. */
function matrixError(node: Node, expected: ArrayLike<number>): number {
  const actual = node.getMatrix();
  return Math.max(...Array.from(expected, (v, i) => Math.abs(v - actual[i])));
}

/** A deterministic pseudo-random number in [-1, 1). */
function random(seed: { value: number }): number {
  seed.value = (seed.value * 1103515245 + 12345) % 2147483648;
  return seed.value / 1073741824 - 1;
}

Deno.test("glTF node matrices made of translation, rotation and scale come out as they went in, flattened axes too", async () => {
  const seed = { value: 20261205 };
  const matrices: number[][] = [];
  for (let i = 0; i < 120; i++) {
    const rotation = quat.normalize(quat.create(), [random(seed), random(seed), random(seed), random(seed)]);
    const scale = vec3.fromValues(1 + random(seed), 1 + random(seed), 1 + random(seed));
    if (i % 4 === 1) scale[i % 3] = -scale[i % 3]; // mirrored
    if (i % 4 === 2) scale[i % 3] = 0; // flattened along one axis, as a node hidden by scale
    if (i % 4 === 3) scale[i % 3] = scale[(i + 1) % 3] = 0; // along two
    const translation = [10 * random(seed), 10 * random(seed), 10 * random(seed)] as const;
    matrices.push([...mat4.fromRotationTranslationScale(mat4.create(), rotation, translation, scale)]);
  }
  const { node, warnings } = await throughExport(matrices);
  const worst = Math.max(...matrices.map((matrix, i) => matrixError(node(i), matrix)));
  assert(worst < 1e-5, `worst element off by ${worst}`);
  // The flattened ones are read as translation, rotation and scale by the decode, each named (and named again
  // as scaled to 0, what the rig cannot turn: codec/flat_scales.ts); none else is.
  assert(
    warnings.some((w) => /\/nodes\/\d+\/matrix: it flattens Z \(a scale of 0\)/.test(w)),
    warnings.join("\n"),
  );
  assert(warnings.some((w) => /\/nodes\/\d+\/matrix: it flattens X, Y \(a scale of 0\)/.test(w)));
  assert(
    warnings.every((w) => /flattens|more like the last|scaled to 0 on an axis/.test(w)),
    warnings.join("\n"),
  );
});

Deno.test("glTF node matrices glTF's transforms cannot hold are read as the nearest they can, each named", async () => {
  const shear = [1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1];
  const projective = [1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1];
  const homogeneous = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 10, 0, 0, 2];
  const mirroredShear = [-1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const { node, warnings } = await throughExport(
    [shear, projective, homogeneous, mirroredShear, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]],
    (json, i) => {
      if (i === 4) json.translation = [7, 7, 7];
    },
  );
  // The shear: X kept, Y made square to it with its length (√1.25), nothing mirrored.
  assert(matrixError(node(0), [1, 0, 0, 0, 0, Math.sqrt(1.25), 0, 0, 0, 0, 1, 0, 5, 0, 0, 1]) < 1e-6);
  // Before, the projective row turned the determinant negative: the node came out mirrored in X.
  assert(matrixError(node(1), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1]) < 1e-6);
  assert(matrixError(node(2), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1]) < 1e-6);
  assert(matrixError(node(3), [-1, 0, 0, 0, 0, Math.sqrt(1.25), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) < 1e-6);
  assertEquals(node(4).getTranslation(), [1, 2, 3]);
  for (
    const pattern of [
      /\/nodes\/\d+\/matrix: a shear \(two axes 63\.43° apart\)/,
      /\/nodes\/\d+\/matrix: bottom row \[0\.5, 0, 0, 1\] is not \[0, 0, 0, 1\]: its projective part is left out/,
      /\/nodes\/\d+\/matrix: bottom row \[0, 0, 0, 2\] is not \[0, 0, 0, 1\]: read divided by 2/,
      /\/nodes\/\d+: matrix and translation both given: the matrix is read, as three.js and Blender read it/,
    ]
  ) assert(warnings.some((w) => pattern.test(w)), `${pattern} in\n${warnings.join("\n")}`);
});
