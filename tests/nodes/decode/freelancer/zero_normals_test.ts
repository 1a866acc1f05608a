/**
 * decode.cmp gives VMesh normals of zero length (as modding tools leave them) the direction of their
 * copies at the same place or of their triangles, as decode.gltf and export.gltf's repair do, and says
 * so naming the part; before, each became +Y.
 */
import assert from "node:assert/strict";
import type { Mesh } from "@gltf-transform/core";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { zeroNormalCmp } from "../../../support/lost_directions.ts";

/** Degrees between two 3-vectors. */
function angle(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const dot = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / Math.hypot(a[0], a[1], a[2]) /
    Math.hypot(b[0], b[1], b[2]);
  return (Math.acos(Math.max(-1, Math.min(1, dot))) * 180) / Math.PI;
}

for (const seed of [5, 6]) {
  Deno.test(`decode.cmp: zero VMesh normals take their faces' direction, not +Y (hull and box, seed ${seed})`, async () => {
    const { bytes, parts } = zeroNormalCmp(seed, 0.15);
    const ctx = testContext();
    const { scene } = await runNode(decodeCmp, { bytes: { bytes, name: `ship${seed}.cmp` } }, {
      libraries: "none",
    }, ctx);
    let zeroed = 0;
    for (const part of parts) {
      const mesh = scene.getRoot().listMeshes().find((m: Mesh) => m.getName() === `${part.name}.mesh`)!;
      const primitive = mesh.listPrimitives()[0];
      const positions = primitive.getAttribute("POSITION")!.getArray()!;
      const normals = primitive.getAttribute("NORMAL")!.getArray()!;
      // The decoder numbers a group's vertices in the order its indices first use them.
      const numbered = new Map<number, number>();
      for (const v of part.indices) if (!numbered.has(v)) numbered.set(v, numbered.size);
      for (let v = 0; v < part.zeroed.length; v++) {
        if (!part.zeroed[v]) continue;
        zeroed++;
        const o = numbered.get(v)!;
        assert.deepEqual(
          Array.from(positions.slice(3 * o, 3 * o + 3)),
          Array.from(part.positions.slice(3 * v, 3 * v + 3)),
        );
        const off = angle(normals.slice(3 * o, 3 * o + 3), part.normals.subarray(3 * v, 3 * v + 3));
        assert.ok(off < 5, `${part.name} vertex ${v}: ${off.toFixed(1)}° from its faces' normal`);
      }
      assert.ok(
        ctx.warnings.some((w) =>
          w.message.includes(`part '${part.name}'`) &&
          /zero length or not finite given the direction/.test(w.message)
        ),
        ctx.warnings.map((w) => w.message).join("\n"),
      );
    }
    assert.ok(zeroed > 10, `${zeroed} zeroed normals`);
  });
}
