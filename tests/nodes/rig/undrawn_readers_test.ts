/**
 * The rig's remaining readers of a part's vertices read what its triangles draw (`drawn_vertices.ts`),
 * as the fit does: every part of an aircraft given a game rip's one vertex buffer, a stray vertex or a
 * collapsed triangle at the origin, leftover corners of deleted faces or loose guide edges
 * (`undrawn_parts.ts`) rigs as the same aircraft without them — spinners and rotors (the ring of loose
 * blades, each blade, hub and disc measured), trim tabs riding on their surfaces (the hosts' boxes),
 * two surfaces drawn as one object split left and right (pieces, their reach, the cut at the centre
 * plane), hinge brackets in objects of their own (their boxes), and the body an air brake opens away
 * from. Before, loose blades drawn from one buffer joined every ring or none, tabs rode on the first
 * surface listed, brackets as large as the aircraft were no hardware (the flap good on its nose), and
 * loose edges kept a joined pair whole. Seeds past those the change was made (31) and measured (37) on.
 *
 * `sides`: surfaces named without a side word (`Aileron`/`Aileron.001`, `Elevator01`, a declared
 * `Object_7`, a V-tail's `Ruddervator`) are sided by their lateral bounds over what they draw; drawn
 * out of one buffer they reached across the centre line and were sided centre, silently. `reruns`: a
 * rigged file written again by an exporter that keeps only what faces use keeps every pivot; the
 * `fitted_to` box reached to the dropped vertices, so every panel was taken for edited and refitted.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { tallyUndrawn, type UndrawnFamily } from "./undrawn_tally.ts";
import { UNDRAWN_HABITS } from "./undrawn_parts.ts";

/** How many scenes each family's test rigs per habit. */
const COUNTS: Record<Exclude<UndrawnFamily, "linkages">, number> = {
  spinners: 18,
  tabs: 8,
  split: 8,
  hardware: 10,
  body: 8,
  sides: 8,
  reruns: 6,
};

for (const [family, count] of Object.entries(COUNTS) as [Exclude<UndrawnFamily, "linkages">, number][]) {
  Deno.test(`${family}: every habit of undrawn vertices rigs as the clean aircraft`, async () => {
    const clean = await tallyUndrawn(family, 43, "clean", count);
    const differ: string[] = [];
    for (const habit of UNDRAWN_HABITS) {
      const own = await tallyUndrawn(family, 43, habit, count);
      if (JSON.stringify(own) !== JSON.stringify(clean)) {
        const { notes: _, ...counts } = own;
        differ.push(
          `${habit}: ${JSON.stringify(counts)}; ${
            own.notes.filter((n) => !clean.notes.includes(n)).join("; ")
          }`,
        );
      }
    }
    assertEquals(differ, []);
  });
}
