/**
 * References set quietly (`quiet_refs.ts`) make the same document as glTF-Transform's setters: the
 * same edges in the same order with the same attributes, and the same GLB; a reference already set is
 * left to the public setter.
 */
import assert from "node:assert/strict";
import { Accessor, Document, type Material, type Mesh, type Primitive } from "@gltf-transform/core";
import {
  addFreshChildQuietly,
  addRefQuietly,
  setQuietly,
  setRefMapQuietly,
  setRefQuietly,
} from "../../../runtime/scene/quiet_refs.ts";
import { writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { prng } from "../../support/prng.ts";

/** How one build sets a primitive's references: glTF-Transform's setters or the quiet helpers. */
interface Setters {
  buffer(accessor: Accessor, buffer: ReturnType<Document["createBuffer"]>): void;
  attribute(primitive: Primitive, semantic: string, accessor: Accessor): void;
  indices(primitive: Primitive, accessor: Accessor): void;
  material(primitive: Primitive, material: Material): void;
  add(mesh: Mesh, primitive: Primitive): void;
}

const PUBLIC: Setters = {
  buffer: (a, b) => void a.setBuffer(b),
  attribute: (p, s, a) => void p.setAttribute(s, a),
  indices: (p, a) => void p.setIndices(a),
  material: (p, m) => void p.setMaterial(m),
  add: (mesh, p) => void mesh.addPrimitive(p),
};

const QUIET: Setters = {
  buffer: (a, b) => assert.ok(setRefQuietly(a, "buffer", b)),
  attribute: (p, s, a) => assert.ok(setRefMapQuietly(p, "attributes", s, a, "ARRAY_BUFFER")),
  indices: (p, a) => assert.ok(setRefQuietly(p, "indices", a, { usage: "ELEMENT_ARRAY_BUFFER" })),
  material: (p, m) => assert.ok(setRefQuietly(p, "material", m)),
  add: (mesh, p) => assert.ok(addRefQuietly(mesh, "primitives", p)),
};

/** A seeded scene of meshes with primitives of 1–3 UV sets, some sharing accessors and materials. */
function build(seed: number, set: Setters): Document {
  const random = prng(seed);
  const doc = new Document();
  const buffer = doc.createBuffer("buffer");
  const materials = [doc.createMaterial("a"), doc.createMaterial("b")];
  const accessor = (name: string, type: "VEC2" | "VEC3" | "SCALAR", length: number) => {
    // What doc.createAccessor(name, buffer) does, with the buffer set either way.
    const a = new Accessor(doc.getGraph(), name).setType(type);
    set.buffer(a, buffer);
    return a.setArray(
      type === "SCALAR"
        ? Uint16Array.from({ length }, () => Math.floor(random() * 3))
        : Float32Array.from({ length: length * (type === "VEC2" ? 2 : 3) }, () => random()),
    );
  };
  const scene = doc.createScene();
  let shared: Accessor | undefined;
  for (let m = 0; m < 4; m++) {
    const mesh = doc.createMesh(`m${m}`);
    for (let p = 0; p < 1 + Math.floor(random() * 4); p++) {
      const prim = doc.createPrimitive();
      const positions = shared && random() < 0.3 ? shared : accessor(`m${m}.${p}.position`, "VEC3", 3);
      shared = positions;
      set.attribute(prim, "POSITION", positions);
      set.indices(prim, accessor(`m${m}.${p}.indices`, "SCALAR", 3));
      for (let u = 0; u < 1 + Math.floor(random() * 3); u++) {
        set.attribute(prim, `TEXCOORD_${u}`, accessor(`m${m}.${p}.uv${u}`, "VEC2", 3));
      }
      set.material(prim, materials[Math.floor(random() * 2)]);
      set.add(mesh, prim);
    }
    scene.addChild(doc.createNode(`n${m}`).setMesh(mesh));
  }
  return doc;
}

/** Every edge of the document's graph in order: its name, ends (by first appearance) and attributes. */
function edges(doc: Document): string[] {
  const ids = new Map<object, number>();
  const id = (o: object) => ids.get(o) ?? (ids.set(o, ids.size), ids.size - 1);
  return doc.getGraph().listEdges().map((e) => {
    const parent = e.getParent() as { propertyType?: string },
      child = e.getChild() as { propertyType?: string };
    return `${e.getName()} ${parent.propertyType}#${id(parent)} -> ${child.propertyType}#${id(child)} ` +
      JSON.stringify(e.getAttributes());
  });
}

Deno.test("quiet refs: the same edges, attributes and GLB as glTF-Transform's setters", async () => {
  for (const seed of [1, 2, 3, 4]) {
    const loud = build(seed, PUBLIC), quiet = build(seed, QUIET);
    assert.deepEqual(edges(quiet), edges(loud), `seed ${seed}`);
    assert.deepEqual(
      await writeGlb(quiet, { generator: "t" }),
      await writeGlb(loud, { generator: "t" }),
      `seed ${seed}`,
    );
  }
});

Deno.test("quiet refs: a reference already set is left to the setter (false, nothing done)", () => {
  const doc = new Document();
  const [a, b] = [doc.createAccessor("a"), doc.createAccessor("b")];
  const prim = doc.createPrimitive().setIndices(a).setAttribute("POSITION", a);
  const before = edges(doc);
  assert.equal(setRefQuietly(prim, "indices", b), false);
  assert.equal(setRefMapQuietly(prim, "attributes", "POSITION", b, "ARRAY_BUFFER"), false);
  assert.deepEqual(edges(doc), before);
  assert.equal(prim.getIndices(), a);
  assert.equal(prim.getAttribute("POSITION"), a);
});

Deno.test("quiet refs: a new child and a new node's literals as addChild and the setters leave them", async () => {
  const make = (quiet: boolean) => {
    const doc = new Document();
    const scene = doc.createScene("s");
    for (let i = 0; i < 3; i++) {
      const part = doc.createNode(`p${i}`), hp = doc.createNode(`hp${i}`);
      const translation: [number, number, number] = [i, 2 * i, 3];
      const extras = { hardpoint: true, n: i };
      if (quiet) {
        assert.ok(setQuietly(hp, "translation", translation) && setQuietly(hp, "extras", extras));
        assert.ok(addFreshChildQuietly(part, hp) && addFreshChildQuietly(scene, part));
      } else {
        hp.setTranslation(translation).setExtras(extras);
        scene.addChild(part.addChild(hp));
      }
    }
    return doc;
  };
  const loud = make(false), quiet = make(true);
  assert.deepEqual(edges(quiet), edges(loud));
  assert.deepEqual(await writeGlb(quiet, { generator: "t" }), await writeGlb(loud, { generator: "t" }));
  // A child that has a parent already is left to addChild, which moves it.
  const doc = new Document();
  const [a, b, child] = [doc.createNode("a"), doc.createNode("b"), doc.createNode("c")];
  a.addChild(child);
  assert.equal(addFreshChildQuietly(b, child), false);
  assert.equal(child.getParentNode(), a);
});
