/**
 * The output check spells an attribute's JSON pointer (`/meshes/m/primitives/p/attributes/NORMAL`) only
 * when a rule about that attribute fails (`plan.ts` spelt): a valid written file spells none (it spelt
 * one per attribute, and one more for each normal, tangent and float colour, whatever the verdict).
 * Retail-shaped Freelancer compounds made by code (`realistic_cmp.ts`, seeds 91-94) written as
 * `export.gltf` writes them; and the rich test scene's GLB broken one attribute at a time (a normal of
 * length 2, a colour past 1, an attribute naming an accessor past the last, a vertex accessor in an
 * index view), whose verdicts still name the attribute's pointer, found here from the JSON.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeModel } from "../../../nodes/decode/freelancer/codec/model.ts";
import { buildScene } from "../../../nodes/decode/freelancer/codec/build_scene.ts";
import { resolveFreelancerScene } from "../../../nodes/decode/freelancer/resolver_run.ts";
import { checkOutput } from "../../../nodes/export/check/mod.ts";
import { spellings } from "../../../nodes/export/check/plan.ts";
import { writtenJson } from "../../../runtime/scene/gltf_io.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { realisticCmp } from "../../support/realistic_cmp.ts";
import { exportBytes } from "../../support/output_check.ts";
import { type GlbEditor, richGlb } from "./check_scenes.ts";

// The test builds scenes without a node run, which is where decoders load the PNG encoder.
await loadPngEncoder();

function freelancerScene(seed: number): Document {
  const warn = () => {};
  const doc = buildScene(
    decodeModel({ bytes: realisticCmp(seed, { parts: 10 }), name: "r.cmp" }, [], warn),
    warn,
  );
  resolveFreelancerScene(doc, {}, warn);
  return doc;
}

Deno.test("a valid written file's check spells no attribute pointer (seeds 91-94)", async () => {
  for (let seed = 91; seed <= 94; seed++) {
    const glb = await exportBytes(freelancerScene(seed));
    const json = writtenJson(glb) as { meshes: { primitives: { attributes: object }[] }[] };
    const attributes = json.meshes.flatMap((m) => m.primitives).reduce(
      (n, p) => n + Object.keys(p.attributes).length,
      0,
    );
    assert.ok(attributes > 0, `seed ${seed}`);
    const before = spellings.count;
    for (const written of [undefined, json]) {
      assert.deepEqual(checkOutput(glb, "glb", written), { kind: "valid" }, `seed ${seed}`);
    }
    assert.equal(spellings.count - before, 0, `seed ${seed}: pointers spelt for ${attributes} attributes`);
  }
});

/** The pointer of the first primitive attribute `semantic` naming accessor `name` in `g`'s JSON. */
function pointerOf(g: GlbEditor, name: string, semantic: string): string {
  const index = g.accessor(name);
  for (const [m, mesh] of g.json.meshes.entries()) {
    for (const [p, primitive] of mesh.primitives.entries()) {
      if (primitive.attributes[semantic] === index) {
        return `/meshes/${m}/primitives/${p}/attributes/${semantic}`;
      }
    }
  }
  throw new Error(`no primitive draws '${name}' as ${semantic}`);
}

Deno.test("a failing attribute rule still names the attribute's pointer", async () => {
  const cases: [string, (g: GlbEditor) => string][] = [
    ["normal of length 2", (g) => (g.set("normal", 1, 2, 2), pointerOf(g, "normal", "NORMAL"))],
    ["colour above 1", (g) => (g.set("colour", 1, 2, 1.5), pointerOf(g, "colour", "COLOR_0"))],
    ["attribute past the last accessor", (g) => {
      const pointer = pointerOf(g, "uv", "TEXCOORD_0");
      const [, , m, , p] = pointer.split("/");
      g.json.meshes[m].primitives[p].attributes.TEXCOORD_0 = g.json.accessors.length;
      return pointer;
    }],
    ["vertex data in an index view", (g) => {
      const view = g.json.bufferViews[g.json.accessors[g.accessor("position")].bufferView];
      view.target = 34963;
      return pointerOf(g, "position", "POSITION");
    }],
  ];
  for (const [name, edit] of cases) {
    const g = await richGlb();
    const pointer = edit(g);
    const before = spellings.count;
    const verdict = checkOutput(g.bytes(), "glb");
    assert.notEqual(verdict.kind, "valid", name);
    assert.equal((verdict as { pointer: string }).pointer, pointer, `${name}: ${JSON.stringify(verdict)}`);
    assert.ok(spellings.count - before >= 1, name);
  }
});
