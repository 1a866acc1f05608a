/**
 * Checks that the fitted panels agree with the aircraft frame, and names the frame to try when they
 * clearly do not: trailing edges thicker than their hinges (the model faces the other way), a rudder
 * lying flat (up is wrong), left/right-named panels on the other side (the model faces the other
 * way) or on the centre line (the span axis is elsewhere, or the name is wrong), and ailerons,
 * elevators or flaps stretched along the flow (forward is along the wing); and warns when a frame
 * `"auto"` found from the geometry is unsure.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import type { Axis } from "../../runtime/scene/source.ts";
import { type AircraftFrame, oppositeAxis } from "./frame.ts";
import { KIND_SPECS } from "./kinds.ts";
import type { HingeFit } from "./hinge_fit.ts";
import { getPart } from "./part_extras.ts";
import type { Vec3 } from "./transform.ts";
import { type FileWords, type PanelKind, sideFromName } from "./vocabulary.ts";
import { wordsAround } from "./file_words.ts";
import { mirroredBoxes } from "./mirror_image.ts";

/** The scene axes (either sign) nearest an aircraft-frame direction, e.g. `+Z or -Z`. */
function sceneAxes(frame: AircraftFrame, v: Vec3): string {
  const scene = [0, 1, 2].map((k) =>
    v[0] * frame.aftDir[k] + v[1] * frame.upDir[k] + v[2] * frame.leftDir[k]
  );
  const k = [0, 1, 2].reduce((best, i) => Math.abs(scene[i]) > Math.abs(scene[best]) ? i : best, 0);
  const name = "XYZ"[k];
  return `+${name} or -${name}`;
}

/** The opposite of a signed axis. */
function opposite(axis: Axis): string {
  return `${axis[0] === "-" ? "+" : "-"}${axis[1]}`;
}

const SPANWISE_KINDS: ReadonlySet<string> = new Set(["aileron", "elevator", "flap", "elevon"]);

/**
 * Warns when the fitted panels disagree with the frame; see the module doc. `facingWarned`: the
 * thickness test already warned that the model faces the other way. Names are read with the file's
 * `words` (by default the scene's, `file_words.ts`: `Aileron_P` is left beside `Aileron_S`).
 */
export function warnIfFrameDisagrees(
  fits: ReadonlyMap<Node, HingeFit>,
  frame: AircraftFrame,
  ctx: RunContext,
  options: { facingWarned?: boolean; centreOf?: (node: Node) => number; words?: FileWords } = {},
): void {
  const words = options.words ?? wordsAround(fits.keys());
  const current = `forward ${frame.forward}, up ${frame.up}`;
  for (const [node, fit] of fits) {
    if (getPart(node)?.kind !== "rudder" || Math.abs(fit.normal[1]) < 0.8) continue;
    ctx.warn(
      `rudder '${node.getName()}' lies flat in the frame (${current}): up is probably wrong; ` +
        `try up ${sceneAxes(frame, fit.span)}`,
      { panel: node.getName(), forward: frame.forward, up: frame.up },
    );
  }
  let named = 0, opposed = 0;
  const centred: Node[] = [];
  // A side-named panel across the centre line whose mirror image is a panel named the other side, lying
  // further to that side than it: the pair agrees with the frame (a V-tail's ruddervators meeting at
  // the root). fin_horns.ts V-tails were warned here, their sides right.
  const boxOf = (node: Node, fit: HingeFit) => {
    const c = options.centreOf?.(node) ?? 0;
    return {
      min: [fit.centre[0], fit.centre[1], fit.lateral[0] - c],
      max: [fit.centre[0], fit.centre[1], fit.lateral[1] - c],
      middle: fit.origin[2] - c,
    };
  };
  const sidedByPartner = (node: Node, fit: HingeFit) => {
    const side = sideFromName(node.getName(), words), own = boxOf(node, fit);
    for (const [other, theirs] of fits) {
      if (other === node || getPart(other)?.kind !== getPart(node)?.kind) continue;
      const otherSide = sideFromName(other.getName(), words), box = boxOf(other, theirs);
      if (otherSide === side || (otherSide !== "left" && otherSide !== "right")) continue;
      const leftOf = (a: typeof own, b: typeof own) => a.middle > b.middle;
      if (mirroredBoxes(own, box) && leftOf(own, box) === (side === "left")) return true;
    }
    return false;
  };
  for (const [node, fit] of fits) {
    const side = sideFromName(node.getName(), words);
    if (side !== "left" && side !== "right") continue;
    // A copy of the aircraft laid out beside others has its own centre line (copies.ts).
    const centre = options.centreOf?.(node) ?? 0;
    const lateral = (fit.lateral[0] + fit.lateral[1]) / 2 - centre;
    if (Math.abs(lateral) <= 0.25 * (fit.lateral[1] - fit.lateral[0])) { // too near the centre to tell
      if (fit.lateral[0] <= centre && fit.lateral[1] >= centre && !sidedByPartner(node, fit)) {
        centred.push(node);
      }
      continue;
    }
    named++;
    if ((lateral > 0) !== (side === "left")) opposed++;
  }
  // The thickness test already said the model faces the other way: one warning is enough.
  if (named >= 2 && opposed * 2 > named && !options.facingWarned) {
    ctx.warn(
      `${opposed} of ${named} panels named left or right sit on the other side in the frame (${current}): ` +
        `the model probably faces the other way; try forward ${opposite(frame.forward)}`,
      { forward: frame.forward, up: frame.up, opposed, named },
    );
  }
  if (centred.length) warnCentredSides(fits, centred, frame, current, ctx, words);
  const stretched = [...fits].filter(([node, fit]) =>
    SPANWISE_KINDS.has(getPart(node)?.kind ?? "") && fit.chord > 1.5 * fit.spanLength
  );
  if (
    stretched.length >= 2 &&
    stretched.length * 2 > [...fits.keys()].filter((n) => SPANWISE_KINDS.has(getPart(n)?.kind ?? "")).length
  ) {
    ctx.warn(
      `${stretched.length} wing and tail panels (${stretched.map(([n]) => `'${n.getName()}'`).join(", ")}) ` +
        `stretch along the flow, chord over 1.5 times their span, in the frame (${current}): forward probably ` +
        `runs along the wing; try forward ${sceneAxes(frame, [0, 0, 1])}`,
      { forward: frame.forward, up: frame.up },
    );
  }
}

/**
 * Warns about panels named left or right that straddle the centre line, naming the span axis to try
 * when the left- and right-named panels lie apart along another axis.
 */
function warnCentredSides(
  fits: ReadonlyMap<Node, HingeFit>,
  centred: readonly Node[],
  frame: AircraftFrame,
  current: string,
  ctx: RunContext,
  words: FileWords | undefined,
): void {
  const mean = (side: string) => {
    const centres = [...fits].filter(([n]) => sideFromName(n.getName(), words) === side).map(([, f]) =>
      f.centre
    );
    return [0, 1, 2].map((k) => centres.reduce((sum, c) => sum + c[k], 0) / centres.length) as Vec3;
  };
  const [l, r] = [mean("left"), mean("right")];
  const apart: Vec3 = [l[0] - r[0], l[1] - r[1], l[2] - r[2]];
  const along = [0, 1, 2].reduce((best, k) => Math.abs(apart[k]) > Math.abs(apart[best]) ? k : best, 0);
  // Sides apart along up: the model is rolled, up is along today's span; along the flow: forward is.
  const hint = along !== 2 && Math.abs(apart[along]) > 0
    ? `left- and right-named panels lie apart along ${sceneAxes(frame, apart)}, so the span runs there; ` +
      `try ${along === 1 ? "up" : "forward"} ${sceneAxes(frame, [0, 0, 1])}`
    : "its side name is probably wrong, or the frame is: check forward/up";
  for (const node of centred) {
    const named = `panel '${node.getName()}' is named ${sideFromName(node.getName(), words)}`;
    ctx.warn(
      `${named} but sits on the centre line in the frame (${current}); ${hint}`,
      { panel: node.getName(), forward: frame.forward, up: frame.up },
    );
  }
}

/**
 * Trailing-edge surfaces are thicker at their hinge than at their far edge. When most of them look
 * the other way round in the chosen frame, the model most likely faces the other way: warns, and
 * returns true.
 */
export function warnIfFacingBackwards(
  fits: ReadonlyMap<Node, HingeFit>,
  frame: AircraftFrame,
  ctx: RunContext,
): boolean {
  let trailing = 0, reversed = 0;
  for (const [node, fit] of fits) {
    const kind = getPart(node)?.kind as PanelKind;
    if (KIND_SPECS[kind]?.edge !== "forward" || kind === "air_brake") continue;
    trailing++;
    if (fit.aftThickness > 1.5 * fit.forwardThickness) reversed++;
  }
  if (!(trailing >= 2 && reversed * 2 > trailing)) return false;
  const why = frame.forwardDefaulted
    ? ', the default: "auto" found no frame recorded on the scene and the geometry could not tell'
    : frame.detected
    ? ', found from the geometry by "auto"'
    : "";
  ctx.warn(
    `${reversed} of ${trailing} trailing-edge panels are thicker at their trailing edge than at their ` +
      `hinge: the model probably faces the other way (forward is ${frame.forward}${why}; ` +
      `try forward ${oppositeAxis(frame.forward)})`,
    { forward: frame.forward, up: frame.up, reversed, trailing },
  );
  return true;
}

/** Warns when `"auto"` found the frame from the geometry but is unsure of it, naming the reasons. */
export function warnIfFrameUnsure(frame: AircraftFrame, ctx: RunContext): void {
  const found = frame.detected!;
  if (found.confidence === "good") return;
  const unsure = found.reasons.filter((r) => r.startsWith("unsure: ")).map((r) => r.slice(8));
  ctx.warn(
    `frame: "auto" found forward ${frame.forward}, up ${frame.up} from the geometry but is unsure ` +
      `(${unsure.join("; ")}); give forward/up explicitly, e.g. forward ${oppositeAxis(frame.forward)} ` +
      `if the nose is at the other end`,
    { forward: frame.forward, up: frame.up, reasons: [...found.reasons] },
  );
}
