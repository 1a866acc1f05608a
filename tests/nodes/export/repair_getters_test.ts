/**
 * export.gltf's repair check reads every accessor's component type, type and array (its scan for
 * non-finite values): from the accessor's attribute store, not through glTF-Transform's getters, whose
 * one shared `get` is a megamorphic load each (`graph_props.ts` accessorStore). Retail-shaped
 * Freelancer compounds made by code (`realistic_cmp.ts`, seeds 71-74), decoded and resolved: nothing to
 * repair, the same scene back, and fewer getter calls than accessors (before: three per float accessor);
 * a NaN planted in one is still found and repaired on a copy.
 */
import assert from "node:assert/strict";
import { Accessor, type Document } from "@gltf-transform/core";
import { decodeModel } from "../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../nodes/decode/freelancer/codec/build_scene.ts";
import { resolveFreelancerScene } from "../../../nodes/decode/freelancer/resolver_run.ts";
import { repairForExport } from "../../../nodes/export/repair.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";

// The test builds scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

const GETTERS = ["getArray", "getComponentType", "getType", "getElementSize"] as const;

/** Calls of the accessor getters while `run` runs. */
function countGetters(run: () => Document): { calls: number; result: Document } {
  const proto = Accessor.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const saved = GETTERS.map((name) => proto[name]);
  let calls = 0;
  GETTERS.forEach((name, i) => {
    proto[name] = function (this: unknown, ...args: unknown[]) {
      calls++;
      return saved[i].apply(this, args);
    };
  });
  try {
    const result = run();
    return { calls, result };
  } finally {
    GETTERS.forEach((name, i) => proto[name] = saved[i]);
  }
}

Deno.test("the repair check reads accessors from their stores (seeds 71-74)", () => {
  for (let seed = 71; seed <= 74; seed++) {
    const warn = () => {};
    const doc = buildScene(
      decodeModel({ bytes: realisticCmp(seed, { parts: 10 }), name: "r.cmp" }, [], warn),
      warn,
    );
    resolveFreelancerScene(doc, {}, warn);
    const accessors = doc.getRoot().listAccessors();
    const { calls, result } = countGetters(() => repairForExport(doc, warn));
    assert.equal(result, doc, `seed ${seed}: nothing to repair`);
    assert.ok(
      calls < accessors.length,
      `seed ${seed}: ${calls} getter calls for ${accessors.length} accessors`,
    );
    const float = accessors.find((a) => a.getComponentType() === 5126 && a.getCount() > 1)!;
    const damaged = float.getArray()!.slice();
    damaged[1] = NaN;
    float.setArray(damaged);
    const messages: string[] = [];
    const repaired = repairForExport(doc, (m) => messages.push(m));
    assert.notEqual(repaired, doc);
    assert.ok(messages.some((m) => /1 non-finite value/.test(m)), messages.join("\n"));
  }
});
