/**
 * The judge of generated instance scenes (`instance_habits.ts`, `group_instance_habits.ts`): every
 * geometry drawn exactly where, and as often as, the case works out; an instance of a target not in
 * the scene warned of by name; no other warning.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { decodeJson, type Verdict } from "./dson_runs.ts";
import { apply, type InstanceCase } from "./instance_habits.ts";

/** Each drawn geometry's reference points in the world (cm), by geometry id. */
function drawn(scene: Document, c: InstanceCase): Map<string, number[][]> {
  const out = new Map<string, number[][]>();
  for (const node of scene.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const geometry = [...c.centres.keys()].find((g) =>
      mesh.getName().startsWith(g.replace(/_geo$/, " geometry"))
    );
    const id = geometry ?? mesh.getName();
    const m = node.getWorldMatrix() as unknown as number[];
    // Vertices are metres in the mesh; the reference point is the geometry's centre.
    const centre = (c.centres.get(id) ?? [0, 0, 0]).map((v) => v * 0.01);
    const point = apply(m, centre).map((v) => v * 100);
    out.set(id, [...(out.get(id) ?? []), point]);
  }
  return out;
}

/** Decodes the case and says what it draws wrong (see the module doc). */
export async function judge(c: InstanceCase): Promise<Verdict> {
  let run;
  try {
    run = await decodeJson(c.json, "Forest.duf");
  } catch (error) {
    return { wrong: `refused: ${(error as Error).message.slice(0, 160)}`, warned: true };
  }
  const { scene, warnings } = run;
  const got = drawn(scene, c);
  for (const [g, matrices] of c.expected) {
    const want = matrices.map((m) => apply(m, c.centres.get(g)!));
    const have = [...(got.get(g) ?? [])];
    for (const point of want) {
      const k = have.findIndex((p) => p.every((v, i) => Math.abs(v - point[i]) < 1e-3));
      if (k < 0) {
        return {
          wrong: `${g}: ${want.length} drawn expected, ${got.get(g)?.length ?? 0} found; none at ${
            point.map((v) => v.toFixed(2))
          }`,
          warned: warnings.length > 0,
        };
      }
      have.splice(k, 1);
    }
    if (have.length) {
      return { wrong: `${g}: ${have.length} more drawn than expected`, warned: warnings.length > 0 };
    }
  }
  for (const orphan of c.orphans) {
    if (!warnings.some((w) => w.includes(`node instance '${orphan}'`))) {
      return { wrong: `instance '${orphan}' of a deleted target not warned of`, warned: false };
    }
  }
  if (warnings.length > c.orphans.length) return { wrong: `warnings: ${warnings.join(" | ")}`, warned: true };
  return undefined;
}
