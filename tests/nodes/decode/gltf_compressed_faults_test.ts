/**
 * Compressed data that does not decode is named where it is: the meshopt view (its mode, count and
 * byte range) or the Draco primitive (its buffer view), not the file's root — an aircraft of 300
 * compressed parts with one damaged is refused naming that part.
 */
import assert from "node:assert/strict";
import { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode } from "../../support/context.ts";
import { writeCompressedGlb } from "../../support/compressed.ts";
import { dracoGrid } from "../../support/draco.ts";
import { glbOf } from "../../support/shapes.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function rejection(bytes: Uint8Array): Promise<DecodeError> {
  try {
    await runNode(decodeGltf, { bytes: { bytes, name: "damaged.glb" } });
  } catch (error) {
    assert.ok(error instanceof DecodeError, `typed error, got ${error}`);
    return error;
  }
  assert.fail("decoded a damaged file");
}

const pathOf = (e: DecodeError) => "jsonPath" in e.at ? e.at.jsonPath : `byte ${e.at.offset}`;

/** A GLB's JSON, the file offset of its binary chunk's data, and a copy of its bytes to damage. */
function split(glb: Uint8Array): { json: Json; bin: number; bytes: Uint8Array } {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  return { json, bin: 28 + length, bytes: glb.slice() };
}

/** Three panels, each a mesh of its own: a triangle strip of `n` × 2 vertices along X. */
function panels(n: number): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene("s");
  for (const name of ["Flap_L", "Flap_R", "Rudder"]) {
    const positions = new Float32Array(n * 2 * 3);
    for (let i = 0; i < n * 2; i++) positions.set([Math.floor(i / 2) * 0.1, 0, (i % 2) * 0.3], i * 3);
    const indices = new Uint16Array((n - 1) * 6);
    for (let i = 0; i < n - 1; i++) {
      indices.set([2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 1, 2 * i + 3, 2 * i + 2], i * 6);
    }
    const prim = doc.createPrimitive()
      .setAttribute("POSITION", doc.createAccessor(`${name}_p`, buffer).setType("VEC3").setArray(positions))
      .setIndices(doc.createAccessor(`${name}_i`, buffer).setType("SCALAR").setArray(indices));
    scene.addChild(doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(prim)));
  }
  return doc;
}

Deno.test("a meshopt view whose data does not decode is named by its path, mode, count and byte range", async () => {
  const { json, bin, bytes } = split(await writeCompressedGlb(panels(20), "meshopt"));
  const compressed = (json.bufferViews as Json[])
    .map((view, i) => ({ i, def: view.extensions?.EXT_meshopt_compression }))
    .filter((v) => v.def);
  assert.ok(compressed.length >= 2, `the fixture has several compressed views, not ${compressed.length}`);
  for (const { i, def } of [compressed[compressed.length - 1], compressed[0]]) {
    const damaged = bytes.slice();
    const start = bin + (def.byteOffset ?? 0);
    // The codec's header byte (0xa0 attributes, 0xd0 indices, 0xe0 triangles) as no codec writes it.
    damaged[start] = 0x00;
    const error = await rejection(damaged);
    assert.equal(pathOf(error), `/bufferViews/${i}/extensions/EXT_meshopt_compression`);
    assert.match(error.expected, new RegExp(`^${def.mode} data meshopt decodes to ${def.count} elements`));
    const end = (def.byteOffset ?? 0) + def.byteLength;
    assert.ok(
      error.expected.includes(`bytes ${def.byteOffset ?? 0}..${end} of buffer 0, file byte ${start}`),
    );
    assert.match(error.found, /Malformed buffer data/);
  }
});

Deno.test("a Draco primitive whose data does not decode is named by its path and buffer view", async () => {
  // Three grids, each a mesh with a view of its own; the second's stream is cut short past its header.
  const { json, stream } = await dracoGrid(12, "edgebreaker");
  const cut = stream.subarray(0, Math.floor(stream.length * 0.6));
  const streams = [stream, cut, stream];
  const accessors: Json[] = [], meshes: Json[] = [], views: Json[] = [];
  let offset = 0;
  const template = json.meshes[0].primitives[0];
  streams.forEach((s, m) => {
    views.push({ buffer: 0, byteOffset: offset, byteLength: s.length });
    offset += Math.ceil(s.length / 4) * 4;
    const base = accessors.length;
    const named = [template.attributes.POSITION, template.attributes.NORMAL, template.indices];
    for (const a of named) accessors.push({ ...json.accessors[a], bufferView: undefined });
    meshes.push({
      primitives: [{
        attributes: { POSITION: base, NORMAL: base + 1 },
        indices: base + 2,
        extensions: {
          KHR_draco_mesh_compression: { ...template.extensions.KHR_draco_mesh_compression, bufferView: m },
        },
      }],
    });
  });
  const data = new Uint8Array(offset);
  streams.forEach((s, m) => data.set(s, views[m].byteOffset));
  const file = {
    ...json,
    accessors,
    meshes,
    bufferViews: views,
    buffers: [{ byteLength: data.length }],
    nodes: meshes.map((_, m) => ({ name: `Panel_${m}`, mesh: m })),
    scenes: [{ nodes: [0, 1, 2] }],
  };
  const glb = glbOf(file, data);
  const error = await rejection(glb);
  assert.equal(pathOf(error), "/meshes/1/primitives/0/extensions/KHR_draco_mesh_compression");
  const start = views[1].byteOffset;
  const binStart = glb.length - data.length;
  assert.ok(
    error.expected.includes(
      `bufferView 1 (bytes ${start}..${start + cut.length} of buffer 0, file byte ${binStart + start})`,
    ),
    error.expected,
  );
  // Draco's own reason, not glTF-Transform's bare "Decoding failure".
  assert.ok(error.found.length > 0 && !/^Error: \[KHR_draco/.test(error.found), error.found);
});
