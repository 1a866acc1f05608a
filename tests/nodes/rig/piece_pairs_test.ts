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
import type { Vec3 } from "../../../nodes/rig/transform.ts";

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

/**
 * Panels in rows sharing their x (as the hostile shape's rows of 100 at the scene's top): each column
 * one kind, rows 0.5 apart for panels 0.3 deep; each fifth column a piece lying over the panel beside it.
 */
function rows(columns: number, count: number, seed: number) {
  const random = prng(seed);
  const doc = new Document();
  const nodes: Node[] = [], fits = new Map<Node, HingeFit>(), boxes = new Map<Node, Box>();
  const kinds = new Map<Node, string>();
  for (let i = 0; i < count; i++) {
    const column = i % columns, row = Math.floor(i / columns), piece = column % 5 === 4;
    const kind = KINDS[(piece ? column - 1 : column) % KINDS.length];
    const x = (piece ? column - 1 : column) * 2 + (piece ? 0.4 : 0), y = row * 0.5 + random() * 0.01;
    const node = doc.createNode(`${kind}_${i}`);
    nodes.push(node);
    kinds.set(node, kind);
    boxes.set(node, { lo: [x, y, 0], hi: [x + 1, y + 0.3, 0.01 * random()] });
    fits.set(node, { span: [1, 0, 0], chord: 0.3, spanLength: 1 } as unknown as HingeFit);
  }
  return { nodes, fits, boxes, kinds };
}

Deno.test("piece groups: panels sharing x across rows are not all tried; the groups are the same", () => {
  for (const [count, seed] of [[500, 3], [5000, 4]]) {
    const { nodes, fits, boxes, kinds } = rows(50, count, seed);
    let reads = 0;
    const groups = pieceGroups(
      nodes,
      (n) => (reads++, fits.get(n)!),
      (n) => (reads++, boxes.get(n)!),
      (n) => kinds.get(n)!,
    );
    // Each piece with the panel beside it in its row: ten a row.
    assertEquals(groups.length, count / 5);
    // A column's panels are one kind: every pair sharing x read 4 more (5,000 panels: about 200 a panel).
    assert(reads < 40 * count, `${count} panels: ${reads} reads (${(reads / count).toFixed(0)} a panel)`);
  }
});

Deno.test("piece groups: the grid links the pairs every pair tried links (boxes at the tolerance's edge)", () => {
  for (let seed = 20; seed < 40; seed++) {
    const random = prng(seed), doc = new Document();
    const nodes: Node[] = [], fits = new Map<Node, HingeFit>(), boxes = new Map<Node, Box>();
    const kinds = new Map<Node, string>();
    const add = (kind: string, box: Box, fit: HingeFit) => {
      const node = doc.createNode(`${kind}_${nodes.length}`);
      nodes.push(node), kinds.set(node, kind), boxes.set(node, box), fits.set(node, fit);
    };
    for (let i = 0; i < 80; i++) {
      // On a coarse lattice, so boxes meet exactly at the tolerance (chord 0.4: 0.02) now and then.
      const at = (k: number) =>
        Math.floor(random() * 6) * 0.25 + [0, 0.02, -0.02, 0.01][Math.floor(random() * 4)] + k;
      const lo: Vec3 = [at(0) + 1e6 * (seed % 2), at(0), at(0)];
      const size: Vec3 = [0.25 + random() * 0.5, 0.25 * random(), 0.05];
      const span: Vec3 = random() < 0.8 ? [1, 0, 0] : [0, 0.6, 0.8];
      add(KINDS[i % 2], { lo, hi: [lo[0] + size[0], lo[1] + size[1], lo[2] + size[2]] }, {
        span,
        chord: [0.4, 0.2, 0][i % 3],
        spanLength: size[0],
      } as unknown as HingeFit);
    }
    const kindOf = (n: Node) => kinds.get(n)!;
    const grid = pieceGroups(nodes, (n) => fits.get(n)!, (n) => boxes.get(n)!, kindOf);
    // A panel of a chord that is no number, apart and of its own kind, links nothing, but no grid or
    // order holds then: every pair is tried.
    add(
      "flap",
      { lo: [-50, -50, -50], hi: [-49, -49, -49] },
      { span: [1, 0, 0], chord: NaN, spanLength: 1 } as never,
    );
    const all = pieceGroups(nodes, (n) => fits.get(n)!, (n) => boxes.get(n)!, kindOf);
    assertEquals(
      grid.map((g) => g.map((n) => n.getName())),
      all.map((g) => g.map((n) => n.getName())),
      `seed ${seed}`,
    );
  }
});
