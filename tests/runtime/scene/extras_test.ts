import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { getPartgraphExtras, mergeExtras, setPartgraphExtras } from "../../../runtime/scene/extras.ts";

Deno.test("annotating a property keeps its other extras, whatever JSON they are", () => {
  const doc = new Document();
  const cases: [unknown, Record<string, unknown>][] = [
    [{ author: "me" }, { author: "me", partgraph: { kind: "flap" }, ctrl_type: "rotation" }],
    ["a note", { value: "a note", partgraph: { kind: "flap" }, ctrl_type: "rotation" }],
    [[1, 2], { value: [1, 2], partgraph: { kind: "flap" }, ctrl_type: "rotation" }],
    [7, { value: 7, partgraph: { kind: "flap" }, ctrl_type: "rotation" }],
    [false, { value: false, partgraph: { kind: "flap" }, ctrl_type: "rotation" }],
  ];
  for (const [before, after] of cases) {
    const node = doc.createNode("n").setExtras(before as Record<string, unknown>);
    setPartgraphExtras(node, { kind: "flap" });
    mergeExtras(node, { ctrl_type: "rotation" });
    assertEquals(node.getExtras(), after);
    assertEquals(getPartgraphExtras(node), { kind: "flap" });
  }
});
