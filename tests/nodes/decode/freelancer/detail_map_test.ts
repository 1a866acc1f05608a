/**
 * Detail-map materials drawn as their shaders draw them: the diffuse texture times 2 × the detail
 * map tiled `TileRate` times (Librelancer's `modulate2x`), baked into one base colour image at the
 * detail's resolution (bounded), masks by the diffuse alpha, `IllumDetailMapMaterial`'s glow as the
 * emissive texture; a detail map found nowhere and a `Bt` detail texture are warnings naming them.
 * Expected texels are worked out from the shaders' sums (`round(255 · 2·t·d)`).
 */
import assert from "node:assert/strict";
import { decodePng } from "./png_pixels.ts";
import type { Material, Texture } from "@gltf-transform/core";
import { encodeFloats, encodeString, encodeU32, utfLeaf } from "../../../support/freelancer/encode_utf.ts";
import { MAX_DETAIL_SIDE } from "../../../../nodes/decode/freelancer/codec/detail_map.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import {
  assertValid,
  decodeTree as decode,
  freelancerExtras as extrasOf,
  materialNamed as material,
  texelTexture,
  triangleModel,
} from "./triangle_models.ts";

const slot = (prefix: string, name: string, flags = 0x40) => [
  utfLeaf(`${prefix}_name`, encodeString(name)),
  utfLeaf(`${prefix}_flags`, encodeU32(flags)),
];
const rate = (leaf: string, value: number) => utfLeaf(leaf, encodeFloats([value]));

/** An image's texels, row by row, `[r, g, b, a]` each. */
function texels(tex: Texture): { width: number; height: number; rows: number[][][] } {
  const png = decodePng(tex.getImage()!);
  const data = png.data as Uint8Array;
  const rows = Array.from(
    { length: png.height },
    (_, y) =>
      Array.from(
        { length: png.width },
        (_, x) => [...data.subarray(4 * (y * png.width + x), 4 * (y * png.width + x) + 4)],
      ),
  );
  return { width: png.width, height: png.height, rows };
}
const base = (m: Material) => texels(m.getBaseColorTexture()!);

Deno.test("detail maps are baked into the diffuse texture at TileRate × their size: Dm, masks Dm0/Dm1, Dm1 on masked texels, the illum glow", async () => {
  const { scene, warnings } = await decode(
    triangleModel(
      [
        // Dt 1×1, Dm 2×1 tiled twice: 4×2 texels alternating the two detail texels.
        {
          name: "hull_detail",
          type: "DetailMapMaterial",
          dc: [1, 1, 1],
          ec: [1, 1, 1], // not read by the detail shaders
          dtName: "one.dds",
          dtFlags: 0x50, // second UV set: the detail shaders read the first
          leaves: [...slot("Dm", "stripes.dds"), rate("TileRate", 2)],
        },
        // Dt alpha picks the detail: opaque texels Dm1 (red), the others Dm0 (green).
        {
          name: "rock_masked",
          type: "Masked2DetailMapMaterial",
          dtName: "masked.dds",
          leaves: [
            ...slot("Dm0", "green.dds"),
            ...slot("Dm1", "red.dds"),
            rate("TileRate0", 1),
            rate("TileRate1", 1),
          ],
        },
        // Only the masked texels take Dm1; opaque ones show Dt alone.
        {
          name: "rock_pass",
          type: "DetailMap2Dm1Msk2PassMaterial",
          dtName: "masked.dds",
          leaves: [...slot("Dm1", "grey64.dds"), rate("TileRate", 1)],
        },
        // base = 2·Dt·Dm0·(1 − a), glow = 2·Dm1·Dt·a with a = Dm1.a · Dt.a; flipped in U.
        {
          name: "city_lights",
          type: "IllumDetailMapMaterial",
          dtName: "city.dds",
          leaves: [
            ...slot("Dm0", "grey128.dds"),
            ...slot("Dm1", "halfred.dds"),
            rate("TileRate0", 1),
            rate("TileRate1", 1),
            utfLeaf("flip u", encodeU32(1)),
          ],
        },
      ],
      {
        textures: [
          texelTexture("one.dds", [[[128, 64, 255, 255]]]),
          texelTexture("stripes.dds", [[[255, 128, 0, 255], [64, 64, 64, 255]]]),
          texelTexture("masked.dds", [[[100, 100, 100, 255], [100, 100, 100, 0]]]),
          texelTexture("green.dds", [[[0, 255, 0, 255]]]),
          texelTexture("red.dds", [[[255, 0, 0, 255]]]),
          texelTexture("grey64.dds", [[[64, 64, 64, 255]]]),
          texelTexture("grey128.dds", [[[128, 128, 128, 255]]]),
          texelTexture("halfred.dds", [[[255, 0, 0, 128]]]),
          texelTexture("city.dds", [[[200, 100, 50, 255]]]),
        ],
      },
    ),
    "planet.3db",
  );
  assert.deepEqual(warnings.filter((w) => !w.startsWith("decode.cmp: libraries")), []);

  const hull = material(scene, "hull_detail");
  const a = [255, 64, 0, 255], b = [64, 32, 128, 255]; // 2·(128,64,255)·(255,128,0) and ·(64,64,64)
  assert.deepEqual(base(hull), { width: 4, height: 2, rows: [[a, b, a, b], [a, b, a, b]] });
  assert.equal(hull.getBaseColorTexture()!.getName(), "one.dds + stripes.dds (detail)");
  assert.deepEqual(getPartgraphExtras(hull.getBaseColorTexture()!).freelancer, {
    texture: "one.dds",
    detail_maps: [{ texture: "stripes.dds", tile_rate: 2 }],
    size: [4, 2],
    detail: true,
  });
  assert.equal(hull.getBaseColorTextureInfo()!.getTexCoord(), 0);
  assert.equal(hull.getEmissiveTexture(), null, "no Ec");
  assert.deepEqual(hull.getEmissiveFactor(), [0, 0, 0]);
  assert.equal(hull.getAlphaMode(), "OPAQUE");

  assert.deepEqual(base(material(scene, "rock_masked")).rows, [[[200, 0, 0, 255], [0, 200, 0, 255]]]);
  assert.deepEqual(base(material(scene, "rock_pass")).rows, [[[100, 100, 100, 255], [50, 50, 50, 255]]]);

  const city = material(scene, "city_lights");
  assert.deepEqual(base(city).rows, [[[100, 50, 25, 255]]]);
  assert.deepEqual(texels(city.getEmissiveTexture()!).rows, [[[201, 0, 0, 255]]]);
  assert.deepEqual(city.getEmissiveFactor(), [1, 1, 1]);
  for (const info of [city.getBaseColorTextureInfo()!, city.getEmissiveTextureInfo()!]) {
    const transform = info.getExtension("KHR_texture_transform") as unknown as { getScale(): number[] };
    assert.deepEqual(transform.getScale(), [-1, 1], "flip u on both");
  }
  assert.equal(extrasOf(city).type, "IllumDetailMapMaterial");
  // The detail maps count as the model's textures (so library search looks for them).
  const report = getPartgraphExtras(scene.getRoot().getDefaultScene()!).libraries as {
    textures: { name: string }[];
  };
  assert.ok(
    ["stripes.dds", "green.dds", "red.dds", "grey64.dds", "halfred.dds"].every((n) =>
      report.textures.some((t) => t.name === n)
    ),
  );
  await assertValid(scene);
});

Deno.test("detail maps: a map found nowhere leaves Dt as stored, with a warning; a huge TileRate is bounded; Bt is a warning", async () => {
  const { scene, warnings } = await decode(
    triangleModel(
      [
        {
          name: "lost",
          type: "DetailMapMaterial",
          dtName: "grey.dds",
          leaves: [...slot("Dm", "gone.dds"), rate("TileRate", 8)],
        },
        {
          name: "fine",
          type: "DetailMapMaterial",
          dtName: "grey.dds",
          leaves: [...slot("Dm", "check.dds"), rate("TileRate", 1000)],
        },
        { name: "detailmap_rock", type: "DcDt", dtName: "grey.dds", leaves: slot("Bt", "rock_bt.dds", 0x50) },
      ],
      {
        textures: [
          texelTexture("grey.dds", [[[128, 128, 128, 255]]]),
          texelTexture("check.dds", [[[255, 255, 255, 255], [0, 0, 0, 255]], [[0, 0, 0, 255], [
            255,
            255,
            255,
            255,
          ]]]),
        ],
      },
    ),
    "rock.3db",
  );
  assert.deepEqual(warnings.filter((w) => !w.startsWith("decode.cmp: libraries")), [
    "texture 'gone.dds' not found in any loaded texture library; its detail layer is left out; used by " +
    "material 'lost' (part 'Root' LOD 0); looked in rock.3db",
    "material 'detailmap_rock' (BtDetailMapMaterial): its detail texture Bt 'rock_bt.dds' is not drawn " +
    "(glTF has no detail layer, and Librelancer does not draw it either); on 1 group of part 'Root' LOD 0",
  ]);
  const lost = material(scene, "lost");
  assert.deepEqual(base(lost), { width: 1, height: 1, rows: [[[128, 128, 128, 255]]] }, "2 × ½ × Dt");
  assert.deepEqual(extrasOf(lost).texture_problems, [{
    name: "gone.dds",
    problem: "in no loaded texture library",
  }]);
  const fine = material(scene, "fine").getBaseColorTexture()!;
  const { width, height } = texels(fine);
  assert.deepEqual([width, height], [MAX_DETAIL_SIDE, MAX_DETAIL_SIDE], "1000 × 2 texels wanted, bounded");
  assert.equal((getPartgraphExtras(fine).freelancer as { capped?: boolean }).capped, true);
  assert.equal(material(scene, "detailmap_rock").getBaseColorTexture()!.getName(), "grey.dds");
  await assertValid(scene);
});

Deno.test("materials baking the same Dt and detail at the same rate share one image, whatever flag bits the bake does not read", async () => {
  // A 16² base and an 8² grain tiled 4 times: a 32² bake of noise-like texels, a few KB of PNG.
  const noise = (n: number, at: number) =>
    Array.from({ length: n }, (_, y) =>
      Array.from({ length: n }, (_, x) => {
        const v = (x * 73 + y * 151 + at * 37) % 251;
        return [v, 255 - v, (v * 3) % 256, 255];
      }));
  const detail = (name: string, dtFlags: number, dmFlags: number) => ({
    name,
    type: "DetailMapMaterial",
    dtName: "hull.dds",
    dtFlags,
    leaves: [...slot("Dm", "grain.dds", dmFlags), rate("TileRate", 4)],
  });
  const textures = [texelTexture("hull.dds", noise(16, 1)), texelTexture("GRAIN.dds", noise(8, 2))];
  const glbBytes = async (materials: ReturnType<typeof detail>[]) => {
    const { scene } = await decode(triangleModel(materials, { textures }), "station.3db");
    return { scene, bytes: (await writeGlb(scene, { generator: GENERATOR })).length };
  };
  // Retail's flag words: 0x40 always set; 0x50 adds the second-UV bit (ignored: detail shaders read
  // UV set 0); 0x4a clamps U and V, which changes the bake.
  const two = await glbBytes([detail("panel_a", 0x40, 0x40), detail("rim", 0x40, 0x4a)]);
  const three = await glbBytes([
    detail("panel_a", 0x40, 0x40),
    detail("rim", 0x40, 0x4a),
    detail("panel_b", 0x50, 0x50),
  ]);
  const shared = material(three.scene, "panel_a").getBaseColorTexture()!;
  // Identity by `===`: on failure, assert's diff of two glTF-Transform objects walks the whole graph.
  assert.ok(material(three.scene, "panel_b").getBaseColorTexture() === shared, "one image for both");
  assert.ok(material(three.scene, "rim").getBaseColorTexture() !== shared, "clamping changes the bake");
  assert.deepEqual([texels(shared).width, texels(shared).height], [32, 32]);
  assert.equal(three.scene.getRoot().listTextures().length, 2);
  // The third material costs its triangle and material, not a second copy of the bake.
  const png = shared.getImage()!.length;
  assert.ok(png > 3000, `a 32² bake of noise is ${png} bytes of PNG`);
  assert.ok(three.bytes - two.bytes < 1000, `${three.bytes} − ${two.bytes} bytes for the third material`);
  await assertValid(three.scene);
});
