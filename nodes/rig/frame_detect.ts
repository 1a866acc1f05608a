/**
 * Finds the aircraft frame from the geometry, for `forward`/`up: "auto"` on a scene whose decoder
 * recorded none: the span axis is the one the model is mirror-symmetric across, the fuselage runs
 * along the longer of the other two, the tail is the end with the wider and taller cross-section
 * (tailplane and fin), else the end a V-tail sits at, else the end the wing sections' sharp trailing
 * edges face (airfoils are blunt at the leading edge), and up is the way the tail end reaches
 * furthest from the fuselage (the fin). A helicopter's main rotor (`frame_rotor.ts`, or parts named
 * as one) is read apart: up is its side, the tail the way the body runs further from its mast (the
 * tail boom), and the other measures read the body without it; a tail rotor and a tail boom, by
 * name, sit at the tail.
 * Names check and overrule the shape: surfaces named left/right give the span axis and its sign,
 * tail surfaces sit aft of wing surfaces, nose/cockpit/canopy parts sit forward, fins and rudders
 * sit up; propeller parts sit forward too, but a pusher's sit at the tail, so like elevators they
 * decide only unsure. Every decision is judged, so the caller can say how sure the frame is.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { Axis } from "../../runtime/scene/source.ts";
import { positionBounds } from "./geometry.ts";
import { type Centroid, MAX_POINTS, namedCloud } from "./frame_cloud.ts";
import { type EndSection, endSections, endVees, mirrorSymmetry, type ShapeAxes } from "./frame_shape.ts";
import { sectionEnds } from "./frame_sections.ts";
import { rotorLayer } from "./frame_rotor.ts";
import { zUpRoot } from "./frame_zup.ts";
import { decide, nameVote, shapeVote, type SignVote } from "./frame_votes.ts";
import { cross, type Vec3 } from "./transform.ts";

/** A frame found from the geometry, with how sure the finder is and why. */
export interface DetectedFrame {
  readonly forward: Axis;
  readonly up: Axis;
  /** `good`: every decision was clear and no hint disagreed; `weak`: see the reasons. */
  readonly confidence: "good" | "weak";
  /** One line per decision: what decided it, and what was unclear. */
  readonly reasons: readonly string[];
}

/**
 * Share of the model's height the more lopsided end must reach off the fuselage's centre line for
 * that to be a fin's: a canard's or a wing's few degrees of dihedral at one end, against a bare
 * fuselage end, is lopsided by a clear ratio of two slight offsets.
 */
const FIN_REACH = 0.2;
/** Share of the model's height a fin must reach past the fuselage's top or bottom. */
const FIN_BEYOND = 0.1;
/**
 * How many times the camber bowing one way must outweigh the other's for it to say anything: a lifting
 * wing's sections bow one way nearly all (over 40:1 on generated converter files), symmetric sections
 * read with noise bow both ways (4:1 or less), and so does a wing against a tailplane's inverted section.
 */
const CAMBER_CLEAR = 10;
/**
 * Mean camber, as a share of the chord, the sections must bow by for it to say anything: a lifting
 * airfoil's mean line stands 1–3 % of its chord off its chord line (0.3 % and more as read here); a
 * symmetric section read from a swept, dihedralled wing's span bin (its stations smeared) under 0.1 %.
 */
const MIN_CAMBER = 0.0025;
/** Wing sections the blunt-edge cue needs (two span bins of a wing on each side). */
const MIN_SECTIONS = 4;
/**
 * Mirror symmetry the span axis must reach to be clear: whole aircraft score 0.82 or more along it (a
 * voxel either side of the mirror), a model of one side only (a half aircraft, as kit and CFD models
 * come) 0.6 or less along every axis, its best axis then often the fuselage's.
 */
const MIN_SYMMETRY = 0.7;

function axisName(index: number, sign: 1 | -1): Axis {
  return `${sign > 0 ? "+" : "-"}${"XYZ"[index]}` as Axis;
}

/**
 * The frame of the aircraft in `doc`, found from its geometry (read from `maxPoints` of its vertices
 * at most) and names, or undefined when the scene has too little geometry to tell (fewer than 8
 * vertices, or flat in two axes).
 *
 * @example
 * ```ts
 * const found = detectFrame(doc); // { forward: "+Z", up: "+Y", confidence: "good", reasons: [...] }
 * ```
 */
export function detectFrame(doc: Document, maxPoints: number = MAX_POINTS): DetectedFrame | undefined {
  const cloud = namedCloud(doc, maxPoints);
  if (!cloud) return undefined;
  const { total, left, right, tail, wing, nose, prop, fin, all, mainRotor, tailRotor, boom, tailKinds } =
    cloud;
  const whole = positionBounds({ positions: cloud.points, count: total })!; // total ≥ 8
  const wholeExtent = [0, 1, 2].map((k) => whole.max[k] - whole.min[k]);
  const largest = Math.max(...wholeExtent);
  if ([...wholeExtent].sort((a, b) => a - b)[1] < 1e-6 * largest) return undefined;
  // A helicopter's main rotor, found from the shape or named, is read apart: the measures below read
  // the body without it (a two- or three-bladed rotor is mirror-symmetric across no axis, and often
  // the widest thing in the model).
  const rotor = rotorLayer(cloud.points, whole.min, wholeExtent);
  const points = rotor?.body ?? cloud.body ?? cloud.points;
  const { min, max } = points === cloud.points
    ? whole
    : positionBounds({ positions: points, count: points.length / 3 })!;
  const extent = [0, 1, 2].map((k) => max[k] - min[k]);
  const weak: string[] = [];
  const reasons: string[] = [];
  const difference = (a: Centroid, b: Centroid): Vec3 | undefined => {
    if (!a.count || !b.count) return undefined;
    const [p, q] = [a.value, b.value];
    return [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
  };

  // Span: the axis the shape is mirror-symmetric across, unless left/right names say otherwise.
  const symmetry = mirrorSymmetry(points, min, extent);
  const order = [0, 1, 2].sort((a, b) => symmetry[b] - symmetry[a]);
  const leftward = difference(left, right);
  const namedSpan = leftward && nameVote(leftward, dominant(leftward), "") ? dominant(leftward) : undefined;
  let span = order[0];
  const symmetric = symmetry[order[0]] >= MIN_SYMMETRY;
  const symmetryClear = symmetric && symmetry[order[0]] - symmetry[order[1]] >= 0.1;
  if (namedSpan !== undefined && namedSpan !== span) {
    if (symmetryClear) {
      weak.push(
        `span: left/right names lie along ${"XYZ"[namedSpan]}, the mirror plane across ${"XYZ"[span]}`,
      );
    }
    span = namedSpan;
    reasons.push(`span along ${"XYZ"[span]} from left/right names`);
  } else {
    reasons.push(
      `span along ${"XYZ"[span]}: mirror symmetry ${
        symmetry.map((s, k) => `${"XYZ"[k]} ${s.toFixed(2)}`).join(", ")
      }` +
        (namedSpan !== undefined ? ", left/right names agree" : ""),
    );
    if (!symmetryClear && namedSpan === undefined) {
      weak.push(
        symmetric
          ? "span: the mirror symmetry is unclear"
          : `span: no axis is mirror-symmetric (best ${
            symmetry[order[0]].toFixed(2)
          }; a model of one side only?)`,
      );
    }
  }

  // Fuselage: the longer of the other two axes; up: the shorter.
  const [a, b] = [0, 1, 2].filter((k) => k !== span);
  const long = extent[a] >= extent[b] ? a : b, upAxis = long === a ? b : a;
  const slender = extent[long] / Math.max(extent[upAxis], 1e-12);
  reasons.push(`fuselage along ${"XYZ"[long]}: ${slender.toFixed(2)} times the height`);
  if (slender < 1.3) weak.push(`fuselage: length only ${slender.toFixed(2)} times the height`);

  // Tail: the end more lopsided about the fuselage's centre line (a fin on one side; a nose cone or a
  // prop disc sits on it). Up: the side the tail end reaches further to.
  const axes: ShapeAxes = { points, min, extent, long, span, up: upAxis };
  const ends = endSections(axes);
  const lopsided = (end: EndSection) => Math.abs(end.top + end.bottom - 2 * ends.level);
  const tailVote = nameVote(difference(tail, wing), long, "tail surfaces aft of wing surfaces");
  const noseVote = nameVote(difference(all, nose), long, "nose/cockpit/canopy parts forward");
  const propVote = nameVote(difference(all, prop), long, "propeller parts forward");
  const tailRotorVote = nameVote(difference(tailRotor, all), long, "tail rotor at the tail");
  const boomVote = nameVote(difference(boom, all), long, "tail boom aft");
  // The main rotor's mast stands over the cabin: the body runs further from it to the tail (the boom).
  const rotorUp = rotor?.axis === upAxis;
  const mast = rotorUp ? rotor.mast : !rotor && mainRotor.count ? mainRotor.value : undefined;
  const rotorTail = mast
    ? shapeVote(
      max[long] - mast[long],
      mast[long] - min[long],
      `the body runs further from the ${rotor ? "" : "named "}main rotor's mast that way (a tail boom)`,
    )
    : undefined;
  // A fin stands out of the fuselage: the lopsided side of the end reaches past the fuselage's own
  // top or bottom in the middle of the length. A wing drooping at a swept flying wing's tips, below a
  // pod or a prop disc taken for a fuselage, leans to one side without reaching past it.
  const beyond = (end: EndSection) =>
    end.top + end.bottom >= 2 * ends.level ? end.top - ends.middle.top : ends.middle.bottom - end.bottom;
  const finEnd = lopsided(ends.high) >= lopsided(ends.low) ? ends.high : ends.low;
  const finReach = lopsided(finEnd) >= FIN_REACH * extent[upAxis] &&
    beyond(finEnd) >= FIN_BEYOND * extent[upAxis];
  const tailShape = shapeVote(
    lopsided(ends.high),
    lopsided(ends.low),
    `one end is more lopsided about the fuselage (a fin)${
      ends.levelKnown ? "" : ", its centre line guessed"
    }${
      finReach
        ? ""
        : `, by under ${FIN_REACH * 100} % of the height or not ${
          FIN_BEYOND * 100
        } % past the fuselage: too slight for a fin`
    }`,
    ends.levelKnown && finReach,
  );
  // A V-tail's two canted surfaces: the end with a V is the tail when the fin cue is unclear (a V
  // balances about the centre line, and with a guessed centre line it reads as the nose).
  const vees = endVees(axes);
  const veeEnd = vees.high && !vees.low ? 1 : vees.low && !vees.high ? -1 : 0;
  const vee = veeEnd > 0 ? vees.high : veeEnd < 0 ? vees.low : undefined;
  const veeTail: SignVote | undefined = vee && !tailShape?.clear
    ? {
      sign: veeEnd as 1 | -1,
      clear: true,
      byName: false,
      reason: `two surfaces canted ${vee.cant.toFixed(0)}° in a V at that end (a V-tail)`,
    }
    : undefined;
  // Wing sections: an airfoil is blunt at its leading edge and sharp at its trailing edge, so the
  // end the sections' sharp edges face is the tail. It tells the end where no fin or V does; flat
  // plates and boxes say nothing.
  // The V's own canted surfaces are no wing sections to read (see sectionEnds).
  const wings = sectionEnds(axes, veeEnd || undefined);
  const blunt = wings.sections >= MIN_SECTIONS
    ? shapeVote(
      wings.low,
      wings.high,
      `the wing sections' sharp (trailing) edges face that end, ${wings.sections} sections`,
    )
    : undefined;
  const finTail = tailShape?.clear ? tailShape : undefined;
  const boomTail = rotorTail?.clear ? rotorTail : undefined;
  const shape = boomTail ?? veeTail ?? finTail ?? (blunt?.clear ? blunt : undefined) ?? tailShape ?? blunt;
  const shapeConflict = [boomTail, veeTail, finTail, blunt?.clear ? blunt : undefined]
    .find((v) => v && v.sign !== shape?.sign);
  // Elevators and propellers are no sure tail or nose names (a canard aircraft's elevators sit ahead
  // of its wing, a pusher's propeller at its tail): when they are all the names say, a clear shape
  // cue against them decides, unsure.
  const elevatorTail = !!tailVote && [...tailKinds].every((kind) => kind === "elevator");
  const unsureNames = [elevatorTail ? tailVote : undefined, propVote].filter((v) => v !== undefined);
  const unsureOnly = unsureNames.length > 0 && !noseVote && !tailRotorVote && !boomVote &&
    (!tailVote || elevatorTail);
  const unsureWhat = [
    ...(elevatorTail ? ["elevators"] : []),
    ...(propVote ? ["a propeller"] : []),
  ].join(" and ");
  const unsureWhy = [
    ...(elevatorTail ? ["a canard aircraft's elevators sit ahead of its wing"] : []),
    ...(propVote ? ["a pusher's propeller sits at its tail"] : []),
  ].join("; ");
  const unsureVerb = elevatorTail ? "name" : "names";
  const namesOverruled = unsureOnly && shape?.clear && unsureNames.some((v) => v.sign !== shape.sign);
  const aft = decide(
    "tail",
    namesOverruled ? [] : [tailVote, noseVote, propVote, tailRotorVote, boomVote],
    shape,
  );
  if (namesOverruled) {
    aft.weak = elevatorTail && !propVote
      ? "tail: elevators name the other end (a canard aircraft's sit ahead of its wing)"
      : `tail: ${unsureWhat} ${unsureVerb} the other end (${unsureWhy})`;
  } else if (shapeConflict && !aft.byName && aft.clear) {
    aft.weak = `tail: the shape's cues disagree (${shapeConflict.reason})`;
  }
  // The end told by a V or by the wing sections alone is sure, but says nothing of up.
  const endOnly = !aft.byName && (shape === veeTail || shape === blunt) ? aft : undefined;
  const tailEnd = aft.sign > 0 ? ends.high : ends.low;
  const tailVee = aft.sign > 0 ? vees.high : vees.low;
  const tailReach = lopsided(tailEnd) >= FIN_REACH * extent[upAxis] &&
    beyond(tailEnd) >= FIN_BEYOND * extent[upAxis];
  // Where the tail end was a guess, how far it reaches up or down tells nothing of up. Where it is a
  // V, the V's tips reach the way it opens, which is up for most V-tails but down for an inverted
  // one (a Predator's): a shape cue for up, never a clear one.
  const reach: SignVote | undefined = rotorUp
    ? {
      sign: rotor.sign,
      clear: true,
      byName: false,
      reason: `the main rotor is that side of the body, on a mast (${
        (rotor.share * 100).toFixed(0)
      } % of the model wide)`,
    }
    : tailVee
    ? {
      sign: tailVee.opens,
      clear: false,
      byName: false,
      reason: `the tail's V opens that way (${
        tailVee.cant.toFixed(0)
      }° cant; an inverted V opens down, unclear)`,
    }
    : shapeVote(
      tailEnd.top - ends.level,
      ends.level - tailEnd.bottom,
      `the tail end reaches further that way from the fuselage's centre line${
        aft.clear ? "" : ", at an end the tail cue did not settle"
      }${
        tailReach
          ? ""
          : `, by under ${FIN_REACH * 100} % of the height more or not ${
            FIN_BEYOND * 100
          } % past the fuselage: too slight for a fin`
      }`,
      ends.levelKnown && aft.clear && tailReach,
    );
  // A lifting wing's sections bow up (frame_camber.ts): where no fin or rotor settled up, their camber
  // is the better guess when it is lopsided enough that a tailplane's inverted camber cannot outweigh
  // it, and bowed by a lifting section's camber. A guess still (sampled sections misread it): never clear.
  const [bowUp, bowDown, bowWeight] = wings.camber;
  const camber = wings.sections + wings.rings >= MIN_SECTIONS && !reach?.clear &&
      Math.max(bowUp, bowDown) >= CAMBER_CLEAR * Math.min(bowUp, bowDown) &&
      Math.abs(bowUp - bowDown) >= MIN_CAMBER * bowWeight
    ? shapeVote(
      bowUp,
      bowDown,
      `the wing sections' camber bows that way, ${wings.sections} sections, ${
        (100 * Math.abs(bowUp - bowDown) / bowWeight).toFixed(1)
      } % of the chord`,
      false,
    )
    : undefined;
  // With neither, an exporter's turn of a Z-up file to Y up hints the modeller's up (frame_zup.ts).
  const turned = !reach?.clear && !camber && upAxis === 1 ? zUpRoot(doc) : undefined;
  const zUp: SignVote | undefined = turned
    ? {
      sign: turned,
      clear: false,
      byName: false,
      reason: "the file's root turns its Z (a Z-up tool's up) that way (unclear: a hint of how it was built)",
    }
    : undefined;
  const up = decide(
    "up",
    [
      nameVote(difference(fin, all), upAxis, "fins and rudders above the centre", 0.15),
      nameVote(difference(mainRotor, all), upAxis, "the main rotor above the centre", 0.15),
    ],
    camber ?? zUp ?? reach,
  );
  let aftSign = aft.sign, upSign = up.sign;
  reasons.push(aft.reason, up.reason);
  const decisionsWeak = [aft.weak, up.weak].filter((w): w is string => !!w);
  // Elevators alone say nothing of which end is the tail: a canard aircraft's (a VariEze's) sit on its
  // foreplane, ahead of the wing. Without a fin, rudder, tailplane or nose part to confirm, it is a guess.
  if (aft.byName && unsureOnly && !(shape?.clear && shape.sign === aft.sign)) {
    decisionsWeak.push(
      elevatorTail && !propVote
        ? "tail: only elevators name it (a canard aircraft's are ahead of its wing), and no fin, rudder or nose part confirms it"
        : `tail: only ${unsureWhat} ${unsureVerb} it (${unsureWhy}), and no fin, rudder or nose part confirms it`,
    );
  }

  // Left/right names fix the handedness: left = aft × up.
  if (leftward && namedSpan === span) {
    const impliedLeft = handedLeft(long, aftSign, upAxis, upSign, span);
    // A tail told by a V or by the wing sections is sure of its end but not of up: the names set up.
    const upLessSure = aft === endOnly && !up.byName;
    if (Math.sign(leftward[span]) !== impliedLeft) {
      if (!aft.byName && !upLessSure) {
        aftSign = -aftSign as 1 | -1;
        if (aft.clear) weak.push("tail: left/right names disagree with the shape");
        else decisionsWeak.splice(decisionsWeak.indexOf(aft.weak!), 1);
        reasons.push("tail end set by left/right names");
      } else if (!up.byName) {
        upSign = -upSign as 1 | -1;
        if (up.clear) weak.push("up: left/right names disagree with the shape");
        else decisionsWeak.splice(decisionsWeak.indexOf(up.weak!), 1);
        reasons.push("up set by left/right names");
      } else {
        weak.push("left/right names disagree with the tail and fin names");
      }
    } else {
      reasons.push("left/right names agree");
      // Where disagreeing names would have set up (the tail named, or told by a V or the sections),
      // agreeing ones set it as surely.
      if ((upLessSure || (aft.byName && !up.byName)) && up.weak) {
        decisionsWeak.splice(decisionsWeak.indexOf(up.weak), 1);
        reasons.push("up set by left/right names");
      }
    }
  }
  weak.push(...decisionsWeak);
  return {
    forward: axisName(long, -aftSign as 1 | -1),
    up: axisName(upAxis, upSign),
    confidence: weak.length ? "weak" : "good",
    reasons: [...reasons, ...weak.map((w) => `unsure: ${w}`)],
  };
}

function dominant(v: Vec3): number {
  return [0, 1, 2].reduce((best, k) => Math.abs(v[k]) > Math.abs(v[best]) ? k : best, 0);
}

/** The sign along `span` of aft × up (left) for axis-aligned aft and up. */
function handedLeft(long: number, aftSign: number, upAxis: number, upSign: number, span: number): number {
  const aftV: Vec3 = [0, 0, 0], upV: Vec3 = [0, 0, 0];
  aftV[long] = aftSign;
  upV[upAxis] = upSign;
  return Math.sign(cross(aftV, upV)[span]);
}
