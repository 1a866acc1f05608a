/**
 * Shape presets and bakes moving the joints (`rig_shape_habits.ts`): a figure decoded at one body
 * shape and given another by `dson.apply_preset` (a user's shape preset: the shape's dial, or its
 * controller's) or by `dson.bake_morph` turns each bone about the centre Daz gives it at the new
 * shape, as `decode.dson` does for a file saved at that shape. Before dson.apply_preset v41 the
 * joints stayed at the decoded centres with a warning; before dson.bake_morph v3, silently.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { applyPreset, decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { type Json, shapePreset } from "./generate.ts";
import {
  dressInShirt,
  point,
  type RigShapeCase,
  rigShapeCase,
  type RigShapeOptions,
} from "./rig_shape_habits.ts";
import { worldPositions } from "./posed_positions.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";

/** Each joint and skinned vertex of `scene` where Daz draws `want`'s (1e-3 cm); undefined: all are. */
function misplaced(scene: Document, want: RigShapeCase): string | undefined {
  const nodes = scene.getRoot().listNodes();
  for (const [bone, at] of want.joints) {
    const node = nodes.find((n) => n.getName() === bone);
    if (!node) return `no joint '${bone}'`;
    const off = Math.hypot(...node.getWorldTranslation().map((v, a) => v * 100 - at[a]));
    if (off > 1e-3) return `joint '${bone}' ${off.toFixed(3)} cm off`;
  }
  const mesh = nodes.find((n) => n.getMesh() && n.getSkin());
  if (!mesh) return "no skinned mesh";
  const drawn = worldPositions(mesh);
  for (const v of want.vertices) {
    if (!drawn.some((p) => p.every((x, a) => Math.abs(x * 100 - v[a]) < 1e-3))) {
      return `no vertex drawn at ${v.map((x) => x.toFixed(2))}`;
    }
  }
  return undefined;
}

/** The shape preset a user saves from `c`'s scene: each dial the scene sets (a controller's, or the shape's). */
function presetOf(c: RigShapeCase): { bytes: Uint8Array; name: string } {
  const modifiers = (c.json.scene as { modifiers: { url: string; channel?: { current_value?: number } }[] })
    .modifiers;
  return shapePreset(
    modifiers.filter((m) => typeof m.channel?.current_value === "number").map((m) =>
      [m.url.replace(/^#/, ""), m.channel!.current_value!] as const
    ),
  );
}

/** A transition: the dial the scene was saved at and the one the preset sets, from the drawn one. */
type Dial = (shape: string, drawn: number) => number;
const TRANSITIONS: [string, Dial, Dial][] = [
  ["0 → shape", () => 0, (_, d) => d],
  ["shape → another", (_, d) => d, (_, d) => Math.round((1 - d / 2) * 1000) / 1000],
  ["shape → 0", (_, d) => d, () => 0],
];

/** Every transition of `seed`: the preset's scene drawn as the decode of a file at the new dial. */
async function judgePresets(seed: number, options: RigShapeOptions): Promise<Verdict> {
  for (const [name, from, to] of TRANSITIONS) {
    const before = rigShapeCase(seed, { ...options, dialAt: from });
    const after = rigShapeCase(seed, { ...options, dialAt: to });
    const { scene } = await decodeJson(before.json, "Saved.duf");
    const applied = await applyPreset(scene, presetOf(after));
    const wrong = misplaced(applied.scene, after);
    if (wrong) return { wrong: `${name}: ${wrong}`, warned: applied.warnings.length > 0 };
    if (applied.warnings.length) {
      return { wrong: `${name}: warned ${applied.warnings.join(" | ")}`, warned: true };
    }
  }
  return undefined;
}

const described = (options: RigShapeOptions) => (seed: number) => {
  const habits = rigShapeCase(seed, options).habits.join(", ") || "plain";
  return `${seed} (${habits})`;
};

Deno.test("dson shape presets move the joints, seeds 1-20: each joint and vertex where a decode at the new shape puts it", async () => {
  await sweepSeeds(
    1,
    20,
    "dson shape presets, seeds 1-20",
    (s) => s,
    (s) => judgePresets(s, {}),
    described({}),
  );
});

Deno.test("dson shape presets move the joints, splines and orientations, seeds 1-20", async () => {
  const options = { splines: true };
  await sweepSeeds(
    1,
    20,
    "dson shape presets with splines, seeds 1-20",
    (s) => s,
    (s) => judgePresets(s, options),
    described(options),
  );
});

Deno.test("dson shape presets move the joints, held-out seeds 17001-17040 (splines and orientations in half)", async () => {
  await sweepSeeds(
    17001,
    17040,
    "dson shape presets, held-out seeds 17001-17040",
    (s) => s,
    (s) => judgePresets(s, { splines: s % 2 === 0 }),
    (s) => described({ splines: s % 2 === 0 })(s),
  );
});

/** The inverse bind matrices of `scene`'s first skin. */
const binds = (scene: Document) => [...scene.getRoot().listSkins()[0].getInverseBindMatrices()!.getArray()!];

/**
 * FBMHeavy baked at the weight of another dial (from 0, and from the drawn dial): every joint where
 * Daz puts it at that weight and the inverse binds a decode of a file saved so gives (1e-6).
 */
async function judgeBakes(seed: number, options: RigShapeOptions): Promise<Verdict> {
  for (const [name, from, to] of [TRANSITIONS[0], TRANSITIONS[1]]) {
    const before = rigShapeCase(seed, { ...options, dialAt: from });
    const heavy: Dial = (shape, d) => shape === "FBMHeavy" ? to(shape, d) : from(shape, d);
    const after = rigShapeCase(seed, { ...options, dialAt: heavy });
    let weight = 0;
    rigShapeCase(seed, {
      ...options,
      dialAt: (shape, d) => (shape === "FBMHeavy" && (weight = to(shape, d)), d),
    });
    const { scene } = await decodeJson(before.json, "Saved.duf");
    const ctx = testContext();
    const baked = (await runNode(dsonBakeMorph, { scene }, { morph: "FBMHeavy", weight }, ctx))
      .scene as Document;
    const warned = ctx.warnings.length > 0;
    const nodes = baked.getRoot().listNodes();
    for (const [bone, at] of after.joints) {
      const node = nodes.find((n) => n.getName() === bone)!;
      const off = Math.hypot(...node.getWorldTranslation().map((v, a) => v * 100 - at[a]));
      if (off > 1e-3) return { wrong: `${name}: joint '${bone}' ${off.toFixed(3)} cm off`, warned };
    }
    const want = binds((await decodeJson(after.json, "At weight.duf")).scene), got = binds(baked);
    if (want.some((v, k) => Math.abs(v - got[k]) > 1e-6)) {
      return { wrong: `${name}: inverse binds differ`, warned };
    }
    if (warned) return { wrong: `${name}: warned ${ctx.warnings.map((w) => w.message).join(" | ")}`, warned };
  }
  return undefined;
}

Deno.test("dson shape bakes move the joints, seeds 1-10: where the baked weight puts them", async () => {
  await sweepSeeds(1, 10, "dson shape bakes, seeds 1-10", (s) => s, (s) => judgeBakes(s, {}), described({}));
});

Deno.test("dson shape bakes move the joints, held-out seeds 17101-17140 (splines and orientations in half)", async () => {
  await sweepSeeds(
    17101,
    17140,
    "dson shape bakes, held-out seeds 17101-17140",
    (s) => s,
    (s) => judgeBakes(s, { splines: s % 2 === 0 }),
    (s) => described({ splines: s % 2 === 0 })(s),
  );
});

/**
 * The figure dressed in a fitted shirt, decoded at the shape at 0, given it by a preset: each shirt
 * vertex where the body's bones take it at the new shape (the shirt follows the moved joints).
 */
async function judgeDressed(seed: number): Promise<Verdict> {
  const before = rigShapeCase(seed, { dialAt: () => 0 }), after = rigShapeCase(seed);
  const { json, geometry, skin } = dressInShirt(before);
  const { scene } = await decodeJson(json, "Dressed.duf");
  const applied = await applyPreset(scene, presetOf(after));
  const warned = applied.warnings.length > 0;
  const node = applied.scene.getRoot().listNodes().find((n) => n.getMesh()?.getName().startsWith("Shirt"))!;
  const drawn = worldPositions(node);
  const joints = (skin.skin as Json).joints as { node_weights: { values: number[][] } }[];
  const base = (geometry.vertices as { values: number[][] }).values;
  for (const [i, v] of base.entries()) {
    const b = joints.findIndex((j) => j.node_weights.values.some(([k]) => k === i));
    const want = point(after.worlds[b], v);
    if (!drawn.some((p) => p.every((x, a) => Math.abs(x * 100 - want[a]) < 1e-3))) {
      return { wrong: `shirt vertex ${i} not drawn at ${want.map((x) => x.toFixed(2))}`, warned };
    }
  }
  const body = misplaced(applied.scene, after);
  if (body) return { wrong: body, warned };
  if (warned) return { wrong: `warned ${applied.warnings.join(" | ")}`, warned };
  return undefined;
}

Deno.test("dson shape presets move the joints under a fitted shirt, held-out seeds 17201-17220: the shirt follows them", async () => {
  await sweepSeeds(
    17201,
    17220,
    "dson shape presets, dressed, seeds 17201-17220",
    (s) => s,
    judgeDressed,
    described({}),
  );
});

Deno.test("dson shape presets: a scene decoded before decode.dson v58 (no rig_centres) says the joints stay", async () => {
  const c = rigShapeCase(5, { dialAt: () => 0 });
  const { scene } = await decodeJson(c.json, "Old.duf");
  for (const mesh of scene.getRoot().listMeshes()) {
    const extras = mesh.getExtras() as { partgraph: { dson: Record<string, unknown> } };
    delete extras.partgraph.dson.rig_centres;
  }
  const { warnings } = await applyPreset(scene, presetOf(rigShapeCase(5)));
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /1 dial\(s\) whose ERC formulas move joint centres changed, .*before decode\.dson v58.*FBMHeavy 0 → 0\.\d+/,
  );
});
