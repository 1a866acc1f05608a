/**
 * Frame detection reads at most a million vertices (`MAX_POINTS`): past that, every n-th. A mesh
 * drawn by thousands of nodes held its whole cloud before (6.2 GB for one 65,535-vertex mesh drawn by
 * 2,000 nodes); a dense model read from a share of its vertices must still come out as it does whole.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { MAX_POINTS, namedCloud } from "../../../nodes/rig/frame_cloud.ts";
import { detectFrame } from "../../../nodes/rig/frame_detect.ts";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { runNode } from "../../support/context.ts";
import { FRAMES, turn } from "./turned.ts";

Deno.test("frame detection on a quarter of a dense fighter's vertices finds what the whole does, in all 24 frames", async () => {
  const base = (await runNode(demoFighter, {}, { detail: 8 })).scene;
  const total = namedCloud(base)!.total;
  assert(total > 40_000, `${total} vertices`);
  for (const [forward, up] of FRAMES) {
    const scene = turn((await runNode(demoFighter, {}, { detail: 8 })).scene, forward, up);
    const whole = detectFrame(scene)!;
    const quarter = detectFrame(scene, Math.ceil(total / 4))!;
    assertEquals([whole.forward, whole.up, whole.confidence], [forward, up, "good"]);
    assertEquals(
      [quarter.forward, quarter.up, quarter.confidence],
      [forward, up, "good"],
      `${forward}/${up}`,
    );
  }
});

Deno.test("a mesh drawn by 40 nodes (2.6 million vertices) gives a cloud of at most a million points, every 3rd", () => {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const vertices = 65535;
  const positions = new Float32Array(3 * vertices).map((_, i) => ((i * 7919) % 1000) / 100);
  const accessor = doc.createAccessor().setType("VEC3").setArray(positions).setBuffer(buffer);
  // Drawn as points: the pattern's vertices taken three by three are partly collinear triangles, which
  // draw nothing, and frame detection leaves out what nothing draws (drawn_vertices.ts).
  const mesh = doc.createMesh("cloud").addPrimitive(
    doc.createPrimitive().setMode(0).setAttribute("POSITION", accessor),
  );
  const scene = doc.createScene();
  for (let i = 0; i < 40; i++) {
    scene.addChild(doc.createNode(`Aileron_${i}`).setMesh(mesh).setTranslation([i * 20, 0, 0]));
  }
  const cloud = namedCloud(doc)!;
  // 2,621,400 vertices need every 3rd to fit the bound: 873,800 points, more than half of it, as a
  // whole step always keeps.
  assertEquals(Math.ceil(40 * vertices / MAX_POINTS), 3, "the least whole step under the bound");
  assertEquals(cloud.total, 40 * vertices / 3);
  assertEquals(cloud.points.length, 3 * cloud.total);
  // Each node gives its even share: a third of its 65,535 vertices (it spans 10 m of x, 20 m from the next).
  const perNode = new Array(40).fill(0);
  for (let i = 0; i < cloud.total; i++) perNode[Math.floor(cloud.points[3 * i] / 20)]++;
  assertEquals(perNode, new Array(40).fill(vertices / 3));
  // The name cues still sum every vertex: the mesh is gathered once, in its own space, and each node's
  // sum moved, as summing every vertex placed in the scene gives (within the order of the additions).
  assertEquals(cloud.all.count, 40 * vertices);
  assertEquals(cloud.wing.count, 40 * vertices);
  let [x, y, z] = [0, 0, 0];
  for (let i = 0; i < 40; i++) {
    const world = Array.from(positions, (v, k) => k % 3 === 0 ? v + i * 20 : v);
    let [nx, ny, nz] = [0, 0, 0];
    for (let k = 0; k < world.length; k += 3) nx += world[k], ny += world[k + 1], nz += world[k + 2];
    [x, y, z] = [x + nx, y + ny, z + nz];
  }
  cloud.all.sum.forEach((v, k) =>
    assert(Math.abs(v - [x, y, z][k]) <= 1e-12 * Math.abs(v), `${v} vs ${[x, y, z][k]}`)
  );
  // Every kept point is where the node puts it (the last node in, the first point read).
  assertEquals(
    [...cloud.points.subarray(0, 6)],
    [...positions.subarray(0, 3), ...positions.subarray(9, 12)].map(
      (v, k) => k % 3 === 0 ? v + 39 * 20 : v,
    ),
  );
});
