/**
 * Tails floating off the body, as exploded and showcase models draw them (nothing fixed within half a
 * chord): an elevator drawn as a whole tailplane (swept, tapered — game models name an F-16's
 * stabilators `Elevator_L`) is all-moving by its own planform, on a spanwise shaft, weak (a guess
 * said, never a silent leading-edge hinge 20–45° off); a trailing-edge elevator strip floating alone
 * keeps its forward-edge hinge; a named stabilator its quarter chord. An elevator or rudder strip
 * pulled 0.2–0.5 m straight back off its stabiliser or fin, which stays on the body (an exploded
 * view), hinges at its own leading edge, weak, saying how far ahead its stabiliser is (before
 * `rig.fit_hinge` v44: all-moving, 3–30° off, judged good — dev seed 1: 8 of 9, held-out seed 41: 16
 * of 16). Two in three exploded strips are pulled off the plane as well (up or down off a stabiliser,
 * sideways off a fin, 0.1–0.6 m) and half slid outboard along the span (0.05–0.3 m), as showcase files
 * draw them; before `rig.fit_hinge` v46 those were all-moving, 3–29° off, judged good (seed 1: 4 of 9;
 * seed 41: 8 of 16; held-out seed 97: 22 of 40); now 0 (all_moving.ts looks off the plane too). Two
 * development seeds and a held-out one; `deno run -A <this> <seed> <count>` tallies another.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { rig } from "./pipeline.ts";
import { prng } from "../../support/prng.ts";

/** A closed box, aircraft coordinates (aft, up, left). */
function box(min: number[], max: number[]) {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    positions.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
  }
  const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
  return { positions, triangles: faces.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]) };
}

/** A thin tapered panel: root at `z0` (left), leading edge at aft `lead`, chords `root`→`tip` over `span`. */
function panel(
  lead: number,
  z0: number,
  span: number,
  root: number,
  tip: number,
  sweep: number,
  stations: number,
) {
  const positions: number[] = [], triangles: number[] = [];
  for (let i = 0; i <= stations; i++) {
    const t = i / stations, z = z0 + t * span, le = lead + t * span * Math.tan((sweep * Math.PI) / 180);
    const c = root + (tip - root) * t, th = 0.04 * c;
    positions.push(le, 0, z, le + 0.3 * c, th, z, le + c, 0, z, le + 0.3 * c, -th, z);
  }
  for (let i = 0; i < stations; i++) {
    for (let k = 0; k < 4; k++) {
      const a = i * 4 + k, b = i * 4 + ((k + 1) % 4);
      triangles.push(a, b, b + 4, a, b + 4, a + 4);
    }
  }
  return { positions, triangles };
}

/** A panel moved `rise` off its plane (up, before it is stood as a fin) and `slide` along its span. */
function pulledOff(
  { positions, triangles }: { positions: number[]; triangles: number[] },
  rise: number,
  slide: number,
) {
  return {
    positions: positions.map((v, k) => v + (k % 3 === 1 ? rise : k % 3 === 2 ? slide : 0)),
    triangles,
  };
}

const FAMILIES = [
  "whole_elevator",
  "stabilator",
  "strip_alone",
  "exploded_strip",
  "exploded_rudder",
] as const;

/** A panel stood upright as a fin: its span along up, its thickness sideways. */
function upright({ positions, triangles }: { positions: number[]; triangles: number[] }) {
  const stood = positions.map((_, k) => positions[k - (k % 3) + [0, 2, 1][k % 3]]);
  return { positions: stood, triangles };
}

async function measure(seed: number, count: number) {
  const next = prng(seed);
  const lerp = (a: number, b: number) => a + (b - a) * next();
  const wrong: string[] = [], weak: string[] = [];
  for (let i = 0; i < count; i++) {
    const family = FAMILIES[i % FAMILIES.length];
    const name = family === "stabilator"
      ? ["Stabilator_L", "HorizontalStabilizer_L"][(i >> 2) % 2]
      : family === "exploded_rudder"
      ? ["Rudder", "rudder", "Rudder_Upper"][(i >> 2) % 3]
      : ["Elevator_L", "elevator.L", "Elevator_Left"][(i >> 2) % 3];
    const doc = newScene();
    const body = box([-4, -0.4, -0.4], [6, 0.4, 0.4]);
    addAircraftMesh(doc, "Fuselage", body.positions, body.triangles);
    const root = lerp(1.2, 2),
      span = lerp(1.6, 2.6),
      gap = lerp(0.8, 2.5) * root,
      stations = 3 + Math.floor(next() * 6);
    let truth: number[]; // the hinge's direction, aircraft frame
    if (family === "whole_elevator" || family === "stabilator") {
      const sweep = lerp(20, 45), tip = root * lerp(0.3, 0.6);
      const p = panel(4, 0.4 + gap, span, root, tip, sweep, stations);
      addAircraftMesh(doc, name, p.positions, p.triangles);
      truth = [0, 0, 1];
    } else if (family === "exploded_strip" || family === "exploded_rudder") {
      // An exploded or showcase view: the elevator pulled straight back off its stabiliser, which
      // stays on the body. The stabiliser's trailing edge runs along the strip's leading edge.
      const chord = lerp(0.25, 0.45), sweep = lerp(0, 30), pulled = lerp(0.2, 0.5);
      const stabRoot = lerp(1, 1.6), ratio = lerp(0.4, 0.8), stabSpan = lerp(1.6, 2.6);
      const t = Math.tan((sweep * Math.PI) / 180);
      // Its leading edge swept more than its trailing edge by the taper.
      const leadSweep = (Math.atan(t + (stabRoot * (1 - ratio)) / stabSpan) * 180) / Math.PI;
      // A fin stands on the body as a stabiliser sits beside it; a rudder is pulled back off it alike.
      const fin = family === "exploded_rudder", stand = fin ? upright : (q: ReturnType<typeof panel>) => q;
      const stab = stand(panel(3, 0.4, stabSpan, stabRoot, stabRoot * ratio, leadSweep, stations));
      const fixed = fin
        ? ["Fin", "VerticalStabilizer", "Tail_Fin"]
        : ["Stabilizer_L", "HStab_L", "Tailplane_L"];
      addAircraftMesh(doc, fixed[(i >> 2) % 3], stab.positions, stab.triangles);
      // Half reach the body at their root, as most do (its side beside the strip's root).
      const inboard = next() < 0.5 ? 0 : lerp(0.02, 0.15), lead = 3 + stabRoot + pulled + inboard * t;
      const flat = panel(
        lead,
        0.4 + inboard,
        stabSpan - inboard - lerp(0, 0.2),
        chord,
        chord,
        sweep,
        stations,
      );
      // Showcase views pull it off the plane too (up or down off a stabiliser, sideways off a fin) and
      // often outward along the span: two in three off the plane, half outward, a third straight back.
      const way = i % 3, rise = way === 0 ? 0 : (next() < 0.5 ? -1 : 1) * lerp(0.1, 0.6);
      const slide = way === 2 || next() < 0.5 ? lerp(0.05, 0.3) : 0;
      const p = stand(pulledOff(flat, rise, slide));
      addAircraftMesh(doc, name, p.positions, p.triangles);
      truth = fin
        ? [t / Math.hypot(1, t), 1 / Math.hypot(1, t), 0]
        : [t / Math.hypot(1, t), 0, 1 / Math.hypot(1, t)];
    } else {
      // A trailing-edge strip of even chord on a swept hinge, pulled off the body alone.
      const chord = lerp(0.25, 0.45), sweep = lerp(0, 30), lead = 4;
      const p = panel(lead, 0.4 + gap, span, chord, chord, sweep, stations);
      addAircraftMesh(doc, name, p.positions, p.triangles);
      const t = Math.tan((sweep * Math.PI) / 180);
      truth = [t / Math.hypot(1, t), 0, 1 / Math.hypot(1, t)];
    }
    const part = (await rig(doc)).report.parts.find((q) => q.panel === name);
    const confidence = (part?.fit as { confidence?: string } | null)?.confidence;
    const axis = part?.hinge?.aircraft.axis ?? [0, 0, 0];
    const off =
      (Math.acos(Math.min(1, Math.abs(axis[0] * truth[0] + axis[1] * truth[1] + axis[2] * truth[2]))) * 180) /
      Math.PI;
    // The reason said: exploded, and how far ahead its stabiliser is.
    const said = JSON.stringify(part?.fit ?? {}).match(
      /exploded: its stabiliser \(or fin\) is [\d.]+ chord ahead/,
    );
    const label = `#${i} ${family} ${name} [${confidence}${
      family.startsWith("exploded") && !said ? ", unsaid" : ""
    }]`;
    if (!part || off > 2) wrong.push(`${label}: ${off.toFixed(1)}° off`);
    else if (confidence !== "good") weak.push(label);
  }
  return { wrong, weak };
}

for (
  const [seed, count, role] of [[1, 24, "development"], [41, 40, "development"], [
    97,
    100,
    "held-out",
  ]] as const
) {
  Deno.test(`tails floating off the body (${role} seed ${seed}, ${count}): whole-tail elevators all-moving and weak, strips on their forward edge, exploded strips weak`, async () => {
    const { wrong, weak } = await measure(seed, count);
    const good = wrong.filter((l) => l.includes("[good"));
    console.log(`   ${count} tails: ${wrong.length} wrong (${good.length} judged good), ${weak.length} weak`);
    console.log(wrong.join("\n"));
    assertEquals(wrong, []);
    // Weak exactly where the planform, not the file, said "whole surface", and where the strip was
    // pulled off its stabiliser (saying so).
    assertEquals(weak.filter((l) => !/whole_elevator|exploded_/.test(l) || l.includes("unsaid")), []);
    // Every whole-tail elevator weak; an exploded strip right and good only where a fixed surface is
    // found just ahead of it after all (pulled little and slid along a swept hinge: seed 97 #63).
    const among = (f: number) => Math.ceil((count - f) / FAMILIES.length);
    assertEquals(weak.filter((l) => l.includes("whole_elevator")).length, among(0));
    assertEquals(weak.length >= among(0) + among(3) + among(4) - count / 50, true);
  });
}

if (import.meta.main) {
  // `deno run -A <this> <seed> <count>` tallies another seed.
  const [seed, count] = Deno.args.map(Number);
  const { wrong, weak } = await measure(seed, count);
  const good = wrong.filter((l) => l.includes("[good"));
  console.log(`${count} tails: ${wrong.length} wrong (${good.length} judged good), ${weak.length} weak`);
  console.log(wrong.join("\n"));
  if (Deno.env.get("TAILS_ALL")) console.log(weak.join("\n"));
}
