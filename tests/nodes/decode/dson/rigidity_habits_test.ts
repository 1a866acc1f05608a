/**
 * Rigidity blocks as tools leave them (`rigidity_habits.ts`): a mesh reduced after its rigidity was
 * made decodes, its groups keep the indices inside the mesh, one warning counts those left out;
 * groups with no reference vertex are named in one warning (their participants take projected
 * morphs unprotected: nothing to fit a rigid transform to). Before decode.dson v46 a stale index
 * refused the whole scene and a group with no reference vertex was kept without a word.
 */
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { type RigidityCase, rigidityCase } from "./rigidity_habits.ts";

async function judge(c: RigidityCase): Promise<Verdict> {
  let run;
  try {
    run = await decodeJson(c.json, "Belt.dsf");
  } catch (error) {
    return { wrong: `refused: ${(error as Error).message.slice(0, 140)}`, warned: true };
  }
  const { scene, warnings } = run;
  const mesh = scene.getRoot().listMeshes()[0];
  const dson = getPartgraphExtras(mesh).dson as unknown as {
    rigidity?: { groups: { id: string; reference_vertices: number[]; mask_vertices: number[] }[] };
  };
  const groups = dson.rigidity?.groups ?? [];
  // The weight map reaches the mesh as its _RIGIDITY attribute (0 where unpainted).
  const painted = new Map<number, number>();
  for (const primitive of mesh.listPrimitives()) {
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const rigidity = primitive.getAttribute("_RIGIDITY")?.getArray();
    if (rigidity) ids.forEach((v, i) => rigidity[i] > 0 && painted.set(v, rigidity[i]));
  }
  for (const [v, w] of c.weights) {
    if (w > 0 && Math.abs((painted.get(v) ?? 0) - w) > 1e-6) {
      return { wrong: `vertex ${v}'s rigidity weight ${painted.get(v)}, not ${w}`, warned: false };
    }
  }
  if (painted.size !== c.weights.filter(([, w]) => w > 0).length) {
    return { wrong: `${painted.size} vertices painted, not ${c.weights.length}`, warned: false };
  }
  for (const want of c.groups) {
    const got = groups.find((g) => g.id === want.id);
    if (!got) return { wrong: `group '${want.id}' not kept`, warned: warnings.length > 0 };
    if (JSON.stringify(got.reference_vertices) !== JSON.stringify(want.reference)) {
      return { wrong: `group '${want.id}' references ${got.reference_vertices}`, warned: false };
    }
    if (JSON.stringify(got.mask_vertices) !== JSON.stringify(want.mask)) {
      return { wrong: `group '${want.id}' masks ${got.mask_vertices}`, warned: false };
    }
  }
  let expectedWarnings = 0;
  if (c.stale) {
    expectedWarnings++;
    if (
      !warnings.some((w) =>
        w.includes(`${c.stale} vertex indices of the rigidity groups or weights of geometry 'Belt_geo'`)
      )
    ) {
      return { wrong: `no warning counts the ${c.stale} indices past the mesh`, warned: false };
    }
  }
  if (c.unreferenced.length) {
    expectedWarnings++;
    const named = warnings.find((w) =>
      w.includes(`rigidity group(s) of geometry 'Belt_geo' have no reference vertex`)
    );
    if (!named || !named.includes(`'${c.unreferenced[0]}'`) || !named.startsWith(`dson: Belt.dsf`)) {
      return {
        wrong: `groups ${c.unreferenced.join(", ")} with no reference vertex not named`,
        warned: false,
      };
    }
  }
  if (warnings.length !== expectedWarnings) {
    return { wrong: `warnings: ${warnings.join(" | ")}`, warned: true };
  }
  return undefined;
}

const habits = (c: RigidityCase) => c.habits.join(", ") || "plain";

Deno.test("dson rigidity habits, seeds 1-40: stale indices left out and counted; groups with no reference named", async () => {
  await sweepSeeds(1, 40, "dson rigidity habits, seeds 1-40", rigidityCase, judge, habits);
});

Deno.test("dson rigidity habits, held-out seeds 9001-9040: the same", async () => {
  await sweepSeeds(9001, 9040, "dson rigidity habits, held-out seeds 9001-9040", rigidityCase, judge, habits);
});
