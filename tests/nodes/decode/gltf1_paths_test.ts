/**
 * What the 2.0 checks find in an upgraded glTF 1.0 file — before glTF-Transform reads it and after —
 * is named at the 1.0 file's own JSON paths and ids, never at the upgrade's indices. Each fixture is a
 * code-made 1.0 file (`tests/support/gltf1.ts`) whose ids are renamed (`accessor_3` → `G/accessor_3`,
 * a `/` that JSON Pointer escapes) and whose collections are written in reverse order, so no 2.0
 * index equals a number in an id; then one fault only a 2.0 check catches is put in.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { DecodeError } from "../../../runtime/errors.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { gltf1Of, type Json } from "../../support/gltf1.ts";
import { messyGlb } from "../../support/messy_gltf.ts";

/** Collections whose ids are renamed; samplers keep theirs (animations name samplers of their own alike). */
const RENAMED = ["accessors", "bufferViews", "meshes", "nodes", "skins", "materials", "textures", "images"];

/** Every id of the renamed collections as `G/<id>`, each collection in reverse order, references too. */
function renameIds(json: Json): void {
  const names = new Map<string, string>();
  for (const key of RENAMED) for (const id of Object.keys(json[key] ?? {})) names.set(id, `G/${id}`);
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return names.get(value) ?? value;
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  for (const key of Object.keys(json)) {
    const renamed = walk(json[key]) as Json;
    json[key] = RENAMED.includes(key)
      ? Object.fromEntries(Object.entries(renamed).reverse().map(([id, item]) => [names.get(id) ?? id, item]))
      : renamed;
  }
}

/** The one buffer's bytes (a data URI), to edit, and a way to write them back. */
function bufferOf(json: Json): { bytes: Uint8Array; save: () => void } {
  const buffer = Object.values(json.buffers)[0] as Json;
  const bytes = Uint8Array.fromBase64((buffer.uri as string).split(",")[1]);
  return { bytes, save: () => buffer.uri = `data:application/octet-stream;base64,${bytes.toBase64()}` };
}

/** Byte offset of element `i` of accessor `id` (of `size` bytes, unless interleaved) in the buffer. */
function elementAt(json: Json, id: string, i: number, size: number): number {
  const accessor = json.accessors[id];
  const stride = accessor.byteStride || size;
  return json.bufferViews[accessor.bufferView].byteOffset + accessor.byteOffset + i * stride;
}

/** The skinned wing's mesh id and its primitive (ids as the 1.0 writer gave them, before renaming). */
function wing(json: Json): [string, Json] {
  const [id, mesh] = Object.entries(json.meshes as Json).find(([, m]) => m.primitives[0].attributes.JOINT)!;
  return [id, mesh.primitives[0]];
}

/** The skinned, animated wing as glTF 1.0 with `fault` put in and its ids renamed. */
async function faulty(fault: (json: Json) => void): Promise<Uint8Array> {
  const doc = await readGltf(await messyGlb(() => {}));
  return gltf1Of(doc, { edit: (json) => (fault(json), renameIds(json)) });
}

/** Asserts decoding `bytes` fails at `jsonPath` with texts matching `expected` and `found`. */
async function assertRefusedAt(bytes: Uint8Array, jsonPath: string, expected: RegExp, found: RegExp) {
  await rejects(runNode(decodeGltf, { bytes: { bytes, name: "old.gltf" } }), (error) => {
    assert(error instanceof DecodeError, String(error));
    assertEquals(error.at, { jsonPath });
    assert(expected.test(error.expected), error.message);
    assert(found.test(error.found), error.message);
    // No 2.0 index is left in what the user reads.
    assert(!/\/\d+\//.test(error.at.jsonPath.replace(/\/primitives\/\d+\//, "/")), error.message);
    return true;
  });
}

Deno.test("glTF 1.0 paths: an index value past the vertices (checked after decoding) names the 1.0 mesh and accessor", async () => {
  let mesh = "", indices = "";
  const bytes = await faulty((json) => {
    const [id, primitive] = wing(json);
    [mesh, indices] = [id, primitive.indices];
    const buffer = bufferOf(json);
    new DataView(buffer.bytes.buffer).setUint16(elementAt(json, indices, 4, 2), 4000, true);
    buffer.save();
  });
  await assertRefusedAt(
    bytes,
    `/meshes/G~1${mesh}/primitives/0/indices`,
    /index values below the 4 vertices/,
    new RegExp(`^4000 at element 4 of accessor 'G/${indices}'$`),
  );
});

Deno.test("glTF 1.0 paths: a weighted joint index past the skin's joints names the 1.0 attribute (JOINT) and skin", async () => {
  let mesh = "";
  const bytes = await faulty((json) => {
    const [id, primitive] = wing(json);
    mesh = id;
    const buffer = bufferOf(json);
    // Vertex 2's first joint (weighted 1) made joint 7 of a skin of two.
    new DataView(buffer.bytes.buffer).setUint16(elementAt(json, primitive.attributes.JOINT, 2, 8), 7, true);
    buffer.save();
  });
  await assertRefusedAt(
    bytes,
    `/meshes/G~1${mesh}/primitives/0/attributes/JOINT`,
    /^joint indices below the 2 joints of skin 'G\/skin_0', or with a weight of 0$/,
    /^7 at element 2, weighted 1$/,
  );
});

Deno.test("glTF 1.0 paths: a stride the 2.0 check refuses is named at the accessor that has it in 1.0", async () => {
  let normals = "";
  const bytes = await faulty((json) => {
    normals = wing(json)[1].attributes.NORMAL;
    json.accessors[normals].byteStride = 14;
  });
  await assertRefusedAt(bytes, `/accessors/G~1${normals}/byteStride`, /multiple of 4/, /^14$/);
});

Deno.test("glTF 1.0 paths: an accessor range past its view, and repairs, name the 1.0 items", async () => {
  let positions = "";
  const bytes = await faulty((json) => {
    positions = wing(json)[1].attributes.POSITION;
    json.accessors[positions].byteOffset = 4096;
  });
  // Its 4 elements no longer fit the view (the 2.0 check names the count it cannot hold).
  await assertRefusedAt(bytes, `/accessors/G~1${positions}/count`, /fits the view.s 288 bytes/, /^4$/);
  // Repairs (signed indices, read as unsigned) are warnings at the 1.0 paths, naming 1.0 accessors.
  let mesh = "", indices = "";
  const signed = await faulty((json) => {
    const [id, primitive] = wing(json);
    [mesh, indices] = [id, primitive.indices];
    json.accessors[indices].componentType = 5122;
  });
  const ctx = testContext();
  await runNode(decodeGltf, { bytes: { bytes: signed, name: "old.gltf" } }, {}, ctx);
  const warnings = ctx.warnings.map((w) => w.message);
  const repair = warnings.find((w) => /holds indices as/.test(w));
  assert(repair, warnings.join("\n"));
  assert(
    repair.includes(`at /meshes/G~1${mesh}/primitives/0/indices: accessor 'G/${indices}' holds indices as`),
    repair,
  );
  assert(warnings.every((w) => !/\/(meshes|accessors|nodes)\/\d+/.test(w)), warnings.join("\n"));
});

Deno.test("glTF 1.0 paths: a fault found at a 1.0 path stays there, even where an id reads as a 2.0 index", async () => {
  const doc = await readGltf(await messyGlb(() => {}));
  const bytes = await gltf1Of(doc, {
    bindShapeTranslation: [0, 1, 0],
    edit: (json) => {
      // Skin "0" no node uses (kept after the used "1", so it is 2.0 skin 1), its matrices a VEC3 accessor.
      const positions = wing(json)[1].attributes.POSITION;
      json.skins = { "1": json.skins.skin_0, "0": { ...json.skins.skin_0, inverseBindMatrices: positions } };
      for (const node of Object.values(json.nodes) as Json[]) if (node.skin) node.skin = "1";
    },
  });
  await rejects(runNode(decodeGltf, { bytes: { bytes, name: "old.gltf" } }), (error) => {
    assert(error instanceof DecodeError, String(error));
    assertEquals([error.at, error.found], [{ jsonPath: "/skins/0/inverseBindMatrices" }, '"5126 VEC3"']);
    return true;
  });
});

Deno.test("glTF 1.0 paths: a node with two parents is named by its 1.0 id at the second parent's child", async () => {
  let child = "";
  const parents: string[] = [];
  const bytes = await faulty((json) => {
    const nodes = json.nodes as Json;
    const [parent] = Object.entries(nodes).find(([, node]) => node.children?.length)!;
    child = nodes[parent].children[0];
    const second = Object.keys(nodes).find((id) => id !== parent && id !== child)!;
    nodes[second].children = [...(nodes[second].children ?? []), child];
    // Whichever parent the check meets second is named, at the child's place in its list.
    parents.push(
      `/nodes/G~1${parent}/children/0`,
      `/nodes/G~1${second}/children/${nodes[second].children.length - 1}`,
    );
  });
  await rejects(runNode(decodeGltf, { bytes: { bytes, name: "old.gltf" } }), (error) => {
    assert(error instanceof DecodeError, String(error));
    assert("jsonPath" in error.at && parents.includes(error.at.jsonPath), `${error.message} (${parents})`);
    assertEquals(error.found, `"node 'G/${child}'"`);
    return true;
  });
});
