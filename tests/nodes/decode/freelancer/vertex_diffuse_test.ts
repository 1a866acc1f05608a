/**
 * Vertex diffuse colours (`D3DFVF_DIFFUSE`) a converter wrote as "no colour": all black, or all with
 * alpha 0. The game multiplies the material colour by them (Librelancer's `Basic` shader, `Dc *
 * input.color`), as glTF viewers multiply `COLOR_0` in, so the colours are kept; the warning names
 * the mesh, what it does to the drawing and the vertex buffer's byte offset.
 */
import assert from "node:assert/strict";
import {
  encodeVMeshData,
  fragmentChildren,
  materialLibrary,
  meshLibrary,
  packVertices,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir } from "../../../support/freelancer/encode_utf.ts";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { decodeTree, refTo } from "./triangle_models.ts";

/** A `.3db` of one triangle (FVF 0x142: position, diffuse, one UV set) whose vertices have `colours`. */
function model(colours: number[]) {
  const vertices = packVertices(0x142, 3, {
    positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
    diffuse: colours,
    uvs: [[0, 0, 1, 0, 0, 1]],
  });
  const mesh = encodeVMeshData({
    fvf: 0x142,
    groups: [{ materialId: flCrc32("hull"), vertexStart: 0, vertexEnd: 2, indexCount: 3 }],
    indices: [0, 1, 2],
    vertices,
  });
  const tree = utfDir("\\", [
    meshLibrary([{ name: "m.vms", data: mesh }]),
    materialLibrary([{ name: "hull" }]),
    ...fragmentChildren({ lods: [refTo("m.vms", 1)] }),
  ]);
  return { tree, vertices };
}

/** Where `needle` first occurs in `bytes` (found here, not by the decoder). */
function offsetOf(bytes: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let k = 0; k < needle.length; k++) if (bytes[i + k] !== needle[k]) continue outer;
    return i;
  }
  throw new Error("not in the file");
}

async function diffuseWarnings(colours: number[]) {
  const { tree, vertices } = model(colours);
  const { scene, warnings } = await decodeTree(tree, "d.3db");
  const colour = scene.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("COLOR_0");
  return {
    warnings: warnings.filter((w) => w.includes("vertex diffuse")),
    at: offsetOf(encodeUtf(tree), vertices),
    kept: colour !== null,
  };
}

Deno.test("vertex diffuse all black, all alpha 0, or both is named with the mesh and byte; colours kept", async () => {
  const black = await diffuseWarnings([0xff000000, 0xff000000, 0xff000000]);
  assert.equal(black.warnings.length, 1, black.warnings.join("\n"));
  assert.match(black.warnings[0], /mesh 'm\.vms'.*all 3 vertex diffuse colours .* are black:/);
  assert.ok(black.warnings[0].includes(`(vertex buffer at byte ${black.at})`), black.warnings[0]);
  assert.ok(black.kept, "COLOR_0 kept: the game draws it too");

  const clear = await diffuseWarnings([0x00ffffff, 0x00808080, 0x00ffffff]);
  assert.equal(clear.warnings.length, 1, clear.warnings.join("\n"));
  assert.match(clear.warnings[0], /have alpha 0: where its material blends .* it is invisible/);

  const zero = await diffuseWarnings([0, 0, 0]);
  assert.match(
    zero.warnings[0] ?? "",
    /are black with alpha 0: .* where its material blends, it is invisible/,
  );
});

Deno.test("vertex diffuse with any colour and any alpha gives no warning", async () => {
  // One vertex lit, one opaque: neither all black nor all clear.
  assert.deepEqual((await diffuseWarnings([0x00000000, 0x00102030, 0xff000000])).warnings, []);
  assert.deepEqual((await diffuseWarnings([0xffffffff, 0xff804020, 0x80ffffff])).warnings, []);
});
