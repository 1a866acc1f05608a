/**
 * Helicopters of four kinds as modellers build them, for frame detection: a rounded cabin lofted
 * nose to tail, a thin tail boom, a main rotor on a mast above the cabin (a flat disc, one object
 * of 2–5 lofted blades, or the blades as separate objects), a tail rotor turning in a vertical disc
 * on one side of the tail, a fin (or none), a horizontal stabiliser across the boom, and skids or
 * wheels below. Sizes follow the real aircraft (metres; aircraft coordinates aft, up, left, the
 * nose at aft 0, the skids' bottom at up 0):
 *
 * - Bell 206-like: 9.5 long, a 10.2 rotor of 2 blades, skids, the tail rotor on the left.
 * - AS350-like: 10.9 long, a 10.7 rotor of 3 blades, skids, the tail rotor on the right, a fin above
 *   and below the boom, end plates on the stabiliser.
 * - UH-60-like: 15.3 long, a 16.4 rotor of 4 blades, wheels, a wide cabin, a tall swept fin, the tail
 *   rotor canted 20° on the right, a stabilator at the fin's foot.
 * - R22-like: 6.3 long, a 7.7 rotor of 2 blades, a bubble cabin, a tube boom, small upper and lower
 *   fins, skids, the tail rotor on the left.
 *
 * Named fully (`Cabin`, `TailBoom`, `MainRotor`, `TailRotor`, `Fin`, `Skid_L`…), partly (the rotors
 * only, the rest `Object_n`) or not at all (every object `Object_n`). Deterministic from `next`.
 *
 * @module
 */
import { cross, normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { loft, plate } from "./flat_aircraft.ts";
import { type ClassMesh, type ClassSample, joined } from "./surface_classes.ts";

/** The four kinds. */
export const HELICOPTER_KINDS = ["bell206", "as350", "uh60", "r22"] as const;
/** One kind. */
export type HelicopterKind = typeof HELICOPTER_KINDS[number];

/** What one generated helicopter has. */
export interface HelicopterOptions {
  readonly kind: HelicopterKind;
  /** "disc": the main rotor one flat disc; "blades": one object of blades; "separate": one per blade. */
  readonly rotor: "disc" | "blades" | "separate";
  /** Main rotor blades (2–5; a disc has none). */
  readonly blades: number;
  readonly fin: boolean;
  /** "all": every object named; "rotors": only the rotors, the rest `Object_n`; "none": all `Object_n`. */
  readonly names: "all" | "rotors" | "none";
}

/** The sizes of one kind. */
interface KindSpec {
  readonly length: number;
  readonly cabin: number;
  readonly width: number;
  readonly height: number;
  readonly rotor: number;
  readonly blades: number;
  readonly tailRotor: number;
  /** +1: the tail rotor on the left, −1: on the right. */
  readonly side: 1 | -1;
  readonly fin: number;
  readonly lowerFin: number;
  readonly wheels: boolean;
  readonly stab: number;
}

const SPECS: Record<HelicopterKind, KindSpec> = {
  bell206: {
    length: 9.5,
    cabin: 3.6,
    width: 1.3,
    height: 1.6,
    rotor: 10.2,
    blades: 2,
    tailRotor: 1.65,
    side: 1,
    fin: 1.3,
    lowerFin: 0.5,
    wheels: false,
    stab: 1.0,
  },
  as350: {
    length: 10.9,
    cabin: 4.2,
    width: 1.8,
    height: 1.7,
    rotor: 10.7,
    blades: 3,
    tailRotor: 1.86,
    side: -1,
    fin: 1.2,
    lowerFin: 0.7,
    wheels: false,
    stab: 1.1,
  },
  uh60: {
    length: 15.3,
    cabin: 7.5,
    width: 2.4,
    height: 2.0,
    rotor: 16.4,
    blades: 4,
    tailRotor: 3.35,
    side: -1,
    fin: 2.6,
    lowerFin: 0,
    wheels: true,
    stab: 2.2,
  },
  r22: {
    length: 6.3,
    cabin: 2.2,
    width: 1.1,
    height: 1.3,
    rotor: 7.7,
    blades: 2,
    tailRotor: 1.07,
    side: 1,
    fin: 0.5,
    lowerFin: 0.4,
    wheels: false,
    stab: 0,
  },
};

/** Options of sample `index`: every kind × rotor drawing × fin × naming once in 72. */
export function helicopterOptions(index: number): HelicopterOptions {
  const kind = HELICOPTER_KINDS[index % 4];
  const rotor = (["disc", "blades", "separate"] as const)[Math.floor(index / 4) % 3];
  const fin = Math.floor(index / 12) % 2 === 0;
  const names = (["all", "rotors", "none"] as const)[Math.floor(index / 24) % 3];
  // 2–5 blades: the kind's own count, or another from index.
  const blades = Math.floor(index / 4) % 2 === 0 ? SPECS[kind].blades : 2 + (index % 4);
  return { kind, rotor, blades: rotor === "disc" ? 0 : blades, fin, names };
}

/** A lofted blade from `hub` out to `radius` along `dir` in the plane square to `spin`. */
function blade(hub: Vec3, spin: Vec3, dir: Vec3, radius: number, chord: number): ClassMesh {
  const side = cross(spin, dir), root = 0.12 * radius;
  const positions: number[] = [], triangles: number[] = [];
  // A thin flattened ellipse at 8 stations along the blade.
  const ring = 8;
  for (let s = 0; s < 8; s++) {
    const r = root + (radius - root) * s / 7;
    for (let k = 0; k < ring; k++) {
      const a = (k + 0.5) / ring * 2 * Math.PI;
      const c = Math.cos(a) * chord / 2, t = Math.sin(a) * chord * 0.06;
      for (let j = 0; j < 3; j++) positions.push(hub[j] + dir[j] * r + side[j] * c + spin[j] * t);
    }
  }
  for (let s = 0; s < 7; s++) {
    for (let k = 0; k < ring; k++) {
      const a = s * ring + k, b = s * ring + (k + 1) % ring;
      triangles.push(a, b, b + ring, a, b + ring, a + ring);
    }
  }
  return { positions, triangles };
}

/** `count` blades about `hub`, phase `phase`, in the plane square to `spin`. */
function rotorBlades(hub: Vec3, spin: Vec3, count: number, radius: number, chord: number, phase: number) {
  const n = normalize(spin);
  const seed: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = normalize(cross(n, seed)), e2 = cross(n, e1);
  return Array.from({ length: count }, (_, b) => {
    const a = phase + (2 * Math.PI * b) / count;
    const dir = [0, 1, 2].map((k) => Math.cos(a) * e1[k] + Math.sin(a) * e2[k]) as Vec3;
    return blade(hub, n, dir, radius, chord);
  });
}

/** A flat disc (a rotor drawn turning): a 32-gon ring and hub, `thick` through. */
function disc(hub: Vec3, spin: Vec3, radius: number, thick: number): ClassMesh {
  const n = normalize(spin);
  const seed: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = normalize(cross(n, seed)), e2 = cross(n, e1);
  const positions: number[] = [], triangles: number[] = [];
  const sides = 32;
  for (const h of [-thick / 2, thick / 2]) {
    for (const r of [0.1 * radius, radius]) {
      for (let k = 0; k < sides; k++) {
        const a = 2 * Math.PI * k / sides;
        for (let j = 0; j < 3; j++) {
          positions.push(hub[j] + r * (Math.cos(a) * e1[j] + Math.sin(a) * e2[j]) + h * n[j]);
        }
      }
    }
  }
  for (const [p, q] of [[0, 1], [2, 3], [1, 3], [0, 2]]) {
    for (let k = 0; k < sides; k++) {
      const a = p * sides + k, b = p * sides + (k + 1) % sides;
      const c = q * sides + (k + 1) % sides, d = q * sides + k;
      triangles.push(a, b, c, a, c, d);
    }
  }
  return { positions, triangles };
}

/**
 * A helicopter of `options` (see the module), its sizes jittered ±8 % and its rotor phases random.
 * The stabilator of a UH-60 is a panel pair (`Stabilator_L`/`_R`); everything else is fixed.
 */
export function helicopterKind(next: () => number, options: HelicopterOptions): ClassSample {
  const spec = SPECS[options.kind];
  const j = () => 0.92 + 0.16 * next();
  const L = spec.length * j(), C = spec.cabin * j(), W = spec.width * j() / 2, H = spec.height * j();
  const gear = options.kind === "uh60" ? 0.5 : 0.45;
  const bodyY = gear + H / 2;
  const fixed: { name: string; mesh: ClassMesh }[] = [];
  const panels: ClassSample["panels"] = [];
  let n = 0;
  const name = (real: string, rotor = false) =>
    options.names === "all" || (rotor && options.names === "rotors") ? real : `Object_${n++}`;
  // The cabin: rounded nose, widest a third back, tapering into the boom.
  const cabinStations: [number, number, number, number][] = [];
  for (let s = 0; s <= 10; s++) {
    const t = s / 10, x = t * C;
    const bulge = Math.sin(Math.PI * Math.min(1, 0.15 + t * 0.85) ** 0.8);
    const w = W * Math.max(0.15, options.kind === "r22" ? Math.sin(Math.PI * (0.05 + 0.9 * t)) : bulge);
    const h = (H / 2) *
      Math.max(0.3, Math.sqrt(Math.max(0, 1 - (1 - Math.min(1, t * 3)) ** 2)) * (1 - 0.35 * t));
    cabinStations.push([x, bodyY + (s === 10 ? 0.15 * H : 0) - (t < 0.3 ? 0.1 * H * (0.3 - t) : 0), w, h]);
  }
  fixed.push({ name: name("Cabin"), mesh: loft(cabinStations, 12) });
  // The tail boom: a tapering tube from the cabin's back to the tail.
  const boomY = bodyY + 0.15 * H, boomR = (options.kind === "r22" ? 0.07 : 0.2) * H;
  fixed.push({
    name: name("TailBoom"),
    mesh: loft([[C * 0.95, boomY, boomR * 1.6, boomR * 1.6], [(C + L) / 2, boomY, boomR, boomR], [
      L,
      boomY,
      boomR * 0.6,
      boomR * 0.6,
    ]], 8),
  });
  // Mast and main rotor.
  const mastX = C * 0.45, top = bodyY + H / 2, hubY = top + 0.35 * H;
  // The mast: a short upright plate pair (loft stations run along aft only).
  fixed.push({
    name: name("Mast"),
    mesh: plate(
      [[mastX - 0.1, top, 0.1], [mastX + 0.1, top, 0.1], [mastX + 0.1, hubY, 0.1], [mastX - 0.1, hubY, 0.1]],
      3,
      1,
    ),
  });
  const radius = spec.rotor / 2 * j(), chord = spec.rotor * 0.035, phase = next() * 2 * Math.PI;
  const hub: Vec3 = [mastX, hubY, 0];
  if (options.rotor === "disc") {
    fixed.push({ name: name("MainRotor", true), mesh: disc(hub, [0, 1, 0], radius, 0.05) });
  } else {
    const mains = rotorBlades(hub, [0, 1, 0], options.blades, radius, chord, phase);
    if (options.rotor === "blades") fixed.push({ name: name("MainRotor", true), mesh: joined(mains) });
    else mains.forEach((mesh, b) => fixed.push({ name: name(`MainRotor_Blade_${b + 1}`, true), mesh }));
  }
  // Fin(s) at the tail: upright plates, swept back.
  const finH = spec.fin * j(), finC = 0.08 * L + 0.3;
  if (options.fin) {
    fixed.push({
      name: name("Fin"),
      mesh: plate(
        [[L - finC, boomY, 0], [L, boomY, 0], [L + 0.25 * finC, boomY + finH, 0], [
          L - 0.4 * finC,
          boomY + finH,
          0,
        ]],
        3,
        3,
        0.06,
      ),
    });
    if (spec.lowerFin) {
      fixed.push({
        name: name("LowerFin"),
        mesh: plate(
          [[L - finC * 0.8, boomY - spec.lowerFin, 0], [L - 0.1 * finC, boomY - spec.lowerFin, 0], [
            L,
            boomY,
            0,
          ], [L - finC, boomY, 0]],
          2,
          2,
          0.05,
        ),
      });
    }
  }
  // Tail rotor: a vertical disc or two blades on one side, at the fin's top third.
  const tailR = spec.tailRotor / 2 * j();
  const cant = options.kind === "uh60" ? 20 * Math.PI / 180 : 0;
  const tailHub: Vec3 = [
    L - 0.3 * finC,
    boomY + (options.fin ? 0.6 * finH : 0.3),
    spec.side * 0.25 * (H / 1.6),
  ];
  const tailSpin: Vec3 = [0, Math.sin(cant), spec.side * Math.cos(cant)];
  fixed.push({
    name: name("TailRotor", true),
    mesh: options.rotor === "disc" ? disc(tailHub, tailSpin, tailR, 0.03) : joined(
      rotorBlades(tailHub, tailSpin, options.kind === "uh60" ? 4 : 2, tailR, tailR * 0.15, next() * 6),
    ),
  });
  // Horizontal stabiliser across the boom (a stabilator pair on a UH-60).
  if (spec.stab) {
    const half = spec.stab / 2 * j(), at = options.kind === "uh60" ? L - finC : 0.7 * L, c = 0.06 * L;
    const pieces = [1, -1].map((s) =>
      plate(
        [[at, boomY, s * 0.1], [at + c, boomY, s * 0.1], [at + c, boomY, s * half], [at, boomY, s * half]],
        2,
        3,
        0.05,
      )
    );
    if (options.kind === "uh60") {
      pieces.forEach((mesh, i) =>
        panels.push({
          name: name(i ? "Stabilator_R" : "Stabilator_L"),
          kind: "stabilator",
          side: i ? "right" : "left",
          mesh,
        })
      );
    } else fixed.push({ name: name("HorizontalStabilizer"), mesh: joined(pieces) });
    if (options.kind === "as350") {
      for (const s of [1, -1]) {
        fixed.push({
          name: name(s > 0 ? "EndPlate_L" : "EndPlate_R"),
          mesh: plate(
            [[at, boomY - 0.2, s * half], [at + c, boomY - 0.2, s * half], [at + c, boomY + 0.35, s * half], [
              at,
              boomY + 0.35,
              s * half,
            ]],
            2,
            2,
            0.03,
          ),
        });
      }
    }
  }
  // Gear: two skids with cross tubes, or two main wheels and a tail wheel.
  if (spec.wheels) {
    for (const sd of [1, -1]) {
      const wheel = loft([[0.25 * C - 0.15, 0.35, 0.12, 0.35], [0.25 * C + 0.15, 0.35, 0.12, 0.35]], 10);
      fixed.push({
        name: name(sd > 0 ? "Wheel_L" : "Wheel_R"),
        mesh: shifted(wheel, [0, 0, sd * (W + 0.3)]),
      });
    }
    fixed.push({
      name: name("TailWheel"),
      mesh: loft([[0.8 * L - 0.1, boomY - 0.9, 0.06, 0.2], [0.8 * L + 0.1, boomY - 0.9, 0.06, 0.2]], 8),
    });
  } else {
    const skidW = W + 0.25;
    for (const s of [1, -1]) {
      fixed.push({
        name: name(s > 0 ? "Skid_L" : "Skid_R"),
        mesh: shifted(
          loft([[-0.1 * C, 0.12, 0.04, 0.04], [0, 0.04, 0.04, 0.04], [C * 0.9, 0.04, 0.04, 0.04]], 6),
          [
            0,
            0,
            s * skidW,
          ],
        ),
      });
    }
    for (const x of [0.2 * C, 0.7 * C]) {
      fixed.push({
        name: name("CrossTube"),
        mesh: plate(
          [[x - 0.04, 0.04, skidW], [x + 0.04, 0.04, skidW], [x + 0.04, 0.04, -skidW], [
            x - 0.04,
            0.04,
            -skidW,
          ]],
          1,
          4,
          0.06,
        ),
      });
      for (const s of [1, -1]) {
        fixed.push({
          name: name("Strut"),
          mesh: plate(
            [[x - 0.04, 0.04, s * skidW], [x + 0.04, 0.04, s * skidW], [x + 0.04, gear + 0.1, s * W * 0.8], [
              x - 0.04,
              gear + 0.1,
              s * W * 0.8,
            ]],
            1,
            2,
            0.05,
          ),
        });
      }
    }
  }
  return {
    panels,
    fixed,
    description: `${options.kind}, rotor ${options.rotor}${options.blades ? ` of ${options.blades}` : ""}, ${
      options.fin ? "fin" : "no fin"
    }, names ${options.names}`,
  };
}

function shifted(mesh: ClassMesh, d: Vec3): ClassMesh {
  const p = Array.from(mesh.positions);
  for (let i = 0; i < p.length; i += 3) p[i] += d[0], p[i + 1] += d[1], p[i + 2] += d[2];
  return { positions: p, triangles: mesh.triangles };
}
