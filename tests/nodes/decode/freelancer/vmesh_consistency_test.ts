/**
 * Damage the structure sweep (`tests/nodes/decode/sweep/`) found decoding without a word: a
 * `VMeshData` whose FVF or counts leave bytes after its vertex buffer (a wrong FVF misreads every
 * vertex), a mesh type other than 1, and a `VMeshRef` whose own index and vertex ranges disagree
 * with the groups it selects, a `MultiLevel` whose `Level0` is empty (the levels after it were dropped
 * unread) and a `VMeshPart` without its `VMeshRef`. Each is now a named warning; a consistent file
 * gives none.
 */
import assert from "node:assert/strict";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { encodeVMeshData, packVertices } from "../../../support/freelancer/encode_model.ts";
import { readVMeshData, type VMeshRef } from "../../../../nodes/decode/freelancer/codec/vmesh.ts";
import { refMismatch } from "../../../../nodes/decode/freelancer/codec/vmesh_select.ts";
import { corpusFile } from "../../../support/corpus.ts";
import { applyCase } from "../sweep/cases.ts";
import { casesUtf } from "../sweep/freelancer_fields.ts";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { buildCompound } from "./fixtures.ts";

const window = (bytes: Uint8Array) => new ByteWindow(bytes, 0, bytes.length, "utf");

/** Two groups over 6 vertices of FVF 0x112 (32-byte vertices). */
function twoGroups(): Uint8Array {
  return encodeVMeshData({
    fvf: 0x112,
    groups: [
      { materialId: 1, vertexStart: 0, vertexEnd: 2, indexCount: 3 },
      { materialId: 2, vertexStart: 3, vertexEnd: 5, indexCount: 3 },
    ],
    indices: [0, 1, 2, 0, 1, 2],
    vertices: packVertices(0x112, 6, {
      positions: Array.from({ length: 18 }, (_, i) => i),
      normals: Array.from({ length: 18 }, (_, i) => (i % 3 === 2 ? 1 : 0)),
      uvs: [Array.from({ length: 12 }, () => 0.5)],
    }),
  });
}

function read(bytes: Uint8Array) {
  const warnings: string[] = [];
  const mesh = readVMeshData(window(bytes), "m.vms", (m) => warnings.push(m));
  return { mesh, warnings };
}

Deno.test("a consistent VMeshData gives no warning", () => {
  assert.deepEqual(read(twoGroups()).warnings, []);
});

Deno.test("an FVF of 20-byte vertices on 32-byte vertex data is a warning naming the stride that fits", () => {
  const bytes = twoGroups();
  new DataView(bytes.buffer).setUint16(12, 0x102, true);
  const { mesh, warnings } = read(bytes);
  assert.equal(mesh.layout.stride, 20);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  // 6 vertices × 12 missing bytes are left after the 20-byte ones.
  assert.match(warnings[0], /^72 byte\(s\) after the vertex buffer at byte \d+ are ignored/);
  assert.match(warnings[0], /6 × 20-byte vertices of FVF 0x102/);
  assert.match(warnings[0], /32-byte vertices would fill it exactly, so the FVF may be wrong/);
});

Deno.test("bytes after the vertex buffer that no stride explains are a warning without a stride", () => {
  const bytes = new Uint8Array([...twoGroups(), 0, 0, 0]);
  const { warnings } = read(bytes);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /^3 byte\(s\) after the vertex buffer/);
  assert.doesNotMatch(warnings[0], /would fill it/);
});

Deno.test("a mesh type other than 1 is a warning; the mesh is read", () => {
  const bytes = twoGroups();
  new DataView(bytes.buffer).setUint32(0, 2, true);
  const { mesh, warnings } = read(bytes);
  assert.equal(mesh.groups.length, 2);
  assert.deepEqual(warnings, ["mesh type 2 at byte 0 (the game loads only 1); read as mesh type 1"]);
});

Deno.test("a damaged VMeshData is its error alone: no note about its header before it", () => {
  const bytes = twoGroups().slice(0, 100);
  new DataView(bytes.buffer).setUint32(0, 7, true);
  const warnings: string[] = [];
  assert.throws(() => readVMeshData(window(bytes), "m.vms", (m) => warnings.push(m)));
  assert.deepEqual(warnings, []);
});

Deno.test("a VMeshRef whose ranges disagree with its groups is named; a consistent or empty one is not", () => {
  const { mesh } = read(twoGroups());
  const ref: VMeshRef = {
    meshId: 1,
    vertexStart: 0,
    vertexCount: 6,
    indexStart: 0,
    indexCount: 6,
    groupStart: 0,
    groupCount: 2,
    offset: 500,
  };
  assert.equal(refMismatch(mesh, ref), undefined);
  assert.equal(refMismatch(mesh, { ...ref, groupStart: 1, groupCount: 0 }), undefined);
  // The second group alone: it starts at index 3 and spans 3 vertices.
  assert.equal(
    refMismatch(mesh, { ...ref, groupStart: 1, groupCount: 1, indexStart: 3, indexCount: 3, vertexCount: 3 }),
    undefined,
  );
  // A group start damaged from 0 to 1: the ref's own ranges still describe both groups.
  assert.equal(
    refMismatch(mesh, { ...ref, groupStart: 1, groupCount: 1 }),
    "VMeshRef at byte 500 disagrees with groups 1–1 of mesh 'm.vms' that it selects: index start 0 (the " +
      "groups start at 3), index count 6 (the groups have 3), vertex count 6 (the groups span 3); the " +
      "groups are drawn, as Librelancer draws them (a damaged group start or count would pick other groups)",
  );
});

Deno.test("decode.auto: a compound whose VMeshRef index start is damaged warns naming the part", async () => {
  const bytes = buildCompound().bytes;
  const ref = casesUtf(bytes).find((c) => /'VMeshRef' @\d+ index start$/.test(c.field) && c.value === "1");
  assert.ok(ref, "the sweep has a case for a VMeshRef's index start");
  const ctx = testContext();
  await runNode(decodeAuto, { bytes: { bytes: applyCase(bytes, ref), name: "ship.cmp" } }, {}, ctx);
  const found = ctx.warnings.filter((w) => w.message.includes("disagrees with groups"));
  assert.equal(found.length, 1, ctx.warnings.map((w) => w.message).join("\n"));
  assert.match(
    found[0].message,
    /^part '[^']+' LOD \d .*: VMeshRef at byte \d+ disagrees .*index start 1 \(the groups start at 0\)/,
  );
});

Deno.test("corpus: the Librelancer monkey relabelled FVF 0x102 warns that its 32-byte vertices are misread", async () => {
  const path = corpusFile("freelancer/librelancer_monkey.3db");
  if (!path) return;
  const bytes = await Deno.readFile(path);
  const fvf = casesUtf(bytes).find((c) => /'VMeshData' @\d+ FVF$/.test(c.field) && c.value === String(0x102));
  assert.ok(fvf);
  const ctx = testContext();
  await runNode(decodeAuto, { bytes: { bytes: applyCase(bytes, fvf), name: "monkey.3db" } }, {}, ctx);
  const messages = ctx.warnings.map((w) => w.message);
  assert.ok(
    messages.some((m) =>
      m.startsWith(
        "mesh 'monkey-Suzanne.lod0.274.vms' (VMeshLibrary/monkey-Suzanne.lod0.274.vms/VMeshData",
      ) &&
      m.includes("1966 × 20-byte vertices of FVF 0x102") &&
      m.includes("32-byte vertices would fill it exactly")
    ),
    messages.join("\n"),
  );
  // Unchanged, it decodes without either warning.
  const clean = testContext();
  await runNode(decodeAuto, { bytes: { bytes, name: "monkey.3db" } }, {}, clean);
  assert.ok(!clean.warnings.some((w) => /vertex buffer|disagrees|mesh type/.test(w.message)));
});

/** decode.auto's warnings for the compound fixture with one sweep case applied. */
async function compoundWarnings(field: RegExp, value: string): Promise<string[]> {
  const bytes = buildCompound().bytes;
  const edit = casesUtf(bytes).find((c) => field.test(c.field) && c.value === value);
  assert.ok(edit, `the sweep has a case ${field} = ${value}`);
  const ctx = testContext();
  await runNode(decodeAuto, { bytes: { bytes: applyCase(bytes, edit), name: "ship.cmp" } }, {}, ctx);
  return ctx.warnings.map((w) => w.message);
}

Deno.test("decode.auto: a MultiLevel whose Level0 is empty warns that the levels after it are not read", async () => {
  const warnings = await compoundWarnings(/^entry 'Level0' @\d+ first child$/, "0");
  const found = warnings.filter((w) => w.includes("are not read"));
  assert.equal(found.length, 1, warnings.join("\n"));
  assert.match(
    found[0],
    /^part '[^']+': [^ ]+\/MultiLevel\/Level0 has no VMeshPart\/VMeshRef: the levels after it \(Level1\) are not read, .*; the part has no mesh$/,
  );
});

Deno.test("decode.auto: every emptied VMeshPart warns, naming what its part keeps; the untouched compound does not", async () => {
  const bytes = buildCompound().bytes;
  const emptied = casesUtf(bytes).filter((c) =>
    /^entry 'VMeshPart' @\d+ first child$/.test(c.field) && c.value === "0"
  );
  assert.ok(emptied.length >= 2, "the compound has single-LOD and MultiLevel parts");
  const said: string[] = [];
  for (const edit of emptied) {
    const ctx = testContext();
    await runNode(decodeAuto, { bytes: { bytes: applyCase(bytes, edit), name: "ship.cmp" } }, {}, ctx);
    const messages = ctx.warnings.map((w) => w.message);
    const named = messages.filter((m) => /has no VMeshRef|has no VMeshPart\/VMeshRef/.test(m));
    assert.equal(named.length, 1, `${edit.field}: ${messages.join("\n")}`);
    said.push(named[0]);
  }
  // The last LOD emptied: the levels before it stay.
  assert.ok(
    said.some((m) =>
      /\/MultiLevel\/Level1 has no VMeshPart\/VMeshRef: the part keeps its 1 LOD\(s\) before it$/.test(m)
    ),
    said.join("\n"),
  );
  assert.ok(
    said.some((m) => /^part '[^']+': [^ ]+\/VMeshPart has no VMeshRef: the part has no mesh$/.test(m)),
    said.join("\n"),
  );
  const ctx = testContext();
  await runNode(decodeAuto, { bytes: { bytes, name: "ship.cmp" } }, {}, ctx);
  assert.ok(
    !ctx.warnings.some((w) => /has no VMeshRef|are not read|disagrees|vertex buffer/.test(w.message)),
  );
});
