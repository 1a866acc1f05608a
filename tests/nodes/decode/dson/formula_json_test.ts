/**
 * The formula graph in extras holds each operation as a group (`formula_json.ts`), so Blender 3.4
 * keeps it (a list mixing numbers with text or lists it keeps only as text: before decode.dson v45
 * every decoded figure with formulas lost them in a Blender round trip, and export.gltf v30 warned);
 * the bare form written before is still read.
 */
import assert from "node:assert/strict";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import type { FormulaGraph } from "../../../../nodes/decode/dson/codec/formula_graph.ts";
import { readFormulaGraph } from "../../../../nodes/decode/dson/codec/formula_graph_read.ts";
import { formulaGraphJson } from "../../../../nodes/decode/dson/codec/formula_json.ts";
import { decodeAndExport } from "./dson_runs.ts";
import { jcmFigure } from "./jcm_figure.ts";
import { blenderExtrasDrops } from "../../../../nodes/export/blender_extras.ts";

Deno.test("dson formula extras: every operation is a group; the export says nothing of Blender losing them", async () => {
  const { scene, glb, warnings } = await decodeAndExport(jcmFigure(-135, "spline_tcb"), "Genesis8Female.duf");
  assert.deepEqual(warnings, []);
  const formulas =
    (getPartgraphExtras(scene.getRoot().listMeshes()[0]).dson as unknown as { formulas: FormulaGraph })
      .formulas;
  const ops = Object.values(formulas.channels).flatMap((c) => (c.formulas ?? []).flatMap((f) => f.ops));
  assert.ok(ops.length >= 6, `${ops.length} operations`);
  for (const op of ops) {
    assert.ok(op !== null && typeof op === "object" && !Array.isArray(op), JSON.stringify(op));
  }
  // The written file's JSON, as Blender's importer meets it.
  const length = new DataView(glb.buffer, glb.byteOffset + 12, 4).getUint32(0, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  assert.deepEqual(blenderExtrasDrops(json), []);
});

Deno.test("dson formula extras: the grouped form reads back to the graph; the bare form written before still reads", () => {
  const bare: FormulaGraph = {
    channels: {
      M: {
        value: 0,
        formulas: [{
          stage: "sum",
          ops: [{ bone: "arm?rotation/y" }, [0, 0, 0, 0, 0], [-90, 1], 2, "spline_tcb"],
        }],
      },
      C: { value: 0.5, formulas: [{ stage: "mult", ops: [{ value: "M" }, 0.5, "mult"] }] },
    },
    bones: { "arm?rotation/y": -45 },
    morphs: ["M"],
    poses: {
      "hand?rotation/z": { value: 0, formulas: [{ stage: "sum", ops: [{ value: "C" }, -40, "mult"] }] },
    },
  };
  const grouped = formulaGraphJson(bare);
  assert.deepEqual(
    (grouped as { channels: { M: { formulas: { ops: unknown[] }[] } } }).channels.M.formulas[0].ops,
    [{ bone: "arm?rotation/y" }, { key: [0, 0, 0, 0, 0] }, { key: [-90, 1] }, { push: 2 }, {
      op: "spline_tcb",
    }],
  );
  assert.deepEqual(readFormulaGraph(grouped), bare);
  assert.deepEqual(readFormulaGraph(bare as never), bare);
  // A group of two keys, or an unknown operator inside one, is no operation.
  const bad = JSON.parse(JSON.stringify(grouped));
  bad.channels.C.formulas[0].ops[2] = { op: "pow" };
  assert.equal(readFormulaGraph(bad), undefined);
  bad.channels.C.formulas[0].ops[2] = { push: 1, op: "mult" };
  assert.equal(readFormulaGraph(bad), undefined);
});
