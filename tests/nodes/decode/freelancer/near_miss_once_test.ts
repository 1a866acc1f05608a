/**
 * A texture spelt apart from an entry of a library the search read but did not load (it supplied
 * nothing else) is named once, by the decode, with that library and entry (before, the library search
 * warned of it and the decode warned again that it was not found).
 */
import assert from "node:assert/strict";
import { encodeUtf, utfDir } from "../../../support/freelancer/encode_utf.ts";
import { textureLibrary } from "../../../support/freelancer/encode_model.ts";
import { dxt1Dds } from "./fixtures.ts";
import { modToolFile } from "./mod_tools.ts";
import { judge } from "./mod_tools_judge.ts";

Deno.test("a texture spelt alike in a library searched but not loaded is named once, with that library", async () => {
  for (const seed of [211, 212]) {
    const base = modToolFile("separate_libraries", seed);
    // Sorted before shared.txm, so read first; it defines nothing the model uses as spelt.
    const other = encodeUtf(
      utfDir("\\", [textureLibrary([{ name: ".\\trim_gone.dds", dds: dxt1Dds(0x001f) }])]),
    );
    const file = { ...base, siblings: [...base.siblings!, { name: "other.txm", bytes: other }] };
    const { outcome, problems, warnings } = await judge(file);
    assert.ok(outcome === "right-warned", `${outcome} ${problems}`);
    const about = warnings.filter((w) => w.includes("trim_gone"));
    assert.equal(about.length, 1, about.join("\n"));
    assert.match(
      about[0],
      /^texture 'trim_gone\.dds' not found in any loaded texture library \(other\.txm, searched but not loaded for it, has '\.\\trim_gone\.dds', the same name with a leading '\.\\', which the game keys as another texture\); its material is untextured; used by material 'trim' \(part 'Root' LOD 0\); looked in ship21[12]\.cmp, family21[12]\.mat, shared\.txm and other\.txm$/,
    );
  }
});
