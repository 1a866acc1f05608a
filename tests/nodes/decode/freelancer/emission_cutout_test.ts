/**
 * How the game lights a material and cuts holes in it, as glTF: `Ec` past 1 (a glow brighter than
 * white, which the game's gamma-space sums allow) goes into `KHR_materials_emissive_strength`; `Ec`
 * lights the diffuse texture (Librelancer's `lighting.inc`: `ec.rgb * tex.rgb`), so that texture is
 * also the emissive one; and a DXT1 diffuse texture with transparent texels is alpha-tested (MASK),
 * as Librelancer's `BasicMaterial` draws every DXT1 diffuse map; `Nebula` materials are unlit and
 * additive, as Librelancer's `NebulaMaterial` draws them. Fixtures are built by code;
 * expected numbers come from the sRGB formula and the DXT1 block rules, not from the decoder.
 */
import assert from "node:assert/strict";
import { TextureInfo } from "@gltf-transform/core";
import { decodePng } from "./png_pixels.ts";
import type { EmissiveStrength } from "@gltf-transform/extensions";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";
import { readGltf } from "../../../../runtime/scene/gltf_io.ts";
import { encodeUtf, utfDir, utfLeaf } from "../../../support/freelancer/encode_utf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { dxt1Dds } from "./fixtures.ts";
import {
  assertValid,
  decodeTree as decode,
  materialNamed as material,
  triangleModel,
} from "./triangle_models.ts";

await loadPngEncoder();

/** sRGB → linear by IEC 61966-2-1's formula, carried on past 1 (extended sRGB). */
const srgbToLinear = (c: number) => c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;

const STRENGTH = "KHR_materials_emissive_strength";

const close = (actual: readonly number[], expected: readonly number[], what: string) => {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-6, `${what}: ${actual} vs ${expected}`));
};

/** A 4×4 DXT1 texture: one block, colours c0/c1, texel indices `rows` (one byte per row). */
function dxt1Block(c0: number, c1: number, rows: readonly number[]): Uint8Array {
  const dds = dxt1Dds(c0);
  const view = new DataView(dds.buffer);
  view.setUint16(130, c1, true);
  dds.set(rows, 132);
  return dds;
}

/** The same block behind a DX10 header with DXGI format 71 (BC1_UNORM). */
function bc1Dx10(c0: number, c1: number, rows: readonly number[]): Uint8Array {
  const legacy = dxt1Block(c0, c1, rows);
  const out = new Uint8Array(148 + 8);
  out.set(legacy.subarray(0, 128));
  out.set([0x44, 0x58, 0x31, 0x30], 84); // "DX10"
  const view = new DataView(out.buffer);
  view.setUint32(128, 71, true); // DXGI_FORMAT_BC1_UNORM
  view.setUint32(132, 3, true); // TEXTURE2D
  view.setUint32(140, 1, true); // one slice
  out.set(legacy.subarray(128), 148);
  return out;
}

const texture = (name: string, dds: Uint8Array) => utfDir(name, [utfLeaf("MIPS", dds)]);

// ---------------------------------------------------------------------------------------------
// Ec

Deno.test("Ec past 1 keeps its light: the factor scaled into 0..1, the rest in KHR_materials_emissive_strength", async () => {
  const { scene, warnings } = await decode(
    triangleModel(
      [
        { name: "glow", type: "DcDtEc", ec: [4, 2, 0.5], dtName: "lamp.dds", dtFlags: 0x4a },
        { name: "dim", type: "DcDtEc", ec: [0.5, 0.25, 0] },
        { name: "with_et", type: "DcDtEcEt", ec: [0.5, 0.5, 0.5], dtName: "lamp.dds", etName: "glow.dds" },
      ],
      { textures: [texture("lamp.dds", dxt1Dds(0xf800)), texture("glow.dds", dxt1Dds(0x07e0))] },
    ),
    "glow.3db",
  );
  assert.deepEqual(warnings, [
    "material 'with_et' (DcDtEt): the game draws its glow as (Ec + Et) × Dt; glTF's emission is one factor " +
    "times one texture, so it is Et × Ec, not darkened by the diffuse texture; on 1 group of part 'Root' LOD 0",
  ]);

  // Ec 4 is linear 25.3: a texel of 0.25 under it is drawn past white, as the game draws it.
  const glow = material(scene, "glow");
  const brightest = srgbToLinear(4);
  assert.ok(Math.abs(brightest - 25.31) < 0.01, String(brightest));
  close(glow.getEmissiveFactor(), [1, srgbToLinear(2) / brightest, srgbToLinear(0.5) / brightest], "factor");
  const strength = glow.getExtension<EmissiveStrength>(STRENGTH);
  assert.ok(strength, "emissive strength extension");
  close([strength.getEmissiveStrength()], [brightest], "strength");
  // factor × strength = the linear Ec, channel by channel.
  close(
    glow.getEmissiveFactor().map((f) => f * strength.getEmissiveStrength()),
    [4, 2, 0.5].map(srgbToLinear),
    "emitted light",
  );

  // Ec lights the diffuse picture: the emissive texture is the diffuse one, with its sampler
  // (Dt_flags 0x4a clamps U and V).
  assert.equal(glow.getEmissiveTexture(), glow.getBaseColorTexture());
  assert.equal(glow.getEmissiveTexture()!.getName(), "lamp.dds");
  const info = glow.getEmissiveTextureInfo()!;
  assert.equal(info.getWrapS(), TextureInfo.WrapMode.CLAMP_TO_EDGE);
  assert.equal(info.getWrapT(), TextureInfo.WrapMode.CLAMP_TO_EDGE);

  // Ec within 0..1 and no texture: a flat colour as before, no extension.
  const dim = material(scene, "dim");
  close(dim.getEmissiveFactor(), [srgbToLinear(0.5), srgbToLinear(0.25), 0], "dim factor");
  assert.equal(dim.getEmissiveTexture(), null);
  assert.equal(dim.getExtension(STRENGTH), null);

  // An emissive texture of its own stays the emissive texture.
  const withEt = material(scene, "with_et");
  assert.equal(withEt.getEmissiveTexture()!.getName(), "glow.dds");
  assert.equal(withEt.getExtension(STRENGTH), null);
  await assertValid(scene);
});

Deno.test("export.gltf writes the emissive strength: the GLB read back holds it", async () => {
  const ctx = testContext();
  const bytes = encodeUtf(
    triangleModel([{ name: "beacon", type: "DcDtEc", dc: [1, 1, 1], ec: [3, 3, 1] }]),
  );
  const { scene } = await runNode(
    decodeCmp,
    { bytes: { bytes, name: "beacon.3db" } },
    { libraries: "none" },
    ctx,
  );
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  const report = await validateGltf(glb);
  assert.deepEqual([report.errors, report.warnings], [0, 0], report.messages.join("\n"));

  // The JSON chunk: declared in extensionsUsed, the value on the material.
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  assert.ok(json.extensionsUsed.includes(STRENGTH), JSON.stringify(json.extensionsUsed));
  const beacon = json.materials.find((m: { name: string }) => m.name === "beacon");
  const brightest = srgbToLinear(3);
  close([beacon.extensions[STRENGTH].emissiveStrength], [brightest], "GLB strength");
  close(beacon.emissiveFactor, [1, 1, srgbToLinear(1) / brightest], "GLB factor");

  const back = material(await readGltf(glb), "beacon");
  const strength = back.getExtension<EmissiveStrength>(STRENGTH)!;
  close(
    back.getEmissiveFactor().map((f) => f * strength.getEmissiveStrength()),
    [3, 3, 1].map(srgbToLinear),
    "read back",
  );
});

// ---------------------------------------------------------------------------------------------
// DXT1 cut-outs

Deno.test("a DXT1 diffuse texture with transparent texels is alpha-tested (MASK, cutoff 0.5)", async () => {
  // c0 = 0x0000 ≤ c1 = 0xffff: 1-bit alpha mode; index 3 (transparent black) in the first row.
  const holes = dxt1Block(0x0000, 0xffff, [0xc0, 0x00, 0x00, 0x00]);
  // The same mode, no texel using index 3: nothing is cut out.
  const solid3 = dxt1Block(0x0000, 0xffff, [0x55, 0x55, 0x55, 0x55]);
  // Four-colour mode (c0 > c1): index 3 is a colour, opaque.
  const fourColour = dxt1Block(0xffff, 0x0000, [0xff, 0xff, 0xff, 0xff]);
  // A 2×2 image: only the block's top-left 2×2 texels exist; index 3 at (3, 3) lies outside it.
  const outside = dxt1Block(0x0000, 0xffff, [0x00, 0x00, 0x00, 0xc0]);
  new DataView(outside.buffer).setUint32(12, 2, true);
  new DataView(outside.buffer).setUint32(16, 2, true);
  const { scene, warnings } = await decode(
    triangleModel(
      [
        { name: "grille", dtName: "Grille.tga" }, // referenced with another case and extension
        { name: "solid3", dtName: "solid3.dds" },
        { name: "four", dtName: "four.dds" },
        { name: "outside", dtName: "outside.dds" },
        { name: "glass", type: "DcDtOcOt", oc: 0.5, dtName: "grille.tga" },
        { name: "dx10", dtName: "dx10.dds" },
        { name: "emissive_only", type: "DcDtEt", etName: "grille.tga" },
      ],
      {
        textures: [
          texture("grille.tga", holes),
          texture("solid3.dds", solid3),
          texture("four.dds", fourColour),
          texture("outside.dds", outside),
          texture("dx10.dds", bc1Dx10(0x0000, 0xffff, [0x00, 0x03, 0x00, 0x00])),
        ],
      },
    ),
    "cutout.3db",
  );
  assert.deepEqual(warnings, []);
  const mode = (name: string) => material(scene, name).getAlphaMode();
  assert.equal(mode("grille"), "MASK");
  assert.equal(material(scene, "grille").getAlphaCutoff(), 0.5);
  assert.equal(mode("solid3"), "OPAQUE");
  assert.equal(mode("four"), "OPAQUE");
  assert.equal(mode("outside"), "OPAQUE");
  assert.equal(mode("glass"), "BLEND"); // blending hides the holes already
  assert.equal(mode("dx10"), "MASK");
  assert.equal(mode("emissive_only"), "OPAQUE"); // only the diffuse map is tested
  await assertValid(scene);
});

Deno.test("an Et_name on a type without Et is not drawn nor looked for, as Librelancer samples Et only under ET_ENABLED", async () => {
  const { scene, warnings } = await decode(
    triangleModel(
      [
        // DcDtEc names an Et its shader does not read; the texture is in no library.
        { name: "stray", type: "DcDtEc", ec: [0.5, 0.5, 0.5], dtName: "lamp.dds", etName: "nowhere.dds" },
        { name: "drawn", type: "DcDtEt", dtName: "lamp.dds", etName: "glow.dds" },
      ],
      { textures: [texture("lamp.dds", dxt1Dds(0xf800)), texture("glow.dds", dxt1Dds(0x07e0))] },
    ),
    "et.3db",
  );
  assert.deepEqual(warnings, [
    // nowhere.dds is not needed, so its absence is no warning; the Et drawn is one.
    "material 'drawn' (DcDtEt): the game draws its glow as (Ec + Et) × Dt; glTF's emission is one factor " +
    "times one texture, so it is Et × 1, not darkened by the diffuse texture; on 1 group of part 'Root' LOD 0",
  ]);
  const stray = material(scene, "stray");
  assert.equal(stray.getEmissiveTexture()!.getName(), "lamp.dds", "Ec lights the diffuse texture");
  close(stray.getEmissiveFactor(), [0.5, 0.5, 0.5].map(srgbToLinear), "stray Ec");
  const drawn = material(scene, "drawn");
  assert.equal(drawn.getEmissiveTexture()!.getName(), "glow.dds");
  assert.deepEqual(drawn.getEmissiveFactor(), [1, 1, 1]);
  await assertValid(scene);
});

// ---------------------------------------------------------------------------------------------
// Nebula (additive)

/** An uncompressed 32-bit BGRA DDS of `width` × 1 texels, each `[r, g, b, a]`. */
function bgraDds(texels: readonly (readonly number[])[]): Uint8Array {
  const out = new Uint8Array(128 + 4 * texels.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x20534444, true);
  view.setUint32(4, 124, true);
  view.setUint32(12, 1, true);
  view.setUint32(16, texels.length, true);
  view.setUint32(76, 32, true);
  view.setUint32(80, 0x41, true); // RGB | ALPHAPIXELS
  view.setUint32(88, 32, true);
  [0xff0000, 0xff00, 0xff, 0xff000000].forEach((mask, i) => view.setUint32(92 + 4 * i, mask, true));
  texels.forEach(([r, g, b, a], i) => out.set([b, g, r, a], 128 + 4 * i));
  return out;
}

Deno.test("Nebula materials are unlit and additive: black adds nothing, so it is see-through", async () => {
  // Texels: black; orange, opaque; white at half alpha; blue at alpha 0.
  const texels = [[0, 0, 0, 255], [255, 128, 0, 255], [255, 255, 255, 128], [0, 0, 255, 0]];
  const { scene, warnings } = await decode(
    triangleModel(
      [
        {
          name: "puff",
          type: "Nebula",
          dc: [0.2, 0.2, 0.2],
          ec: [1, 1, 1],
          dtName: "puff.dds",
          dtFlags: 0x4a,
        },
        { name: "lane", type: "NebulaTwo", dtName: "puff.dds" },
        { name: "hull", type: "DcDt", dtName: "puff.dds" },
      ],
      { textures: [texture("puff.dds", bgraDds(texels))] },
    ),
    "nebula.3db",
  );
  assert.deepEqual(warnings, []);
  const puff = material(scene, "puff");
  assert.equal(puff.getAlphaMode(), "BLEND");
  assert.ok(puff.getExtension("KHR_materials_unlit"), "unlit");
  assert.deepEqual(puff.getBaseColorFactor(), [1, 1, 1, 1]); // Dc is not read by the shader
  assert.deepEqual(puff.getEmissiveFactor(), [0, 0, 0]); // nor Ec
  assert.equal(puff.getEmissiveTexture(), null);
  assert.equal(puff.getDoubleSided(), false);
  assert.equal(puff.getBaseColorTextureInfo()!.getWrapS(), TextureInfo.WrapMode.CLAMP_TO_EDGE);
  const lane = material(scene, "lane");
  assert.equal(lane.getDoubleSided(), true);
  assert.equal(lane.getBaseColorTexture(), puff.getBaseColorTexture()); // one rewritten image
  assert.equal(puff.getBaseColorTexture()!.getName(), "puff.dds (additive)");

  // Each texel adds rgb × a; as BLEND, a' = the brightest added channel, rgb' = added / a'.
  const png = decodePng(puff.getBaseColorTexture()!.getImage()!);
  assert.deepEqual(Array.from(png.data as Uint8Array), [
    ...[0, 0, 0, 0], // black: transparent
    ...[255, 128, 0, 255], // opaque colour: unchanged
    ...[255, 255, 255, 128], // white × 128/255: white at alpha 128
    ...[0, 0, 0, 0], // alpha 0 adds nothing
  ]);
  // rgb' × a' / 255 is the light the game adds over black, to one step of 8 bits.
  texels.forEach(([r, g, b, a], i) => {
    for (const [c, stored] of [r, g, b].entries()) {
      const added = (stored * a) / 255, drawn = (png.data[4 * i + c] * png.data[4 * i + 3]) / 255;
      assert.ok(Math.abs(added - drawn) <= 1, `texel ${i} channel ${c}: ${added} vs ${drawn}`);
    }
  });

  // An ordinary material naming the same texture keeps the image as stored, opaque and lit.
  const hull = material(scene, "hull");
  assert.equal(hull.getAlphaMode(), "OPAQUE");
  assert.equal(hull.getBaseColorTexture()!.getName(), "puff.dds");
  assert.equal(hull.getExtension("KHR_materials_unlit"), null);
  await assertValid(scene);
});
