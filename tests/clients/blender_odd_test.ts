/**
 * partgraph's own odd outputs through Blender 3.4's importer (`odd_outputs.ts`: many clips, sparse
 * morphs, thousands of nodes, names in every script and with a NUL, zero-scale nodes, cameras and
 * lights under rig pivots, a skinned mesh its morph clips key, WebP/KTX2-only images, custom
 * attributes, a morphed mesh drawn at several weights): whatever comes in renamed, lost or refused
 * (`blender_census.ts`) must be what `export.gltf` warned of, by name. Over seeds 1–16 (1–3 tuned the fixes, 4–16 held out; 9 cases
 * each), export.gltf v20 let 3,369 losses through, every one silent (a NUL-named node cut to its
 * prefix by Blender and its twins renamed `.001`…, a named node renamed because an unnamed node's
 * object took its mesh's name first, a cockpit camera on the canopy's mesh node renamed, the
 * Carnivores-style limb's mesh `.001`, WebP/KTX2 images, custom attributes and UV sets dropped, a
 * crowd's morphed mesh copied and renamed); v23 leaves 106, all warned of by name (what Blender
 * cannot read, or copies per node). v25 writes the copies itself and a PNG fallback beside WebP/KTX2
 * images: on held-out seeds 21–28 (with the crowd case grown to nodes without weights, a keyed node and
 * a body under two skins), 47 warned losses before, 24 after (custom attributes and UV sets past the
 * eighth only; `scripts/odd_clients_sweep.ts`). Skipped with a message when Blender is absent.
 */
import { ok as assert } from "node:assert/strict";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode, testContext } from "../support/context.ts";
import { ODD_CASES } from "./odd_outputs.ts";
import { blenderCensus, losses } from "./blender_census.ts";

/** A seed no fix was tuned on. */
const SEED = 17;

function glbJson(glb: Uint8Array) {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

Deno.test(`odd outputs (seed ${SEED}) come into Blender as written, or export.gltf named what Blender drops`, async () => {
  const runs = [];
  for (const c of ODD_CASES) {
    const ctx = testContext();
    const glb = (await runNode(exportGltf, { scene: await c.scene(SEED) }, {}, ctx)).bytes.bytes;
    runs.push({ label: c.label, glb, warnings: ctx.warnings.map((w) => w.message) });
  }
  const census = await blenderCensus(runs.map((r) => r.glb));
  if ("skip" in census) return console.warn(`skipped: ${census.skip}`);
  const silent: string[] = [];
  let warned = 0;
  for (const [i, run] of runs.entries()) {
    for (const loss of losses(glbJson(run.glb), census[i])) {
      if (run.warnings.some((w) => w.includes(loss.name))) warned++;
      else silent.push(`${run.label}: ${loss.kind} '${loss.name}' ${loss.detail}`);
    }
  }
  assert(silent.length === 0, `lost in Blender without a warning:\n${silent.join("\n")}`);
  // The sweep measures something: the attribute case always loses what Blender cannot read (a custom
  // attribute, UV sets past the eighth), named by the warnings.
  assert(warned >= 2, `${warned} warned losses`);
});
