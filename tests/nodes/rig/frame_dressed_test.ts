/**
 * Frame detection (`"auto"`) on whole aircraft dressed as real models come (`dressed_aircraft.ts`):
 * antennas on the spine and belly, pitot probes, pylons and drop tanks, landing gear. A whip or
 * blade antenna in the middle of the length stood on the fuselage's centre line measurement: the
 * line moved half its height, and the fin was measured against the antenna's tip.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { prng } from "../../support/prng.ts";
import { detectFrame } from "../../../nodes/rig/frame_detect.ts";
import { endSections } from "../../../nodes/rig/frame_shape.ts";
import { classScene } from "./surface_classes.ts";
import { loft, plate } from "./flat_aircraft.ts";
import { dressedAircraft, type Dressing, rod } from "./dressed_aircraft.ts";
import { FILE_FRAMES, turn } from "./turned.ts";
import { HELD_OUT } from "../../support/heldout.ts";

/**
 * The file frames aircraft `index` is turned to: all eight under `deno task heldout`; in the suite two,
 * four apart, the index choosing which, so every frame meets a quarter of the aircraft and every
 * aircraft is detected (what a dressing does to detection is the aircraft's, whatever its frame).
 */
function framesFor(index: number): typeof FILE_FRAMES {
  return HELD_OUT ? FILE_FRAMES : [FILE_FRAMES[index % 8], FILE_FRAMES[(index + 4) % 8]];
}

/**
 * The tally expected of the suite's two frames an aircraft, from the figures of all eight (`full`): a
 * quarter of each, the outcome being the aircraft's in every frame (a frame that differs fails).
 */
function share(full: Record<string, number>): Record<string, number> {
  return HELD_OUT ? full : Object.fromEntries(Object.entries(full).map(([k, n]) => [k, n / 4]));
}

/** Right/wrong and good/weak over `count` dressed aircraft in the frames files come in ({@link framesFor}). */
function tally(dressing: Dressing, count: number, seed = 41): Record<string, number> {
  const next = prng(seed);
  const out: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const sample = dressedAircraft(next, i, dressing);
    for (const [forward, up] of framesFor(i)) {
      const frame = detectFrame(turn(classScene(sample), forward, up))!;
      const key = `${frame.forward === forward && frame.up === up ? "right" : "wrong"} ${frame.confidence}`;
      out[key] = (out[key] ?? 0) + 1;
    }
  }
  return out;
}

Deno.test("aircraft with whip antennas on the spine and belly: right, and good but where the bare aircraft is weak", () => {
  // Before: 528 right and good, 208 right and weak, 56 wrong and weak, 8 wrong and judged good (the
  // nose taken for the tail, upside down). The 16 weak: 8 whose bare aircraft is weak too, 8 whose
  // flat plates mirror onto themselves top to bottom once the whips centre the box on the wing
  // (symmetry 0.95 across up against 1.00 across the span: unclear).
  assertEquals(tally("whips", 100), share({ "right good": 784, "right weak": 16 }));
});

Deno.test("aircraft with two to five blade antennas: right, and mostly good", () => {
  // Before: 760 right and good, 36 right and weak, 4 wrong and weak. The 24 weak: blade antennas
  // along the spine further apart than a tenth of the length together are no short protrusion and
  // stay in the fuselage's measured height (a limitation). 16 of them, their tail named and their up
  // unclear, are good since left/right names that agree with a guessed up set it (as disagreeing ones
  // did): 776 right and good, 24 right and weak before.
  assertEquals(tally("blades", 100), share({ "right good": 792, "right weak": 8 }));
});

Deno.test("aircraft with everything at once (antennas, pitots, stores, gear): right, and mostly good", () => {
  // Before: 608 right and good, 160 right and weak, 24 wrong and weak, 8 wrong and judged good.
  // The 40 weak: main gear within a tenth of the span of the plane of symmetry (wheels wide apart:
  // no thin protrusion) or antennas spread along the spine still stand in the middle's height; 16 of
  // them good since agreeing left/right names set a guessed up (760 right and good, 40 weak before).
  assertEquals(tally("all", 100), share({ "right good": 776, "right weak": 24 }));
});

Deno.test("underwing stores in pairs and one drop tank on one side: right, as before", () => {
  // Unchanged; the 8 weak stores samples are weak bare too.
  assertEquals(tally("stores", 50), share({ "right good": 392, "right weak": 8 }));
  assertEquals(tally("one_tank", 50), share({ "right good": 400 }));
  // The 8 weak: a nose boom lengthens the model by a tenth and the canopy then stands in the middle
  // as high as the fin: good since agreeing left/right names set the guessed up (392 and 8 weak before).
  assertEquals(tally("pitots", 50), share({ "right good": 400 }));
  assertEquals(tally("gear", 50), share({ "right good": 400 }));
});

/**
 * A fuselage 10 long of radius 0.5 (an octagonal loft) with a flat wing 12 across, and `extra`
 * beside them, aircraft coordinates (aft, up, left).
 */
function fuselageWith(...extra: { positions: ArrayLike<number> }[]): Float64Array {
  const body = loft([
    [0, 0, 0.1, 0.1],
    [1, 0, 0.5, 0.5],
    [3, 0, 0.5, 0.5],
    [5, 0, 0.5, 0.5],
    [7, 0, 0.5, 0.5],
    [
      10,
      0,
      0.1,
      0.1,
    ],
  ], 8);
  const wing = plate([[4, 0, 6], [6, 0, 6], [6, 0, -6], [4, 0, -6]], 1, 8);
  return Float64Array.from([body, wing, ...extra].flatMap((m) => Array.from(m.positions)));
}

function ends(points: Float64Array) {
  const min = [0, 1, 2].map((k) => Math.min(...points.filter((_, i) => i % 3 === k)));
  const max = [0, 1, 2].map((k) => Math.max(...points.filter((_, i) => i % 3 === k)));
  const extent = max.map((x, k) => x - min[k]);
  return endSections({ points, min: min as [number, number, number], extent, long: 0, up: 1, span: 2 });
}

Deno.test("the fuselage's centre line leaves out a whip antenna, keeps a wide bump", () => {
  const top = 0.5 * Math.cos(Math.PI / 8); // the octagon's flat top
  // A whip 1.2 tall at mid-length: before, the middle reached 1.60 and the centre line stood at 0.57.
  const whip = ends(fuselageWith(rod([5, 0.4, 0], [5.2, 1.6, 0], 0.02)));
  assert(
    Math.abs(whip.middle.top - top) < 1e-9 && Math.abs(whip.middle.bottom + top) < 1e-9 &&
      Math.abs(whip.level) < 1e-9,
    JSON.stringify(whip),
  );
  // A belly whip and a spine whip together.
  const two = ends(
    fuselageWith(rod([4, 0.4, 0], [4.2, 1.6, 0], 0.02), rod([6, -0.4, 0], [6.1, -1.2, 0], 0.02)),
  );
  assert(Math.abs(two.level) < 1e-9 && Math.abs(two.middle.bottom + top) < 1e-9, JSON.stringify(two));
  // A canopy-like bump as wide as it is tall is the fuselage's: kept.
  const bump = ends(fuselageWith(loft([[4, 0.5, 0.05, 0.05], [5, 0.5, 0.4, 0.4], [6, 0.5, 0.05, 0.05]], 8)));
  assert(bump.middle.top > 0.85, JSON.stringify(bump.middle));
});

Deno.test("the centre line keeps a profile drawn on the plane of symmetry when nothing wider is there", () => {
  // A flying wing's centre section lofted across the span with a station on the plane: its profile is
  // all the middle holds, no width there, and no protrusion from anything.
  const profile: number[] = [];
  for (let k = 0; k <= 16; k++) {
    const x = k / 16 * 10, y = 0.6 * Math.sin(Math.PI * k / 16);
    profile.push(x, y, 0, x, -y, 0);
  }
  const tips = [0, 0, -8, 0, 0, 8, 10, 0, -8, 10, 0, 8];
  const section = ends(Float64Array.from([...profile, ...tips]));
  assert(section.middle.top > 0.55 && section.middle.bottom < -0.55, JSON.stringify(section.middle));
});
