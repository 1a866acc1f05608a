/**
 * A Krueger flap rigged, exported, its extras dropped (Blender's default export) and rigged again
 * (`recovered_senses.ts`). Its pivot is declared again as it was when it cannot be taken out (here it
 * also holds a marker the user parented to it): before rig.assign_side v35 it was judged by a droop
 * flap's sense — points ahead of a hinge that is its forward edge — so every one came back
 * `leading_edge_down`, −3–25°, warned that its sense could not be told.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";
import { cross, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { hingeError } from "./coarse_panels.ts";
import { type ReportPart, rig, withoutExtras } from "./pipeline.ts";
import { kruegerAircraft } from "./krueger_flaps.ts";

/** Each named pivot gets a child of the user's (a marker), so it is declared again, not fitted again. */
function holdMarkers(doc: Document, pivots: readonly string[]): void {
  for (const node of doc.getRoot().listNodes()) {
    const at = pivots.indexOf(node.getName());
    if (at >= 0) node.addChild(doc.createNode(`Marker_${at}`));
  }
}

const summary = (part: ReportPart | undefined) =>
  part && [part.kind, part.positive, part.min, part.max, part.group];

Deno.test("a re-rigged Krueger flap whose pivot is declared again keeps a Krueger's sense and limits; droop noses keep theirs", async () => {
  let kruegers = 0, droops = 0;
  for (const generic of [false, true]) {
    const next = prng(1);
    for (let i = 0; i < 8; i++) {
      const sample = kruegerAircraft(next, i, { generic });
      const first = await rig(sample.scene);
      const doc = await withoutExtras(first.scene);
      const droopParts = first.report.parts.filter((p) => p.panel?.startsWith("LE_Flap_Outbd"));
      const kruegerParts = sample.panels.map((panel) =>
        first.report.parts.find((p) => p.panel === panel.name)!
      );
      holdMarkers(doc, [...kruegerParts, ...droopParts].map((p) => p.name));
      const { report, ctx } = await rig(doc);
      const said = (name: string) =>
        ctx.warnings.map((w) => w.message).filter((m) => m.includes(`'${name}'`));
      for (const [k, panel] of sample.panels.entries()) {
        const part = report.parts.find((p) => p.panel === panel.name);
        const label = `#${i} ${panel.name}`;
        assert(part?.hinge, `${label} not rigged`);
        assertEquals(part.name, kruegerParts[k].name, label);
        assertEquals(summary(part), summary(kruegerParts[k]), label);
        const { degrees, offset } = hingeError(panel.truth, part.hinge.aircraft);
        assert(degrees <= 2 && offset <= 0.05 * panel.truth.chord, `${label}: ${degrees}°, ${offset}`);
        // A positive angle still swings its aft edge down.
        const { origin, axis } = part.hinge.aircraft;
        const aft: Vec3 = [
          panel.truth.origin[0] + panel.truth.chord,
          panel.truth.origin[1],
          panel.truth.origin[2],
        ];
        assert(cross(axis, sub(aft, origin))[1] < 0, `${label}: a positive angle lifts its aft edge`);
        const own = said(part.name).filter((m) => !m.includes("carry no extras"));
        assert(!own.some((m) => m.includes("is assumed")), `${label}: ${own.join("\n")}`);
        // Named a Krueger: nothing to say; named as a leading-edge flap: said why it is read as a Krueger.
        assertEquals(own.length, generic ? 1 : 0, `${label}: ${own.join("\n")}`);
        if (generic) assert(own[0].includes("Krueger") && own[0].includes("0–130°"), own[0]);
        kruegers++;
      }
      // Droop noses (hinged at their aft edge) declared again the same way stay droop flaps.
      for (const droop of droopParts) {
        const part = report.parts.find((p) => p.panel === droop.panel);
        assertEquals(summary(part), summary(droop), `#${i} ${droop.panel}`);
        assert(!said(droop.name).some((m) => m.includes("Krueger")), said(droop.name).join("\n"));
        droops++;
      }
    }
  }
  assertEquals(kruegers, 32);
  assert(droops > 0, "no droop noses generated");
});
