/**
 * Alias channels (DSON `channel_alias`: a modifier whose channel is `"type": "alias"` and reflects
 * its `target_channel`) on a loaded mesh: the scene's dial on an alias's instance is its target's
 * dial, and each morph records the aliases that stand for it, so a preset dialling an alias sets the
 * morph even where no formula reads it (`preset_morphs.ts`).
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { ModifierValue } from "./formula_eval.ts";
import { aliasTarget } from "./formula_compile.ts";
import type { Morph } from "./model.ts";

/**
 * Passes the scene's dial of each alias instance to the alias's target (through chains of aliases),
 * unless the scene dials the target itself (its own value wins: the alias only reflects it; a
 * disagreeing pair is warned), and lists each morph's aliases on its record (`aliases`). Before
 * decode.dson v37 an alias's dial was kept on the alias alone: its target, and whatever reads it,
 * stayed as authored, silently.
 *
 * @example
 * ```ts
 * passAliasDials(meshes.parts, state.values, state.dialled, library);
 * ```
 */
export function passAliasDials(
  parts: readonly { morphs: Morph[] }[],
  values: ReadonlyMap<number, Map<string, ModifierValue>>,
  dialled: ReadonlyMap<number, ReadonlySet<string>>,
  library: ContentLibrary,
): void {
  for (const [mesh, own] of values) {
    const dials = dialled.get(mesh) ?? new Set<string>();
    const aliasesOf = new Map<string, string[]>();
    const passed = new Map<string, number>(); // target → the alias dial passed to it
    for (const [id, value] of own) {
      const target = aliasTarget(id, own);
      if (target === undefined) continue;
      aliasesOf.set(target, [...aliasesOf.get(target) ?? [], id]);
      if (!dials.has(id)) continue;
      const targetValue = own.get(target)!;
      const was = dials.has(target) ? targetValue.value : passed.get(target);
      if (was !== undefined) {
        if (was !== value.value) {
          library.repaired(
            value.entry.file,
            value.entry.path,
            `the scene dials alias '${id}' to ${value.value} and its target '${target}' to ${was}; ` +
              `'${target}' keeps ${was} (an alias reflects its target)`,
          );
        }
        continue;
      }
      passed.set(target, value.value);
      own.set(target, { ...targetValue, value: value.value });
    }
    const morphs = parts[mesh]?.morphs ?? [];
    morphs.forEach((morph, k) => {
      const aliases = aliasesOf.get(morph.id);
      const weight = passed.get(morph.id);
      if (!aliases && weight === undefined) return;
      morphs[k] = { ...morph, ...(aliases ? { aliases } : {}), ...(weight === undefined ? {} : { weight }) };
    });
  }
}
