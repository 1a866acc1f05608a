/**
 * What insert_pivot keeps so it does not rescan per panel: replacements among children keep each
 * owner's order with one reordering per owner, and trim tabs' host boxes are gathered once.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { ChildOrder } from "../../../nodes/rig/child_order.ts";
import { setPart } from "../../../nodes/rig/part_extras.ts";
import { HostBounds } from "../../../nodes/rig/tab_riding.ts";

Deno.test("each replacement takes its node's place, in node parents and in every scene the node tops", () => {
  const doc = new Document();
  const [one, two] = [doc.createScene("one"), doc.createScene("two")];
  const [a, b, c, d, shared] = ["a", "b", "c", "d", "shared"].map((n) => doc.createNode(n));
  const parent = doc.createNode("parent").addChild(a).addChild(b).addChild(c);
  one.addChild(parent).addChild(shared).addChild(d);
  two.addChild(d).addChild(shared);
  const order = new ChildOrder(doc);
  const [B, C, D, S] = ["B", "C", "D", "S"].map((n) => doc.createNode(n));
  for (const [node, replacement] of [[c, C], [b, B], [d, D], [shared, S]] as const) {
    order.replace(node, replacement);
    replacement.addChild(node); // as a pivot takes its panel
  }
  const names = (list: { getName(): string }[]) => list.map((n) => n.getName());
  // Before apply, replacements are appended; after, each is where its node was.
  assertEquals(names(parent.listChildren()), ["a", "C", "B"]);
  order.apply();
  assertEquals(names(parent.listChildren()), ["a", "B", "C"]);
  assertEquals(names(one.listChildren()), ["parent", "S", "D"]);
  assertEquals(names(two.listChildren()), ["D", "S"]);
  assertEquals(names(B.listChildren()), ["b"]);
});

Deno.test("host boxes are gathered once and forgotten for every pivot a tab joins or leaves", () => {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const quad = (x: number) =>
    doc.createMesh().addPrimitive(
      doc.createPrimitive().setAttribute(
        "POSITION",
        doc.createAccessor().setType("VEC3").setBuffer(buffer)
          .setArray(new Float32Array([x, 0, 0, x + 1, 0, 0, x, 0, 1])),
      ),
    );
  const wing = doc.createNode("wing");
  doc.createScene().addChild(wing);
  const pivot = doc.createNode("HINGE_auto_flap");
  const panel = doc.createNode("flap").setMesh(quad(0));
  wing.addChild(pivot.addChild(panel));
  setPart(pivot, { kind: "flap", found_by: "name" });
  const host = { top: pivot, mount: pivot, pivot, panel, unscale: false };
  const bounds = new HostBounds(doc);
  assertEquals(bounds.of(host)?.max[0], 1);
  // A tab joining the pivot: the box is the one gathered before until the change is told.
  const tab = doc.createNode("tab").setMesh(quad(1));
  wing.addChild(tab);
  pivot.addChild(tab);
  assertEquals(bounds.of(host)?.max[0], 1);
  bounds.changedUnder(tab.getParentNode());
  assertEquals(bounds.of(host)?.max[0], 2);
  // Leaving, told from the flap below the pivot: the change reaches every node above it.
  wing.addChild(tab);
  bounds.changedUnder(panel);
  assertEquals(bounds.of(host)?.max[0], 1);
});
