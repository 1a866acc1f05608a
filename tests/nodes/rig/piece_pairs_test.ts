/**
 * `rig.fit_hinge` groups panels that may be pieces of one surface (`pieceGroups`): it tried every pair
 * of panels of one kind, reading both fits for each, so 20,000 small panels in rows (`deno task
 * shapes`' "20,000 small panels at the top") made 3·10⁷ pairs. Only pairs whose boxes come within the
 * largest tolerance along x are tried now. Counted here as reads of the panels' fits and boxes (no
 * clock), on rows of coarse panels made by code, and the groups are those of every pair tried.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document, type Node } from "@gltf-transform/core";
import { type Box, pieceGroups } from "../../../nodes/rig/surface_pieces.ts";
import type { HingeFit } from "../../../nodes/rig/hinge_fit.ts";
import { prng } from "../../support/prng.ts";

const KINDS = ["aileron", "elevator", "rudder", "flap", "spoiler"];

/** Panels along x (a long row, as a wing of many slats); each fifth a piece lying over the one before. */
function panels(count: number, seed: number) {
  const random = prng(seed);
  const doc = new Document();
  const nodes: Node[] = [], fits = new Map<Node, HingeFit>(), boxes = new Map<Node, Box>();
  const kinds = new Map<Node, string>();
  for (let i = 0; i < count; i++) {
    const piece = i % 5 === 4;
    const at = piece ? i - 1 : i;
    const x = at * 3 + random() * 0.3, y = (at % 50) * 0.01, z = (at % 3) * 0.01;
    const node = doc.createNode(`${KINDS[at % KINDS.length]}_${i}`);
    nodes.push(node);
    kinds.set(node, KINDS[at % KINDS.length]);
    const span = 1 + random() * 0.2;
    boxes.set(node, { lo: [x, y, z], hi: [x + span, y + 0.4, z + 0.05] });
    fits.set(node, { span: [1, 0, 0], chord: 0.4, spanLength: span } as unknown as HingeFit);
  }
  return { nodes, fits, boxes, kinds };
}

Deno.test("piece groups: pairs far apart along x are not tried; the groups are the same", () => {
  for (const [count, seed] of [[500, 1], [3000, 2]]) {
    const { nodes, fits, boxes, kinds } = panels(count, seed);
    let reads = 0;
    const groups = pieceGroups(
      nodes,
      (n) => (reads++, fits.get(n)!),
      (n) => (reads++, boxes.get(n)!),
      (n) => kinds.get(n)!,
    );
    // Each fifth panel and the one it lies over: one group each.
    assertEquals(groups.length, count / 5);
    assert(
      groups.every((g) => g.length === 2 && g[0].getName().split("_")[0] === g[1].getName().split("_")[0]),
    );
    // Every pair of one kind read 4–6 fits and boxes: (count/5)² / 2 pairs a kind, 5 kinds.
    assert(reads < 40 * count, `${count} panels: ${reads} reads (${(reads / count).toFixed(0)} a panel)`);
  }
});
