/**
 * Body shapes moving joint centres (`rig_shape_habits.ts`): a posed figure with a shape dialled
 * turns each bone about the centre the shape's ERC formulas give it, and its skin follows. Before
 * decode.dson v57 those formulas were only named in the "not evaluated" warning: the joints stood
 * at the base figure's centres.
 */
import assert from "node:assert/strict";
import { applyPreset, decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { type Json, shapePreset } from "./generate.ts";
import { dressInShirt, point, type RigShapeCase, rigShapeCase } from "./rig_shape_habits.ts";
import { worldPositions } from "./posed_positions.ts";

/** Every joint where Daz puts it and every skinned vertex where Daz draws it (1e-3 cm), no warning. */
async function judge(c: RigShapeCase): Promise<Verdict> {
  const { scene, warnings } = await decodeJson(c.json, "Heavy Pose.duf");
  const nodes = scene.getRoot().listNodes();
  for (const [bone, want] of c.joints) {
    const node = nodes.find((n) => n.getName() === bone);
    if (!node) return { wrong: `no joint '${bone}'`, warned: warnings.length > 0 };
    const got = node.getWorldTranslation().map((v) => v * 100);
    const off = Math.hypot(...got.map((v, a) => v - want[a]));
    if (off > 1e-3) return { wrong: `joint '${bone}' ${off.toFixed(3)} cm off`, warned: warnings.length > 0 };
  }
  const mesh = nodes.find((n) => n.getMesh() && n.getSkin());
  if (!mesh) return { wrong: "no skinned mesh", warned: warnings.length > 0 };
  const drawn = worldPositions(mesh);
  // The mesh may be reordered by surface: match each expected vertex to a drawn one.
  for (const want of c.vertices) {
    if (!drawn.some((p) => p.every((v, a) => Math.abs(v * 100 - want[a]) < 1e-3))) {
      return {
        wrong: `a vertex off: none drawn at ${want.map((v) => v.toFixed(2))}`,
        warned: warnings.length > 0,
      };
    }
  }
  if (warnings.length) return { wrong: `warnings: ${warnings.join(" | ")}`, warned: true };
  return undefined;
}

const habits = (c: RigShapeCase) => c.habits.join(", ") || "plain";

Deno.test("dson body shapes moving joint centres, seeds 1-40: each joint and vertex where Daz draws it", async () => {
  await sweepSeeds(1, 40, "dson rig shapes, seeds 1-40", rigShapeCase, judge, habits);
});

Deno.test("dson body shapes moving joint centres, held-out seeds 16001-16040: the same", async () => {
  await sweepSeeds(16001, 16040, "dson rig shapes, held-out seeds 16001-16040", rigShapeCase, judge, habits);
});

const withSplines = (seed: number) => rigShapeCase(seed, { splines: true });

Deno.test("dson body shapes moving joint centres, splines and orientations, seeds 1-20", async () => {
  await sweepSeeds(1, 20, "dson rig shapes with splines, seeds 1-20", withSplines, judge, habits);
});

Deno.test("dson body shapes moving joint centres, splines and orientations, held-out seeds 16041-16080", async () => {
  await sweepSeeds(
    16041,
    16080,
    "dson rig shapes with splines, held-out seeds 16041-16080",
    withSplines,
    judge,
    habits,
  );
});

Deno.test("dson body shapes moving joint centres: a shape preset changing the dial moves the joints without a word; one keeping it changes nothing", async () => {
  const seed = [...Array(40).keys()].map((k) => k + 1).find((s) =>
    !rigShapeCase(s).habits.includes("shape through a controller")
  )!;
  const c = rigShapeCase(seed);
  const { scene, warnings } = await decodeJson(c.json, "Heavy Pose.duf");
  assert.deepEqual(warnings, []);
  const dial =
    (c.json.scene as { modifiers: { id: string; channel?: { current_value: number } }[] }).modifiers
      .find((m) => m.id === "FBMHeavy-1")!.channel!.current_value;
  const at = (doc: typeof scene) => doc.getRoot().listNodes().map((n) => n.getWorldTranslation().join());
  const same = await applyPreset(scene, shapePreset([["FBMHeavy", dial]]));
  assert.deepEqual(same.warnings, []);
  assert.deepEqual(at(same.scene), at(scene));
  const moved = await applyPreset(scene, shapePreset([["FBMHeavy", 1 - dial / 2]]));
  assert.deepEqual(moved.warnings, []);
  const want = rigShapeCase(seed, { dialAt: (shape, d) => shape === "FBMHeavy" ? 1 - dial / 2 : d });
  for (const node of moved.scene.getRoot().listNodes()) {
    const joint = want.joints.get(node.getName());
    if (!joint) continue;
    const off = Math.hypot(...node.getWorldTranslation().map((v, a) => v * 100 - joint[a]));
    assert.ok(off < 1e-3, `${node.getName()} ${off} cm off`);
  }
});

Deno.test("dson body shapes moving joint centres: a second figure of the same file, its shape not dialled, keeps the base centres", async () => {
  const seed = [...Array(40).keys()].map((k) => k + 1).find((s) => {
    const c = rigShapeCase(s);
    return !c.habits.length &&
      [...c.joints.values()].some((p, b) => Math.abs(p[1] - b * 50 / c.joints.size) > 0.01);
  })!;
  const c = rigShapeCase(seed);
  const scene = c.json.scene as { nodes: Record<string, unknown>[]; modifiers: Record<string, unknown>[] };
  scene.nodes.push({
    id: "Genesis8Female-2",
    url: "#Genesis8Female",
    name: "Genesis8Female",
    translation: [{ id: "x", value: 300 }],
    geometries: [{ id: "Genesis8Female_geo-2", url: "#Genesis8Female_geo" }],
  });
  scene.modifiers.push({ id: "SkinBinding-2", url: "#SkinBinding", parent: "#Genesis8Female_geo-2" });
  const { scene: doc } = await decodeJson(c.json, "Two Figures.duf");
  const library = (c.json.node_library as { id: string; type: string; center_point?: { value: number }[] }[])
    .filter((n) => n.type === "bone");
  let first = 0, second = 0;
  for (const node of doc.getRoot().listNodes()) {
    const bone = library.find((b) => node.getName() === b.id);
    if (!bone) continue;
    const at = node.getWorldTranslation().map((v) => v * 100);
    if (at[0] > 150) {
      // The second figure, unposed shape: its joints turn about the base centres. Its root bone's
      // centre is the base one, 300 cm along x.
      if (bone.id.endsWith("bone0")) assert.ok(Math.hypot(at[0] - 300, at[1], at[2]) < 1e-3, `${at}`);
      second++;
    } else {
      const want = c.joints.get(bone.id)!;
      assert.ok(Math.hypot(...at.map((v, a) => v - want[a])) < 1e-3, `${bone.id} ${at} ${want}`);
      first++;
    }
  }
  assert.equal(first, library.length);
  assert.equal(second, library.length);
});

Deno.test("dson body shapes moving joint centres: a fitted shirt's follower shape moving its own bones' centres changes nothing drawn and is not warned of", async () => {
  const c = rigShapeCase(3);
  const { json, geometry, skin } = dressInShirt(c);
  const { scene, warnings } = await decodeJson(json, "Dressed.duf");
  assert.deepEqual(warnings, []);
  // Each shirt vertex goes where its body bone's movement takes it (weights 1: one bone each).
  const node = scene.getRoot().listNodes().find((n) => n.getMesh()?.getName().startsWith("Shirt"))!;
  const drawn = worldPositions(node);
  const base = (geometry.vertices as { values: number[][] }).values;
  const joints = (skin.skin as Json).joints as { node_weights: { values: number[][] } }[];
  base.forEach((v, i) => {
    const b = joints.findIndex((j) => j.node_weights.values.some(([k]) => k === i));
    const want = point(c.worlds[b], v);
    assert.ok(
      drawn.some((p) => p.every((x, a) => Math.abs(x * 100 - want[a]) < 1e-3)),
      `vertex ${i}: ${want}`,
    );
  });
});
