/**
 * Control surfaces with real airfoil sections, as modellers build them: the wing's section is a NACA
 * 4-digit airfoil; the surface behind it is the airfoil's tail with a rounded (bull) nose — a circle
 * about the hinge — nested in a concave cove cut into the fixed surface ahead. 30–80 vertices around
 * each section, several span stations, taper, sweep and dihedral; optionally modelled deflected at
 * rest (turned about its hinge) and, for flaps, hung on a dropped hinge below the wing with its
 * brackets in the surface's mesh or as objects of their own, and the wing's brackets down to the
 * pivot. The true hinge (the nose circle's centre line, or the brackets'
 * pivot line) comes from the construction. Aircraft coordinates (aft, up, left); deterministic from a
 * seed.
 *
 * @module
 */
import { cross, normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import type { CoarsePanel } from "./coarse_panels.ts";

/** A mesh in aircraft coordinates. */
export interface AircraftMesh {
  readonly positions: Float32Array;
  readonly triangles: Uint32Array;
}

/** A generated surface with the fixed surface ahead of it. */
export interface AirfoilSurface extends CoarsePanel {
  /** The fixed wing (or tail) section ahead, with its cove. */
  readonly wing: AircraftMesh;
  /** The deflection the surface was modelled at, degrees (trailing edge down positive). */
  readonly deflection: number;
  /** For a dropped hinge: how far below the surface's nose the pivot hangs, fraction of its chord. */
  readonly drop: number;
  /** With `bracketsApart`: the surface's brackets, each its own closed box (they turn with it). */
  readonly brackets: AircraftMesh[];
  /** With `wingBrackets`: the wing's brackets down to the pivot, each its own closed box (fixed). */
  readonly wingBrackets: AircraftMesh[];
}

/** Options of {@link airfoilSurface}. */
export interface AirfoilOptions {
  /** Deflection at rest, degrees, trailing edge down positive (default 0). */
  deflection?: number;
  /** Hang the surface on brackets whose pivot lies this far below the nose (fraction of its chord). */
  drop?: number;
  /** Give the dropped hinge's brackets as objects of their own (`brackets`), not in the surface's mesh. */
  bracketsApart?: boolean;
  /** Add brackets on the wing from its lower skin down to the pivot (`wingBrackets`). */
  wingBrackets?: boolean;
  /**
   * The nose's depth along the chord against its half-thickness (default 1: a circle about the
   * hinge; above 1 an ellipse reaching further forward, its centre on the hinge).
   */
  noseAspect?: number;
  /** Least and most sweep of the leading edge, degrees (default −10…40). */
  sweep?: readonly [number, number];
  /** Fewest and most vertices around the surface's section (default 30–80; low-poly models 12–29). */
  around?: readonly [number, number];
  /** A horn balance at the tip: the outboard `span` (fraction) reaches forward of the hinge. */
  horn?: HornOptions;
  /**
   * A trim tab inset in the trailing edge, in the surface's own mesh: over span fractions
   * `from`–`to` the surface is cut back by `chord` of its chord; the tab fills the cut-out, turned
   * by `deflection` degrees (trailing edge down positive) about its own nose.
   */
  tab?: { readonly from: number; readonly to: number; readonly chord: number; readonly deflection: number };
  /** A bevelled nose of flat facets in place of the round one (without a horn or tab). */
  bevel?: BevelOptions;
}

/**
 * A nose modelled as flat facets, its hinge where the round nose's centre would be: a `wedge` (two
 * facets meeting at a point on the nose circle, turned `tilt` radians up or down), a `box` (a flat
 * front face a nose radius ahead of the hinge, its corners chamfered by `chamfer` of the radius: the
 * skins run flat up to the chamfers) or `facets` (three facets with corners on the nose circle, the
 * middle one turned by `tilt`).
 */
export interface BevelOptions {
  readonly shape: "wedge" | "box" | "facets";
  readonly tilt: number;
  readonly chamfer: number;
}

/**
 * A horn balance: the tip of the surface reaching `reach` of its chord forward of the hinge over the
 * outboard `span` of it — all at once (`step`), growing linearly to the tip (`ramp`), or rounded
 * (`round`: a quarter ellipse, steep where it starts). A negative `reach` is a notch: the nose set
 * back behind the hinge (a rudder's root clearing the elevator, a cut-out for a flap track); `at`
 * puts it at the `root` or in the `middle` of the span (a step there) instead of the tip.
 */
export interface HornOptions {
  readonly span: number;
  readonly reach: number;
  readonly shape: "step" | "ramp" | "round";
  readonly at?: "tip" | "root" | "middle";
}

const AFT: Vec3 = [1, 0, 0];

/** The corners of a bevelled nose about (cx, cy), `depth` ahead and `rr` up and down, top first. */
function bevelled(
  bevel: BevelOptions,
  cx: number,
  cy: number,
  depth: number,
  rr: number,
): [number, number][] {
  const on = (a: number): [number, number] => [cx + depth * Math.cos(a), cy + rr * Math.sin(a)];
  if (bevel.shape === "wedge") return [on(Math.PI / 2), on(Math.PI + bevel.tilt), on(1.5 * Math.PI)];
  if (bevel.shape === "facets") {
    return [
      on(Math.PI / 2),
      on(Math.PI * 5 / 6 + bevel.tilt),
      on(Math.PI * 7 / 6 + bevel.tilt),
      on(1.5 * Math.PI),
    ];
  }
  const c = bevel.chamfer * rr;
  return [
    [cx, cy + rr],
    [cx - depth + c, cy + rr],
    [cx - depth, cy + rr - c],
    [cx - depth, cy - rr + c],
    [cx - depth + c, cy - rr],
    [cx, cy - rr],
  ];
}

/** NACA 4-digit half thickness (fraction of chord) at x (fraction of chord). */
export function nacaThickness(t: number, x: number): number {
  return 5 * t * (0.2969 * Math.sqrt(x) - 0.126 * x - 0.3516 * x * x + 0.2843 * x ** 3 - 0.1015 * x ** 4);
}

/** NACA 4-digit camber line height at x for camber m at p. */
export function nacaCamber(m: number, p: number, x: number): number {
  if (m === 0) return 0;
  return x < p ? (m / (p * p)) * (2 * p * x - x * x) : (m / (1 - p) ** 2) * (1 - 2 * p + 2 * p * x - x * x);
}

/**
 * One random control surface behind a fixed surface, with real sections (see the module doc). The
 * surface's `chord` is measured from its hinge to its trailing edge.
 */
export function airfoilSurface(next: () => number, options: AirfoilOptions = {}): AirfoilSurface {
  const between = (a: number, b: number) => a + (b - a) * next();
  const deflection = options.deflection ?? 0, drop = options.drop ?? 0;
  const stations = 3 + Math.floor(next() * 6);
  const spanLength = between(0.8, 4);
  const rootChord = between(0.8, 2.5);
  const taper = between(0.4, 1);
  const sweep = (between(...(options.sweep ?? [-10, 40])) * Math.PI) / 180;
  const dihedral = (between(-5, 10) * Math.PI) / 180;
  const m = next() < 0.3 ? 0 : between(0.01, 0.04), p = between(0.3, 0.5), t = between(0.09, 0.18);
  const xh = between(0.65, 0.82); // hinge, fraction of the wing chord
  const k = between(0.8, 0.97); // the surface's thickness against the wing's
  const [fewest, most] = options.around ?? [30, 80];
  const around = fewest + Math.floor(next() * (most - fewest + 1)); // vertices around the surface's section
  const gap = between(0.002, 0.01);
  const span: Vec3 = [0, Math.sin(dihedral), Math.cos(dihedral)];
  const up = normalize(cross(span, AFT));
  const root: Vec3 = [between(-3, 3), between(-1, 1), between(0.5, 3)];
  const lead = (s: number): Vec3 =>
    [0, 1, 2].map((i) => root[i] + s * spanLength * (span[i] + Math.tan(sweep) * AFT[i])) as Vec3;
  const chordAt = (s: number) => rootChord * (1 - s * (1 - taper));
  const yc = (x: number) => nacaCamber(m, p, x), yt = (x: number) => nacaThickness(t, x);
  const r = k * yt(xh), R = Math.min(yt(xh), r + gap);
  const centre: [number, number] = [xh, yc(xh)];
  // Where the hinge hangs, in section coordinates (a dropped hinge sits below and a little ahead).
  const flapChord = 1 - xh;
  const pivot: [number, number] = drop > 0 ? [xh - 0.05 * flapChord, yc(xh) - r - drop * flapChord] : centre;

  // The surface's section (x, y as fractions of the wing chord): trailing edge, upper surface
  // forward, the nose arc about the centre, the lower surface aft.
  const aspect = options.noseAspect ?? 1;
  const nose = Math.max(5, Math.round(around * 0.3));
  const tail = Math.max(3, Math.floor((around - nose) / 2));
  // The section about a nose circle centred at x = cx (radius rr): the main span's is about the
  // hinge; a horn balance's, further forward, has the same number of points so rings join.
  // `xe` is where it ends aft: the trailing edge, or a cut-out's face ahead of an inset tab.
  const sectionAbout = (cx: number, rr: number, xe = 1): [number, number][] => {
    const out: [number, number][] = [[xe, yc(xe)]];
    for (let i = tail - 1; i >= 1; i--) {
      const x = cx + (xe - cx) * (1 - Math.cos((Math.PI / 2) * (i / tail)));
      out.push([x, yc(x) + k * yt(x) * (1 - 0.98 * ((x - cx) / (1 - cx)) ** 8)]);
    }
    if (options.bevel) out.push(...bevelled(options.bevel, cx, yc(cx), aspect * rr, rr));
    else {for (let i = 0; i <= nose; i++) {
        const a = Math.PI / 2 + (Math.PI * i) / nose;
        out.push([cx + aspect * rr * Math.cos(a), yc(cx) + rr * Math.sin(a)]);
      }}
    for (let i = 1; i < tail; i++) {
      const x = cx + (xe - cx) * (1 - Math.cos((Math.PI / 2) * (i / tail)));
      out.push([x, yc(x) - k * yt(x) * (1 - 0.98 * ((x - cx) / (1 - cx)) ** 8)]);
    }
    return out;
  };
  const section = sectionAbout(xh, r);
  // A horn balance: outboard of `1 − horn.span` the nose reaches forward of the hinge.
  const horn = options.horn;
  const at = horn?.at ?? "tip";
  const hornFrom = horn ? 1 - horn.span : 1;
  // The span range it covers, and how far into it (0 at its inner boundary, 1 at its free end).
  const [from, to] = !horn
    ? [1, 1]
    : at === "tip"
    ? [hornFrom, 1]
    : at === "root"
    ? [0, horn.span]
    : [0.5 - horn.span / 2, 0.5 + horn.span / 2];
  const reachAt = (s: number): number => {
    // Nothing on the inner boundary (and outside); a tip's or root's free end is in it.
    if (!horn || s < from || s > to || (at !== "root" && s === from) || (at !== "tip" && s === to)) return 0;
    const f = at === "middle" ? 1 : Math.min(1, (at === "tip" ? s - from : to - s) / horn.span);
    const shape = horn.shape === "step" ? 1 : horn.shape === "ramp" ? f : Math.sqrt(1 - (1 - f) ** 2);
    return horn.reach * flapChord * shape;
  };
  // An inset tab: over its span the surface ends at the cut-out's face ahead of it.
  const tab = options.tab;
  const tabFace = tab ? 1 - tab.chord * flapChord : 1;
  const sectionAt = (s: number): [number, number][] => {
    if (tab && s > tab.from && s < tab.to) return sectionAbout(xh, r, tabFace);
    const reach = reachAt(s);
    if (reach === 0) return section;
    const cx = xh - reach;
    return sectionAbout(cx, reach > 0 ? Math.min(k * yt(cx), reach + r) : Math.min(k * yt(cx), r));
  };
  // Brackets of a dropped hinge: a thin plate from the lower surface down to the pivot, at three
  // span positions (their own rings, closed boxes, added below).
  // The fixed wing's section: upper surface forward to the leading edge, lower surface aft, the
  // concave cove about the hinge.
  const wingSection: [number, number][] = [];
  const ahead = 24;
  for (let i = ahead; i >= 0; i--) {
    const x = xh * (1 - Math.cos((Math.PI / 2) * (i / ahead)));
    wingSection.push([x, yc(x) + yt(x)]);
  }
  for (let i = 1; i <= ahead; i++) {
    const x = xh * (1 - Math.cos((Math.PI / 2) * (i / ahead)));
    wingSection.push([x, yc(x) - yt(x)]);
  }
  if (R < yt(xh) - 1e-9) wingSection.push([xh, yc(xh) - R]);
  for (let i = 1; i < 12; i++) {
    const a = -Math.PI / 2 - (Math.PI * i) / 12;
    wingSection.push([centre[0] + R * Math.cos(a), centre[1] + R * Math.sin(a)]);
  }
  if (R < yt(xh) - 1e-9) wingSection.push([xh, yc(xh) + R]);

  const ts = Array.from({ length: stations }, (_, i) => i / (stations - 1));
  if (horn) {
    // Rings where the horn starts (a step's on both sides of it) and across it.
    const edges = at === "tip" ? [from] : at === "root" ? [to] : [from, to];
    if (horn.shape === "step" || at === "middle") { for (const e of edges) ts.push(e - 1e-3, e + 1e-3); }
    // (From the inner boundary toward the free end, which is a station already.)
    else {for (let j = 0; j < 4; j++) {
        ts.push(at === "tip" ? from + (horn.span * j) / 4 : to - (horn.span * j) / 4);
      }}
    ts.sort((a, b) => a - b);
  }
  if (tab) {
    ts.push(tab.from - 1e-3, tab.from + 1e-3, tab.to - 1e-3, tab.to + 1e-3);
    ts.sort((a, b) => a - b);
  }
  const place = (s: number, x: number, y: number): Vec3 => {
    const c = chordAt(s), l = lead(s);
    return [0, 1, 2].map((i) => l[i] + x * c * AFT[i] + y * c * up[i]) as Vec3;
  };
  const hingeRoot = place(0, ...pivot), hingeTip = place(1, ...pivot);
  const axis = normalize([0, 1, 2].map((i) => hingeTip[i] - hingeRoot[i]));
  // Turning about the hinge, trailing edge down for a positive angle.
  const turn = (q: Vec3): Vec3 => {
    if (!deflection) return q;
    const sign = axis[2] * up[1] - axis[1] * up[2] > 0 ? 1 : -1; // (axis × up)·aft
    const angle = (-sign * deflection * Math.PI) / 180;
    const d: Vec3 = [q[0] - hingeRoot[0], q[1] - hingeRoot[1], q[2] - hingeRoot[2]];
    const c = Math.cos(angle), sn = Math.sin(angle), dot = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
    const x = cross(axis, d);
    return [0, 1, 2].map((i) => hingeRoot[i] + d[i] * c + x[i] * sn + axis[i] * dot * (1 - c)) as Vec3;
  };
  const surface = loft(ts, horn || tab ? sectionAt : section, (s, x, y) => turn(place(s, x, y)), next, true);
  if (tab) {
    // The tab, in the same mesh: its own rounded nose a little behind the cut-out's face, turned
    // about its nose's centre by its own deflection, then with the surface.
    const gap = 0.01 * flapChord, cxt = tabFace + gap + 0.3 * k * yt(tabFace);
    const rt = 0.3 * k * yt(tabFace);
    const tabSection = sectionAbout(cxt, rt);
    const inset = 0.01;
    const a = place(tab.from + inset, cxt, yc(cxt)), b = place(tab.to - inset, cxt, yc(cxt));
    const tabAxis = normalize([0, 1, 2].map((i) => b[i] - a[i]));
    const sign = tabAxis[2] * up[1] - tabAxis[1] * up[2] > 0 ? 1 : -1;
    const tabTurn = (q: Vec3) => aboutLine(q, a, tabAxis, (-sign * tab.deflection * Math.PI) / 180);
    appendLoft(
      surface,
      [tab.from + inset, tab.to - inset],
      tabSection,
      (ss, x, y) => turn(tabTurn(place(ss, x, y))),
      next,
      true,
    );
  }
  const brackets: Loft[] = [], wingBrackets: Loft[] = [];
  if (drop > 0) {
    // Three brackets, each a thin closed box from the surface's lower skin down to the pivot.
    const width = 0.01 * rootChord;
    for (const s of [0.15, 0.5, 0.85]) {
      const lower = yc(xh + 0.15 * flapChord) - k * yt(xh + 0.15 * flapChord);
      const plate: [number, number][] = [
        [pivot[0] - 0.02 * flapChord, pivot[1]],
        [pivot[0] + 0.02 * flapChord, pivot[1] - 0.02 * flapChord],
        [xh + 0.3 * flapChord, lower],
        [xh + 0.05 * flapChord, yc(xh) - 0.5 * r],
      ];
      const sw = spanLength > 0 ? width / spanLength : 0;
      const into = options.bracketsApart ? { positions: [], triangles: [] } : surface;
      appendLoft(into, [s - sw, s + sw], plate, (ss, x, y) => turn(place(ss, x, y)), next, true);
      if (into !== surface) brackets.push(into);
      if (options.wingBrackets) {
        // The wing's half: from its lower skin ahead of the cove down to the pivot, beside the
        // surface's (it stays put when the surface turns).
        const x0 = xh - 0.5 * flapChord, x1 = xh - 0.15 * flapChord;
        const fixed: [number, number][] = [
          [x0, yc(x0) - yt(x0)],
          [x1, yc(x1) - yt(x1)],
          [pivot[0] + 0.03 * flapChord, pivot[1] - 0.03 * flapChord],
          [pivot[0] - 0.03 * flapChord, pivot[1] - 0.03 * flapChord],
        ];
        const wing: Loft = { positions: [], triangles: [] };
        appendLoft(wing, [s + sw, s + 3 * sw], fixed, place, next, true);
        wingBrackets.push(wing);
      }
    }
  }
  // A horn's fixed surface ends where the horn begins (the horn sticks out at the tip).
  const tipHorn = horn !== undefined && horn.reach > 0 && at === "tip";
  const wing = loft(tipHorn ? ts.filter((s) => s < hornFrom) : ts, wingSection, place, next, false);
  const mid = place(0.5, ...pivot);
  const truthTip = place(1, ...pivot), truthRoot = place(0, ...pivot);
  const spanTrue = Math.hypot(...[0, 1, 2].map((i) => truthTip[i] - truthRoot[i]));
  return {
    positions: new Float32Array(surface.positions),
    triangles: new Uint32Array(surface.triangles),
    wing: { positions: new Float32Array(wing.positions), triangles: new Uint32Array(wing.triangles) },
    brackets: brackets.map(mesh),
    wingBrackets: wingBrackets.map(mesh),
    origin: mid,
    axis,
    span: spanTrue,
    chord: flapChord * chordAt(0.5),
    features: [],
    deflection,
    drop,
    description: `${stations} stations, ${around} around, NACA ${Math.round(m * 100)}${Math.round(p * 10)}${
      Math.round(t * 100)
    }, hinge at ${(xh * 100).toFixed(0)} %, nose radius ${
      (r / flapChord * 100).toFixed(1)
    } % of its chord, chord ${rootChord.toFixed(2)}×${taper.toFixed(2)}, sweep ${
      ((sweep * 180) / Math.PI).toFixed(0)
    }°, dihedral ${((dihedral * 180) / Math.PI).toFixed(0)}°${
      deflection ? `, deflected ${deflection}°` : ""
    }${drop ? `, dropped hinge ${(drop * 100).toFixed(0)} %` : ""}${
      horn
        ? `, ${horn.shape} ${horn.reach > 0 ? "horn" : "notch"} at the ${at} over ${
          (horn.span * 100).toFixed(0)
        } % of span reaching ${(horn.reach * 100).toFixed(0)} % of chord`
        : ""
    }`,
  };
}

/** A section, the same at every span position or given per position (the same point count). */
type Section = readonly [number, number][] | ((s: number) => readonly [number, number][]);

/** `q` turned by `angle` (radians, right hand) about the line through `at` along unit `axis`. */
function aboutLine(q: Vec3, at: Vec3, axis: Vec3, angle: number): Vec3 {
  if (!angle) return q;
  const d: Vec3 = [q[0] - at[0], q[1] - at[1], q[2] - at[2]];
  const c = Math.cos(angle), sn = Math.sin(angle), dot = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
  const x = cross(axis, d);
  return [0, 1, 2].map((i) => at[i] + d[i] * c + x[i] * sn + axis[i] * dot * (1 - c)) as Vec3;
}

interface Loft {
  positions: number[];
  triangles: number[];
}

function mesh(loft: Loft): AircraftMesh {
  return { positions: new Float32Array(loft.positions), triangles: new Uint32Array(loft.triangles) };
}

/** Rings of `section` at span positions `ts`, joined by quads split either way; caps when `closed`. */
function loft(
  ts: readonly number[],
  section: Section,
  place: (s: number, x: number, y: number) => Vec3,
  next: () => number,
  caps: boolean,
): Loft {
  const out: Loft = { positions: [], triangles: [] };
  appendLoft(out, ts, section, place, next, caps);
  return out;
}

function appendLoft(
  out: Loft,
  ts: readonly number[],
  section: Section,
  place: (s: number, x: number, y: number) => Vec3,
  next: () => number,
  caps: boolean,
): void {
  const ring = (s: number) => typeof section === "function" ? section(s) : section;
  const first = out.positions.length / 3, n = ring(ts[0]).length;
  for (const s of ts) for (const [x, y] of ring(s)) out.positions.push(...place(s, x, y));
  for (let i = 0; i + 1 < ts.length; i++) {
    for (let j = 0; j < n; j++) {
      const a = first + i * n + j, b = first + i * n + ((j + 1) % n), c = a + n, d = b + n;
      if (next() < 0.5) out.triangles.push(a, c, b, b, c, d);
      else out.triangles.push(a, c, d, a, d, b);
    }
  }
  if (caps) {
    const last = first + (ts.length - 1) * n;
    for (let j = 1; j + 1 < n; j++) {
      out.triangles.push(first, first + j + 1, first + j, last, last + j, last + j + 1);
    }
  }
}
