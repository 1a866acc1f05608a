/**
 * `rig.fit_hinge` pairs split drag-rudder halves (`splitHalfPairs`): it tried every pair of drag
 * rudders, so 20,000 small panels at a scene's top (`deno task shapes`; every seventh a drag rudder, a
 * plate edge-on to the flow, of no chord) made 4·10⁶ tries. A pair can lie over each other in plan
 * only where its larger chord and larger span are positive, so chordless rudders are tried only
 * against rudders of a chord. Counted here as reads of the fits' centres (no clock), on rows of
 * chordless plates made by code beside one flying wing's split halves (upper and lower, jittered as a
 * coarse export's), and the pairs are those of the old every-pair search.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document, type Node } from "@gltf-transform/core";
import { splitHalfPairs } from "../../../nodes/rig/split_halves.ts";
import { overlapsInPlan } from "../../../nodes/rig/opening.ts";
import type { HingeFit } from "../../../nodes/rig/hinge_fit.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";

/** A fit of the measures overlapsInPlan reads; `reads.centre` counts reads of its centre. */
function fitOf(centre: Vec3, chord: number, spanLength: number, reads: { centre: number }): HingeFit {
  const fit = { span: [0, 0, 1], chordDir: [1, 0, 0], normal: [0, 1, 0], chord, spanLength };
  Object.defineProperty(fit, "centre", { get: () => (reads.centre++, centre) });
  return fit as unknown as HingeFit;
}

/**
 * `plates` drag rudders in rows of 100 (as the hostile shape's: shared x across rows), of no chord or,
 * one in 40, a failed fit's NaN; a flying wing's two split rudders (four halves, a chord each) among
 * them, the lower half of each a little off its upper one; other kinds between.
 */
function rudders(plates: number, seed: number) {
  const random = prng(seed);
  const doc = new Document(), reads = { centre: 0 };
  const fits = new Map<Node, HingeFit>(), kinds = new Map<Node, string>();
  const add = (name: string, kind: string, fit: HingeFit) => {
    const node = doc.createNode(name);
    fits.set(node, fit);
    kinds.set(node, kind);
  };
  const halves = new Set([3, Math.floor(plates / 3), Math.floor(plates / 2), plates - 2]);
  let pair = 0;
  for (let i = 0; i < plates; i++) {
    const at: Vec3 = [(i % 100) * 2, Math.floor(i / 100) * 0.5, (i % 7) * 0.1];
    const chord = i % 40 === 7 ? NaN : 0;
    add(`drag_rudder_L_upper_${i}`, "drag_rudder", fitOf(at, chord, 1 + random() * 0.01, reads));
    if (i % 3 === 0) add(`aileron_L_${i}`, "aileron", fitOf(at, 0.3, 1, reads));
    if (halves.has(i)) {
      // Upper then lower half of one split rudder at the wing tip, far from the rows.
      const x = 500 + 10 * pair, z = 4 + pair++, chord = 0.6 + random() * 0.1;
      add(`DragRudder_${pair}_Upper`, "drag_rudder", fitOf([x, 0.05, z], chord, 1.5, reads));
      add(
        `DragRudder_${pair}_Lower`,
        "drag_rudder",
        fitOf([x + random() * 0.05, -0.05, z + random() * 0.05], chord * 0.98, 1.5, reads),
      );
    }
  }
  return { fits, kindOf: (n: Node) => kinds.get(n)!, reads };
}

/** The old search: every later rudder tried for each, the first that overlaps taken. */
function everyPair(fits: ReadonlyMap<Node, HingeFit>, kindOf: (node: Node) => string): [Node, Node][] {
  const list = [...fits.keys()].filter((node) => kindOf(node) === "drag_rudder");
  const taken = new Set<Node>(), pairs: [Node, Node][] = [];
  for (const a of list) {
    if (taken.has(a)) continue;
    const b = list.find((o) => o !== a && !taken.has(o) && overlapsInPlan(fits.get(a)!, fits.get(o)!));
    if (!b) continue;
    taken.add(a).add(b);
    pairs.push([a, b]);
  }
  return pairs;
}

Deno.test("split halves: chordless drag rudders are not tried against each other; the pairs are the same", () => {
  for (const [plates, seed] of [[300, 1], [3000, 2]]) {
    const { fits, kindOf, reads } = rudders(plates, seed);
    const pairs = splitHalfPairs(fits, kindOf);
    const perRudder = reads.centre / plates;
    // Each plate tries the eight halves of a chord and each half every plate (2 reads a try): flat in
    // the rudder count (every pair: about 2 reads a rudder for each rudder).
    assert(
      perRudder < 60,
      `${plates} rudders: ${reads.centre} centre reads (${perRudder.toFixed(0)} a rudder)`,
    );
    assertEquals(
      pairs.map((p) => p.map((n) => n.getName())),
      [1, 2, 3, 4].map((k) => [
        `DragRudder_${k}_Upper`,
        `DragRudder_${k}_Lower`,
      ]),
    );
    // The every-pair search itself is quadratic: checked on the smaller file (the random sets below too).
    if (plates <= 300) assertEquals(pairs, everyPair(fits, kindOf));
  }
});

Deno.test("split halves: rudders of a chord, none, or NaN pair as the every-pair search pairs them", () => {
  for (let seed = 10; seed < 40; seed++) {
    const random = prng(seed), doc = new Document(), reads = { centre: 0 };
    const fits = new Map<Node, HingeFit>();
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    for (let i = 0; i < 60; i++) {
      const centre: Vec3 = [random() * 3, random() * 0.4 - 0.2, random() * 3];
      const chord = pick([0, 0, 0.5, 0.5 + random(), NaN, -0, Infinity]);
      const spanLength = pick([0, 1, 1 + random(), NaN]);
      fits.set(doc.createNode(`drag_rudder_${i}`), fitOf(centre, chord, spanLength, reads));
    }
    const kindOf = () => "drag_rudder";
    assertEquals(splitHalfPairs(fits, kindOf), everyPair(fits, kindOf), `seed ${seed}`);
  }
});
