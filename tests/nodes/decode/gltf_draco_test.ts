/**
 * Draco-compressed primitives are held to what their bitstream headers declare, before Draco's
 * decoder sizes its tables from them: a header rewritten to 100 million faces made a 1 KB GLB
 * allocate 1.2 GB and abort the decoder. A genuinely compressible mesh still decodes.
 */
import assert from "node:assert/strict";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import {
  DRACO_MAX_RATIO,
  DracoHeaderError,
  readDracoHeader,
} from "../../../nodes/decode/gltf/codec/check_draco.ts";
import { DecodeError } from "../../../runtime/errors.ts";
import { runNode } from "../../support/context.ts";
import {
  CONNECTIVITY,
  dracoGlb,
  dracoGrid,
  sharedDracoView,
  spliced,
  varint,
  withCounts,
} from "../../support/draco.ts";

const EXT = "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression";

async function decode(bytes: Uint8Array) {
  return (await runNode(decodeGltf, { bytes: { bytes, name: "draco.glb" } })).scene;
}

async function rejection(bytes: Uint8Array): Promise<DecodeError> {
  try {
    await decode(bytes);
  } catch (error) {
    assert.ok(error instanceof DecodeError, `typed error, got ${error}`);
    return error;
  }
  assert.fail("decoded a hostile file");
}

const where = (e: DecodeError) => "jsonPath" in e.at ? e.at.jsonPath : e.at.offset;

for (const method of ["sequential", "edgebreaker"] as const) {
  Deno.test(`the header of a ${method} stream from Draco's encoder reads as the mesh it holds`, async () => {
    const { stream } = await dracoGrid(12, method);
    const header = readDracoHeader(stream);
    assert.equal(header.version, "2.2");
    assert.equal(header.method, method);
    assert.equal(header.faces, 2 * 11 * 11);
    if (method === "sequential") assert.equal(header.points, 144);
  });

  Deno.test(`a ${method} header declaring 100 million faces is refused before Draco allocates for them`, async () => {
    const mesh = await dracoGrid(12, method);
    const bomb = withCounts(mesh, 1e8, 5e7);
    const error = await rejection(dracoGlb(mesh.json, bomb));
    assert.equal(where(error), EXT);
    assert.match(error.expected, new RegExp(`${DRACO_MAX_RATIO} × the compressed ${bomb.length} \\+ 1 MiB`));
    assert.match(error.expected, new RegExp(`${method} header declares 100000000 faces`));
    assert.ok(Number(error.found) >= 1.2e9, error.found);
  });
}

Deno.test("a flat grid, as compressible as meshes get, decodes: its accessors are held to the Draco data, not the file", async () => {
  const n = 300;
  const { json, stream } = await dracoGrid(n, "edgebreaker");
  const glb = dracoGlb(json, stream);
  const indices = 6 * (n - 1) * (n - 1);
  // More than the 16 × the file + 1 MiB an accessor without data may claim, which refused it before.
  assert.ok(indices * 4 > 16 * glb.length + (1 << 20), `${indices * 4} vs ${glb.length}`);
  const primitive = (await decode(glb)).getRoot().listMeshes()[0].listPrimitives()[0];
  assert.equal(primitive.getIndices()!.getCount(), indices);
  assert.equal(primitive.getAttribute("POSITION")!.getCount(), n * n);
});

Deno.test("metadata before the connectivity header is read past, as Draco's decoder reads it", async () => {
  const { json, stream } = await dracoGrid(12, "sequential");
  const entry = (
    name: string,
    value: string,
  ) => [name.length, ...bytesOf(name), value.length, ...bytesOf(value)];
  const metadata = [
    1,
    0, // one attribute's metadata, for attribute 0:
    1,
    ...entry("name", "position"),
    1,
    3,
    ...bytesOf("sub"),
    1,
    ...entry("k", "v"),
    0, // an entry, a sub-element
    1,
    ...entry("generator", "test"),
    0, // the file's metadata
  ];
  const withMetadata = spliced(stream, CONNECTIVITY, 0, metadata);
  withMetadata[10] |= 0x80;
  assert.deepEqual(readDracoHeader(withMetadata), readDracoHeader(stream));
  // Draco's own decoder agrees on where the metadata ends: the mesh decodes.
  const primitive =
    (await decode(dracoGlb(json, withMetadata))).getRoot().listMeshes()[0].listPrimitives()[0];
  assert.equal(primitive.getAttribute("POSITION")!.getCount(), 144);
});

Deno.test("a header that does not read is a DecodeError naming the byte and what was expected", async () => {
  const { json, stream } = await dracoGrid(12, "edgebreaker");
  // What was expected and at which byte of the view, and what was found.
  const cases: [Uint8Array, RegExp, RegExp][] = [
    [spliced(stream, 0, 1, bytesOf("B")), /the magic 'DRACO' at byte 0 of view 0/, /^'BRACO'$/],
    [spliced(stream, 5, 1, [1]), /bitstream version 2.0 to 2.2 at byte 5/, /^1\.2$/],
    [spliced(stream, 7, 1, [0]), /encoder type 1 \(a triangular mesh\) at byte 7/, /^0$/],
    [stream.slice(0, 13), /an encoded-vertex count at byte 13/, /^0 bytes left$/],
    [
      spliced(stream, CONNECTIVITY + 1, 2, [0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
      /an encoded-vertex count in at most 5 varint bytes at byte 12/,
      /more/,
    ],
  ];
  for (const [bytes, expected, found] of cases) {
    const error = await rejection(dracoGlb(json, bytes));
    assert.equal(where(error), `${EXT}/bufferView`);
    assert.match(error.expected, expected);
    assert.match(error.found, found);
  }
});

Deno.test("older 2.x layouts: 32-bit sequential counts, and an edgebreaker count of new vertices", () => {
  const head = (minor: number, method: number) => [...bytesOf("DRACO"), 2, minor, 1, method, 0, 0];
  const words = new Uint8Array(new Uint32Array([7, 9]).buffer);
  assert.deepEqual(readDracoHeader(new Uint8Array([...head(1, 0), ...words])), {
    version: "2.1",
    method: "sequential",
    faces: 7,
    points: 9,
  });
  const edgebreaker = [...head(0, 1), 0, ...varint(3), ...varint(20), ...varint(300)];
  assert.equal(readDracoHeader(new Uint8Array(edgebreaker)).faces, 300);
  // 2.2 has no new-vertex count: the same bytes read 20 as the faces.
  assert.equal(readDracoHeader(new Uint8Array([...head(2, 1), ...edgebreaker.slice(11)])).faces, 20);
});

Deno.test("metadata nested without end is refused at a bounded depth, in time linear in its bytes", () => {
  const nested = Array.from({ length: 10_000 }, () => [0, 1, 1, 120]).flat(); // no entries, one sub named "x"
  const bytes = new Uint8Array([...bytesOf("DRACO"), 2, 2, 1, 0, 0, 0x80, 0, ...nested]);
  assert.throws(
    () => readDracoHeader(bytes),
    (e) => e instanceof DracoHeaderError && /64 levels/.test(e.message),
  );
});

Deno.test("primitives sharing one Draco view are each decoded, and all of them count against the budget", async () => {
  const copies = 2_000;
  const error = await rejection(sharedDracoView(await dracoGrid(100, "edgebreaker"), copies));
  assert.match(
    where(error) as string,
    /^\/meshes\/0\/primitives\/\d+\/extensions\/KHR_draco_mesh_compression$/,
  );
  const at = Number((where(error) as string).split("/")[4]);
  assert.ok(at > 0 && at < copies, `refused at primitive ${at}`);
});

Deno.test("accessor counts that disagree with what the Draco data decodes to are refused", async () => {
  const { json, stream } = await dracoGrid(12, "edgebreaker");
  const position = json.meshes[0].primitives[0].attributes.POSITION;
  json.accessors[position].count = 100;
  json.accessors[json.meshes[0].primitives[0].attributes.NORMAL].count = 100;
  const error = await rejection(dracoGlb(json, stream));
  assert.equal(where(error), `/accessors/${position}/count`);
  assert.equal(error.expected, "the 144 elements its Draco data decodes to");
  assert.equal(error.found, "100");
});

Deno.test("a Draco attribute the primitive does not name is refused, not read through an undefined accessor", async () => {
  const { json, stream } = await dracoGrid(12, "edgebreaker");
  json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.attributes.TEXCOORD_0 = 2;
  const error = await rejection(dracoGlb(json, stream));
  assert.equal(where(error), `${EXT}/attributes/TEXCOORD_0`);
});

Deno.test("a Draco attribute id past 32 bits is refused, not wrapped round to another attribute's", async () => {
  // Found by the structure sweep: 2³² read as Draco's uint32 id 0, the positions, without a word.
  const { json, stream } = await dracoGrid(12, "edgebreaker");
  json.meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.attributes.POSITION = 2 ** 32;
  const error = await rejection(dracoGlb(json, stream));
  assert.equal(where(error), `${EXT}/attributes/POSITION`);
  assert.equal(error.expected, "an integer in 0..4294967295");
});

function bytesOf(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

Deno.test("a Draco primitive drawing points or lines is refused: Draco decodes faces", async () => {
  const { json, stream } = await dracoGrid(12, "edgebreaker");
  json.meshes[0].primitives[0].mode = 0;
  const error = await rejection(dracoGlb(json, stream));
  assert.equal(where(error), "/meshes/0/primitives/0/mode");
});

Deno.test("a Draco file within the budget that Draco's decoder cannot hold: its memory is named, and the next file decodes", async () => {
  const mesh = await dracoGrid(12, "edgebreaker");
  // 100 million faces over 1.3 MB of stream pass the 1,024 × budget; the decoder's 2 GB do not hold them.
  const header = withCounts(mesh, 1e8, 5e7);
  const padded = new Uint8Array(header.length + 1_300_000);
  padded.set(header);
  const error = await rejection(dracoGlb(mesh.json, padded));
  assert.equal(where(error), "/");
  assert.match(error.expected, /WebAssembly memory, 2 GB at most, ran out/);
  assert.match(error.found, /^RuntimeError: Aborted/);
  const after = await decode(dracoGlb(mesh.json, mesh.stream));
  assert.equal(after.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("POSITION")!.getCount(), 144);
});
