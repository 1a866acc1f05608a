/**
 * Hinge brackets modelled as objects of their own, as Blender exports them: flaps on a dropped hinge
 * (`airfoil_panels.ts`) whose brackets are separate low-poly boxes named `Flap_Bracket_1`,
 * `Flap_Bracket.001`, `FlapHingeFitting`, `flap_mount_2`, `Hinge_Bracket_L`, or `Cube.003` under an
 * empty `Flap_Brackets` — at the scene's root, under the wing, under an empty, under the flap itself,
 * or the wing's own brackets hanging down to the pivot — each object with its origin at its centre
 * (transforms not applied). The flap's fit follows its nose; the pivot is the brackets': it must not be
 * judged good, and the warning must name the flap and the brackets. Plain-hinged flaps with hinge
 * fittings inside their nose, a pylon mount ahead and a gear mount beyond the span must stay good and
 * right. Each again with every object left with a modelling tool's default name (`Cube.012`,
 * `Cylinder.003`, `Object_7`, `Box001`, the wing `Cube`), as brackets often are.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { hardwareBeside, isDefaultName, listHardware } from "../../../nodes/rig/hinge_hardware.ts";
import { fitHinge } from "../../../nodes/rig/hinge_fit.ts";
import { HINGE_FIT_DEFAULTS } from "../../../nodes/rig/hinge_fit_options.ts";
import { prng } from "../../support/prng.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import { hingeError } from "./coarse_panels.ts";
import { addGroup, newScene } from "./fixtures.ts";
import { rig } from "./pipeline.ts";
import { addObject, box, bracketRound, DEFAULTS, HARDWARE, prism } from "./bracket_scenes.ts";

for (const naming of [HARDWARE, DEFAULTS]) {
  Deno.test(`flaps on a dropped hinge with their brackets in objects of their own (${naming.label}): weak, the brackets named`, async () => {
    // Before: every one judged good on its nose (hinge_hardware.ts did not exist; brackets under the
    // flap were already judged with its mesh). With default names, before rig.fit_hinge v13: 64 of the
    // 80 good (all but those under the flap).
    const next = prng(31);
    const tally: Record<string, { good: number; weak: number }> = {};
    const missed: string[] = [];
    for (let round = 0; round < 80; round++) {
      const { placement, surface, doc, names } = bracketRound(next, round, naming);
      const result = await rig(doc);
      const part = result.report.parts.find((p) => p.panel === "Flap_L") as
        | { fit: { confidence: string; reasons: string[] } }
        | undefined;
      assert(part?.fit, `Flap_L rigged (round ${round}, ${placement})`);
      const row = tally[placement] ??= { good: 0, weak: 0 };
      row[part.fit.confidence === "good" ? "good" : "weak"]++;
      const what = `round ${round}, ${placement}, ${surface.description}: ${part.fit.reasons.join("; ")}`;
      const warning = result.ctx.warnings.find((w) => w.message.includes("'Flap_L'"))?.message ?? "";
      // Under the flap they are its geometry, judged by the sections pass as brackets in its mesh;
      // elsewhere the warning names them.
      const named = placement === "flap"
        ? warning.includes("hinge brackets")
        : warning.includes("hinge hardware beside it") && names.some((n) => warning.includes(`'${n}'`));
      if (part.fit.confidence !== "weak" || !named) missed.push(`${what} — ${warning || "no warning"}`);
    }
    console.log(
      `bracket objects, ${naming.label}: ${JSON.stringify(tally)}; missed: ${missed.join("; ") || "none"}`,
    );
    // A flap modelled 30° down whose only brackets are the wing's stands clear of them (it has turned
    // away from their foot): 1 of the 16 with wing brackets is then not seen (docs/rig.md, Limitations).
    assert(
      missed.every((m) => m.includes("wing brackets") && m.includes("deflected 30°")),
      missed.join("\n"),
    );
    assert(missed.length <= 1, `${missed.length} missed`);
  });

  Deno.test(`plain-hinged flaps with hinge fittings in their nose, a pylon mount ahead and a gear mount beyond (${naming.label}): good and right`, async () => {
    const next = prng(32);
    let worst = { degrees: 0, offset: 0 };
    for (let round = 0; round < 30; round++) {
      const surface = airfoilSurface(next, { deflection: [0, 15, 30][round % 3] });
      const doc = newScene();
      const wing = addObject(doc, naming.wing, surface.wing);
      addObject(doc, "Flap_L", surface);
      const { origin, axis, span, chord } = surface;
      const along = (f: number, aft: number, up: number, left = 0): Vec3 => [
        origin[0] + axis[0] * f * span + aft * chord,
        origin[1] + axis[1] * f * span + up * chord,
        origin[2] + axis[2] * f * span + left * chord,
      ];
      const empty = round % 3 === 2 ? addGroup(doc, undefined, naming.hingesEmpty) : undefined;
      // Hinge fittings about the true hinge (the nose circle's centre), reaching into the wing's cove.
      [-0.35, 0, 0.35].forEach((f, i) => {
        const fitting = box(along(f, -0.12, -0.05, -0.02), along(f, 0.05, 0.05, 0.02));
        const name = naming.fittings[i];
        addObject(doc, name, fitting, round % 3 === 1 ? wing : empty);
      });
      // A pylon mount under the wing ending 0.4 of the flap's chord ahead of its nose, and a gear mount
      // hanging well below beyond the flap's end.
      addObject(doc, naming.pylon, box(along(0, -1.6, -0.6, -0.05), along(0, -0.5, -0.12, 0.05)), wing);
      addObject(doc, naming.gear, box(along(0.62, -0.2, -0.8, 0), along(0.75, 0.4, -0.1, 0)));
      // Default-named, it is no bracket for being small: the span's ends are left to the structure.
      if (naming.tip) addObject(doc, naming.tip, prism(along, [0.5, 0.6], [-0.5, 0.3], [-0.1, 0.1]));
      const result = await rig(doc);
      const part = result.report.parts.find((p) => p.panel === "Flap_L");
      assert(part?.hinge && part.fit, `Flap_L rigged (round ${round})`);
      const fit = part.fit as unknown as { confidence: string; reasons: string[] };
      const { degrees, offset } = hingeError(surface, part.hinge.aircraft);
      const what = `round ${round}, ${surface.description}: ${degrees.toFixed(3)}°, ${
        (offset / chord * 100).toFixed(2)
      } %, ${fit.confidence} ${fit.reasons.join("; ")}`;
      assertEquals(fit.confidence, "good", what);
      assert(degrees < 1 && offset < 0.02 * chord, what);
      worst = { degrees: Math.max(worst.degrees, degrees), offset: Math.max(worst.offset, offset / chord) };
    }
    console.log(
      `plain hinges with fittings, ${naming.label}: worst ${worst.degrees.toFixed(3)}°, ${
        (worst.offset * 100).toFixed(2)
      } %`,
    );
  });
}

Deno.test("default names: a modelling tool's (Cube.012, Object_7, pCube3, none) but not a part's or a structure's", () => {
  for (
    const name of [
      "Cube",
      "Cube.012",
      "Cylinder.003",
      "Object_7",
      "Box001",
      "pCube3",
      "polySurface12",
      "Mesh.004",
      "",
      "12",
    ]
  ) {
    assert(isDefaultName(name), name);
  }
  for (
    const name of ["Wing_L", "Flap_Bracket_1", "Cube_Flap", "Fuselage.001", "Gear_Mount_L", "Aileron.L.001"]
  ) {
    assert(!isDefaultName(name), name);
  }
});

Deno.test("a default-named object counts beside a panel only when small, and a large one is never gathered", () => {
  // A bracket hanging a quarter of the chord below the flap's nose, its box 0.5 × 0.25 × 0.04
  // chords; and the same section drawn along 90 % of the span (a large object reaching the hinge),
  // once with a default name and once with a hardware name: the default-named one is passed over on
  // its accessors' bounds, its vertices never read.
  const surface = airfoilSurface(prng(5), {});
  const { origin, axis, span, chord } = surface;
  assert(0.9 * span > 1.2 * chord, surface.description);
  const along = (f: number, aft: number, up: number, left = 0): Vec3 => [
    origin[0] + axis[0] * f * span + aft * chord,
    origin[1] + axis[1] * f * span + up * chord,
    origin[2] + axis[2] * f * span + left * chord,
  ];
  const doc = newScene();
  addObject(doc, "Cube.001", box(along(0, -0.2, -0.25, -0.02), along(0, 0.3, 0, 0.02)));
  const long = () => prism(along, [-0.45, 0.45], [-0.2, 0.3], [-0.25, 0]);
  addObject(doc, "Cube.002", long());
  addObject(doc, "Flap_Bracket_7", long());
  const fit = fitHinge(
    surface.positions,
    surface.positions.length / 3,
    HINGE_FIT_DEFAULTS,
    surface.triangles,
  );
  // The scene's default frame (−Z forward, +Y up) to the aircraft's (aft, up, left), as addObject placed them.
  const toAircraft = [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1];
  const gathered: string[] = [];
  const objects = listHardware(doc, toAircraft).map((o) => ({
    ...o,
    vertices: () => (gathered.push(o.name), o.vertices()),
  }));
  assertEquals(objects.map((o) => [o.name, o.generic]), [["Cube.001", true], ["Cube.002", true], [
    "Flap_Bracket_7",
    false,
  ]]);
  // Furthest first: the long bracket reaches 18 % of the chord below at its outer end.
  assertEquals(hardwareBeside(fit, "forward", objects).map((h) => h.name), ["Flap_Bracket_7", "Cube.001"]);
  assertEquals(gathered, ["Cube.001", "Flap_Bracket_7"]);
});
