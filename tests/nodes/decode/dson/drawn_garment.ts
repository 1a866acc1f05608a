/**
 * Where a decoded scene draws a garment's vertices, shared by the rigidity tests of projected
 * morphs (`preset_rigidity_test.ts`, `chained_rigidity_test.ts`).
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { RigidFit } from "../../../../nodes/decode/dson/codec/preset_rigidity.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import type { V3 } from "./rigidity_reference.ts";

/**
 * Where the decoded scene draws each vertex (cm, by DSON vertex) of the mesh whose name starts with
 * `prefix`; with `plain`, the plain projected deltas a fit of rigidity keeps aside (`rigid`) instead.
 */
export function drawnShirt(scene: Document, plain = false, prefix = "Shirt"): Map<number, V3> {
  const mesh = scene.getRoot().listMeshes().find((m) => m.getName().startsWith(prefix))!;
  const weights = mesh.getWeights(), out = new Map<number, V3>();
  // With `plain`, the plain projected deltas a fit of rigidity keeps aside (`rigid`), by target.
  const records =
    (getPartgraphExtras(mesh).dson as { morphs?: { rigid?: RigidFit }[] } | undefined)?.morphs ?? [];
  const kept = records.map((r) =>
    new Map(
      plain && r?.rigid ? r.rigid.vertices.map((v, i) => [v, r.rigid!.plain.slice(i * 3, i * 3 + 3)]) : [],
    )
  );
  for (const primitive of mesh.listPrimitives()) {
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const position = primitive.getAttribute("POSITION")!;
    for (let i = 0; i < position.getCount(); i++) {
      const p = position.getElement(i, [] as number[]);
      primitive.listTargets().forEach((target, t) => {
        const d = kept[t]?.get(ids[i]) ?? target.getAttribute("POSITION")!.getElement(i, [] as number[]);
        for (let c = 0; c < 3; c++) p[c] += weights[t] * d[c];
      });
      out.set(ids[i], p.map((x) => x * 100) as V3);
    }
  }
  return out;
}
