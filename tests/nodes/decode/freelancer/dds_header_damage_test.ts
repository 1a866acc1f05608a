/**
 * A DDS whose header's size or format was damaged still finds its top level inside the data (a
 * 128×128 texture whose height reads 3 decodes as a 128×3 strip): the decode succeeds and draws the
 * wrong picture. The bytes the header cannot account for tell, and are named in a warning; a whole
 * or short mip chain, or a few bytes of padding, are not. Files are built by code; each expected
 * size is worked out in its comment.
 */
import assert from "node:assert/strict";
import { ByteWindow } from "../../../../runtime/binary.ts";
import { ddsUnexplainedBytes } from "../../../../runtime/image/dds.ts";
import { utfDir, utfLeaf } from "../../../support/freelancer/encode_utf.ts";
import { concat, ddsHeader } from "../../../support/freelancer/images.ts";
import { loadPngEncoder } from "../../../../runtime/scene/png.ts";
import { assertValid, decodeTree, triangleModel } from "./triangle_models.ts";

await loadPngEncoder();

const win = (bytes: Uint8Array) => new ByteWindow(bytes, 0, bytes.length, "dds");
/** `bytes` zero bytes of pixel data (a DXT1 block of zeros is black). */
const pixels = (bytes: number) => new Uint8Array(bytes);
/** A 128×128 DXT1's chain to 1×1 (8 bytes a 4×4 block): 8,192 + 2,048 + 512 + 128 + 32 + 8 + 8 + 8 = 10,936. */
const DXT1_CHAIN_128 = 8192 + 2048 + 512 + 128 + 32 + 8 + 8 + 8;

Deno.test("a DDS holding what its header describes — a whole chain, a short one, padding — is not flagged", () => {
  const whole = concat(ddsHeader(128, 128, { fourCC: "DXT1", mips: 8 }), pixels(DXT1_CHAIN_128));
  const topOnly = concat(ddsHeader(128, 128, { fourCC: "DXT1" }), pixels(8192));
  const moreThanDeclared = concat(ddsHeader(128, 128, { fourCC: "DXT1" }), pixels(DXT1_CHAIN_128));
  const padded = concat(ddsHeader(128, 128, { fourCC: "DXT1", mips: 8 }), pixels(DXT1_CHAIN_128 + 100));
  const cube = concat(ddsHeader(4, 4, { fourCC: "DXT1", caps2: 0xfe00 }), pixels(6 * 8));
  for (const file of [whole, topOnly, moreThanDeclared, padded, cube]) {
    assert.equal(ddsUnexplainedBytes(win(file)), undefined);
  }
});

Deno.test("a damaged height, width, fourCC or bit count leaves bytes no chain explains, and says so", () => {
  const damaged: [string, Uint8Array, string][] = [
    // 128×3: 32 blocks of 8 = 256, then 64×1 … 1×1: 128 + 64 + 32 + 16 + 8 + 8 + 8 = 520 at most.
    ["height 3", concat(ddsHeader(128, 3, { fourCC: "DXT1", mips: 8 }), pixels(DXT1_CHAIN_128)), "128×3"],
    // 64×128's chain is 4,096 + 1,024 + 256 + 64 + 16 + 8 + 8 + 8 = 5,480; 5,456 left over ≥ its top level.
    ["width 64", concat(ddsHeader(64, 128, { fourCC: "DXT1", mips: 8 }), pixels(DXT1_CHAIN_128)), "64×128"],
    // DXT5 data (16 bytes a block: 21,872) read as DXT1: 10,936 left over.
    ["DXT5 as DXT1", concat(ddsHeader(128, 128, { fourCC: "DXT1" }), pixels(2 * DXT1_CHAIN_128)), "128×128"],
    // 32-bit 16×16 (1,024 + 256 + 64 + 16 + 4 = 1,364 bytes) read as 16-bit: a chain of 682.
    [
      "32 bits as 16",
      concat(ddsHeader(16, 16, { bits: 16, masks: [0xf800, 0x7e0, 0x1f, 0] }), pixels(1364)),
      "16 bits",
    ],
  ];
  for (const [what, file, named] of damaged) {
    const said = ddsUnexplainedBytes(win(file));
    assert.ok(said?.includes(named) && /probably damaged/.test(said), `${what}: ${said}`);
  }
  assert.match(ddsUnexplainedBytes(win(damaged[0][1]))!, /holds 10936 bytes .* describes 520 at most/);
});

Deno.test("decode.cmp names a texture whose DDS header no longer fits its data, and still draws it", async () => {
  const damaged = concat(ddsHeader(128, 3, { fourCC: "DXT1", mips: 8 }), pixels(DXT1_CHAIN_128));
  const dir = utfDir("tex.dds", [utfLeaf("MIPS", damaged)]);
  const root = triangleModel([{ name: "paint", dc: [1, 1, 1], dtName: "tex.dds" }], { textures: [dir] });
  const { scene, warnings } = await decodeTree(root, "tex.3db");
  await assertValid(scene);
  const image = scene.getRoot().listTextures()[0];
  assert.deepEqual(image.getSize(), [128, 3]);
  assert.ok(
    warnings.some((w) => /tex\.dds\/MIPS holds 10936 bytes .*128×3.*probably damaged/.test(w)),
    warnings.join("\n"),
  );
});
