/**
 * Mirror partners: the left and right panels of one kind are mirror images on real aircraft. They
 * are paired by name (`Aileron_L` / `Aileron_R`: the same tokens but the side) or else by mirrored
 * position (one's centre mirrored across the plane of symmetry lands on the other's), their fitted
 * hinges compared across the mirror, and when they disagree the better-supported fit is mirrored
 * onto the other — or, when neither is better supported, both are marked weak.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { FitJudgement } from "./fit_confidence.ts";
import type { HingeFit } from "./hinge_fit.ts";
import { cross, dot, length, sub, type Vec3 } from "./transform.ts";
import { type FileWords, sideFromName, tokenize } from "./vocabulary.ts";
import { wordsAround } from "./file_words.ts";

/** Hinges further apart than this across the mirror (degrees) disagree. */
export const MIRROR_ANGLE_DEGREES = 3;
/** Hinge lines further apart than this share of the chord disagree. */
export const MIRROR_OFFSET_CHORD = 0.05;

/** A panel's fit and its judgement, as `rig.fit_hinge` holds them. */
export interface JudgedFit {
  fit: HingeFit;
  judgement: FitJudgement;
  /** Set when the hinge was taken from the mirror partner: its name. */
  mirroredFrom?: string;
}

/**
 * Mirror image of a point across the plane of symmetry at lateral `centre` (aircraft coordinates: left
 * is the third axis); a direction is mirrored with `centre` 0.
 */
function mirror(v: Vec3, centre = 0): Vec3 {
  return [v[0], v[1], 2 * centre - v[2]];
}

const RANK = { good: 0, weak: 1, failed: 2 } as const;

/**
 * Pairs panels of one kind, compares their hinges across the mirror and settles disagreements.
 * Returns one message per pair it changed, naming both panels. `centreOf` gives a panel's plane of
 * symmetry (lateral, aircraft frame): 0 but in a copy of the aircraft laid out beside others
 * (`copies.ts`), and panels pair only within one plane. Panels `unpaired` says are of aircraft the rig
 * cannot tell apart (`copy_untold.ts`) take no partner: about the scene's one centre line, a line-up's
 * left aircraft's right aileron mirrors onto the right aircraft's left one (hangar line-ups, seeds 1–4:
 * 88 of 564 panels compared with another aircraft's, "disagreeing" 13–19°; a better-supported one's hinge
 * would have been mirrored onto the other). Names are read with the file's `words` (by default the
 * scene's: `file_words.ts`), so `Lotka_P` beside `Lotka_L` pairs with it by name.
 */
export function reconcileMirrorPartners(
  fits: Map<Node, JudgedFit>,
  kindOf: (node: Node) => string,
  centreOf: (node: Node) => number = () => 0,
  unpaired: (node: Node) => boolean = () => false,
  words: FileWords | undefined = wordsAround(fits.keys()),
): string[] {
  const messages: string[] = [];
  const nodes = [...fits.keys()].filter((n) => !unpaired(n));
  for (const [a, b] of pairPartners(nodes, (n) => fits.get(n)!.fit, kindOf, centreOf, words)) {
    const fa = fits.get(a)!, fb = fits.get(b)!;
    const centre = centreOf(a);
    const { degrees, offset } = disagreement(fa.fit, fb.fit, centre);
    if (degrees <= MIRROR_ANGLE_DEGREES && offset <= MIRROR_OFFSET_CHORD) continue;
    const how = `${degrees.toFixed(1)}° and ${(offset * 100).toFixed(0)} % of chord apart across the mirror`;
    const score = (j: JudgedFit) => RANK[j.judgement.confidence] * 2 - j.judgement.coverage;
    const [better, worse] = score(fa) <= score(fb) ? [a, b] : [b, a];
    const fBetter = fits.get(better)!, fWorse = fits.get(worse)!;
    const clearer = RANK[fBetter.judgement.confidence] < RANK[fWorse.judgement.confidence] ||
      fBetter.judgement.coverage >= fWorse.judgement.coverage + 0.15;
    if (clearer && fBetter.judgement.confidence !== "failed") {
      const reason =
        `hinge mirrored from '${better.getName()}': its own fit (${fWorse.judgement.confidence}) and its partner's were ${how}`;
      fits.set(worse, {
        fit: { ...fWorse.fit, origin: mirror(fBetter.fit.origin, centre), axis: mirror(fBetter.fit.axis) },
        judgement: {
          confidence: fBetter.judgement.confidence,
          coverage: fBetter.judgement.coverage,
          reasons: [reason, ...fBetter.judgement.reasons],
        },
        mirroredFrom: better.getName(),
      });
      messages.push(`panel '${worse.getName()}': ${reason}`);
    } else {
      for (const [node, other] of [[a, b], [b, a]] as const) {
        const own = fits.get(node)!;
        const reason =
          `disagrees with its mirror partner '${other.getName()}' (${how}), neither better supported`;
        fits.set(node, {
          ...own,
          judgement: {
            ...own.judgement,
            confidence: own.judgement.confidence === "failed" ? "failed" : "weak",
            reasons: [...own.judgement.reasons, reason],
          },
        });
      }
    }
  }
  return messages;
}

/**
 * Angle (degrees) and line distance (share of the larger chord) between a hinge and the other mirrored
 * across the plane at lateral `centre`.
 */
function disagreement(a: HingeFit, b: HingeFit, centre: number): { degrees: number; offset: number } {
  const axis = mirror(b.axis), origin = mirror(b.origin, centre);
  const degrees = (Math.acos(Math.min(1, Math.abs(dot(a.axis, axis)))) * 180) / Math.PI;
  const offset = length(cross(sub(origin, a.origin), a.axis)) / Math.max(a.chord, b.chord, 1e-12);
  return { degrees, offset };
}

/**
 * Partner pairs: first by name (same tokens once side tokens are dropped, opposite named sides),
 * then, among the rest, each panel with the one of its kind whose mirrored centre is nearest, if
 * within a quarter of its span and on the other side. Names are read with the `file`'s words (by
 * default the scene's).
 */
export function pairPartners(
  nodes: readonly Node[],
  fitOf: (node: Node) => HingeFit,
  kindOf: (node: Node) => string,
  centreOf: (node: Node) => number = () => 0,
  file: FileWords | undefined = wordsAround(nodes),
): [Node, Node][] {
  const pairs: [Node, Node][] = [];
  const paired = new Set<Node>();
  const key = (n: Node) => {
    const side = sideFromName(n.getName(), file);
    if (side !== "left" && side !== "right") return undefined;
    // Letter and digit runs (`Spoiler_L_1` keeps its 1), side words dropped.
    const words = n.getName().replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").match(/\p{L}+|\p{N}+/gu) ?? [];
    // Read as the vocabulary reads names (`tokenize`), so a side glued on (`EStabilizer`, `AileronP`)
    // leaves its word; a letter some kind's names pair is a side too (a kit-bashed file's `AileronP`/
    // `AileronS` beside `Elevator_L`/`Elevator_P`: alone, `P` and `S` read as no side).
    const kindLetters = [...file?.kindLetters?.values() ?? []];
    const read = words.flatMap((w) => /^\p{N}+$/u.test(w) ? [w] : tokenize(w, file));
    const rest = read.map((w) => w.toLowerCase()).filter((w) =>
      sideFromName(w, file) === undefined && !kindLetters.some((letters) => letters.has(w))
    );
    return `${kindOf(n)}|${centreOf(n)}|${rest.join(" ")}|${side}`;
  };
  // A key two panels share is ambiguous: those are left to pairing by position.
  const byKey = new Map<string, Node | null>();
  for (const n of nodes) {
    const k = key(n);
    if (k) byKey.set(k, byKey.has(k) ? null : n);
  }
  for (const n of nodes) {
    const k = key(n);
    if (!k?.endsWith("|left")) continue;
    const partner = byKey.get(k.replace(/\|left$/, "|right"));
    if (partner && !paired.has(partner)) {
      pairs.push([n, partner]);
      paired.add(n).add(partner);
    }
  }
  for (const n of nodes) {
    if (paired.has(n)) continue;
    const fit = fitOf(n), centre = centreOf(n);
    if (!(fit.centre[2] > centre)) continue; // from the left side, each pair once
    let best: Node | undefined, bestDistance = Infinity;
    for (const m of nodes) {
      if (m === n || paired.has(m) || kindOf(m) !== kindOf(n) || centreOf(m) !== centre) continue;
      const other = fitOf(m);
      if (!(other.centre[2] < centre)) continue;
      const d = length(sub(fit.centre, mirror(other.centre, centre)));
      if (d < bestDistance) [best, bestDistance] = [m, d];
    }
    if (best && bestDistance <= 0.25 * Math.max(fit.spanLength, fit.chord)) {
      pairs.push([n, best]);
      paired.add(n).add(best);
    }
  }
  return pairs;
}
