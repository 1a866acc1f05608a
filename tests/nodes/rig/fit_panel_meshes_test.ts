/**
 * `rig.fit_hinge` gathers each panel (`fit_panel.ts` `gatherPanel`) from a run's memo of meshes: a file
 * of many panel nodes drawing one mesh (2,000 over one 65,535-vertex mesh, as a hostile shape has it)
 * reads the mesh once per run, not once per panel, and each panel's geometry keeps the very bits
 * `gatherPositions` gives it — on generated scenes of moved, turned, mirrored, nested and morphed nodes.
 */
import { Document, type Node } from "@gltf-transform/core";
import { gatherPanel } from "../../../nodes/rig/fit_panel.ts";
import { gatherPositions } from "../../../nodes/rig/geometry.ts";
import { SkinPoses } from "../../../nodes/rig/bone_geometry.ts";
import { setPart } from "../../../nodes/rig/part_extras.ts";
import type { Mat4 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { assertSameBits } from "../../support/same_bits.ts";

/** Panels over one shared mesh, shaped by `seed`, and a count of reads of its vertex array. */
function sharedMeshPanels(seed: number, panels: number): { panels: Node[]; reads: () => number } {
  const random = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const count = 500 + Math.floor(random() * 2000);
  const positions = doc.createAccessor().setType("VEC3").setBuffer(buffer)
    .setArray(Float32Array.from({ length: 3 * count }, () => (random() - 0.5) * 4));
  const indices = doc.createAccessor().setType("SCALAR").setBuffer(buffer)
    .setArray(Uint32Array.from({ length: 3 * count }, () => Math.floor(random() * count)));
  const delta = doc.createAccessor().setType("VEC3").setBuffer(buffer)
    .setArray(Float32Array.from({ length: 3 * count }, () => random() - 0.5));
  const primitive = doc.createPrimitive().setAttribute("POSITION", positions).setIndices(indices);
  primitive.addTarget(doc.createPrimitiveTarget().setAttribute("POSITION", delta));
  const mesh = doc.createMesh("shared").addPrimitive(primitive).setWeights([0]);
  const scene = doc.createScene();
  const out: Node[] = [];
  for (let i = 0; i < panels; i++) {
    const node = doc.createNode(`aileron_${i}`).setMesh(mesh).setTranslation([i, random(), -0]);
    if (i % 4 === 1) node.setRotation([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
    if (i % 5 === 2) node.setScale([-1, 1, 0.5 + random()]);
    if (i % 6 === 3) node.setWeights([random()]);
    // A child drawing the mesh too: the panel's geometry is its subtree's.
    if (i % 7 === 4) {
      node.addChild(doc.createNode(`aileron_${i}_tip`).setMesh(mesh).setTranslation([0, 0, 1]));
    }
    setPart(node, { kind: "aileron", found_by: "name" } as never);
    scene.addChild(node);
    out.push(node);
  }
  let reads = 0;
  const read = positions.getArray.bind(positions);
  positions.getArray = () => (reads++, read());
  return { panels: out, reads: () => reads };
}

const FRAME: Mat4 = [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0.25, 0, 0, 1];

Deno.test("gatherPanel: 60 panels over one mesh read it once per shape at rest a run, same bits", () => {
  for (const seed of [3, 17, 41]) {
    const { panels, reads } = sharedMeshPanels(seed, 60);
    const poses = new SkinPoses(FRAME);
    const gathered = panels.map((node) => gatherPanel(undefined as never, node, poses));
    // Morph weights 0 (the mesh's) and the few nodes' own: one read per distinct shape at rest.
    const shapes = new Set(
      panels.flatMap((n) => [n, ...n.listChildren()]).map((n) => n.getWeights().join(",")),
    );
    if (reads() > shapes.size) {
      throw new Error(`seed ${seed}: the mesh was read ${reads()} times for ${shapes.size} shapes`);
    }
    panels.forEach((node, i) => {
      const expected = gatherPositions(node, FRAME, { triangles: true });
      assertSameBits(gathered[i].positions, expected.positions, `seed ${seed} panel ${i} positions`);
      assertSameBits(gathered[i].triangles!, expected.triangles!, `seed ${seed} panel ${i} triangles`);
      if (gathered[i].count !== expected.count) throw new Error(`seed ${seed} panel ${i}: count`);
    });
  }
});

Deno.test("gatherPanel: a new run reads the mesh afresh (the memo lives as long as the run's poses)", () => {
  const { panels, reads } = sharedMeshPanels(5, 10);
  gatherPanel(undefined as never, panels[0], new SkinPoses(FRAME));
  const first = reads();
  gatherPanel(undefined as never, panels[0], new SkinPoses(FRAME));
  if (reads() !== 2 * first) {
    throw new Error(`a second run read the mesh ${reads() - first} times, expected ${first}`);
  }
});
