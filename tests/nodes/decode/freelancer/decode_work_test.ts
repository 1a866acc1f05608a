/**
 * Work counted, not timed, while decode.cmp builds a retail-shaped compound: what it does per
 * primitive and per UTF entry beside what glTF-Transform does (issue #12).
 *
 * @module
 */
import assert from "node:assert/strict";
import { Document, Material } from "@gltf-transform/core";
import { decodeModel } from "../../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../../nodes/decode/freelancer/codec/build_scene.ts";
import { readUtf, type UtfEntry } from "../../../../nodes/decode/freelancer/codec/utf.ts";
import { usersWork } from "../../../../nodes/decode/freelancer/codec/users.ts";
import { realisticCmp } from "../../../support/realistic_cmp.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";

// The tests build scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

/** Calls `run` with `name` of `proto` counted; returns the count and what `run` returned. */
function counting<T>(proto: object, names: readonly string[], run: () => T): [number, T] {
  const target = proto as Record<string, (...args: unknown[]) => unknown>;
  const originals = names.map((name) => target[name]);
  let calls = 0;
  names.forEach((name, i) => {
    target[name] = function (this: unknown, ...args: unknown[]) {
      calls++;
      return originals[i].apply(this, args);
    };
  });
  try {
    const result = run();
    return [calls, result];
  } finally {
    names.forEach((name, i) => target[name] = originals[i]);
  }
}

const TEXTURE_INFOS = [
  "getBaseColorTextureInfo",
  "getEmissiveTextureInfo",
  "getNormalTextureInfo",
  "getOcclusionTextureInfo",
  "getMetallicRoughnessTextureInfo",
];

Deno.test("the UV-set check reads a material's texture infos once, not once per primitive", () => {
  for (const seed of [41, 42, 43]) {
    const model = decodeModel({ bytes: realisticCmp(seed, { parts: 20 }), name: "r.cmp" }, [], () => {});
    const [reads, doc] = counting(Material.prototype, TEXTURE_INFOS, () => buildScene(model, () => {}));
    const materials = doc.getRoot().listMaterials().length;
    const primitives = doc.getRoot().listMeshes().reduce((n, m) => n + m.listPrimitives().length, 0);
    assert.ok(
      primitives > 10 * materials,
      `seed ${seed}: ${primitives} primitives of ${materials} materials`,
    );
    // Building a material binds each of its textures (one read each); the check reads the five once.
    assert.ok(
      reads <= 2 * TEXTURE_INFOS.length * materials,
      `seed ${seed}: ${reads} texture-info reads for ${materials} materials, ${primitives} primitives`,
    );
  }
});

Deno.test("entry lookups lower-case about one name per UTF entry, not one per sibling compared", () => {
  for (const seed of [44, 45]) {
    const bytes = realisticCmp(seed, { parts: 16 });
    let entries = 0;
    const walk = (entry: UtfEntry) => {
      entries++;
      entry.children?.forEach(walk);
    };
    walk(readUtf(bytes, "r.cmp"));
    const [lowered] = counting(
      String.prototype,
      ["toLowerCase"],
      () => decodeModel({ bytes, name: "r.cmp" }, [], () => {}),
    );
    // The misspelling check folds each entry's name once; lookups compare codes in place.
    assert.ok(lowered <= 1.5 * entries, `seed ${seed}: ${lowered} names lower-cased for ${entries} entries`);
  }
});

Deno.test("accessors, primitives, meshes and nodes are linked and set without change events", () => {
  // property-graph's GraphNode, where every setter's event goes through.
  let proto = Object.getPrototypeOf(new Document().createAccessor());
  while (!Object.hasOwn(proto, "dispatchEvent")) proto = Object.getPrototypeOf(proto);
  // Per primitive and node (thousands a model); the root's list of each new property, the scene's
  // extras and the few materials and textures keep theirs.
  const quiet = new Set(["Accessor", "Primitive", "Mesh", "Node"]);
  for (const seed of [46, 47]) {
    const model = decodeModel({ bytes: realisticCmp(seed, { parts: 12 }), name: "r.cmp" }, [], () => {});
    const dispatch = proto.dispatchEvent;
    let events = 0;
    proto.dispatchEvent = function (this: { propertyType?: string }, event: { type: string }) {
      if (event.type === "change" && quiet.has(this.propertyType ?? "")) events++;
      return dispatch.call(this, event);
    };
    let doc: Document;
    try {
      doc = buildScene(model, () => {});
    } finally {
      proto.dispatchEvent = dispatch;
    }
    const accessors = doc.getRoot().listAccessors().length;
    assert.ok(accessors > 300, `seed ${seed}: ${accessors} accessors`);
    // Four to six references per primitive and three to five per node, each an event to no listener
    // before (38,000 a pass of the bench's 16 compounds): none now, and the references are all there.
    assert.equal(events, 0, `seed ${seed}: ${events} change events for ${accessors} accessors`);
    for (const mesh of doc.getRoot().listMeshes()) {
      for (const p of mesh.listPrimitives()) {
        assert.ok(
          p.getIndices() && p.getAttribute("POSITION")?.getBuffer(),
          `seed ${seed}: ${mesh.getName()}`,
        );
      }
    }
    const hardpoints = doc.getRoot().listNodes().filter((n) => n.getExtras().hardpoint === true);
    assert.ok(
      hardpoints.length > 5 && hardpoints.every((n) => n.getParentNode()),
      `seed ${seed}: hardpoints`,
    );
  }
});

Deno.test("the root lists each new property without a change event", () => {
  let proto = Object.getPrototypeOf(new Document().createAccessor());
  while (!Object.hasOwn(proto, "dispatchEvent")) proto = Object.getPrototypeOf(proto);
  for (const seed of [48, 49]) {
    const model = decodeModel({ bytes: realisticCmp(seed, { parts: 14 }), name: "r.cmp" }, [], () => {});
    const dispatch = proto.dispatchEvent;
    let rootEvents = 0, creates = 0;
    proto.dispatchEvent = function (this: { propertyType?: string }, event: { type: string }) {
      if (event.type === "change" && this.propertyType === "Root") rootEvents++;
      if (event.type === "create") creates++;
      return dispatch.call(this, event);
    };
    let doc: Document;
    try {
      doc = buildScene(model, () => {});
    } finally {
      proto.dispatchEvent = dispatch;
    }
    const root = doc.getRoot();
    const listed = root.listAccessors().length + root.listMeshes().length + root.listNodes().length +
      root.listMaterials().length + root.listTextures().length;
    assert.ok(creates > 300, `seed ${seed}: ${creates} properties made`);
    // One change event per property made before (the root's addRef as it lists it: ~17,000 a pass of
    // the bench's 16 compounds); now only the root's own setters' (its default scene).
    assert.ok(rootEvents <= 2, `seed ${seed}: ${rootEvents} root change events for ${creates} properties`);
    // Every property is listed all the same, and the root's addRef is its prototype's again.
    assert.ok(listed > 300 && !Object.hasOwn(root, "addRef"), `seed ${seed}: ${listed} listed`);
    const primitives = root.listMeshes().flatMap((m) => m.listPrimitives());
    assert.ok(primitives.every((p) => root.listAccessors().includes(p.getIndices()!)), `seed ${seed}`);
  }
});

Deno.test("who uses a mesh, material or texture is indexed only for a warning that names it", () => {
  for (const seed of [50, 51]) {
    const bytes = realisticCmp(seed, { parts: 14 });
    const warnings: string[] = [];
    const before = usersWork.indexes;
    const doc = buildScene(
      decodeModel({ bytes, name: "r.cmp" }, [], (m) => warnings.push(m)),
      (m) => warnings.push(m),
    );
    assert.ok(doc.getRoot().listMeshes().length > 10, `seed ${seed}`);
    // Three indexes a decode before (the file's held warnings, the libraries', the scene's), warning or not.
    assert.deepEqual([usersWork.indexes - before, warnings], [0, []], `seed ${seed}`);
  }
  // A material no library defines: its warning names the parts drawing it, from one index.
  const bytes = realisticCmp(52, { parts: 10 });
  const decoded = decodeModel({ bytes, name: "r.cmp" }, [], () => {});
  const [id] = decoded.materials.keys();
  const model = { ...decoded, materials: new Map([...decoded.materials].filter(([key]) => key !== id)) };
  const warnings: string[] = [];
  const before = usersWork.indexes;
  buildScene(model, (m) => warnings.push(m));
  assert.ok(warnings.some((w) => /drawn on|part '/.test(w)), warnings.join("\n"));
  assert.ok(usersWork.indexes - before <= 2, `${usersWork.indexes - before} indexes`);
});

Deno.test("the misspelling check folds each distinct entry name once, not once per name it is compared with", () => {
  for (const seed of [44, 45]) {
    const bytes = realisticCmp(seed, { parts: 16 });
    const names = new Set<string>();
    const walk = (entry: UtfEntry) => {
      names.add(entry.name);
      entry.children?.forEach(walk);
    };
    walk(readUtf(bytes, "r.cmp"));
    const [lowered] = counting(
      String.prototype,
      ["toLowerCase"],
      () => decodeModel({ bytes, name: "r.cmp" }, [], () => {}),
    );
    // Each hardpoint's name was lower-cased again for each of "Fixed" and "Revolute" (382 on seed 44,
    // 2.4 per distinct name): now once, remembered with its trimmed and squeezed forms.
    assert.ok(
      lowered <= 1.5 * names.size,
      `seed ${seed}: ${lowered} names lower-cased for ${names.size} distinct entry names`,
    );
  }
});
