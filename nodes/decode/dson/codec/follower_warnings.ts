/**
 * The warnings of rigid followers refitted to their reference vertices (split from
 * `follower_refit.ts`, which re-exports them): those not refitted, and those only approximated.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";

/** Follower names a warning lists before counting the rest. */
const NAMED = 3;

/**
 * One warning for the followers {@link followerStates} could not read (`prefix`: who says it).
 *
 * @example
 * ```ts
 * warnStale(followerStates(doc, false).stale, warn, "dson bake");
 * ```
 */
export function warnStale(stale: readonly string[], warn: WarningSink, prefix: string): void {
  if (!stale.length) return;
  const listed = stale.slice(0, NAMED).map((k) => `'${k}'`).join(", ") +
    (stale.length > NAMED ? ` and ${stale.length - NAMED} more` : "");
  warn(
    `${prefix}: ${stale.length} rigid follower(s) keep their place, not refitted to their reference vertices ` +
      `(decoded before decode.dson v59 recorded them, or the mesh they follow is gone): ${listed}`,
  );
}

/**
 * One warning for the followers {@link refitFollowers} could only approximate (`prefix`: who says it).
 *
 * @example
 * ```ts
 * const sheared: string[] = [];
 * refitFollowers(doc, before, sheared);
 * warnSheared(sheared, warn, "dson preset");
 * ```
 */
export function warnSheared(
  sheared: readonly string[],
  warn: WarningSink,
  prefix: string,
  uncertain: readonly string[] = [],
  untwisted: readonly string[] = [],
  surfaced: readonly string[] = [],
): void {
  const list = (keys: readonly string[]) =>
    keys.slice(0, NAMED).map((k) => `'${k}'`).join(", ") +
    (keys.length > NAMED ? ` and ${keys.length - NAMED} more` : "");
  if (sheared.length) {
    warn(
      `${prefix}: ${sheared.length} rigid follower(s) are scaled by their scale_modes along axes other than ` +
        `their own, a shear a glTF node cannot hold; each is drawn with the nearest turn and scale, off ` +
        `Daz's place: ${list(sheared)}`,
    );
  }
  if (uncertain.length) {
    warn(
      `${prefix}: ${uncertain.length} rigid follower(s) have scale_modes that stretch them across the line ` +
        `their reference vertices lie on, a direction those vertices do not fix; each is stretched along one ` +
        `perpendicular chosen, which may not be Daz's: ${list(uncertain)}`,
    );
  }
  if (untwisted.length) {
    warn(
      `${prefix}: ${untwisted.length} rigid follower(s) turn in full with reference vertices that lie on a ` +
        `line that turns, which fix no turn about that line, or on a strip narrower than the ` +
        `surface's unevenness fixes it by; each takes the least turn that carries the line (on a strip, the ` +
        `best fit's twist), and Daz may twist it otherwise: ${list(untwisted)}`,
    );
  }
  if (surfaced.length) {
    warn(
      `${prefix}: ${surfaced.length} rigid follower(s) have reference vertices on a line that keeps its ` +
        `direction, or at one place, while the mesh around them twists about that line (or turns about ` +
        `that place) by over 1.1 degrees, or stretches by over 2% where their scale_modes ask for a stretch ` +
        `those vertices cannot measure; they record neither, so each slides, unturned and unscaled, as ` +
        `Daz's fit of them moves it, off the surface's motion: ${list(surfaced)}`,
    );
  }
}
