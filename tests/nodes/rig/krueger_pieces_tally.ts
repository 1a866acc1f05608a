/**
 * Krueger flaps drawn in two objects (`krueger_flaps.ts` with `pieces`: `<name>` and `<name>.001`, as
 * Blender splits a mesh by material), slats and droop noses outboard drawn so too (`droopPieces`),
 * tallied against the construction. Each Krueger piece is counted by its hinge (right within 2° and
 * 5 % of chord at both ends of its span), its sense (`ok`: a leading-edge flap, trailing edge down,
 * 0–130°, a positive angle moving its aft edge down) and whether a warning names it; each droop
 * piece (generic names only) by whether it stayed a droop (aft-edge rule, leading edge down, no
 * Krueger word said of it).
 * `deno run -A tests/nodes/rig/krueger_pieces_tally.ts 31 33 16` prints seeds 31–33, 16 aircraft each.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { cross, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { hingeError } from "./coarse_panels.ts";
import { kruegerAircraft } from "./krueger_flaps.ts";
import { rig } from "./pipeline.ts";

/** Tallies `count` aircraft of `seed`, Krueger flaps named so or (`generic`) as leading-edge flaps. */
export async function tallyPieces(
  seed: number,
  count: number,
  generic: boolean,
): Promise<Record<string, number>> {
  const next = prng(seed), tally: Record<string, number> = {};
  const add = (key: string) => tally[key] = (tally[key] ?? 0) + 1;
  for (let i = 0; i < count; i++) {
    const sample = kruegerAircraft(next, i, { generic, pieces: true, droopPieces: true });
    const { report, ctx } = await rig(sample.scene);
    const said = (name: string) => ctx.warnings.filter((w) => w.message.includes(`'${name}'`));
    for (const panel of sample.panels) {
      for (const name of [panel.name, `${panel.name}.001`]) {
        const part = report.parts.find((p) => p.panel === name);
        if (!part?.hinge) {
          add("krueger missed");
          continue;
        }
        const { degrees, offset } = hingeError(panel.truth, part.hinge.aircraft);
        const right = degrees <= 2 && offset <= 0.05 * panel.truth.chord;
        const { origin, axis } = part.hinge.aircraft;
        const aft: Vec3 = [
          panel.truth.origin[0] + panel.truth.chord,
          panel.truth.origin[1],
          panel.truth.origin[2],
        ];
        const sense = part.kind === "leading_edge_flap" && part.positive === "trailing_edge_down" &&
          part.min === 0 && part.max === 130 && cross(axis, sub(aft, origin))[1] < 0;
        add(
          `krueger ${right ? "right" : "wrong"} sense ${sense ? "ok" : "off"} ${
            said(name).length ? "warned" : "silent"
          }`,
        );
      }
    }
    for (const part of report.parts.filter((p) => p.panel?.startsWith("LE_Flap_Outbd"))) {
      const rule = (part.fit as unknown as { rule: string }).rule;
      const kept = rule === "aft_edge" && part.positive === "leading_edge_down" &&
        !said(part.panel!).some((w) => /Krueger/.test(w.message));
      add(`droop ${kept ? "kept" : "taken"}`);
    }
  }
  return tally;
}

if (import.meta.main) {
  const [from, to, count] = [
    Number(Deno.args[0] ?? 31),
    Number(Deno.args[1] ?? 33),
    Number(Deno.args[2] ?? 16),
  ];
  for (const generic of [false, true]) {
    for (let seed = from; seed <= to; seed++) {
      console.log(
        `${generic ? "generic" : "named"} seed ${seed}: ${
          JSON.stringify(await tallyPieces(seed, count, generic))
        }`,
      );
    }
  }
}
