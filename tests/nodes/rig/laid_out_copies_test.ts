/**
 * Copies of the whole aircraft laid out apart (`copies.ts`): a Sketchfab showcase's levels of detail
 * side by side, one behind another or stacked, named `Aileron_L_LOD1` or grouped under `LOD0`…`LOD2`.
 * Each copy must be rigged as the aircraft is alone: right side, right hinge (2°, 5 % of chord) and
 * `good`, with the frame given or found by `"auto"`. Wings grouped upper and lower (a biplane) are no
 * copies.
 */
import { heldOut } from "../../support/heldout.ts";
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { findCopies } from "../../../nodes/rig/copies.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { hingeError } from "./coarse_panels.ts";
import { rig } from "./pipeline.ts";
import {
  type Copies,
  copiesSample,
  type PiecesSample,
  piecesScene,
  type SceneObject,
} from "./surface_pieces.ts";
import { type ClassMesh, joined } from "./surface_classes.ts";

/** The copy a sample's object belongs to (its level). */
function levelOf(name: string, group: string | undefined): number {
  return Number((group ?? name).match(/LOD(\d)/)?.[1] ?? /\.00(\d)$/.exec(name)?.[1] ?? 0);
}

/** The sample's copies moved `step` apart along aircraft axis `axis` (0 aft, 1 up, 2 left). */
function laidOut(sample: PiecesSample, axis: number, step: number): PiecesSample {
  const move = (mesh: ClassMesh, level: number): ClassMesh => ({
    positions: Array.from(mesh.positions, (x, j) => j % 3 === axis ? x + level * step : x),
    triangles: mesh.triangles,
  });
  const levels = new Map(sample.objects.map((o) => [o.name, levelOf(o.name, o.group)]));
  return {
    objects: sample.objects.map((o) => ({ ...o, mesh: move(o.mesh, levels.get(o.name)!) })),
    panels: sample.panels.map((p) => {
      const origin = [...p.truth!.origin] as Vec3;
      origin[axis] += levels.get(p.name)! * step;
      return { ...p, truth: { ...p.truth!, origin } };
    }),
    description: `${sample.description}, laid out ${step} along ${axis}`,
  };
}

const LAYOUTS: readonly [string, number, number][] = [
  ["side by side, to the left", 2, 14],
  ["side by side, to the right", 2, -14],
  ["one behind another", 0, 18],
  ["stacked", 1, 5],
];

Deno.test("levels of detail laid out apart: every copy's panels right, on the right side and good", async () => {
  // Before copies.ts (rig.fit_hinge v31, rig.assign_side v12), on these seeds, sideways: 2 of 3
  // copies' right-named panels took the left side and their mirror partners were weak ("875 % of
  // chord apart across the mirror"); stacked with "auto": no copy right and good.
  // The suite rigs two of the four seeds in each case (alternating: each seed meets every copies kind,
  // layout and frame), `deno task heldout` all four.
  const seeds = [9101, 9108, 9115, 9122];
  for (const [c, copies] of (["lod_suffix", "lod_groups"] as Copies[]).entries()) {
    for (const [l, [layout, axis, step]] of LAYOUTS.entries()) {
      for (
        const [f, frame] of ([{}, { forward: "auto", up: "auto" }] as Record<string, string>[]).entries()
      ) {
        const tally: Record<string, number> = {};
        for (const seed of heldOut(seeds, (_, s) => s % 2 === (c + l + f) % 2)) {
          const sample = laidOut(copiesSample(seed, copies), axis, step);
          const { report } = await rig(piecesScene(sample), frame);
          for (const panel of sample.panels) {
            const part = report.parts.find((p) => p.panel === panel.name)!;
            const { degrees, offset } = hingeError(panel.truth!, part.hinge!.aircraft);
            const right = degrees <= 2 && offset <= 0.05 * panel.truth!.chord;
            const confidence = (part.fit as unknown as { confidence: string }).confidence;
            const key = `${part.side === panel.side ? "side" : "SIDE"} ${
              right ? "right" : "wrong"
            } ${confidence}`;
            tally[key] = (tally[key] ?? 0) + 1;
          }
        }
        const label = `${copies}, ${layout}, ${"forward" in frame ? "auto" : "given"} frame`;
        console.log(`${label}: ${JSON.stringify(tally)}`);
        assertEquals(Object.keys(tally), ["side right good"], label);
      }
    }
  }
});

Deno.test("each copy's elevators drawn as one object are split at its own centre line", async () => {
  // Before: in the copies beside the scene's centre line both halves lay on one side, so the object
  // was fitted as one centre elevator on one line through two separate surfaces.
  const tally: Record<string, number> = {};
  for (const seed of [9201, 9208, 9215]) {
    const sample = laidOut(copiesSample(seed, "lod_suffix"), 2, 14);
    const joinedName = (name: string) => name.replace(/^Elevator_[LR]_(LOD\d)$/, "Elevators_$1");
    const objects = new Map<string, SceneObject>();
    for (const o of sample.objects) {
      const name = joinedName(o.name), before = objects.get(name);
      objects.set(name, before ? { ...o, name, mesh: joined([before.mesh, o.mesh]) } : { ...o, name });
    }
    const panels = sample.panels.map((p) =>
      p.name.startsWith("Elevator_") ? { ...p, name: `${joinedName(p.name)}_${p.name[9]}` } : p
    );
    const { report } = await rig(piecesScene({ objects: [...objects.values()], panels, description: "" }));
    for (const panel of panels) {
      const part = report.parts.find((p) => p.panel === panel.name);
      if (!part) {
        tally.missing = (tally.missing ?? 0) + 1;
        continue;
      }
      const { degrees, offset } = hingeError(panel.truth!, part.hinge!.aircraft);
      const right = degrees <= 2 && offset <= 0.05 * panel.truth!.chord;
      const confidence = (part.fit as unknown as { confidence: string }).confidence;
      const key = `${part.side === panel.side ? "side" : "SIDE"} ${right ? "right" : "wrong"} ${confidence}`;
      tally[key] = (tally[key] ?? 0) + 1;
    }
  }
  console.log(`joined elevators, copies side by side: ${JSON.stringify(tally)}`);
  assertEquals(tally, { "side right good": 45 });
});

Deno.test("copies are found by name and panel set; a biplane's wing groups are none", () => {
  const doc = new Document();
  const scene = doc.createScene();
  doc.getRoot().setDefaultScene(scene);
  const group = (name: string, children: string[]) => {
    const node = doc.createNode(name);
    for (const child of children) node.addChild(doc.createNode(child));
    scene.addChild(node);
    return node;
  };
  group("UpperWing", ["Aileron_L", "Aileron_R"]);
  group("LowerWing", ["Aileron_L.001", "Aileron_R.001"]);
  assertEquals(findCopies(doc), undefined);
  // The same groups holding whole aircraft (a wing and a tail surface each) are copies.
  for (const [wing, suffix] of [["UpperWing", ""], ["LowerWing", ".001"]]) {
    scene.listChildren().find((n) => n.getName() === wing)!.addChild(doc.createNode(`Elevator_L${suffix}`));
  }
  assertEquals(findCopies(doc)?.map((c) => c.label), ["UpperWing", "LowerWing"]);
  // A coarser level that dropped a panel is a copy too, once two are alike.
  group("LOD_far", ["Aileron_L.002", "Elevator_L.002"]);
  assertEquals(findCopies(doc)?.map((c) => c.label), ["UpperWing", "LowerWing", "LOD_far"]);
  // By level numbers in the names, levels holding the same panels.
  const flat = new Document();
  const root = flat.createScene();
  flat.getRoot().setDefaultScene(root);
  for (const name of ["Aileron_L_LOD0", "Aileron_R_LOD0", "Aileron_L_LOD1", "Aileron_R_LOD1", "Fuselage"]) {
    root.addChild(flat.createNode(name));
  }
  const found = findCopies(flat);
  assertEquals(found?.map((c) => [c.label, c.nodes.size]), [["LOD0", 2], ["LOD1", 2]]);
  assert(findCopies(new Document()) === undefined);
});
