/**
 * What the look for copies remembered per scene (`copy_memo.ts`) relies on, each guarded: a change in
 * place to what a look reads — a node's hidden flag as much as its name — gives a fresh answer, while the
 * rig's own records between its looks do not; and a rig node given a scene it does not own (the studio's
 * and watch mode's memory tier shares it) leaves it as it was, so a scene's remembered answer stays true.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createHash } from "node:crypto";
import type { Document } from "@gltf-transform/core";
import { rememberedCopies } from "../../../nodes/rig/copy_memo.ts";
import type { ModelCopy } from "../../../nodes/rig/copies.ts";
import { findCopies } from "../../../nodes/rig/copies.ts";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { rigParts } from "../../../nodes/rig/parts.ts";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../../nodes/rig/fit_hinge.ts";
import { rigAssignSide } from "../../../nodes/rig/assign_side.ts";
import { rigInsertPivot } from "../../../nodes/rig/insert_pivot.ts";
import { rigReport } from "../../../nodes/rig/report.ts";
import { runNode } from "../../support/context.ts";
import { hangarSample } from "./hangar_scenes.ts";

/** A look that reads the hidden flags `damage_states.ts` reads, counting how often it is made. */
function hiddenLook(): { look: (doc: Document) => ModelCopy[]; made: () => number } {
  let made = 0;
  return {
    look: (doc) => {
      made++;
      const nodes = doc.getRoot().listNodes();
      const hidden = nodes.filter((n) => (n.getExtras() as { hide_render?: boolean }).hide_render === true);
      return [{ label: `hidden ${hidden.length}`, nodes: new Set(hidden) }];
    },
    made: () => made,
  };
}

Deno.test("a scene's look is made again when a hidden flag changes in place, not for the rig's records", () => {
  const doc = hangarSample(41, "prefix", "left").doc;
  const spy = hiddenLook();
  assertEquals(rememberedCopies(doc, spy.look)?.[0].label, "hidden 0");
  const node = doc.getRoot().listNodes().find((n) => n.getMesh())!;
  // The rig's own record on a node: nothing a look reads.
  node.setExtras({ partgraph: { fit: { residual: 0.01 } } });
  assertEquals(rememberedCopies(doc, spy.look)?.[0].label, "hidden 0");
  assertEquals(spy.made(), 1);
  // A hidden flag written in place (a script's Blender property): the answer follows it, and back.
  node.setExtras({ ...node.getExtras(), hide_render: true });
  assertEquals(rememberedCopies(doc, spy.look)?.[0].label, "hidden 1");
  node.setExtras({ partgraph: { fit: { residual: 0.02 } } });
  assertEquals(rememberedCopies(doc, spy.look)?.[0].label, "hidden 0");
  assertEquals(spy.made(), 2); // the first answer again: its fingerprint was remembered
});

Deno.test("the same scene asked again hands out its own sets: a caller changing one changes no other answer", () => {
  const doc = hangarSample(42, "prefix", "left").doc;
  // Each answer cleared by its caller (the first is the look's own, the next remembered ones).
  for (let i = 0; i < 2; i++) (findCopies(doc)![0].nodes as Set<unknown>).clear();
  const again = findCopies(doc)!;
  assertEquals(again[0].nodes.size > 0, true);
  assertEquals(
    again.map((c) => [c.label, c.nodes.size]),
    findCopies(copyScene(doc))!.map((c) => [c.label, c.nodes.size]),
  );
});

const digest = async (doc: Document) =>
  createHash("sha256").update(await writeGlb(doc, { generator: "test" })).digest("hex");

Deno.test("rig nodes given a scene they do not own leave it as it was, and its copies as they were", async () => {
  for (const seed of [43, 44]) {
    let scene = hangarSample(seed, "prefix", "left").doc;
    for (const node of [rigParts, rigDetectPanels, rigFitHinge, rigAssignSide, rigInsertPivot, rigReport]) {
      const before = await digest(scene);
      const copies = findCopies(scene)?.map((c) => [c.label, c.nodes.size]);
      const out = await runNode(node, { scene }, node === rigFitHinge ? { forward: "auto", up: "auto" } : {});
      assertEquals(await digest(scene), before, `${node.type} changed its input (seed ${seed})`);
      assertEquals(findCopies(scene)?.map((c) => [c.label, c.nodes.size]), copies);
      scene = out.scene ?? scene;
    }
  }
});
