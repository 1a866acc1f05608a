/**
 * Krueger flaps (`krueger_flaps.ts`) rigged, exported, their extras dropped as Blender's default export
 * drops them, and rigged again, tallied: `refit` as exported (each pivot taken out and its panel fitted
 * again, `own_pivots.ts`), `declared` with a marker parented under each Krueger's pivot (so it is
 * declared again as written and its sense measured, `recovered_senses.ts`). Each Krueger is keyed by its
 * hinge (right within 2° and 5 % of its chord), whether a positive angle swings its aft edge down, its
 * `positive` word and limits, and the warnings naming it or its pivot by kind.
 * `deno run -A tests/nodes/rig/krueger_rerig_tally.ts 11 13 16` prints seeds 11–13, 16 aircraft each.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { cross, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { hingeError } from "./coarse_panels.ts";
import { rig, withoutExtras } from "./pipeline.ts";
import { kruegerAircraft } from "./krueger_flaps.ts";

/** A warning's kind, as the tally keys it. */
function warningKind(message: string): string {
  if (message.includes("carry no extras")) return "no-extras";
  if (message.includes("is assumed")) return "sense-untold";
  if (message.includes("measured from its axis")) return "sense-measured";
  if (message.includes("lies aft of it")) return "krueger-declared";
  if (message.includes("where a Krueger flap lies")) return "krueger-place";
  return message.slice(0, 40);
}

/** Tallies `count` aircraft of `seed`, named or generic, refitted or declared again. */
export async function tallyRerig(
  seed: number,
  count: number,
  generic: boolean,
  declared: boolean,
): Promise<Record<string, number>> {
  const tally: Record<string, number> = {};
  const next = prng(seed);
  for (let i = 0; i < count; i++) {
    const sample = kruegerAircraft(next, i, { generic });
    const first = await rig(sample.scene);
    const doc = await withoutExtras(first.scene);
    const pivots = sample.panels.map((p) => first.report.parts.find((q) => q.panel === p.name)!.name);
    if (declared) {
      for (const node of doc.getRoot().listNodes()) {
        const at = pivots.indexOf(node.getName());
        if (at >= 0) node.addChild(doc.createNode(`Marker_${at}`));
      }
    }
    const { report, ctx } = await rig(doc);
    for (const [k, panel] of sample.panels.entries()) {
      const part = report.parts.find((p) => p.panel === panel.name);
      let key = "missed";
      if (part?.hinge) {
        const { degrees, offset } = hingeError(panel.truth, part.hinge.aircraft);
        const right = degrees <= 2 && offset <= 0.05 * panel.truth.chord;
        const { origin, axis } = part.hinge.aircraft;
        const aft: Vec3 = [
          panel.truth.origin[0] + panel.truth.chord,
          panel.truth.origin[1],
          panel.truth.origin[2],
        ];
        const down = cross(axis, sub(aft, origin))[1] < 0;
        const said = ctx.warnings.map((w) => w.message)
          .filter((m) => m.includes(`'${panel.name}'`) || m.includes(`'${pivots[k]}'`))
          .map(warningKind).sort();
        key =
          `${right ? "right" : "wrong"} ${
            down ? "aft-down" : "aft-up"
          } ${part.positive} ${part.min}..${part.max}` +
          ` [${said.join(",")}]`;
      }
      tally[key] = (tally[key] ?? 0) + 1;
    }
  }
  return tally;
}

if (import.meta.main) {
  const [from, to, count] = [
    Number(Deno.args[0] ?? 11),
    Number(Deno.args[1] ?? 13),
    Number(Deno.args[2] ?? 16),
  ];
  for (const generic of [false, true]) {
    for (const declared of [false, true]) {
      const total: Record<string, number> = {};
      for (let seed = from; seed <= to; seed++) {
        for (const [key, n] of Object.entries(await tallyRerig(seed, count, generic, declared))) {
          total[key] = (total[key] ?? 0) + n;
        }
      }
      console.log(
        `${generic ? "generic" : "named"} ${declared ? "declared" : "refit"}: ${JSON.stringify(total)}`,
      );
    }
  }
}
