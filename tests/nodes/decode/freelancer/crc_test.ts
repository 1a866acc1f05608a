import assert from "node:assert/strict";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";

Deno.test("FLCRC32 matches the retail and sample test values", () => {
  const cases: [string, number][] = [
    ["data.solar.starsphere.starsphere_rh05_stars.lod0-102.vms", 0x00d93c59],
    ["interface.generic-2.vms", 0xe296602f],
    ["interface.generic-102.vms", 0x1351b6d4],
    ["monkey-Suzanne.lod0.274.vms", 0x02fc1b79],
    ["default", 0x1077c687],
    ["Root", 0x12688f2d],
    ["root", 0x12688f2d],
    ["", 0],
  ];
  for (const [name, expected] of cases) assert.equal(flCrc32(name), expected, name);
});

Deno.test("FLCRC32 differs from standard CRC-32 (signed-shift table) and folds only A–Z", () => {
  // Standard CRC-32 of "a" is 0xE8B7BE43; the signed-shift table changes the top byte.
  assert.notEqual(flCrc32("a"), 0xe8b7be43);
  assert.equal(flCrc32("a") & 0xffffff, 0xe8b7be43 & 0xffffff);
  assert.equal(flCrc32("ABC_xyz"), flCrc32("abc_XYZ"));
  assert.notEqual(flCrc32("\u00c0"), flCrc32("\u00e0"), "only ASCII letters fold");
});
