/**
 * `rig.detect_panels`' prop check asks, for each panel, which mesh boxes touch it; the boxes are sorted
 * by their lowest x, and each scan used to start at the list's head: 20,000 small panels in rows
 * (`deno task shapes`' "20,000 small panels at the top") made 4·10⁸ box tests, about a fifth of the
 * shape's 52 CPU-s. The scan now starts where the boxes' reach along x first meets the panel's. Counted
 * here as reads of the boxes' corners (no clock), on rows of boxes made by code, with the same answers
 * as a plain pairwise test.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document, type Node } from "@gltf-transform/core";
import { contactsOfBoxes } from "../../../nodes/rig/scene_setting.ts";
import type { Bounds } from "../../../nodes/rig/mesh_bounds.ts";
import { prng } from "../../support/prng.ts";

/**
 * Rows of small boxes (as the hostile shape lays its panels: 100 a row), jittered, and a few large ones
 * at the far end of x (a large box early on x — a fuselage under everything — still makes every scan
 * after it start before it: the reach is a running maximum).
 */
function rows(count: number, seed: number) {
  const random = prng(seed);
  const doc = new Document();
  let reads = 0;
  // Corners read through getters, each read counted.
  const counted = (v: readonly number[]) =>
    new Proxy(v, { get: (t, k) => (typeof k === "string" && /^\d$/.test(k) && reads++, Reflect.get(t, k)) });
  const plain = new Map<Node, Bounds>(), boxes = new Map<Node, Bounds>();
  for (let i = 0; i < count; i++) {
    const large = i >= count - 5;
    const x = large ? 190 + random() * 8 : (i % 100) * 2 + random() * 0.2,
      y = Math.floor(i / 100) * 0.5,
      z = (i % 7) * 0.1;
    const w = large ? 20 + random() * 40 : 1 + random() * 0.3;
    const box: Bounds = { min: [x, y, z], max: [x + w, y + (large ? 3 : 0), z + 0.3] };
    const node = doc.createNode(`panel_${i}`);
    plain.set(node, box);
    boxes.set(node, { min: counted(box.min), max: counted(box.max) } as Bounds);
  }
  return { plain, boxes, reads: () => reads };
}

const size = (b: Bounds) => Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
const touchesPlain = (a: Bounds, b: Bounds) => {
  const slack = 0.1 * Math.min(size(a), size(b));
  return [0, 1, 2].every((k) => a.min[k] - slack <= b.max[k] && b.min[k] - slack <= a.max[k]);
};

Deno.test("touching boxes: the same as a pairwise test, in order of lowest x", () => {
  const { plain, boxes } = rows(1500, 11);
  const contacts = contactsOfBoxes(boxes);
  const nodes = [...plain.keys()];
  const byX = [...nodes].sort((a, b) => plain.get(a)!.min[0] - plain.get(b)!.min[0]);
  for (const node of nodes.filter((_, i) => i % 7 === 0)) {
    const expected = byX.filter((o) => o !== node && touchesPlain(plain.get(node)!, plain.get(o)!));
    assertEquals(contacts.touching(node), expected, node.getName());
  }
});

Deno.test("touching boxes: each panel's scan reads the boxes near it, not every box before it", () => {
  for (const [count, seed] of [[2000, 12], [5000, 13]]) {
    const { boxes, reads } = rows(count, seed);
    const contacts = contactsOfBoxes(boxes);
    const before = reads();
    for (const node of boxes.keys()) contacts.touching(node);
    const perPanel = (reads() - before) / count;
    // The boxes of its column in every row (a tenth of the count here); a scan from the head
    // reads about half the boxes a panel, two or more corners each (over 2 · count).
    assert(perPanel < 0.25 * count, `${count} panels: ${perPanel.toFixed(0)} corner reads a panel`);
  }
});

Deno.test("touching boxes: panels sharing x across rows read as many boxes a panel at 2,000 as at 8,000", () => {
  const perPanel: number[] = [];
  for (const [count, seed] of [[2000, 14], [8000, 15]]) {
    const { boxes, reads } = rows(count, seed);
    const before = reads();
    const contacts = contactsOfBoxes(boxes);
    for (const node of boxes.keys()) contacts.touching(node);
    perPanel.push((reads() - before) / count);
  }
  // A run along x alone read its column in every row: 20 rows at 2,000, 80 at 8,000 (over 2·count/100
  // corner reads a panel, growing with the rows).
  assert(
    perPanel.every((n) => n < 300),
    `corner reads a panel: ${perPanel.map((n) => n.toFixed(0)).join(", ")}`,
  );
  assert(
    perPanel[1] < 1.5 * perPanel[0],
    `corner reads a panel: ${perPanel.map((n) => n.toFixed(0)).join(", ")}`,
  );
});
