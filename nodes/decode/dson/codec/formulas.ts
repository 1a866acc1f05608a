/**
 * ERC formulas (`formulas: [{output, operations, stage}]` on modifiers and nodes) that
 * `formula_eval.ts` could not evaluate: a formula whose `output` is a morph of the decoded meshes
 * (`#MorphA?value`) or a transform channel of a decoded node (`#l_forearm?rotation/x/value`) can
 * change the shape Daz shows — a controller dialled to 1 drives its morphs and bones there — so
 * such formulas are said in one warning, not left silent. Formulas driving what the decode does not
 * have change nothing here.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonEntry } from "./dson_file.ts";
import type { SceneNode } from "./model.ts";
import { formulaKey } from "./formula_eval.ts";
import { parseDsonUri } from "./uri.ts";
import { describeSpan, type TcbSpan } from "./formula_spline.ts";

/** Transform channels a formula can drive (the first segment of its output's property path). */
const NODE_CHANNELS = new Set([
  "rotation",
  "translation",
  "scale",
  "general_scale",
  "center_point",
  "end_point",
  "orientation",
]);

/**
 * Warns once (at the first such formula's JSON path) of the formulas of `sources` — the
 * definitions of the decoded nodes and the modifiers applied — whose output drives one of
 * `morphIds` (morph modifier ids) or a transform channel of one of `nodes`, but those `evaluated`
 * (keys of `formulaKey`).
 *
 * @example
 * ```ts
 * warnUnevaluatedFormulas([...definitions, ...modifiers], nodes, new Set(["MorphA"]), library, new Set());
 * ```
 */
export function warnUnevaluatedFormulas(
  sources: Iterable<DsonEntry>,
  nodes: readonly SceneNode[],
  morphIds: ReadonlySet<string>,
  library: ContentLibrary,
  evaluated: ReadonlySet<string>,
  offKeys: ReadonlyMap<string, TcbSpan> = new Map(),
): void {
  const nodeIds = new Set(nodes.map((node) => node.id));
  const driving: { entry: DsonEntry; path: string; output: string }[] = [];
  for (const entry of new Set(sources)) {
    const formulas = entry.value.formulas;
    if (!Array.isArray(formulas)) continue;
    formulas.forEach((formula, k) => {
      const output = formula && typeof formula === "object"
        ? (formula as { output?: unknown }).output
        : undefined;
      const key = formulaKey(entry, k);
      if (typeof output !== "string") return;
      // A TCB spline between its keys is said on its own, once per formula: both readings, the one used.
      const span = offKeys.get(key);
      if (span) library.repaired(entry.file, `${entry.path}/formulas/${k}`, describeOffKey(output, span));
      if (evaluated.has(key)) return;
      const uri = parseDsonUri(output);
      const id = uri.id.replace(/:$/, "");
      const property = uri.propertyPath.split("/")[0];
      const drives = property === "value" ? morphIds.has(id) : NODE_CHANNELS.has(property) && nodeIds.has(id);
      if (drives) driving.push({ entry, path: `${entry.path}/formulas/${k}`, output });
    });
  }
  if (!driving.length) return;
  const [first] = driving;
  library.repaired(
    first.entry.file,
    first.path,
    `${driving.length} ERC formula(s) driving morphs or bones of this scene are not evaluated (the first ` +
      `outputs '${first.output}'): what they drive keeps its written value, so a shape or pose Daz derives ` +
      "from controllers is not reproduced",
  );
}

/**
 * A warning's words for a formula whose `spline_tcb` met an input between its keys: the readings,
 * the one used and their difference.
 */
function describeOffKey(output: string, span: TcbSpan): string {
  return `ERC formula driving '${output}': its spline_tcb's ${describeSpan(span)}`;
}
