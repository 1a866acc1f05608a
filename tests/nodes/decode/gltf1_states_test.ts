/**
 * glTF 1.0 render states glTF 2.0 cannot draw: a technique culling front faces (`cullFace` FRONT:
 * only back faces drawn) is drawn double-sided, and one culling every face or blending additively is
 * named at its `states/functions` path. Before, each was drawn as the ordinary case without a word
 * (front faces drawn and back ones culled: the opposite of 1.0). Fixtures: the wing written as 1.0
 * (`tests/support/gltf1.ts`), its COLLADA2GLTF-style technique's states edited.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { gltf1Of, type Json } from "../../support/gltf1.ts";
import { messyGlb } from "../../support/messy_gltf.ts";

/** The wing as 1.0 whose technique's states are `states`: its one material and the warnings. */
async function withStates(states: Json) {
  const doc = await readGltf(await messyGlb(() => {}));
  const bytes = await gltf1Of(doc, { edit: (json) => json.techniques.technique_blinn.states = states });
  const ctx = testContext();
  const scene: Document = (await runNode(decodeGltf, { bytes: { bytes, name: "old.gltf" } }, {}, ctx)).scene;
  const material = scene.getRoot().listMaterials().find((m) => m.getName() === "painted")!;
  return { material, warnings: ctx.warnings.map((w) => w.message) };
}

const AT = "/techniques/technique_blinn/states/functions";

Deno.test("glTF 1.0 cullFace FRONT: drawn double-sided, named at its path", async () => {
  const { material, warnings } = await withStates({ enable: [2884, 2929], functions: { cullFace: [1028] } });
  assertEquals(material.getDoubleSided(), true);
  assert(warnings.some((w) => w.includes(`${AT}/cullFace: 1.0 culls the front faces`)), warnings.join("\n"));
  // BACK (the default) is what 2.0 does: nothing to say.
  const back = await withStates({ enable: [2884, 2929], functions: { cullFace: [1029] } });
  assertEquals(back.material.getDoubleSided(), false);
  assert(back.warnings.every((w) => !w.includes(`${AT}/`)), back.warnings.join("\n"));
});

Deno.test("glTF 1.0 cullFace FRONT_AND_BACK and additive blending are named at their paths", async () => {
  const culled = await withStates({ enable: [2884], functions: { cullFace: [1032] } });
  assert(
    culled.warnings.some((w) => w.includes(`${AT}/cullFace: 1.0 culls every face`)),
    culled.warnings.join("\n"),
  );
  const glow = await withStates({ enable: [3042, 2884], functions: { blendFuncSeparate: [770, 1, 1, 1] } });
  assertEquals(glow.material.getAlphaMode(), "BLEND");
  assert(
    glow.warnings.some((w) => w.includes(`${AT}/blendFuncSeparate: 1.0 blends it additively`)),
    glow.warnings.join("\n"),
  );
  // The usual over blend (SRC_ALPHA, ONE_MINUS_SRC_ALPHA) is 2.0's own.
  const over = await withStates({
    enable: [3042, 2884],
    functions: { blendFuncSeparate: [770, 771, 1, 771] },
  });
  assert(over.warnings.every((w) => !w.includes(`${AT}/`)), over.warnings.join("\n"));
});
