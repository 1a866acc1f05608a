/**
 * Airbrakes that slide: a glider's Schempp-Hirth blade stands upright in the wing (tall along the
 * wing's normal, thin along the chord, long along the span) and slides straight up out of the upper
 * skin (a lower blade down out of the lower one), often under a cap plate flush with the skin when
 * retracted. Hinged at its forward edge like a fighter's air brake it would swing through the wing:
 * such a blade is a slider along the wing's normal, its travel about its own height. A flat plate
 * lying in the skin (a spoiler, a fighter's brake) is no blade and stays hinged. The geometry decides;
 * an upper or lower word in the name (`Bremsklappe_oben_L`, `Airbrake_Lower_R`) says which skin.
 *
 * @module
 */
import { tokenize } from "./vocabulary.ts";
import { cross, dot, normalize, type Vec3 } from "./transform.ts";

/** A panel's drawn geometry in aircraft coordinates (aft, up, left). */
export interface BladeGeometry {
  readonly positions: ArrayLike<number>;
  readonly count: number;
  readonly triangles?: ArrayLike<number>;
}

/** Fixed geometry (aircraft coordinates), as `BodySampler.othersThan` gives it. */
export type FixedMeshes = Iterable<
  { positions: ArrayLike<number>; count: number; triangles: ArrayLike<number> }
>;

/** The fixed geometry whose boxes reach into the cube about `centre` of half-side `reach`. */
export type FixedNear = (centre: Vec3, reach: number) => FixedMeshes;

/** How a blade slides: along `direction` (aircraft, unit, out of its skin) from `origin`, over `min`…`max`. */
export interface BladeSlide {
  /** Unit slide direction, aircraft coordinates: out of the skin the blade comes through. */
  readonly direction: Vec3;
  /** Where the blade meets its skin, mid-span (aircraft coordinates): the pivot's place. */
  readonly origin: Vec3;
  /** Which skin it slides out of. */
  readonly surface: "upper" | "lower";
  /** As modelled: inside the wing, or standing out of it. */
  readonly pose: "retracted" | "extended";
  /** Its height along the slide, aircraft units. */
  readonly height: number;
  /** Its length along the span, aircraft units. */
  readonly span: number;
  /** Limits along `direction`, aircraft units: 0…height retracted, −(what stands out)…0 extended. */
  readonly min: number;
  readonly max: number;
  /** Why it slides (for `fit.rule_why`). */
  readonly why: string;
  /** What leaves it unsure (the fit is then weak), if anything. */
  readonly doubt?: string;
}

/**
 * The upright blade's share of area facing along the flow (after leaving out its ends, where a cap
 * and its root lie flat): at least this many times the area facing up and the area facing the span —
 * its faces within 14° of square to the flow. A spoiler plate a posed model draws raised 70° (ground
 * spoilers open 60°) faces the flow only 2.7 times as much as up: it stays hinged.
 */
const FACES_FLOW = 4;

/**
 * A plate drawn standing out of a skin that reaches no further into the wing than this share of its
 * height is turned out of it about its edge in the skin, not slid (a dive brake drawn open); a blade
 * drawn extended keeps a tenth or more of itself in the wing.
 */
const EDGE_IN_SKIN = 0.05;

/** A blade is at least this many times longer along the span than tall. */
const LONG_SPAN = 2;

/** Tokens that put a brake in the upper or lower skin (English, German, Polish, Czech; accents dropped). */
const UPPER_WORDS = new Set([
  "upper",
  "top",
  "dorsal",
  "up",
  "oben",
  "obere",
  "oberseite",
  "gorny",
  "gorne",
  "horni",
]);
const LOWER_WORDS = new Set([
  "lower",
  "bottom",
  "under",
  "ventral",
  "down",
  "unten",
  "untere",
  "unterseite",
  "dolny",
  "dolne",
  "dolni",
]);

/** Which skin a brake's name puts it in (`Bremsklappe_oben_L` upper, `Hamulec_dolny_P` lower). */
export function skinFromName(name: string): "upper" | "lower" | undefined {
  const tokens = tokenize(name);
  if (tokens.some((t) => UPPER_WORDS.has(t))) return "upper";
  if (tokens.some((t) => LOWER_WORDS.has(t))) return "lower";
  return undefined;
}

/** What the caller knows of the aircraft, asked only when the shape cannot tell. */
export interface BladeOptions {
  /**
   * Why the aircraft is a glider (its names, or long thin wings and no engine), else undefined: a
   * glider's plate standing out of a skin with its edge on it is a blade drawn as far as it shows.
   */
  readonly glider?: () => string | undefined;
  /**
   * Also read a plate standing out of a skin more steeply than it lies (its middle facing the flow
   * more than up: an air brake's, a dive brake drawn open 45–90°) for an edge in that skin, though it
   * is too far off square to the flow to be a blade.
   */
  readonly plates?: boolean;
}

/**
 * How a brake slides when it is an upright blade in a wing, else undefined (a flat plate, a blade
 * standing nowhere in a wing's skin: hinged as before).
 *
 * @example
 * ```ts
 * const slide = bladeSlide("Airbrake_L", blade, (centre, reach) => body.othersThan(panel, { near: { centre, reach } }));
 * slide?.direction; // ≈ [0, 1, 0] for a blade in the upper skin
 * ```
 */
export function bladeSlide(
  name: string,
  blade: BladeGeometry,
  near: FixedNear,
  options: BladeOptions = {},
): BladeSlide | undefined {
  const reading = brakeReading(name, blade, near, options);
  return reading && "slide" in reading ? reading.slide : undefined;
}

/**
 * A plate drawn standing out of one skin with its inner end on that skin at both ends of its span (a
 * dive brake drawn open): the edge it turns about and the wing's frame there (aircraft coordinates).
 */
export interface OpenEdge {
  /** The plate's inner end: its points within 5 % of its height of the skin, at both ends of its span. */
  readonly points: readonly Vec3[];
  /** Which skin it stands out of. */
  readonly surface: "upper" | "lower";
  /** The wing's normal there, turned up. */
  readonly up: Vec3;
  /** Aft along the wing's skin there (square to `up`). */
  readonly aft: Vec3;
}

/** What a brake's shape reads as: a blade that slides, a plate drawn open about its edge in a skin. */
export type BrakeReading = { readonly slide: BladeSlide } | { readonly open: OpenEdge };

/**
 * {@link bladeSlide}'s reading, with the plate drawn open that it leaves hinged: its edge in the skin,
 * for the hinge to lie on (`open_plates.ts`). Undefined for a flat plate or a blade in no wing's skin.
 */
export function brakeReading(
  name: string,
  blade: BladeGeometry,
  near: FixedNear,
  options: BladeOptions = {},
): BrakeReading | undefined {
  const { positions, count } = blade, triangles = blade.triangles;
  if (!triangles || triangles.length < 3 || count < 4) return undefined;
  const box = boxOf(positions, count, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
  if (!box) return undefined;
  // Too short along the span for a blade, even as its box reads it across a dihedral.
  if (box.hi[2] - box.lo[2] < LONG_SPAN * Math.min(box.hi[1] - box.lo[1], box.hi[0] - box.lo[0])) {
    return undefined;
  }
  // The same faces read in the aircraft's axes first, loosely (a dihedral's rise along the span brings a
  // cap into the middle): a flat plate (a spoiler, a fighter's brake: its edges a tenth of its faces or
  // less) stops here, before the wing about it is read.
  const rough = middleFaces(positions, triangles, [[1, 0, 0], [0, 1, 0], [0, 0, 1]], box.lo[1], box.hi[1]);
  // A plate standing steeply out of a skin is read on only for an edge in it (options.plates).
  const steep = (f: number[]) => options.plates === true && f[0] > 0 && f[0] >= f[1] && f[0] >= f[2];
  let plateOnly = false;
  if (!(rough[0] > 0) || 4 * rough[0] < rough[1] || 4 * rough[0] < rough[2]) {
    if (!steep(rough)) return undefined;
    plateOnly = true;
  }
  const centre = box.lo.map((l, k) => (l + box.hi[k]) / 2) as Vec3;
  const reach = Math.max(box.hi[0] - box.lo[0], box.hi[1] - box.lo[1], box.hi[2] - box.lo[2]) / 2;
  // The wing's skins where the blade stands, and their normal: the blade is measured in the wing's frame
  // (up its normal, along its span), so a dihedral's rise along the span is no height.
  const skins = skinsAt(box.lo, box.hi, near(centre, 2 * reach));
  if (!skins) return undefined;
  const up = skins.normal, along = normalize(rejectFrom([0, 0, 1], up)), aft = cross(up, along);
  const frame: [Vec3, Vec3, Vec3] = [aft, up, along];
  const own = boxOf(positions, count, frame)!;
  const { lo, hi } = own;
  const height = hi[1] - lo[1], span = hi[2] - lo[2];
  if (!(height > 0) || span < LONG_SPAN * height) return undefined;
  const faces = middleFaces(positions, triangles, frame, lo[1], hi[1]);
  if (!(faces[0] > 0) || faces[0] < FACES_FLOW * faces[1] || faces[0] < FACES_FLOW * faces[2]) {
    if (!steep(faces)) return undefined;
    plateOnly = true;
  }
  // The skins' heights along the wing's normal.
  const top = dot(skins.topPoint, up), bottom = dot(skins.bottomPoint, up);
  const tolerance = 0.2 * height;
  // Touching the wing: a blade hanging below it on struts or floating above is no airbrake in its skin.
  if (lo[1] > top + tolerance || hi[1] < bottom - tolerance) return undefined;
  const named = skinFromName(name);
  const standsUp = hi[1] > top + tolerance, standsDown = lo[1] < bottom - tolerance;
  const flushTop = Math.abs(hi[1] - top) <= tolerance, flushBottom = Math.abs(lo[1] - bottom) <= tolerance;
  let surface: "upper" | "lower", pose: "retracted" | "extended", doubt: string | undefined;
  let place: string;
  if (standsUp !== standsDown) {
    surface = standsUp ? "upper" : "lower", pose = "extended";
    place = `standing out of the ${surface} skin`;
  } else if (!standsUp && flushTop !== flushBottom) {
    surface = flushTop ? "upper" : "lower", pose = "retracted";
    place = `inside the wing, flush with its ${surface} skin`;
  } else {
    surface = "upper", pose = standsUp ? "extended" : "retracted";
    place = standsUp ? "standing out of both skins" : "filling the wing's depth";
    // A blade filling the wing's depth is a lone one, and a lone Schempp-Hirth blade comes out of the
    // upper skin (a lower blade is the second of a pair, each in its half); one standing out of both
    // skins at once shows neither, unless its name says.
    if (standsUp && !named) {
      doubt = `it stands ${place}, so which skin it slides out of is a guess (the upper): name it ` +
        "upper or lower (Airbrake_Upper_L) or give it ctrl_type extras";
    }
  }
  if (named && named !== surface) {
    // The name wins over a pose the shape reads only one way (a blade modelled half out), said.
    doubt = `its name says the ${named} skin but it stands ${place}: taken as the name says`;
    surface = named;
  }
  const upper = surface === "upper";
  // Drawn out of its skin with nothing inside the wing: a plate turned out of the skin about the edge that
  // sits in it (a Ju 87's or Dauntless's dive brake drawn open), hinged. A blade slides through its slot:
  // drawn extended, its root still reaches into the wing (its box's guide; modellers draw it whole).
  // Drawn out of one skin: its inner end sitting on that skin (no deeper) is a hinged plate's edge.
  if (pose === "extended" && standsUp !== standsDown) {
    // Its inner end at each end of its span (a skin's slope along a tapered wing tilts it off the frame).
    const band = EDGE_IN_SKIN * height, midSpan = (lo[2] + hi[2]) / 2, sign = upper ? -1 : 1;
    const points = Array.from({ length: count }, (_, i): Vec3 => [
      positions[3 * i],
      positions[3 * i + 1],
      positions[3 * i + 2],
    ]);
    const halves = [0, 1].map((h) => points.filter((p) => (dot(p, along) < midSpan ? 0 : 1) === h));
    const ends = halves.flatMap((half) => {
      const inner = Math.max(...half.map((p) => sign * dot(p, up)));
      return half.filter((p) => sign * dot(p, up) >= inner - band);
    });
    const onSkin = edgeOnSkin(ends, near(centre, 2 * reach), band);
    // A plate too far off square to the flow for a blade: hinged, on its edge where it has one in the skin
    // (on a glider too: its blades stand square; a spoiler raised there keeps the fit it had).
    if (plateOnly) {
      return onSkin && !options.glider?.() ? { open: { points: ends, surface, up, aft } } : undefined;
    }
    if (onSkin) {
      // A glider has no dive brakes turning out of its skins: a blade drawn only as far as it shows.
      const glider = options.glider?.();
      if (!glider) return { open: { points: ends, surface, up, aft } };
      doubt = `its root is drawn on the ${surface} skin, as a hinged dive brake's edge sits; on a glider ` +
        `(${glider}) taken as a blade drawn as far as it shows`;
    }
  }
  if (plateOnly) return undefined;
  const direction: Vec3 = upper ? up : [-up[0], -up[1], -up[2]];
  const skin = upper ? top : bottom;
  // Extended: what stands out slides back in; retracted: the whole blade slides out.
  const out = upper ? hi[1] - top : bottom - lo[1];
  const extended = pose === "extended" && out > tolerance;
  const min = extended ? -out : 0, max = extended ? 0 : height;
  // Where the blade meets its skin, mid-span and mid-chord: back from the wing's frame.
  const mid = [(lo[0] + hi[0]) / 2, skin, (lo[2] + hi[2]) / 2];
  const origin = [0, 1, 2].map((k) => mid[0] * aft[k] + mid[1] * up[k] + mid[2] * along[k]) as Vec3;
  const why = `an upright blade in the wing (${fmt(height)} tall, ${fmt(hi[0] - lo[0])} along the chord, ` +
    `${fmt(span)} along the span) ${place}: it slides ${
      upper ? "up out of the upper" : "down out of the lower"
    } ` +
    `skin along the wing's normal, ${extended ? `back in by ${fmt(max - min)}` : "out by its height"}, ` +
    "as Schempp-Hirth airbrakes do";
  return {
    slide: {
      direction,
      origin,
      surface,
      pose: extended ? "extended" : "retracted",
      height,
      span,
      min,
      max,
      why,
      ...(doubt ? { doubt } : {}),
    },
  };
}

/**
 * The area of a blade's triangles facing along each axis of `frame` (aft, up, along the span), over its
 * middle: its top and bottom fifth of `lo`…`hi` up left out (a cap plate, the blade's root; a cap 4 mm
 * thick on a blade 35 mm tall reaches past a tenth of it).
 */
function middleFaces(
  positions: ArrayLike<number>,
  triangles: ArrayLike<number>,
  frame: readonly Vec3[],
  lo: number,
  hi: number,
): number[] {
  const band = 0.2 * (hi - lo), faces = [0, 0, 0];
  const at = (i: number, k: number) =>
    positions[i] * frame[k][0] + positions[i + 1] * frame[k][1] + positions[i + 2] * frame[k][2];
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const a = 3 * triangles[t], b = 3 * triangles[t + 1], c = 3 * triangles[t + 2];
    const y = (at(a, 1) + at(b, 1) + at(c, 1)) / 3;
    if (y < lo + band || y > hi - band) continue;
    const u = [0, 1, 2].map((k) => at(b, k) - at(a, k));
    const v = [0, 1, 2].map((k) => at(c, k) - at(a, k));
    const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    for (let k = 0; k < 3; k++) faces[k] += Math.abs(n[k]) / 2;
  }
  return faces;
}

/**
 * The wing's skins through a blade's box: a point on the upper and on the lower skin (vertical rays at
 * three span stations, through its middle and a little fore and aft of it, where a slot may be cut)
 * and the skins' normal there (area-weighted, turned up); undefined when no ray meets two skins.
 */
function skinsAt(
  lo: Vec3,
  hi: Vec3,
  fixed: FixedMeshes,
): { topPoint: Vec3; bottomPoint: Vec3; normal: Vec3 } | undefined {
  const depth = Math.max(hi[0] - lo[0], 0.05 * (hi[2] - lo[2]));
  const xs = [(lo[0] + hi[0]) / 2, lo[0] - depth, hi[0] + depth];
  const zs = [0.25, 0.5, 0.75].map((f) => lo[2] + f * (hi[2] - lo[2]));
  const rays = xs.flatMap((x) => zs.map((z) => ({ x, z, hits: [] as number[] })));
  const normal = [0, 0, 0];
  const [x0, x1] = [lo[0] - 2 * depth, hi[0] + 2 * depth];
  for (const mesh of fixed) {
    const p = mesh.positions, tri = mesh.triangles;
    for (let t = 0; t + 2 < tri.length; t += 3) {
      const a = 3 * tri[t], b = 3 * tri[t + 1], c = 3 * tri[t + 2];
      const minX = Math.min(p[a], p[b], p[c]), maxX = Math.max(p[a], p[b], p[c]);
      const minZ = Math.min(p[a + 2], p[b + 2], p[c + 2]), maxZ = Math.max(p[a + 2], p[b + 2], p[c + 2]);
      if (maxX < x0 || minX > x1 || maxZ < lo[2] || minZ > hi[2]) continue;
      const u = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
      const v = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const area = Math.hypot(n[0], n[1], n[2]);
      if (!(area > 0) || Math.abs(n[1]) < 0.8 * area) continue;
      // Skin facing up or down: its normal, turned up, counts for the wing's normal there.
      const s = n[1] < 0 ? -1 : 1;
      for (let k = 0; k < 3; k++) normal[k] += s * n[k];
      for (const ray of rays) {
        if (ray.x < minX || ray.x > maxX || ray.z < minZ || ray.z > maxZ) continue;
        // Barycentric coordinates of the ray's foot in the triangle's plan (x, z).
        const d = u[0] * v[2] - u[2] * v[0];
        if (d === 0) continue;
        const px = ray.x - p[a], pz = ray.z - p[a + 2];
        const beta = (px * v[2] - pz * v[0]) / d, gamma = (u[0] * pz - u[2] * px) / d;
        if (beta < -1e-9 || gamma < -1e-9 || beta + gamma > 1 + 1e-9) continue;
        ray.hits.push(p[a + 1] + beta * u[1] + gamma * v[1]);
      }
    }
  }
  // Per span station: the ray through the blade's middle where it meets both skins, else the mean of
  // the rays fore and aft of it (a slot cut for the blade; their mean cancels the skin's slope there).
  const tops: Vec3[] = [], bottoms: Vec3[] = [];
  zs.forEach((z, j) => {
    const [middle, fore, aft] = [0, 1, 2].map((i) => rays[i * zs.length + j]);
    const read = [middle].filter((r) => r.hits.length >= 2);
    const sides = [fore, aft].filter((r) => r.hits.length >= 2);
    const used = read.length ? read : sides;
    if (!used.length) return;
    const mean = (f: (hits: number[]) => number) => used.reduce((sum, r) => sum + f(r.hits), 0) / used.length;
    const x = used.reduce((sum, r) => sum + r.x, 0) / used.length;
    tops.push([x, mean((h) => Math.max(...h)), z]);
    bottoms.push([x, mean((h) => Math.min(...h)), z]);
  });
  if (tops.length === 0 || !(Math.hypot(normal[0], normal[1], normal[2]) > 0)) return undefined;
  // The middle station's skins where it has them (each a point: heights are read along the normal).
  const k = tops.length >> 1;
  return {
    topPoint: tops[k],
    bottomPoint: bottoms[k],
    normal: normalize(normal),
  };
}

/** The box of `count` points along the three unit directions of `frame`; undefined if one is not finite. */
function boxOf(
  positions: ArrayLike<number>,
  count: number,
  frame: readonly Vec3[],
): { lo: Vec3; hi: Vec3 } | undefined {
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      const v = dot([positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]], frame[k]);
      if (!Number.isFinite(v)) return undefined;
      lo[k] = Math.min(lo[k], v), hi[k] = Math.max(hi[k], v);
    }
  }
  return { lo, hi };
}

/**
 * Whether `points` (a plate's inner end) all lie on the fixed skin: each within `within` of a triangle
 * of it. A blade drawn extended reaches on into the wing, its root's corners in no skin.
 */
function edgeOnSkin(points: readonly Vec3[], fixed: FixedMeshes, within: number): boolean {
  if (points.length === 0) return false;
  const best = points.map(() => Infinity);
  for (const mesh of fixed) {
    const p = mesh.positions, tri = mesh.triangles;
    for (let t = 0; t + 2 < tri.length; t += 3) {
      const a = 3 * tri[t], b = 3 * tri[t + 1], c = 3 * tri[t + 2];
      const A: Vec3 = [p[a], p[a + 1], p[a + 2]], B: Vec3 = [p[b], p[b + 1], p[b + 2]];
      const C: Vec3 = [p[c], p[c + 1], p[c + 2]];
      points.forEach((q, i) => {
        if (best[i] > within) best[i] = Math.min(best[i], pointTriangle(q, A, B, C));
      });
    }
  }
  return best.every((d) => d <= within);
}

/** The distance from `p` to triangle `a`, `b`, `c` (Ericson's closest point, by regions). */
function pointTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): number {
  const sub = (u: Vec3, v: Vec3): Vec3 => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const at = (q: Vec3) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  const on = (o: Vec3, d: Vec3, t: number): Vec3 => [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return at(a);
  const bp = sub(p, b), d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return at(b);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return at(on(a, ab, d1 / (d1 - d3)));
  const cp = sub(p, c), d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return at(c);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return at(on(a, ac, d2 / (d2 - d6)));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return at(on(b, sub(c, b), (d4 - d3) / (d4 - d3 + d5 - d6)));
  const denom = 1 / (va + vb + vc), v = vb * denom, w = vc * denom;
  return at([0, 1, 2].map((k) => a[k] + ab[k] * v + ac[k] * w) as Vec3);
}

/** `v` less its part along unit `axis`. */
function rejectFrom(v: Vec3, axis: Vec3): Vec3 {
  const d = dot(v, axis);
  return [v[0] - d * axis[0], v[1] - d * axis[1], v[2] - d * axis[2]];
}

function fmt(x: number): string {
  return x.toPrecision(3);
}
