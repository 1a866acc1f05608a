/**
 * Aircraft with collision and shadow proxies, and with assimp's made-up COLLADA node names
 * (tests/nodes/user_gltf/proxy_files.ts), through `graphs/aircraft_file.json`: every control surface
 * found once and hinged where it is, the proxies left alone and named. Before rig.detect_panels v33, a
 * `Collision`/`Shadow` group's boxes or flattened copies named as the objects were taken for pieces of
 * the surfaces (or copies) and pulled every hinge off (held-out seeds 1001–1030: 480 of 480 surfaces of
 * the four group habits wrong, 468 judged good; after, 0), and `$ColladaAutoName$_<n>` nodes hid every
 * surface (120 of 120 missed; after, 0: rig.fit_hinge v56's "auto" frame reads their meshes' left/right
 * names too — with v33 alone, 4 of 120 were wrong, weak, in one file whose frame was unsure). Seeds 1–2
 * here.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { judgeConverterRig, rigThroughGraph } from "./decode/gltf_converter_rig.ts";
import { PROXY_KINDS, proxyFile } from "./user_gltf/proxy_files.ts";
import { isProxyGroupName } from "../../nodes/rig/proxy_groups.ts";

for (const kind of PROXY_KINDS) {
  Deno.test(`proxy files: ${kind} rigs every surface once, on its hinge`, async () => {
    for (const seed of [1, 2]) {
      const file = await proxyFile(kind, seed);
      const rig = await judgeConverterRig(file);
      assertEquals([rig.refused, rig.wrong, rig.right], [undefined, [], file.panels.length], file.name);
    }
  });
}

Deno.test("proxy files: a proxy group holding surface names is named in one warning", async () => {
  const file = await proxyFile("collision-group", 3);
  const rigged = await rigThroughGraph(file.name, file.bytes);
  assert(!("refused" in rigged), file.name);
  const notes = rigged.warnings.filter((w) => w.message.includes("collision or shadow proxies"));
  assertEquals(notes.length, 1, rigged.warnings.map((w) => w.message).join("\n"));
  const listed = notes[0].detail?.panels as string[];
  for (const panel of file.panels) assert(listed.includes(panel.name), notes[0].message);
});

Deno.test("proxy files: proxy group names, and drawn things that share their words", () => {
  for (
    const name of ["Collision", "Colliders", "COL", "UCX_Collision", "Plane-colonly", "Shadows", "shadow_lod"]
  ) {
    assert(isProxyGroupName(name), name);
  }
  for (const name of ["AntiCollisionLight", "Collision_Lights", "Wing", "Color_Panel", "Aileron_L"]) {
    assert(!isProxyGroupName(name), name);
  }
});
