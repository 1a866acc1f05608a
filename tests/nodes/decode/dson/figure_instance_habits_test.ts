/**
 * Daz Studio instances of a posed figure (`figure_instance_habits.ts`): each instance draws the
 * figure as posed — its skinned meshes and props on its bones — at the instance's place.
 */
import type { Document, Mesh } from "@gltf-transform/core";
import { applyPreset, decodeAndExport, decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { posePreset, shapePreset } from "./generate.ts";
import { type FigureInstanceCase, figureInstanceCase } from "./figure_instance_habits.ts";
import { apply, invertRigid, mul, placed } from "./instance_habits.ts";
import { worldPositions } from "./posed_positions.ts";
import { validateGltf } from "../../../support/validator.ts";
import assert from "node:assert/strict";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { prng } from "../../../support/prng.ts";
import type { Json } from "./generate.ts";

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

/** A change made to the decoded scene, with its run's warnings. */
type Change = (scene: Document) => Promise<{ scene: Document; warnings: string[] }>;

/**
 * The case decoded, and posed by `preset` (or changed by `change`) when given: the instances' and the
 * plain scene's drawings.
 */
async function judge(
  c: FigureInstanceCase,
  preset?: { bytes: Uint8Array; name: string },
  change?: Change,
): Promise<Verdict> {
  let plain = await decodeJson(c.plain, "Crowd.duf"), run = await decodeJson(c.json, "Crowd.duf");
  if (preset) [plain, run] = [await applyPreset(plain.scene, preset), await applyPreset(run.scene, preset)];
  if (change) [plain, run] = [await change(plain.scene), await change(run.scene)];
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
  for (const id of preset || change ? [] : c.copyModifiersOff) {
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

/**
 * The guard given a body shape, as a store character has one: `FBMHeavy` moving every vertex and,
 * through ERC formulas, the centres of bones 1 and 2, dialled at a seeded value (the same in the
 * scene and in its plain twin). `rootMoves`: it moves the figure's own centre too (a formula on
 * `Guard?center_point`); the figure's world turns about that centre, so each copy's matrix
 * `world(instance) · world(figure)⁻¹` is worked out again with the centre at `final` (the dial the
 * scene ends at; the saved one when not given).
 */
function withShape(c: FigureInstanceCase, rootMoves = false, final?: number): FigureInstanceCase {
  const r = prng(c.seed * 17 + 3);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const deltas = Array.from(
    { length: 16 },
    (_, v) => [v, round(r() * 2 - 1), round(r()), round(r() * 2 - 1)],
  );
  const moves = [...rootMoves ? ["Guard"] : [], "Guard_bone1", "Guard_bone2"].map((bone) => ({
    bone,
    axis: Math.floor(r() * 3),
    coefficient: round(r() * 6 - 3),
  }));
  const formulas = moves.map(({ bone, axis, coefficient }) => ({
    output: `${bone}:/data/Guard/Guard.dsf#${bone}?center_point/${"xyz"[axis]}`,
    operations: [{ op: "push", url: "Guard:#FBMHeavy?value" }, { op: "push", val: coefficient }, {
      op: "mult",
    }],
  }));
  const dial = round(r());
  const shaped = (json: Json): Json => {
    const out = structuredClone(json) as Json & { modifier_library: Json[]; scene: { modifiers: Json[] } };
    out.modifier_library.push({
      id: "FBMHeavy",
      name: "FBMHeavy",
      parent: "#Guard_geo",
      channel: { id: "value", type: "float", value: 0, min: 0, max: 1 },
      morph: { vertex_count: 16, deltas: { count: deltas.length, values: deltas } },
      formulas,
    });
    out.scene.modifiers.push({
      id: "FBMHeavy-1",
      url: "#FBMHeavy",
      parent: "#Guard_geo-1",
      channel: { id: "value", current_value: dial },
    });
    return out;
  };
  let copies = c.copies;
  if (rootMoves) {
    // world(figure) = T(t) · T(centre) · Ry · T(−centre); the case's matrices took centre 0.
    const figure = (c.plain.scene as { nodes: Json[] }).nodes[0] as { translation: Json[]; rotation: Json[] };
    const t = figure.translation.map((v) => v.value as number);
    const degrees = figure.rotation[1].value as number;
    const centre = [0, 0, 0];
    centre[moves[0].axis] = moves[0].coefficient * (final ?? dial);
    const turned = apply(placed([0, 0, 0], degrees), centre);
    const atCentre = placed(t.map((v, k) => v + centre[k] - turned[k]), degrees);
    copies = c.copies.map((m) => mul(mul(m, placed(t, degrees)), invertRigid(atCentre)));
  }
  return { ...c, json: shaped(c.json), plain: shaped(c.plain), copies };
}

/** The dial a shape preset sets the guard's body shape to, by seed. */
const presetDial = (seed: number) => Math.round((0.1 + prng(seed * 43 + 5)() * 0.9) * 1000) / 1000;

/** The weight the guard's body shape is baked at, by seed. */
const bakeWeight = (seed: number) => Math.round((0.2 + prng(seed * 41 + 9)() * 0.8) * 1000) / 1000;

/** The guard's body shape baked at {@link bakeWeight}. */
const bakeShape: (seed: number) => Change = (seed) => async (scene) => {
  const ctx = testContext();
  const out = (await runNode(dsonBakeMorph, { scene }, { morph: "FBMHeavy", weight: bakeWeight(seed) }, ctx))
    .scene as Document;
  return { scene: out, warnings: ctx.warnings.map((w) => w.message) };
};

Deno.test("dson figure instances with a body shape baked, held-out seeds 13101-13120: the copies take the moved joints", async () => {
  await sweepSeeds(
    13101,
    13120,
    "dson figure instances with a shape baked, seeds 13101-13120",
    (seed) => withShape(figureInstanceCase(seed)),
    (c) => judge(c, undefined, bakeShape(c.seed)),
    habits,
  );
});

Deno.test("dson figure instances whose target's own centre a shape moves, held-out seeds 13201-13220: as decoded", async () => {
  await sweepSeeds(
    13201,
    13220,
    "dson figure instances, the figure's centre moved by its saved shape, seeds 13201-13220",
    (seed) => withShape(figureInstanceCase(seed), true),
    (c) => judge(c),
    habits,
  );
});

Deno.test("dson figure instances whose target's own centre a shape preset moves, held-out seeds 13221-13240", async () => {
  await sweepSeeds(
    13221,
    13240,
    "dson figure instances, the figure's centre moved by a shape preset, seeds 13221-13240",
    (seed) => withShape(figureInstanceCase(seed), true, presetDial(seed)),
    (c) => judge(c, shapePreset([["FBMHeavy", presetDial(c.seed)]])),
    habits,
  );
});

Deno.test("dson figure instances whose target's own centre a bake moves, held-out seeds 13241-13260", async () => {
  await sweepSeeds(
    13241,
    13260,
    "dson figure instances, the figure's centre moved by a bake, seeds 13241-13260",
    (seed) => withShape(figureInstanceCase(seed), true, bakeWeight(seed)),
    (c) => judge(c, undefined, bakeShape(c.seed)),
    habits,
  );
});
