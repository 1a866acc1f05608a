/**
 * One look for copies per scene (`copy_memo.ts`): the rig's nodes each change a copy of the scene that
 * shares its vertex arrays, and the look is remembered across them — but never stale: a copy whose names,
 * tree or transforms changed is looked at again, and gives what a scene looked at afresh gives.
 */
import { deepStrictEqual as assertEquals, notDeepStrictEqual as assertNotEquals } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { findCopies } from "../../../nodes/rig/copies.ts";
import { hangarSample } from "./hangar_scenes.ts";

/** The copies as labels and node names, in order: what two scenes' answers are compared by. */
const seen = (doc: Document) => findCopies(doc)?.map((c) => [c.label, [...c.nodes].map((n) => n.getName())]);

/** A look afresh: a full copy holds arrays of its own, which no remembered look is held against. */
const fresh = (doc: Document) => seen(copyScene(doc));

Deno.test("copies remembered across scenes sharing vertex arrays: the asking scene's nodes, same answer", () => {
  const doc = hangarSample(31, "prefix", "left").doc;
  const first = findCopies(doc)!;
  const shared = copyScene(doc, { shareData: true });
  const again = findCopies(shared)!;
  assertEquals(again.map((c) => c.label), first.map((c) => c.label));
  const mine = new Set(shared.getRoot().listNodes());
  assertEquals(again.every((c) => [...c.nodes].every((n) => mine.has(n))), true);
  assertEquals(seen(shared), fresh(doc));
});

Deno.test("a remembered look is never stale: renamed, moved or regrouped copies are looked at again", () => {
  const doc = hangarSample(32, "prefix", "left").doc;
  const before = seen(doc);
  assertEquals((before?.length ?? 0) >= 2, true);
  // One prefix renamed to the other's: the names no longer tell the aircraft apart.
  const renamed = copyScene(doc, { shareData: true });
  const [a, b] = findCopies(renamed)!.map((c) => c.label);
  for (const node of renamed.getRoot().listNodes()) {
    const name = node.getName();
    if (name.toLowerCase().startsWith(`${b}_`)) node.setName(`${a}${name.slice(b.length)}`);
  }
  assertEquals(seen(renamed), fresh(renamed));
  assertNotEquals(seen(renamed), before);
  // Every aircraft moved onto the first: copies drawn at one place.
  const moved = copyScene(doc, { shareData: true });
  for (const node of moved.getRoot().getDefaultScene()!.listChildren()) node.setTranslation([0, 0, 0]);
  assertEquals(seen(moved), fresh(moved));
  // The tree changed: the first aircraft's objects under one group.
  const grouped = copyScene(doc, { shareData: true });
  const scene = grouped.getRoot().getDefaultScene()!;
  const group = grouped.createNode("Group");
  for (const node of scene.listChildren().slice(0, 3)) group.addChild(node);
  scene.addChild(group);
  assertEquals(seen(grouped), fresh(grouped));
  // And the original scene still gives its own answer.
  assertEquals(seen(copyScene(doc, { shareData: true })), before);
});
