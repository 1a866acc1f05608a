/**
 * Node instances and scatter items of props with their own pivot (`pivot_instance_habits.ts`): each
 * copy drawn where Daz draws it, `world(instance) · v` by DSON's own transform rule, whatever the
 * instance's or the target's centre point and orientation. Before decode.dson v56 a copy was placed
 * by the instance's rest frame against the target's, off by their difference, silently.
 */
import assert from "node:assert/strict";
import { MAX_INSTANCE_NODES } from "../../../../nodes/decode/dson/codec/instances.ts";
import { decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { type PivotCase, pivotCase } from "./pivot_instance_habits.ts";
import { worldPositions } from "./posed_positions.ts";

/** Decodes the case: every geometry drawn at each expected point (1e-3 cm), no more, no warning. */
async function judge(c: PivotCase): Promise<Verdict> {
  let run;
  try {
    run = await decodeJson(c.json, "Living Room.duf");
  } catch (error) {
    return { wrong: `refused: ${(error as Error).message.slice(0, 160)}`, warned: true };
  }
  const { scene, warnings } = run;
  const drawn = new Map<string, number[][]>();
  for (const node of scene.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const id = [...c.expected.keys()].find((g) => mesh.getName().startsWith(g.replace(/_geo$/, " geometry")));
    const positions = worldPositions(node);
    const centre = [0, 1, 2].map((a) => positions.reduce((s, p) => s + p[a], 0) / positions.length * 100);
    drawn.set(id ?? mesh.getName(), [...(drawn.get(id ?? mesh.getName()) ?? []), centre]);
  }
  for (const [g, want] of c.expected) {
    const have = [...(drawn.get(g) ?? [])];
    for (const p of want) {
      const k = have.findIndex((q) => q.every((v, a) => Math.abs(v - p[a]) < 1e-3));
      if (k < 0) {
        const near = have.map((q) => Math.hypot(...q.map((v, a) => v - p[a]))).sort((a, b) => a - b)[0];
        return {
          wrong: `${g}: none drawn at ${p.map((v) => v.toFixed(2))} (nearest ${near?.toFixed(2)} cm off)`,
          warned: warnings.length > 0,
        };
      }
      have.splice(k, 1);
    }
    if (have.length) {
      return { wrong: `${g}: ${have.length} more drawn than expected`, warned: warnings.length > 0 };
    }
  }
  if (warnings.length) return { wrong: `warnings: ${warnings.join(" | ")}`, warned: true };
  return undefined;
}

const habits = (c: PivotCase) => c.habits.join(", ");

Deno.test("dson instances of pivoted props, seeds 1-40: each copy where Daz draws it", async () => {
  await sweepSeeds(1, 40, "dson pivot instances, seeds 1-40", pivotCase, judge, habits);
});

Deno.test("dson instances of pivoted props, held-out seeds 15001-15040: the same", async () => {
  await sweepSeeds(
    15001,
    15040,
    "dson pivot instances, held-out seeds 15001-15040",
    pivotCase,
    judge,
    habits,
  );
});

Deno.test("dson instances of pivoted props: a scatter past the copy bound counts each item's pivot node and stays within it", async () => {
  const seed = [...Array(40).keys()].map((k) => k + 1).find((s) =>
    pivotCase(s).habits.includes("instance group")
  )!;
  const c = pivotCase(seed);
  const nodes = (c.json.scene as { nodes: Record<string, unknown>[] }).nodes;
  const scatter = nodes.find((n) => n.id === "Scatter")!;
  const entry = (scatter.extra as Record<string, unknown>[]).find((e) =>
    e.type === "studio/node/group_instance"
  )!;
  const count = MAX_INSTANCE_NODES;
  // Every item's pivot at the origin, the target's not: each item adds its node, a pivot node and the content.
  entry.instance_items = Array.from({ length: count }, (_, k) => ({ translation: [k, 0, 0] }));
  const { scene, warnings } = await decodeJson(c.json, "Living Room.duf");
  const said = warnings.find((w) => /items drawn/.test(w));
  assert.ok(said, warnings.join("\n"));
  const [, drawn] = /(\d+) of its (\d+) items drawn/.exec(said)!.map(Number);
  assert.ok(drawn > 0 && drawn < count, said);
  assert.ok(scene.getRoot().listNodes().length <= MAX_INSTANCE_NODES + nodes.length + 10);
});
