/**
 * What a lit material holds that glTF cannot draw as the game does is said in a warning naming the
 * material: a `Dc` outside 0..1 (clamped: the game clamps the lit colour before the texture, so it is
 * no glow), an `Oc` on a type without `Oc`/`Ot` (drawn opaque, as the type says), and an `Et` the game
 * adds to `Ec` and multiplies by `Dt`. Fixtures are built by code.
 */
import assert from "node:assert/strict";
import { encodeString, encodeU32, utfDir, utfLeaf } from "../../../support/freelancer/encode_utf.ts";
import { concat, ddsHeader } from "../../../support/freelancer/images.ts";
import { linear } from "../../../../nodes/decode/freelancer/codec/material_values.ts";
import {
  assertValid,
  decodeTree as decode,
  materialNamed as material,
  triangleModel,
} from "./triangle_models.ts";

/** A 1×1 uncompressed 32-bit DDS of `[r, g, b, a]`. */
const texel = ([r, g, b, a]: readonly number[]) =>
  concat(ddsHeader(1, 1, { bits: 32, pfFlags: 0x41, masks: [0xff0000, 0xff00, 0xff, 0xff000000] }), [
    b,
    g,
    r,
    a,
  ]);
const texture = (name: string, rgba: readonly number[]) => utfDir(name, [utfLeaf("MIPS", texel(rgba))]);

Deno.test("Dc outside 0..1, Oc on an opaque type and (Ec + Et) × Dt are each a warning naming the material", async () => {
  const { scene, warnings } = await decode(
    triangleModel(
      [
        { name: "hot", type: "DcDt", dc: [1.5, 0.5, -0.25], dtName: "grey.dds" },
        { name: "ghost", type: "DcDt", oc: 0.5, dtName: "grey.dds" },
        { name: "glass", type: "DcDtOcOt", oc: 0.5, dtName: "grey.dds" },
        { name: "lamp", type: "DcDtEt", dtName: "grey.dds", etName: "glow.dds" },
        // Ec black: the game adds nothing to Et, so Et is drawn with a white factor.
        { name: "sign", type: "DcDtEt", ec: [0, 0, 0], etName: "glow.dds" },
        // Stored DcDtEcEt, which retail's map draws as DcDtEt.
        { name: "window", type: "DcDtEcEt", ec: [0.5, 0.5, 0.5], etName: "glow.dds" },
        { name: "plain", type: "DcDt", dc: [0.5, 0.5, 0.5], oc: 1, dtName: "grey.dds" },
      ],
      { textures: [texture("grey.dds", [128, 128, 128, 255]), texture("glow.dds", [255, 200, 0, 255])] },
    ),
    "warn.3db",
  );
  assert.deepEqual(warnings, [
    "material 'hot' (DcDt): Dc (1.5, 0.5, -0.25) is outside 0..1; the game clamps the lit colour to 0..1 " +
    "before the texture modulates it (a Dc past 1 saturates under weaker light, never brighter than the " +
    "texture), and glTF's base colour factor stops at 1: clamped to (1, 0.5, 0); on 1 group of part 'Root' LOD 0",
    "material 'ghost' (DcDt): Oc 0.5 on a type without Oc/Ot; the game draws the type named, which is opaque, " +
    "so the material is opaque (Librelancer alone blends it); on 1 group of part 'Root' LOD 0",
    "material 'lamp' (DcDtEt): the game draws its glow as (Ec + Et) × Dt; glTF's emission is one factor times " +
    "one texture, so it is Et × 1, not darkened by the diffuse texture; on 1 group of part 'Root' LOD 0",
    "material 'window' (DcDtEt): the game draws its glow as (Ec + Et) × Dt; glTF's emission is one factor " +
    "times one texture, so it is Et × Ec; on 1 group of part 'Root' LOD 0",
  ]);
  assert.deepEqual(material(scene, "hot").getBaseColorFactor(), [1, linear(0.5), 0, 1]);
  assert.equal(material(scene, "ghost").getAlphaMode(), "OPAQUE");
  assert.equal(material(scene, "glass").getAlphaMode(), "BLEND");
  assert.equal(material(scene, "glass").getBaseColorFactor()[3], 0.5);
  const lamp = material(scene, "lamp");
  assert.equal(lamp.getEmissiveTexture()!.getName(), "glow.dds");
  assert.deepEqual(lamp.getEmissiveFactor(), [1, 1, 1]);
  const sign = material(scene, "sign");
  assert.equal(sign.getEmissiveTexture()!.getName(), "glow.dds");
  assert.deepEqual(sign.getEmissiveFactor(), [1, 1, 1], "a black Ec does not black out Et");
  assert.deepEqual(material(scene, "window").getEmissiveFactor(), [linear(0.5), linear(0.5), linear(0.5)]);
  await assertValid(scene);
});

Deno.test("Nebula and nomad materials, which ignore Dc and Oc, give no Dc or Oc warning", async () => {
  const { warnings } = await decode(
    triangleModel(
      [
        { name: "cloud", type: "Nebula", dc: [3, 3, 3], oc: 0.2, dtName: "grey.dds" },
        {
          name: "nomad_skin",
          type: "DcDtBt",
          dc: [2, 0, 0],
          oc: 0.3,
          dtName: "grey.dds",
          leaves: [utfLeaf("Nt_name", encodeString("grey.dds")), utfLeaf("Nt_flags", encodeU32(0))],
        },
      ],
      { textures: [texture("grey.dds", [128, 128, 128, 255])] },
    ),
    "fx.3db",
  );
  assert.deepEqual(warnings, []);
});
