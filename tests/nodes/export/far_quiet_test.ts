/**
 * The far-mesh check (`far_extent.ts`) works out where a scene's body lies (the median of every mesh
 * node's centre, three sorts) only when some mesh reaches past 50 km: nearly every export has none, and
 * it was worked out for each. Retail-shaped Freelancer compounds made by code (seeds 31-34, decoded and
 * resolved): no body worked out, no warning; damaged scenes (`far_scenes.ts`, seeds 201-208): worked out
 * once each, and the damaged meshes still named.
 */
import assert from "node:assert/strict";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { bodyCentres } from "../../../nodes/export/far_extent.ts";
import { decodeModel } from "../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../nodes/decode/freelancer/codec/build_scene.ts";
import { resolveFreelancerScene } from "../../../nodes/decode/freelancer/resolver_run.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { runNode, testContext } from "../../support/context.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { farCase, judgeFar } from "./far_scenes.ts";

// The test builds scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

Deno.test("far meshes: a scene with nothing far works out no body (Freelancer seeds 31-34)", async () => {
  for (let seed = 31; seed <= 34; seed++) {
    const warn = () => {};
    const doc = buildScene(
      decodeModel({ bytes: realisticCmp(seed, { parts: 12 }), name: "r.cmp" }, [], warn),
      warn,
    );
    resolveFreelancerScene(doc, {}, warn);
    const before = bodyCentres.count;
    const ctx = testContext();
    await runNode(exportGltf, { scene: doc }, {}, ctx);
    assert.equal(bodyCentres.count - before, 0, `seed ${seed}: a body worked out`);
    assert.deepEqual(ctx.warnings.filter((w) => /from the origin|compact body/.test(w.message)), []);
  }
});

Deno.test("far meshes: a damaged scene works out its body once and names the mesh (seeds 201-208)", async () => {
  for (let seed = 201; seed <= 208; seed++) {
    const c = farCase("damaged_spike", seed);
    const before = bodyCentres.count;
    const ctx = testContext();
    await runNode(exportGltf, { scene: c.doc }, {}, ctx);
    assert.equal(bodyCentres.count - before, 1, `seed ${seed}`);
    assert.equal(judgeFar(c, ctx.warnings.map((w) => w.message)), "right", `seed ${seed}`);
  }
});
