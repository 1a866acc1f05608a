/**
 * Daz Studio instances of a posed figure (`figure_instance_habits.ts`): each instance draws the
 * figure as posed — its skinned meshes and props on its bones — at the instance's place.
 */
import type { Document, Mesh } from "@gltf-transform/core";
import { applyPreset, decodeAndExport, decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { posePreset } from "./generate.ts";
import { type FigureInstanceCase, figureInstanceCase } from "./figure_instance_habits.ts";
import { apply } from "./instance_habits.ts";
import { worldPositions } from "./posed_positions.ts";
import { validateGltf } from "../../../support/validator.ts";
import assert from "node:assert/strict";

/** Each mesh's drawings: world positions (m) of every node drawing it, by mesh name. */
function drawings(scene: Document): Map<string, number[][][]> {
  const out = new Map<string, number[][][]>();
  const byMesh = new Map<Mesh, number[][][]>();
  for (const node of scene.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    byMesh.set(mesh, [...(byMesh.get(mesh) ?? []), worldPositions(node)]);
  }
  for (const [mesh, list] of byMesh) out.set(mesh.getName(), list);
  return out;
}

/** The case decoded, and posed by `preset` when given: the instances' and the plain scene's drawings. */
async function judge(c: FigureInstanceCase, preset?: { bytes: Uint8Array; name: string }): Promise<Verdict> {
  let plain = await decodeJson(c.plain, "Crowd.duf"), run = await decodeJson(c.json, "Crowd.duf");
  if (preset) [plain, run] = [await applyPreset(plain.scene, preset), await applyPreset(run.scene, preset)];
  const want = drawings(plain.scene);
  const { scene, warnings } = run;
  const got = drawings(scene);
  for (const [name, [own]] of want) {
    const expected = [
      own,
      ...c.copies.map((m) => own.map((p) => apply(m, p.map((v) => v * 100)).map((v) => v / 100))),
    ];
    const have = [...(got.get(name) ?? [])];
    for (const positions of expected) {
      const k = have.findIndex((h) =>
        h.length === positions.length &&
        h.every((p, i) => p.every((v, a) => Math.abs(v - positions[i][a]) < 1e-4))
      );
      if (k < 0) {
        return {
          wrong: `${name}: ${expected.length} drawings expected, ${
            got.get(name)?.length ?? 0
          } found, one missing`,
          warned: warnings.length > 0,
        };
      }
      have.splice(k, 1);
    }
    if (have.length) {
      return { wrong: `${name}: ${have.length} more drawn than expected`, warned: warnings.length > 0 };
    }
  }
  // An instance with "Copy Modifiers" off is drawn as with it on, and said by name (unsure).
  const said = (id: string) => (w: string) => w.includes(`node instance '${id}' has "Copy Modifiers" off`);
  // (A preset's run has its own warnings: the decode's were said before it.)
  for (const id of preset ? [] : c.copyModifiersOff) {
    if (!warnings.some(said(id))) {
      return { wrong: `'${id}' with Copy Modifiers off not warned of`, warned: false };
    }
  }
  const others = warnings.filter((w) => !c.copyModifiersOff.some((id) => said(id)(w)));
  if (others.length) return { wrong: `warnings: ${others.join(" | ")}`, warned: true };
  return undefined;
}

const habits = (c: FigureInstanceCase) => c.habits.join(", ");

Deno.test("dson figure instances, seeds 1-40: each instance draws the posed figure at its place", async () => {
  await sweepSeeds(1, 40, "dson figure instances, seeds 1-40", figureInstanceCase, (c) => judge(c), habits);
});

Deno.test("dson figure instances, held-out seeds 13001-13040: the same", async () => {
  await sweepSeeds(
    13001,
    13040,
    "dson figure instances, held-out seeds 13001-13040",
    figureInstanceCase,
    judge,
    habits,
  );
});

Deno.test("dson figure instances: the copies share the figure's mesh, each with its own skin, and the GLB is valid", async () => {
  const c = figureInstanceCase(3);
  const { scene, glb } = await decodeAndExport(c.json, "Crowd.duf");
  const skinned = scene.getRoot().listNodes().filter((n) => n.getSkin());
  assert.equal(skinned.length, 1 + c.copies.length);
  assert.equal(new Set(skinned.map((n) => n.getMesh())).size, 1);
  assert.equal(new Set(skinned.map((n) => n.getSkin())).size, skinned.length);
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("dson figure instances, seeds 1-20 posed again by a pose preset: the copies take the figure's new pose", async () => {
  const preset = posePreset([["Guard_bone1", "rotation/z", 35], ["Guard_bone2", "rotation/x", -20]]);
  await sweepSeeds(
    1,
    20,
    "dson figure instances posed by a preset, seeds 1-20",
    figureInstanceCase,
    (c) => judge(c, preset),
    habits,
  );
});
