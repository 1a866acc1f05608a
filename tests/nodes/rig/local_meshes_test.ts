/**
 * `LocalMeshes` (a run's memo of meshes read in their own space) gives what `gatherPositions` and
 * `positionBounds` give (its bounds over what triangles with an area draw, as `gatherDrawn`), bit for bit, on generated scenes as files come: many nodes drawing one mesh
 * (moved only, or turned, mirrored, scaled), morph targets at default weights, normalized integer
 * positions, strips, a mesh placed a thousand kilometres out, nested children, a -0 in a matrix.
 */
import { Document, type Mesh, type Node } from "@gltf-transform/core";
import { gatherPositions, positionBounds } from "../../../nodes/rig/geometry.ts";
import { LocalMeshes } from "../../../nodes/rig/local_meshes.ts";
import { gatherDrawn } from "../../../nodes/rig/drawn_vertices.ts";
import { fittedGeometry } from "../../../nodes/rig/fitted_geometry.ts";
import { type Mat4, multiply } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { assertSameBits } from "../../support/same_bits.ts";

/** A scene of a few meshes drawn by many nodes, some nested, shaped by `seed`. */
function messyScene(seed: number): { doc: Document; roots: Node[] } {
  const random = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const meshes: Mesh[] = [];
  for (let m = 0; m < 3; m++) {
    const count = 30 + Math.floor(random() * 200);
    const normalized = m === 1;
    const positions = normalized
      ? Int16Array.from({ length: 3 * count }, () => Math.floor((random() - 0.5) * 65534))
      : Float32Array.from({ length: 3 * count }, () => (random() - 0.5) * 10 ** Math.floor(random() * 4));
    const accessor = doc.createAccessor().setType("VEC3").setArray(positions).setNormalized(normalized)
      .setBuffer(buffer);
    const indices = doc.createAccessor().setType("SCALAR").setBuffer(buffer)
      .setArray(Uint32Array.from({ length: 3 * count }, () => Math.floor(random() * count)));
    const primitive = doc.createPrimitive().setAttribute("POSITION", accessor).setIndices(indices)
      .setMode(m === 2 ? 5 : 4);
    if (m === 0) {
      const delta = doc.createAccessor().setType("VEC3").setBuffer(buffer)
        .setArray(Float32Array.from({ length: 3 * count }, () => random() - 0.5));
      primitive.addTarget(doc.createPrimitiveTarget().setAttribute("POSITION", delta));
    }
    const mesh = doc.createMesh(`mesh${m}`).addPrimitive(primitive);
    // The same accessor drawn again by a second primitive: gathered once, its triangles once.
    if (m === 2) {
      mesh.addPrimitive(doc.createPrimitive().setAttribute("POSITION", accessor).setIndices(indices));
    }
    if (m === 0) mesh.setWeights([0.25 + random()]);
    meshes.push(mesh);
  }
  const scene = doc.createScene();
  const roots: Node[] = [];
  const turn = [random() - 0.5, random() - 0.5, random() - 0.5, random()];
  const norm = Math.hypot(...turn);
  for (let n = 0; n < 40; n++) {
    const node = doc.createNode(`n${n}`).setMesh(meshes[n % 3]);
    // Most move only (one linear part shared); some turn, mirror or scale; one is a thousand km out.
    node.setTranslation([n * (random() - 0.5), n === 7 ? 1e6 : random(), -0 * n]);
    if (n % 4 === 1) node.setRotation(turn.map((v) => v / norm) as [number, number, number, number]);
    if (n % 5 === 2) node.setScale([-1, 1, 0.5 + random()]);
    if (n % 6 === 3) node.setWeights([random() * 2]);
    if (n % 7 === 4 && roots.length) roots[roots.length - 1].addChild(node);
    else {
      scene.addChild(node);
      roots.push(node);
    }
  }
  return { doc, roots };
}

/** Aircraft-frame matrices as rig nodes make them: an axis permutation with signs, and a general one. */
function frames(seed: number): Mat4[] {
  const random = prng(seed + 1);
  const swap = [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1];
  const c = Math.cos(random() * 6), s = Math.sin(random() * 6);
  const general = multiply(swap, [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, random() * 3, -2, 0.5, 1]);
  return [[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], swap, general];
}

Deno.test("LocalMeshes gathers and bounds as gatherPositions and positionBounds do, bit for bit (held-out seeds)", () => {
  let compared = 0;
  for (const seed of [8101, 8102, 8103, 8104, 8105, 8106]) {
    const { roots } = messyScene(seed);
    for (const frame of frames(seed)) {
      const meshes = new LocalMeshes();
      for (const root of roots) {
        for (const triangles of [false, true]) {
          const expected = gatherPositions(root, frame, { triangles });
          const actual = meshes.gather(root, frame, triangles, seed % 2 === 0);
          assertSameBits(actual.positions, expected.positions, `seed ${seed} ${root.getName()} positions`);
          assertSameBits(
            actual.triangles ?? [],
            expected.triangles ?? [],
            `seed ${seed} ${root.getName()} triangles`,
          );
          if (actual.count !== expected.count) throw new Error(`seed ${seed}: count ${actual.count}`);
        }
        // A pivot's record of what its panel was fitted to, read through the memo: the same numbers.
        const pivot = root.listChildren()[0] ?? root;
        const record = JSON.stringify(fittedGeometry(pivot, root, meshes));
        if (record !== JSON.stringify(fittedGeometry(pivot, root))) {
          throw new Error(`seed ${seed}: ${record}`);
        }
        // Bounds are those of what triangles with an area draw (random indices leave vertices out).
        const box = positionBounds(gatherDrawn(root, frame));
        for (const k of [0, 1, 2] as const) {
          const range = meshes.axisBounds(root, frame, k);
          assertSameBits(
            range ? [range.min, range.max] : [],
            box ? [box.min[k], box.max[k]] : [],
            `seed ${seed} axis ${k}`,
          );
          compared++;
        }
      }
    }
  }
  if (compared < 6 * 3 * 30 * 3) throw new Error(`only ${compared} bounds compared`);
});

Deno.test("LocalMeshes reads a mesh many nodes draw once per memo, not once per node", () => {
  const { doc, roots } = messyScene(8107);
  const accessor = doc.getRoot().listMeshes()[2].listPrimitives()[0].getAttribute("POSITION")!;
  let reads = 0;
  const getArray = accessor.getArray.bind(accessor);
  accessor.getArray = () => (reads++, getArray());
  const meshes = new LocalMeshes();
  for (const root of roots) meshes.axisBounds(root, frames(8107)[2], 2);
  // 40 nodes, a third of them drawing this mesh (two primitives over the one accessor): read once.
  if (reads !== 1) throw new Error(`the shared accessor was read ${reads} times`);
});
