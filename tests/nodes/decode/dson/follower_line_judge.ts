/**
 * Places the part of a `follower_line_habits.ts` case with the codec's fits (passed in, so a tree
 * before a change can be judged by the same code) and tallies wrong and silently wrong cases.
 *
 * @module
 */
import type { mat4 } from "@gltf-transform/core";
import {
  type LineCase,
  lineCase,
  lineError,
  type LinePlace,
  transformPoint,
  WRONG,
} from "./follower_line_habits.ts";

/** The codec functions a place is made with (`follower_fit.ts`, `rigidity_apply.ts`). */
export interface LineCodec {
  fitChange(
    base: Float64Array,
    before: Float64Array,
    after: Float64Array,
    modes: { rotationMode: "full"; scaleModes: readonly string[] },
    frame: undefined,
    flags: { uncertain: boolean; untwisted?: boolean; surface?: boolean },
    surround?: { base: Float64Array; before: Float64Array; after: Float64Array },
  ): mat4;
  applyRigidity(
    before: Float64Array,
    after: Float64Array,
    weights: undefined,
    groups: readonly unknown[],
    frameFor: undefined,
    onShared: undefined,
    onUncertain: (group: unknown, what?: string) => void,
  ): Float64Array;
}

/**
 * Where a `full` rigidity group over all `n` reference vertices of `before`/`after` puts its one
 * participant, vertex `part`, and whether it warned. The surround, if any, is the mesh's other
 * vertices, after those.
 */
function groupPlace(
  codec: LineCodec,
  before: Float64Array,
  after: Float64Array,
  n: number,
  part: number,
  surround?: LineCase["surround"],
  scaleModes: readonly string[] = ["none", "none", "none"],
): LinePlace {
  if (surround) {
    before = Float64Array.from([...before, ...surround.before]);
    after = Float64Array.from([...after, ...surround.after]);
  }
  let warned = false;
  const group = {
    id: "strap",
    rotationMode: "full",
    scaleModes,
    referenceVertices: Int32Array.from({ length: n }, (_, k) => k),
    maskVertices: Int32Array.of(part),
    transformNodes: [],
  };
  const out = codec.applyRigidity(
    before,
    after,
    undefined,
    [group],
    undefined,
    undefined,
    () => warned = true,
  );
  return { at: [out[part * 3], out[part * 3 + 1], out[part * 3 + 2]], warned };
}

/** Where `codec` puts the part of `c`. */
export function linePlace(codec: LineCodec, c: LineCase): LinePlace {
  const n = c.before.length / 3;
  // The participant is a reference vertex: the plain morph is the reference vertices' own.
  if (c.fitter === "group" && c.shared !== undefined) {
    return groupPlace(codec, c.before, c.after, n, c.shared, c.surround, c.scaleModes);
  }
  if (c.fitter === "group") {
    const before = Float64Array.from([...c.before, ...c.part]);
    // The plain morph drags the participant off (a projected morph distorts it): rigidity replaces it.
    const after = Float64Array.from([...c.after, ...c.truth.map((v) => v + 0.004)]);
    return groupPlace(codec, before, after, n, n, c.surround, c.scaleModes);
  }
  const flags: { uncertain: boolean; untwisted?: boolean; surface?: boolean } = { uncertain: false };
  const modes = {
    rotationMode: "full" as const,
    scaleModes: c.scaleModes ?? [c.fitter === "follower" ? "none" : "primary", "none", "none"],
  };
  const surround = c.surround && { base: c.surround.before, ...c.surround };
  const m = codec.fitChange(c.before, c.before, c.after, modes, undefined, flags, surround);
  return {
    at: transformPoint(m, c.part),
    warned: flags.uncertain || !!flags.untwisted || !!flags.surface,
  };
}

/**
 * Tallies of seeds `from`..`to` (cases of `make`) by habit: cases, wrong, silently wrong, warned but
 * right. `truth`: `motion` judges every part against the habit's motion; `daz` judges a part whose line
 * does not turn (or that follows one vertex) against Daz's slide (`LineCase.slide`) — a rigid fit of
 * vertices that only slide has no turn, whatever twisted the surface about them — and the others
 * against the motion (one twist Daz may give).
 */
export function lineTally(
  codec: LineCodec,
  from: number,
  to: number,
  make: (seed: number) => LineCase = lineCase,
  truth: "motion" | "daz" = "motion",
): Map<string, [number, number, number, number]> {
  const tally = new Map<string, [number, number, number, number]>();
  for (let seed = from; seed <= to; seed++) {
    const made = make(seed);
    const c = truth === "daz" && made.slide ? { ...made, truth: made.slide } : made;
    const place = linePlace(codec, c);
    const wrong = lineError(c, place) > WRONG * (c.scale ?? 1);
    for (const key of ["all", ...c.habits, `${c.habits[0]} ${c.fitter}`]) {
      const t = tally.get(key) ?? [0, 0, 0, 0];
      t[0]++;
      if (wrong) t[1]++;
      if (wrong && !place.warned) t[2]++;
      if (!wrong && place.warned) t[3]++;
      tally.set(key, t);
    }
  }
  return tally;
}
