/**
 * `rig.fit_hinge` reads what each panel draws (`fit_panel.ts` `drawnPanel`): which vertices a mesh's
 * triangles with an area draw is judged once per mesh a run, in the mesh's own space, not once per
 * panel drawing it — 2,000 panels over one 65,535-vertex mesh (a hostile shape) judged it 2,000 times
 * and copied its drawn vertices as often. A node stretching one axis is judged as placed. Each panel's
 * drawn geometry keeps the bits that judging its placed vertices gives, on generated meshes with an
 * exporter's leftovers (loose vertices, triangles collapsed onto a corner or a line) drawn by moved,
 * turned, mirrored and stretched nodes.
 */
import { Document, type Node } from "@gltf-transform/core";
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { drawnPanel, gatherPanel } from "../../../nodes/rig/fit_panel.ts";
import { drawnOnly, drawnWork } from "../../../nodes/rig/drawn_vertices.ts";
import { SkinPoses } from "../../../nodes/rig/bone_geometry.ts";
import { setPart } from "../../../nodes/rig/part_extras.ts";
import type { Mat4 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { assertSameBits } from "../../support/same_bits.ts";

/** `panels` nodes drawing one mesh with leftovers, shaped by `seed`. */
function leftoverPanels(seed: number, panels: number): Node[] {
  const random = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const count = 300 + Math.floor(random() * 1500);
  // Coarse coordinates (an old exporter's millimetres), so some triangles fall on a line by chance.
  const xyz = Float32Array.from({ length: 3 * count }, () => Math.round((random() - 0.5) * 40) / 10);
  const corners: number[] = [];
  // A tail of loose vertices no triangle draws (a deleted face's corners the exporter kept).
  const drawnUpTo = count - 1 - Math.floor(random() * 30);
  for (let t = 0; t < count; t++) {
    const a = Math.floor(random() * drawnUpTo), b = Math.floor(random() * drawnUpTo);
    const roll = random();
    // Collapsed faces: two corners the same vertex, or a corner on the other two's line.
    const c = roll < 0.05 ? a : Math.floor(random() * drawnUpTo);
    if (roll > 0.95) { for (let k = 0; k < 3; k++) xyz[3 * c + k] = (xyz[3 * a + k] + xyz[3 * b + k]) / 2; }
    corners.push(a, b, c);
  }
  const positions = doc.createAccessor().setType("VEC3").setBuffer(buffer).setArray(xyz);
  const indices = doc.createAccessor().setType("SCALAR").setBuffer(buffer).setArray(
    Uint32Array.from(corners),
  );
  const mesh = doc.createMesh("surface").addPrimitive(
    doc.createPrimitive().setAttribute("POSITION", positions).setIndices(indices),
  );
  const scene = doc.createScene();
  return Array.from({ length: panels }, (_, i) => {
    const node = doc.createNode(`flap_${i}`).setMesh(mesh).setTranslation([i * 3.7, random() * 100, -i]);
    if (i % 3 === 1) node.setRotation([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
    if (i % 5 === 2) node.setScale([-1, 1, 0.25 + 2 * random()]);
    setPart(node, { kind: "flap", found_by: "name" } as never);
    scene.addChild(node);
    return node;
  });
}

const FRAME: Mat4 = [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0.25, 0, 0, 1];

Deno.test("drawnPanel: 50 panels over one mesh judge its triangles once a run (a stretched node's apart), the same drawn bits", () => {
  for (const seed of [5, 29, 113]) {
    const panels = leftoverPanels(seed, 50);
    const poses = new SkinPoses(FRAME);
    const before = drawnWork.judged;
    const drawn = panels.map((node) => drawnPanel(undefined as never, node, poses));
    // Stretched nodes' panels are judged as placed (a stretch changes how flat a near-flat triangle is).
    const stretched = panels.filter((node) => new Set(node.getScale().map(Math.abs)).size > 1).length;
    assertEquals(stretched > 0, true, `seed ${seed}: some nodes stretched`);
    assertEquals(drawnWork.judged - before, 1 + stretched, `seed ${seed}: triangles judged once per mesh`);
    panels.forEach((node, i) => {
      const expected = drawnOnly(gatherPanel(undefined as never, node, poses));
      assertEquals(drawn[i].count, expected.count, `seed ${seed} panel ${i}`);
      assertSameBits(drawn[i].positions, expected.positions, `seed ${seed} panel ${i} positions`);
      assertEquals(drawn[i].triangles, expected.triangles, `seed ${seed} panel ${i} triangles`);
      assertEquals(drawn[i].kept, expected.kept, `seed ${seed} panel ${i} kept`);
    });
    // The generator's leftovers are there: some vertices are left out.
    assertEquals(drawn[0].kept !== undefined, true, `seed ${seed}: a leftover left out`);
  }
});
