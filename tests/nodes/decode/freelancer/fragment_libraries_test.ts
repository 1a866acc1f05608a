/**
 * Fragments that each keep a copy of the `VMeshLibrary` (`fragment_libraries` of `mod_tools_wave6.ts`,
 * as tools that merge `.3db` files into a `.cmp` leave them): copies with the same bytes draw the same
 * mesh and say nothing; a copy that differs is warned, naming the copy used and the one passed over.
 */
import assert from "node:assert/strict";
import { decodeModel } from "../../../../nodes/decode/freelancer/codec/model.ts";
import { readUtf, type UtfEntry } from "../../../../nodes/decode/freelancer/codec/utf.ts";
import { encodeUtf, utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { modToolFile6 } from "./mod_tools_wave6.ts";

/**
 * The file written again with each leaf's payload its own (as a tool that copies `.3db` files whole
 * writes them; the test writer shares identical payloads), `change` given each leaf's path.
 */
function rewrite(bytes: Uint8Array, change = (_path: string, data: Uint8Array) => data): Uint8Array {
  const node = (entry: UtfEntry, path: string): UtfNode =>
    entry.data
      ? utfLeaf(
        entry.name,
        change(path, entry.data.bytes.slice(entry.data.start, entry.data.start + entry.data.length)),
      )
      : utfDir(
        entry.name,
        (entry.children ?? []).map((c) => node(c, `${path}${c.name}${c.children ? "/" : ""}`)),
      );
  return encodeUtf(node(readUtf(bytes), ""), { shareData: false });
}

function decode(bytes: Uint8Array, name: string): string[] {
  const warnings: string[] = [];
  decodeModel({ bytes, name }, [], (message) => warnings.push(message));
  return warnings;
}

Deno.test("identical VMeshLibrary copies in every fragment are not warned as duplicates", () => {
  for (let seed = 731; seed <= 736; seed++) {
    const file = modToolFile6("fragment_libraries", seed);
    const copies = readUtf(file.bytes).children!.filter((c) => c.name.endsWith(".3db")).length;
    assert.ok(copies >= 3, `seed ${seed}: ${copies} fragments`);
    for (const bytes of [file.bytes, rewrite(file.bytes)]) {
      const duplicates = decode(bytes, file.name).filter((w) => /duplicate mesh/.test(w));
      assert.deepEqual(duplicates, [], `seed ${seed}`);
    }
  }
});

Deno.test("a VMeshLibrary copy that differs is warned, naming the copy used and the one passed over", () => {
  for (let seed = 731; seed <= 736; seed++) {
    const file = modToolFile6("fragment_libraries", seed);
    const fragments = readUtf(file.bytes).children!.filter((c) => c.name.endsWith(".3db"));
    const changed = fragments[seed % fragments.length];
    const path = `${changed.name}/VMeshLibrary/tri.vms/VMeshData`;
    const bytes = rewrite(file.bytes, (at, data) => {
      // The last vertex's last UV float 0 -> 0.5: still a valid mesh, not the same one.
      if (at === path) data[data.length - 1] = 0x3f;
      return data;
    });
    const duplicates = decode(bytes, file.name).filter((w) => /duplicate mesh/.test(w));
    assert.ok(duplicates.length >= 1, `seed ${seed}: no duplicate warning`);
    for (const warning of duplicates) {
      assert.match(warning, /differs from the one at .*VMeshData.*, which is used/, `seed ${seed}`);
      assert.ok(warning.includes(path), `seed ${seed}: ${warning} does not name ${path}`);
    }
    // Only the changed copy differs: one warning, or one per other copy when it is the one used.
    assert.ok(duplicates.length === 1 || duplicates.length === fragments.length - 1, `seed ${seed}`);
  }
});
