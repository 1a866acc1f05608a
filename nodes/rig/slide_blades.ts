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
import { LOWER_SKIN_WORDS, UPPER_SKIN_WORDS } from "./vocabulary_sides.ts";
import { boxOf, edgeOnSkin, type FixedMeshes, middleFaces, rejectFrom, skinsAt } from "./blade_skins.ts";
import { cross, dot, normalize, type Vec3 } from "./transform.ts";

/** A panel's drawn geometry in aircraft coordinates (aft, up, left). */
export interface BladeGeometry {
  readonly positions: ArrayLike<number>;
  readonly count: number;
  readonly triangles?: ArrayLike<number>;
}

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

/** Which skin a brake's name puts it in (`Bremsklappe_oben_L` upper, `Hamulec_dolny_P` lower). */
export function skinFromName(name: string): "upper" | "lower" | undefined {
  const tokens = tokenize(name);
  if (tokens.some((t) => UPPER_SKIN_WORDS.has(t))) return "upper";
  if (tokens.some((t) => LOWER_SKIN_WORDS.has(t))) return "lower";
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

function fmt(x: number): string {
  return x.toPrecision(3);
}
