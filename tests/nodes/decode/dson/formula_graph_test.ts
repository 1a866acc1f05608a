/**
 * The stored formula graph on its own: spline stages as the DSON stack writes them (input, keys,
 * count, operator), keys in either order, what is left unknown, and graphs read back from extras
 * someone edited. Expected values are worked out by hand in the comments.
 */
import assert from "node:assert/strict";
import {
  evaluateFormulaGraph,
  type FormulaGraph,
  readsAny,
  type StoredOperation,
} from "../../../../nodes/decode/dson/codec/formula_graph.ts";
import { readFormulaGraph } from "../../../../nodes/decode/dson/codec/formula_graph_read.ts";

/** A graph whose morph `M` (own 0) is driven by one `sum` formula of `ops`, bone `b` at `bend`. */
function graphOf(ops: StoredOperation[], bend: number): FormulaGraph {
  return {
    channels: { M: { value: 0, formulas: [{ stage: "sum", ops }] } },
    bones: { "arm?rotation/y": bend },
    morphs: ["M"],
  };
}

const splineOps = (kind: "spline_linear" | "spline_tcb", keys: number[][]): StoredOperation[] => [
  { bone: "arm?rotation/y" },
  ...keys,
  keys.length,
  kind,
];

Deno.test("dson formula graph: a linear spline interpolates its keys in x order and holds its ends", () => {
  // Keys written high-to-low, as some files list a negative bend: (−90, 1), (−30, 0.4), (0, 0).
  const keys = [[0, 0, 0, 0, 0], [-90, 1, 0, 0, 0], [-30, 0.4, 0, 0, 0]];
  const at = (bend: number) =>
    evaluateFormulaGraph(graphOf(splineOps("spline_linear", keys), bend)).morphs.get("M")!;
  // −15: halfway from (0, 0) to (−30, 0.4) → 0.2; −60: halfway from (−30, 0.4) to (−90, 1) → 0.7.
  assert.ok(Math.abs(at(-15) - 0.2) < 1e-12);
  assert.ok(Math.abs(at(-60) - 0.7) < 1e-12);
  assert.equal(at(-30), 0.4);
  assert.equal(at(-120), 1);
  assert.equal(at(45), 0);
});

Deno.test("dson formula graph: a TCB spline is its keys, holds its ends and is Kochanek–Bartels between; malformed stacks are unknown", () => {
  const keys = [[0, 0, 0, 0, 0], [-90, 1, 0, 0, 0]];
  const at = (ops: StoredOperation[], bend = -90) => evaluateFormulaGraph(graphOf(ops, bend)).morphs.get("M");
  assert.equal(at(splineOps("spline_tcb", keys)), 1);
  assert.equal(at(splineOps("spline_tcb", keys), 0), 0);
  // Between keys (before decode.dson v38: unknown): the span (−90, 1) → (0, 0), the end chords
  // reflected (decode.dson v43), tangents the chord −1 at both: the line, 1/3 at −30. (pymods, each
  // end key its own neighbour, tangents −½: at s = 2/3, 7/27 − 1/27 + 2/27 = 8/27.)
  assert.ok(Math.abs(at(splineOps("spline_tcb", keys), -30)! - 1 / 3) < 1e-12);
  const told: unknown[] = [];
  evaluateFormulaGraph(
    graphOf(splineOps("spline_tcb", keys), -30),
    (where, span) => told.push([where, Math.round(span.straight * 1e9) / 1e9]),
  );
  assert.deepEqual(told, [[{ kind: "value", key: "M", index: 0 }, Math.round(1e9 / 3) / 1e9]]);
  // Past the end keys both readers that evaluate it hold the end key (before decode.dson v37: unknown).
  assert.equal(at(splineOps("spline_tcb", keys), -100), 1);
  assert.equal(at(splineOps("spline_tcb", keys), 10), 0);
  // Two keys at one x, a count larger than the keys, a count that is not a whole number, no input.
  assert.equal(at(splineOps("spline_linear", [[0, 0], [0, 1]])), undefined);
  assert.equal(at([{ bone: "arm?rotation/y" }, [0, 0], 2, "spline_linear"]), undefined);
  assert.equal(at([{ bone: "arm?rotation/y" }, [0, 0], [-90, 1], 1.5, "spline_linear"]), undefined);
  assert.equal(at([[0, 0], [-90, 1], 2, "spline_linear"]), undefined);
  // A bone the graph does not hold.
  assert.equal(at([{ bone: "leg?rotation/x" }]), undefined);
});

Deno.test("dson formula graph: what a channel reads, and graphs edited in extras", () => {
  const graph: FormulaGraph = {
    channels: {
      CTRL: { value: 1 },
      Mid: {
        value: 0,
        formulas: [{ stage: "sum", ops: [{ value: "CTRL" }, { bone: "arm?rotation/y" }, "mult"] }],
      },
      M: { value: 0, formulas: [{ stage: "mult", ops: [{ value: "Mid" }] }] },
    },
    bones: { "arm?rotation/y": -30 },
    morphs: ["M"],
  };
  // M = (0) · Mid = 0: a mult stage scales the own value's sum, here 0.
  assert.equal(evaluateFormulaGraph(graph).morphs.get("M"), 0);
  graph.channels.M.value = 0.5; // (0.5) · (1 · −30) = −15
  assert.equal(evaluateFormulaGraph(graph).morphs.get("M"), -15);
  assert.ok(readsAny(graph, "M", new Set(["CTRL"]), new Set()));
  assert.ok(readsAny(graph, "M", new Set(), new Set(["arm?rotation/y"])));
  assert.ok(!readsAny(graph, "M", new Set(["Other"]), new Set(["leg?rotation/x"])));
  // Read back: a copy (changing it leaves the extras as they were); edited shapes are refused.
  const copy = readFormulaGraph(JSON.parse(JSON.stringify(graph)))!;
  assert.deepEqual(copy, graph);
  for (
    const bad of [
      null,
      [],
      { ...graph, morphs: [1] },
      { ...graph, bones: { a: "x" } },
      { ...graph, channels: { M: { value: "1" } } },
      { ...graph, channels: { M: { value: 1, formulas: [{ stage: "max", ops: [] }] } } },
      { ...graph, channels: { M: { value: 1, formulas: [{ stage: "sum", ops: ["pow"] }] } } },
      { ...graph, channels: { M: { value: 1, formulas: [{ stage: "sum", ops: [{ url: "#X?value" }] }] } } },
    ]
  ) {
    assert.equal(readFormulaGraph(bad as never), undefined, JSON.stringify(bad));
  }
});

Deno.test("dson formula graph: a chain of controllers far deeper than any figure's is unknown, not a stack overflow", () => {
  // C0 = 1; C(k) = C(k−1). 100,000 links: recursion would overflow the stack.
  const links = 100_000;
  const channels: FormulaGraph["channels"] = { C0: { value: 1 } };
  for (let k = 1; k <= links; k++) {
    channels[`C${k}`] = { value: 0, formulas: [{ stage: "sum", ops: [{ value: `C${k - 1}` }] }] };
  }
  const graph: FormulaGraph = { channels, bones: {}, morphs: [`C${links}`, "C10"] };
  const values = evaluateFormulaGraph(graph).morphs;
  assert.equal(values.get(`C${links}`), undefined);
  assert.equal(values.get("C10"), 1, "a short chain still evaluates");
  assert.ok(readsAny(graph, `C${links}`, new Set(["C0"]), new Set()));
});
