/**
 * Wings with real airfoil sections, as users' files carry them: NACA 4-digit (2412, 4415, 2415, 0012,
 * 0009 symmetric), NACA 5-digit 23012 and 23015, reflexed flying-wing sections (an Eppler/MH-style mean
 * line bowing up ahead and turning up to a reflexed trailing edge), each drawn with its thickness laid
 * square to the mean line (as airfoil tools and Blender add-ons plot them) at 30–80 points round, or as
 * a game model's low-poly ring of 6–10 points; stations along a tapered, swept span with dihedral and
 * washout (the tip's section turned nose down), mirrored left and right about a fuselage box, and half
 * the time a tailplane (symmetric, or cambered upside down as some tails are). Aircraft axes: x aft,
 * y up, z left; deterministic from a seed.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import { nacaCamber, nacaThickness } from "./airfoil_panels.ts";

/** What kind of section a wing has, and which way its camber truly says up. */
export interface AirfoilKind {
  readonly name: string;
  /** +1: the mean line bows up (a lifting section); 0: symmetric (no camber to read). */
  readonly bows: 1 | 0;
  /** Mean-line height at x (fraction of chord). */
  readonly camber: (x: number) => number;
  /** Greatest thickness, fraction of chord. */
  readonly thickness: number;
}

/** NACA 4-digit `mpxx`. */
function naca4(code: string): AirfoilKind {
  const m = Number(code[0]) / 100, p = Number(code[1]) / 10, t = Number(code.slice(2)) / 100;
  return { name: `NACA ${code}`, bows: m > 0 ? 1 : 0, camber: (x) => nacaCamber(m, p, x), thickness: t };
}

/** NACA 5-digit 230xx (standard mean line 230: r 0.2025, k1 15.957). */
function naca230(t: number): AirfoilKind {
  const r = 0.2025, k1 = 15.957;
  const camber = (x: number) =>
    x < r ? (k1 / 6) * (x ** 3 - 3 * r * x * x + r * r * (3 - r) * x) : ((k1 * r ** 3) / 6) * (1 - x);
  return { name: `NACA 230${Math.round(t * 100)}`, bows: 1, camber, thickness: t };
}

/**
 * A reflexed flying-wing section: the mean line bows up `m` ahead, crosses the chord line at `cross`
 * and turns up to the trailing edge (a reflex of a few tenths of a percent), as Eppler and MH sections
 * for tailless aircraft do.
 */
function reflexed(m: number, cross: number, t: number): AirfoilKind {
  // x (1 − x) (cross − x): zero at both ends and at the crossing, scaled to peak at m.
  const shape = (x: number) => x * (1 - x) * (cross - x);
  let peak = 0;
  for (let i = 0; i <= 100; i++) peak = Math.max(peak, shape(i / 100));
  return {
    name: `reflexed ${(m * 100).toFixed(1)} %`,
    bows: 1,
    camber: (x) => (m * shape(x)) / peak,
    thickness: t,
  };
}

/** The sections the generator draws from. */
export const AIRFOILS: readonly AirfoilKind[] = [
  naca4("2412"),
  naca4("4415"),
  naca4("2415"),
  naca4("0012"),
  naca4("0009"),
  naca230(0.12),
  naca230(0.15),
  reflexed(0.018, 0.8, 0.1),
  reflexed(0.012, 0.72, 0.09),
];

/** One section ring (x along the chord 0…1, y up): trailing edge, upper surface forward, lower aft. */
function ring(kind: AirfoilKind, around: number, lowPoly: boolean, next: () => number): [number, number][] {
  const half = Math.max(2, Math.floor(around / 2));
  // Low-poly rings put their few points where a modeller clicks them: unevenly along the chord.
  const xs = Array.from({ length: half - 1 }, (_, i) => {
    const even = (1 - Math.cos((Math.PI * (i + 1)) / half)) / 2;
    return lowPoly ? Math.min(0.95, Math.max(0.04, even + (next() - 0.5) * 0.1)) : even;
  }).sort((a, b) => a - b);
  const surface = (x: number, side: 1 | -1): [number, number] => {
    // Thickness laid square to the mean line.
    const h = 1e-4,
      slope = (kind.camber(x + h) - kind.camber(Math.max(0, x - h))) / (x + h - Math.max(0, x - h));
    const theta = Math.atan(slope), yt = nacaThickness(kind.thickness, x);
    return [x - side * yt * Math.sin(theta), kind.camber(x) + side * yt * Math.cos(theta)];
  };
  const out: [number, number][] = [[1, kind.camber(1)]];
  for (let i = xs.length - 1; i >= 0; i--) out.push(surface(xs[i], 1));
  out.push([0, 0]);
  for (const x of xs) out.push(surface(x, -1));
  return out;
}

/** A generated wing and what its camber truly says. */
export interface AirfoilWing {
  readonly positions: number[];
  readonly triangles: number[];
  readonly kind: AirfoilKind;
  readonly description: string;
}

/** Adds a lofted, mirrored surface of `kind` to `positions`/`triangles`. */
function loft(
  out: { positions: number[]; triangles: number[] },
  kind: AirfoilKind,
  o: {
    lead: number;
    root: number;
    halfSpan: number;
    rootChord: number;
    taper: number;
    sweep: number;
    dihedral: number;
    washout: number;
    stations: number;
    around: number;
    lowPoly: boolean;
    height: number;
    invert: boolean;
  },
  next: () => number,
) {
  const section = ring(kind, o.around, o.lowPoly, next);
  for (const side of [1, -1]) {
    const base = out.positions.length / 3;
    for (let s = 0; s < o.stations; s++) {
      const f = s / (o.stations - 1), z = o.root + f * o.halfSpan;
      const chord = o.rootChord * (1 - f * (1 - o.taper));
      const le = o.lead + f * o.halfSpan * Math.tan(o.sweep);
      const y0 = o.height + f * o.halfSpan * Math.tan(o.dihedral);
      // Washout: the section turned nose down about its quarter chord, more toward the tip.
      const twist = -f * o.washout, c = Math.cos(twist), sn = Math.sin(twist);
      for (const [x, y] of section) {
        const yy = o.invert ? -y : y, dx = (x - 0.25) * chord, dy = yy * chord;
        // Nose down: the leading edge (dx < 0) goes down, the trailing edge up.
        out.positions.push(le + 0.25 * chord + dx * c + dy * sn, y0 - dx * sn + dy * c, side * z);
      }
    }
    const n = section.length;
    for (let s = 0; s + 1 < o.stations; s++) {
      for (let k = 0; k < n; k++) {
        const a = base + s * n + k, b = base + s * n + ((k + 1) % n);
        out.triangles.push(a, b, b + n, a, b + n, a + n);
      }
    }
  }
}

/** A wing (and half the time a tailplane) of seed `seed`, on a fuselage box (see the module doc). */
export function airfoilWing(seed: number): AirfoilWing {
  const next = prng(seed);
  const between = (a: number, b: number) => a + (b - a) * next();
  const kind = AIRFOILS[Math.floor(next() * AIRFOILS.length)];
  const scale = between(1, 15);
  const lowPoly = next() < 0.35;
  const around = lowPoly ? 6 + Math.floor(next() * 5) : 30 + Math.floor(next() * 51);
  const stations = 3 + Math.floor(next() * 6);
  const wing = {
    lead: 0.3 * scale,
    root: 0.06 * scale,
    halfSpan: between(0.4, 0.7) * scale,
    rootChord: between(0.12, 0.25) * scale,
    taper: between(0.4, 1),
    sweep: (between(0, 35) * Math.PI) / 180,
    dihedral: (between(-2, 8) * Math.PI) / 180,
    washout: (between(0, 5) * Math.PI) / 180,
    stations,
    around,
    lowPoly,
    height: 0,
    invert: false,
  };
  const out = { positions: [] as number[], triangles: [] as number[] };
  // The fuselage: a box along x.
  const w = 0.05 * scale;
  const box = [[0, scale], [-w, w], [-w, w]];
  for (let i = 0; i < 8; i++) out.positions.push(box[0][i & 1], box[1][(i >> 1) & 1], box[2][(i >> 2) & 1]);
  for (
    const [a, b, c, d] of [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]]
  ) {
    out.triangles.push(a, b, c, a, c, d);
  }
  loft(out, kind, wing, next);
  let tail = "no tail";
  if (next() < 0.5) {
    const inverted = next() < 0.4;
    const tailKind = inverted ? naca4("2412") : naca4("0010");
    loft(out, tailKind, {
      ...wing,
      lead: 0.85 * scale,
      root: 0.04 * scale,
      halfSpan: wing.halfSpan * between(0.25, 0.4),
      rootChord: wing.rootChord * between(0.5, 0.8),
      washout: 0,
      height: between(-0.02, 0.05) * scale,
      invert: inverted,
    }, next);
    tail = inverted ? "tail NACA 2412 inverted" : "tail NACA 0010";
  }
  const deg = (r: number) => ((r * 180) / Math.PI).toFixed(0);
  return {
    ...out,
    kind,
    description:
      `seed ${seed}: ${kind.name}, ${lowPoly ? "low-poly " : ""}${around} round, ${stations} stations, ` +
      `sweep ${deg(wing.sweep)}°, dihedral ${deg(wing.dihedral)}°, washout ${deg(wing.washout)}°, ${tail}`,
  };
}
