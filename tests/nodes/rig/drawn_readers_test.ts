/**
 * The rig's other readers of a node's vertices read what its triangles draw, as the fit does
 * (`drawn_vertices.ts`): with `frame: "auto"`, an aircraft whose surfaces carry a loose vertex at the
 * origin, a collapsed triangle there, leftover corners or guide edges (`modeller_habits.ts`) finds
 * its frame, and rigs, as the same aircraft without them does. Before, frame detection read every
 * vertex: leftover corners turned the frame found (weak, the panels with it), and a guide edge run
 * to the body gave it a cue the drawn aircraft does not. Aircraft standing apart in a hangar whose
 * surfaces each keep a loose vertex at the scene's origin are told apart: before, the copies' boxes
 * (`mesh_bounds.ts`) reached the origin, overlapped, and every panel was sided about one centre line,
 * weak. A V-tail's ruddervators, one keeping such a vertex, are still each other's mirror image: before,
 * that one was no mirror pair and was warned as one connected piece spanning both sides. A hangar
 * ripped with one vertex buffer for every mesh is told apart too: before, each mesh's box was the
 * buffer's (the copies' boxes were cached per accessor), every aircraft as large as the hangar.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Node } from "@gltf-transform/core";
import { namedCloud } from "../../../nodes/rig/frame_cloud.ts";
import { invertAffine, transformPoint } from "../../../nodes/rig/transform.ts";
import { FIN_LAYOUTS, finHornSample } from "./fin_horns.ts";
import { rig } from "./pipeline.ts";
import { HANGAR_FRAMES, HANGAR_LAYOUTS, HANGAR_NAMINGS, hangarSample, judgeHangar } from "./hangar_scenes.ts";
import { judgeModeller, type ModellerVerdict, seedsOf } from "./modeller_habits_tally.ts";
import { type ModellerHabit, modellerSample } from "./modeller_habits.ts";
import { oneVertexBuffer } from "./one_buffer.ts";

/** Habits whose world geometry is the clean aircraft's, drawn by the same triangles, plus undrawn vertices. */
const UNDRAWN_ONLY: ModellerHabit[] = ["origin_vertex", "degenerate_origin", "loose_points", "loose_edges"];
const AUTO = { forward: "auto", up: "auto" };

/** The panels a verdict finds wrong or not good, by name: what to compare, not how far off. */
const missed = (v: ModellerVerdict): string[] => [
  ...v.wrong.map((said) => `wrong ${said.split(":")[0]}`),
  ...v.alarms.map((said) => `not good ${said.split(":")[0]}`),
];

Deno.test("frame: auto rigs aircraft with undrawn vertices as it rigs them without", async () => {
  const differ: string[] = [];
  for (const habit of [...UNDRAWN_ONLY, "shared_buffer" as const]) {
    for (const seed of seedsOf(habit, 9)) {
      const [own, clean] = [await judgeModeller(seed, habit, AUTO), await judgeModeller(seed, "clean", AUTO)];
      const [a, b] = [missed(own), missed(clean)];
      if (a.join() !== b.join()) {
        differ.push(`seed ${seed} ${habit}: [${a.join(", ")}], clean [${b.join(", ")}]`);
      }
    }
  }
  assertEquals(differ, []);
});

Deno.test("frame detection's cloud leaves out the vertices no triangle draws: the clean aircraft's points", () => {
  for (const habit of UNDRAWN_ONLY) {
    for (const seed of seedsOf(habit, 3)) {
      const own = namedCloud(modellerSample(seed, habit).doc)!;
      const clean = namedCloud(modellerSample(seed, "clean").doc)!;
      assertEquals(own.total, clean.total, `seed ${seed} ${habit}`);
      assertEquals([...own.points], [...clean.points], `seed ${seed} ${habit}`);
      assertEquals(own.all.value, clean.all.value, `seed ${seed} ${habit}`);
    }
  }
});

/** Adds a vertex at the scene's origin to `node`'s every primitive's vertex list, drawn by no triangle. */
function looseAtOrigin(node: Node): void {
  // A deleted face's corner left at the model's origin, in the surface's own vertex list.
  const origin = transformPoint(invertAffine(node.getWorldMatrix()), [0, 0, 0]);
  for (const primitive of node.getMesh()!.listPrimitives()) {
    const position = primitive.getAttribute("POSITION")!, held = position.getArray()!;
    const loose = new Float32Array(held.length + 3);
    loose.set(held), loose.set(origin, held.length);
    position.setArray(loose);
  }
}

Deno.test("a V-tail's ruddervator with a loose vertex at the origin is warned of as without it", async () => {
  const extra: string[] = [];
  let scenes = 0;
  // V-tail seeds past those measured on (40000-40299).
  for (let seed = 41000; seed < 41050; seed++) {
    if (FIN_LAYOUTS[seed % FIN_LAYOUTS.length] !== "v_tail") continue;
    const said: string[][] = [];
    for (const loose of [false, true]) {
      const sample = finHornSample(seed);
      const first = sample.truths[0].name;
      if (loose) {
        sample.doc.getRoot().listNodes().filter((n) => n.getName() === first && n.getMesh()).forEach(
          looseAtOrigin,
        );
      }
      said.push((await rig(sample.doc)).ctx.warnings.map((w) => w.message));
    }
    scenes++;
    for (const message of said[1]) if (!said[0].includes(message)) extra.push(`seed ${seed}: ${message}`);
  }
  assertEquals(extra, []);
  assertEquals(scenes, 10);
});

Deno.test("aircraft apart in a hangar, a loose vertex at the origin in every surface: told apart, right and good", async () => {
  const faults: string[] = [];
  let panels = 0;
  // Seeds past those the hangar tests and this change were measured on (23, 24; 1000-1001, 1100-1104).
  for (const [n, naming] of HANGAR_NAMINGS.entries()) {
    for (const [l, layout] of HANGAR_LAYOUTS.entries()) {
      const frame = HANGAR_FRAMES[(n + l) % HANGAR_FRAMES.length];
      const sample = hangarSample(3100 + n, naming, layout);
      for (const node of sample.doc.getRoot().listNodes()) {
        if (node.getMesh() && sample.panels.some((p) => node.getName() === p.name)) looseAtOrigin(node);
      }
      const { judged } = await judgeHangar(sample, frame);
      panels += judged.length;
      for (const { fault } of judged) if (fault) faults.push(fault);
    }
  }
  assertEquals(faults, []);
  assertEquals(panels > 150, true, `${panels} panels`);
});

Deno.test("aircraft apart in a hangar drawn out of one vertex buffer: told apart, right and good", async () => {
  const faults: string[] = [];
  let panels = 0;
  // Seeds past those this change was measured on (3300-3303).
  for (const [n, naming] of HANGAR_NAMINGS.entries()) {
    for (const [l, layout] of HANGAR_LAYOUTS.entries()) {
      const frame = HANGAR_FRAMES[(n + l) % HANGAR_FRAMES.length];
      const sample = hangarSample(3400, naming, layout);
      oneVertexBuffer(sample.doc);
      const { judged } = await judgeHangar(sample, frame);
      panels += judged.length;
      for (const { fault } of judged) if (fault) faults.push(fault);
    }
  }
  assertEquals(faults, []);
  assertEquals(panels > 150, true, `${panels} panels`);
});
