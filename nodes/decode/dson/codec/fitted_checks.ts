/**
 * The checks made on a mesh once its formulas are evaluated (`load_modifiers.ts`), each a warning
 * where it changes or cannot match what Daz shows: morph dials past their clamped range that no
 * formula drives (clamped here, `morph_clamp.ts`), and for a fitted item its `auto_follow` channels
 * the body cannot drive and the body's dialled auto-follow morphs it has none of (`auto_follow.ts`).
 *
 * @module
 */
import { describeUnfollowed, describeUnprojected, type Unfollowed } from "./auto_follow.ts";
import type { BodyValues } from "./body_values.ts";
import type { ContentLibrary } from "./content.ts";
import type { ModifierValue } from "./formula_eval.ts";
import type { Morph } from "./model.ts";
import { clampUndriven, describeClamps } from "./morph_clamp.ts";

/** One evaluated mesh, as {@link fittedChecks} reads it. */
export interface EvaluatedMesh {
  /** The mesh's morphs (clamped in place). */
  readonly morphs: Morph[];
  /** Its modifiers by id. */
  readonly values: ReadonlyMap<string, ModifierValue>;
  /** The ids formulas drive. */
  readonly driven: ReadonlySet<string>;
  readonly bodies: BodyValues;
  readonly mesh: number;
  /** Its auto-follow channels that could not follow. */
  readonly unfollowed: readonly Unfollowed[];
}

/**
 * Clamps the mesh's undriven morph dials to their range and reports, through `library`, what was
 * clamped or could not follow its body.
 *
 * @example
 * ```ts
 * fittedChecks(library, { morphs: parts.morphs, values, driven, bodies, mesh, unfollowed });
 * ```
 */
export function fittedChecks(library: ContentLibrary, at: EvaluatedMesh): void {
  const { values, bodies, mesh } = at;
  // A dial past a clamped range that no formula drives is kept in range, as Daz shows it.
  const clamps = clampUndriven(at.morphs, at.driven);
  if (clamps.length) {
    const { entry } = values.get(clamps[0].id)!;
    library.repaired(entry.file, `${entry.path}/channel`, describeClamps(clamps));
  }
  const body = bodies.lookup(mesh)?.figure;
  if (body === undefined) return;
  const unprojected = bodies.unprojected(mesh, values);
  if (unprojected.length) {
    const { entry } = [...values.values()][0];
    library.repaired(entry.file, entry.path, describeUnprojected(unprojected, body));
  }
  if (at.unfollowed.length) {
    const { file, path, message } = describeUnfollowed(at.unfollowed, body);
    library.repaired(file, path, message);
  }
}
