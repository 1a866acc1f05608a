/**
 * `decode.3dn`: models written as CarnivoresIO's `export_3dn` writes them (`encode_3dn.ts`) decode to
 * the same mesh, UVs and bone table as the same model written as a `.3df`; the sprite header, the
 * 52-byte header of CarnivoresIO's notes, a cut or padded file, owners of -1 and `decode.auto`'s sniffing.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decode3dn } from "../../../../nodes/decode/carnivores/decode_3dn.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { is3dn, parse3dn } from "../../../../nodes/decode/carnivores/codec/parse_3dn.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { encode3dn } from "../../../support/carnivores/encode_3dn.ts";
import { encode3df, encodeCar } from "../../../support/carnivores/encode.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { animatedCar, gridModel, limbModel } from "./fixtures.ts";
import { summaryOf } from "./probe.ts";

/** Every primitive's attribute `name`, concatenated in mesh order. */
function attribute(doc: Document, name: string): number[] {
  return doc.getRoot().listMeshes().flatMap((m) =>
    m.listPrimitives().flatMap((p) => Array.from(p.getAttribute(name)?.getArray() ?? []))
  );
}

Deno.test("decode.3dn: a CarnivoresIO .3dn gives the mesh, UVs and bones of the same model as a .3df", async () => {
  for (const model of [limbModel(), gridModel(6, 9)]) {
    const height = model.texture!.height;
    const ctx = testContext();
    const dn = (await runNode(decode3dn, { bytes: { bytes: encode3dn(model), name: "m.3dn" } }, {
      texture_height: height,
    }, ctx)).scene as Document;
    const df = (await runNode(decode3df, { bytes: { bytes: encode3df(model), name: "m.3df" } }))
      .scene as Document;
    assert.deepEqual(attribute(dn, "POSITION"), attribute(df, "POSITION"));
    assert.deepEqual(attribute(dn, "TEXCOORD_0"), attribute(df, "TEXCOORD_0"));
    assert.deepEqual(summaryOf(dn).bones, summaryOf(df).bones);
    assert.equal(dn.getRoot().listTextures().length, 0, "a .3dn holds no texture: none is made up");
    assert.deepEqual(ctx.warnings, []);
  }
});

Deno.test("decode.3dn: a texel is (u/256, v/texture_height); a point is scale·(x, y, −z)", async () => {
  const model = limbModel();
  const { faces, points } = model;
  const { scene } = await runNode(decode3dn, { bytes: { bytes: encode3dn(model), name: "m.3dn" } }, {
    texture_height: 128,
    scale: 1,
  });
  const positions = attribute(scene as Document, "POSITION");
  const uvs = attribute(scene as Document, "TEXCOORD_0");
  // The corner of face 0 that names point p: find it among the vertices by position.
  const p = faces.indices[0];
  const [x, y, z] = points.positions.subarray(p * 3, p * 3 + 3);
  const at = Array.from({ length: positions.length / 3 }, (_, i) => i).find((i) =>
    positions[i * 3] === x && positions[i * 3 + 1] === y && positions[i * 3 + 2] === -z &&
    Math.abs(uvs[i * 2] - faces.texels[0] / 256) < 1e-6 &&
    Math.abs(uvs[i * 2 + 1] - faces.texels[1] / 128) < 1e-6
  );
  assert.notEqual(at, undefined, "face 0's first corner at (x, y, −z) with UV (u/256, v/128)");
});

Deno.test("decode.3dn: the sprite name and model name, the notes' 52-byte header (warned) and owner -1 read; resolve skins it", async () => {
  const base = limbModel();
  const owners = Int16Array.from(base.points.owners, (o, i) => (i === 0 ? -1 : o));
  const model = { ...base, points: { ...base.points, owners } };
  for (const headerBytes of [48, 52] as const) {
    const bytes = encode3dn(model, { sprite: "raptor_spr", headerBytes, name: "Raptor" });
    assert.ok(is3dn(bytes));
    const parsed = parse3dn(bytes, "raptor.3dn", () => {});
    assert.deepEqual([parsed.name, parsed.sprite, parsed.points.owners[0]], ["Raptor", "raptor_spr", -1]);
    const ctx = testContext();
    const { scene } = await runNode(decode3dn, { bytes: { bytes, name: "raptor.3dn" } }, {}, ctx);
    const warnings = ctx.warnings.map((w) => w.message);
    assert.equal(
      warnings.some((w) => /52 bytes \(HasSprite at byte 48/.test(w)),
      headerBytes === 52,
      warnings.join("\n"),
    );
    const resolved = (await runNode(constraintsResolve, { scene }, {}, ctx)).scene as Document;
    assert.equal(resolved.getRoot().listSkins().length, 1);
    assert.ok(
      ctx.warnings.some((w) => /-1 \(0xFFFF, 'no bone'/.test(w.message)),
      "owner -1 bound to the root, said",
    );
  }
});

Deno.test("decode.3dn: a cut or padded file is a DecodeError naming the sizes; decode.auto tells .3dn from .3df/.car", async () => {
  const bytes = encode3dn(limbModel());
  for (const bad of [bytes.subarray(0, bytes.length - 6), Uint8Array.of(...bytes, 0, 0, 0, 0)]) {
    const error = await runNode(decode3dn, { bytes: { bytes: bad, name: "m.3dn" } }).catch((e) => e);
    assert.ok(error instanceof DecodeError, String(error));
    assert.match(error.message, new RegExp(`found ${bad.length} bytes`));
  }
  const auto = async (b: Uint8Array) =>
    summaryOf((await runNode(decodeAuto, { bytes: { bytes: b, name: "x.bin" } })).scene as Document);
  const dn = await auto(bytes);
  assert.equal(dn.bones.length, limbModel().bones.length);
  assert.ok(!is3dn(encode3df(limbModel())) && !is3dn(encodeCar(animatedCar())));
});
