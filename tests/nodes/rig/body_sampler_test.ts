/**
 * The body sampler (what air brakes open away from and all-moving tails are judged against) on a
 * mesh drawn by many nodes: gathered once, placed per node exactly as `gatherPositions` places it, over the
 * vertices its triangles with an area draw (`drawnOnly`: the scattered test mesh has collapsed triangles).
 */
import assert from "node:assert/strict";
import { Document, type Node } from "@gltf-transform/core";
import { BodySampler } from "../../../nodes/rig/opening.ts";
import { gatherPositions } from "../../../nodes/rig/geometry.ts";
import { drawnOnly } from "../../../nodes/rig/drawn_vertices.ts";
import type { Mat4 } from "../../../nodes/rig/transform.ts";

/** A frame that is not the identity (a turn about Y and an offset), as an aircraft frame may be. */
const FRAME: Mat4 = [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 5, -2, 0.5, 1];

/**
 * One mesh of `vertices` scattered points (a triangle list over them) drawn by `instances` nodes. The
 * default scatter repeats every 1,000 vertices, so some of its triangles collapse; one that never repeats gives every
 * triangle an area in any frame.
 */
function instancedScene(
  vertices: number,
  instances: number,
  scatter: (i: number) => number = (i) => ((i * 7919) % 1000) / 100 - 5,
): { doc: Document; nodes: Node[] } {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const positions = new Float32Array(vertices * 3).map((_, i) => scatter(i));
  const indices = new Uint32Array(vertices - (vertices % 3)).map((_, i) => i);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", doc.createAccessor().setType("VEC3").setArray(positions).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType("SCALAR").setArray(indices).setBuffer(buffer));
  const mesh = doc.createMesh("bolt").addPrimitive(primitive);
  const scene = doc.createScene();
  const nodes = Array.from({ length: instances }, (_, i) => {
    const node = doc.createNode(`bolt_${i}`).setMesh(mesh).setTranslation([i * 20, (i % 7) * 0.3, -i]);
    if (i % 3 === 1) node.setRotation([0, Math.sin(0.3), 0, Math.cos(0.3)]).setScale([1, 2, 0.5]);
    scene.addChild(node);
    return node;
  });
  return { doc, nodes };
}

Deno.test("the body sampler gathers a mesh once however many nodes draw it (300 nodes held 547 MB)", () => {
  const { doc, nodes } = instancedScene(65_535, 300);
  const body = new BodySampler(doc, FRAME);
  const before = Deno.memoryUsage().external;
  let placed = 0;
  for (const { count } of body.othersThan(nodes[0])) placed += count;
  const held = Deno.memoryUsage().external - before;
  const drawn = drawnOnly(gatherPositions(nodes[0], FRAME, { descend: false, triangles: true })).count;
  assert.ok(drawn > 60_000 && drawn < 65_535, `${drawn} of 65,535 vertices drawn`);
  assert.equal(placed, 299 * drawn);
  // One mesh in double precision, its triangles and one placed copy: about 4 MB.
  assert.ok(held < 64 * 2 ** 20, `sampler holds ${(held / 2 ** 20).toFixed(0)} MB`);
});

Deno.test("each instance is placed exactly where gatherPositions puts it; `near` skips only instances that cannot reach", () => {
  // Triangles that all have an area: the sampler places what is drawn, here every vertex.
  const { doc, nodes } = instancedScene(300, 12, (i) => 5 * Math.sin(i * 12.9898 + (i % 7)));
  const body = new BodySampler(doc, FRAME);
  const reference = nodes.map((node) => gatherPositions(node, FRAME, { descend: false, triangles: true }));
  const yielded = [...body.othersThan(nodes[0])].length;
  assert.equal(yielded, 11);
  let i = 1;
  for (const { positions, count, triangles } of body.othersThan(nodes[0])) {
    assert.deepEqual(positions.subarray(0, count * 3), reference[i].positions, `instance ${i}`);
    assert.deepEqual(triangles, reference[i].triangles);
    i++;
  }
  // A box around instance 5's first vertex: exactly the instances with a vertex in it are sampled.
  const centre = [0, 1, 2].map((k) => reference[5].positions[k]) as [number, number, number];
  const near = { centre, reach: 3 };
  const inBox = (p: Float64Array) =>
    p.some((_, o) => o % 3 === 0 && [0, 1, 2].every((k) => Math.abs(p[o + k] - centre[k]) <= near.reach));
  const expected = reference.slice(1).filter((g) => inBox(g.positions)).length;
  const sampled = [...body.othersThan(nodes[0], { near })].filter(({ positions, count }) =>
    inBox(positions.subarray(0, count * 3))
  );
  assert.ok(expected >= 1 && expected < 11, `${expected} instances reach the box`);
  assert.equal(sampled.length, expected);
  assert.ok([...body.othersThan(nodes[0], { near })].length < 11, "far instances are not placed");
});
