/**
 * The shared accessor helper: arena arrays share slabs, are aligned, zero-filled and never overlap;
 * large requests get their own buffer; accessors over slab views survive a GLB round trip with the
 * right values, types and names, all in the scene's one buffer.
 */
import assert from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { ArrayArena, SceneAccessors, setArrayQuietly } from "../../../runtime/scene/accessors.ts";
import { gltfIO, writeGlb } from "../../../runtime/scene/gltf_io.ts";

Deno.test("accessors: arena arrays share a slab, 8-byte aligned, zero-filled, disjoint", () => {
  const arena = new ArrayArena(1024);
  const a = arena.float32(3), b = arena.uint16(5), c = arena.uint16(1), d = arena.float32(2);
  assert.equal(a.buffer, b.buffer);
  assert.equal(b.buffer, d.buffer);
  const views = [a, b, c, d];
  for (const view of views) {
    assert.equal(view.byteOffset % 8, 0);
    assert.ok(view.every((x) => x === 0));
  }
  // Each view ends before the next starts.
  for (let i = 1; i < views.length; i++) {
    assert.ok(views[i - 1].byteOffset + views[i - 1].byteLength <= views[i].byteOffset);
  }
  a.fill(1);
  assert.ok(b.every((x) => x === 0), "writing one array leaves its neighbour alone");
});

Deno.test("accessors: a request above an eighth of a slab gets its own buffer; a full slab starts a new one", () => {
  const arena = new ArrayArena(1024);
  const first = arena.float32(16); // 64 bytes
  const big = arena.float32(64); // 256 bytes > 1024 / 8
  assert.notEqual(big.buffer, first.buffer);
  assert.equal(big.buffer.byteLength, 256);
  const views = Array.from({ length: 20 }, () => arena.uint16(32)); // 64 bytes each: 1,344 in all
  assert.equal(new Set(views.map((v) => v.buffer)).size, 2);
  assert.equal(new ArrayArena(0).float32(1).buffer.byteLength, 4, "slab size 0: one buffer per array");
});

Deno.test("accessors: slabs start at 64 KiB and double up to the slab size, so a small scene zero-fills no megabyte", () => {
  const arena = new ArrayArena();
  // 1,024 bytes at a time: each slab fills before the next is taken.
  const sizes: number[] = [];
  for (let i = 0; i < 2048; i++) {
    const { buffer } = arena.float32(256);
    if (sizes.length === 0 || buffer.byteLength !== sizes[sizes.length - 1]) sizes.push(buffer.byteLength);
  }
  assert.deepEqual(sizes, [1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20]);
  // A request above the current slab but within an eighth of the largest still shares a slab.
  const fresh = new ArrayArena();
  const wide = fresh.uint16(50_000); // 100,000 bytes > 64 KiB, < 1 MiB / 8
  assert.equal(wide.buffer.byteLength, 100_000);
  assert.equal(fresh.uint16(4).buffer.byteLength, 1 << 17, "the next slab is the doubled one");
});

Deno.test("accessors: slab-backed accessors round-trip through GLB in one buffer with their types", async () => {
  const doc = new Document();
  const accessors = new SceneAccessors(doc, doc.createBuffer("buffer"));
  const positions = accessors.arena.float32(9);
  positions.set([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const indices = accessors.arena.uint16(3);
  indices.set([0, 1, 2]);
  const uv = accessors.arena.float32(6);
  uv.set([0, 0, 1, 0, 0, 1]);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", accessors.create("VEC3", positions, "tri.position"))
    .setAttribute("TEXCOORD_0", accessors.create("VEC2", uv))
    .setIndices(accessors.create("SCALAR", indices, "tri.indices"));
  doc.createScene("s").addChild(doc.createNode("n").setMesh(doc.createMesh("m").addPrimitive(primitive)));
  assert.equal(positions.buffer, indices.buffer, "the arrays share a slab");

  const back = await (await gltfIO()).readBinary(await writeGlb(doc, { generator: "test" }));
  assert.equal(back.getRoot().listBuffers().length, 1);
  const read = back.getRoot().listMeshes()[0].listPrimitives()[0];
  const position = read.getAttribute("POSITION")!;
  assert.equal(position.getType(), "VEC3");
  assert.equal(position.getName(), "tri.position");
  assert.deepEqual(Array.from(position.getArray()!), [0, 0, 0, 1, 0, 0, 0, 1, 0]);
  assert.equal(read.getAttribute("TEXCOORD_0")!.getType(), "VEC2");
  assert.deepEqual(Array.from(read.getAttribute("TEXCOORD_0")!.getArray()!), [0, 0, 1, 0, 0, 1]);
  assert.equal(read.getIndices()!.getType(), "SCALAR");
  assert.deepEqual(Array.from(read.getIndices()!.getArray()!), [0, 1, 2]);
});

Deno.test("accessors: created and swapped arrays are what the setters give, without their change events", () => {
  const doc = new Document();
  const accessors = new SceneAccessors(doc, doc.createBuffer());
  let changes = 0;
  doc.getGraph().addEventListener("node:change", () => changes++);
  const arrays = [new Float32Array(6), new Uint16Array(3), new Uint32Array(2), new Int8Array(4)];
  for (const [i, array] of arrays.entries()) {
    const type = (["VEC3", "SCALAR", "VEC2", "VEC4"] as const)[i];
    const quiet = accessors.create(type, array);
    const loud = doc.createAccessor("", accessors.buffer).setArray(array).setType(type);
    assert.deepEqual(
      [quiet.getArray(), quiet.getType(), quiet.getComponentType(), quiet.getCount(), quiet.getBuffer()],
      [loud.getArray(), loud.getType(), loud.getComponentType(), loud.getCount(), loud.getBuffer()],
    );
  }
  const accessor = accessors.create("VEC3", arrays[0]);
  const before = changes;
  const empty = new Float32Array(0);
  setArrayQuietly(accessor, empty);
  assert.equal(accessor.getArray(), empty);
  assert.equal(accessor.getComponentType(), 5126);
  setArrayQuietly(accessor, null);
  assert.equal(accessor.getArray(), null);
  setArrayQuietly(accessor, arrays[0]);
  assert.equal(accessor.getCount(), 2);
  assert.equal(changes, before, "no change events");
});
