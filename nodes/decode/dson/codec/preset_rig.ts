/**
 * Joint centres a body shape moves (decode.dson v57, `rig_formulas.ts`) were worked out at the
 * decoded dials; a preset changing one of those dials would move them in Daz. They are not moved
 * here (the skin's rest frames would change with them), so the preset says so, naming the dials.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { fewNames as few } from "./preset_morphs.ts";
import { percentDecode } from "./uri.ts";

/**
 * Warns once of the meshes in scope whose `rig_dials` a preset changed: by the preset's own values
 * (`values`), or through formulas, by the weight of the morph of that id on the mesh's nodes.
 *
 * @example
 * ```ts
 * warnRigDials(doc, new Map([["FBMHeavy", 1]]), () => true, console.warn);
 * ```
 */
export function warnRigDials(
  doc: Document,
  values: ReadonlyMap<string, number>,
  inScope: (mesh: Mesh) => boolean,
  warn: WarningSink,
): void {
  const changed: string[] = [];
  for (const mesh of doc.getRoot().listMeshes().filter(inScope)) {
    const dson = getPartgraphExtras(mesh).dson as
      | { rig_dials?: unknown; morphs?: { id?: unknown }[] }
      | undefined;
    const dials = dson?.rig_dials;
    if (!dials || typeof dials !== "object" || Array.isArray(dials)) continue;
    const morphIds = Array.isArray(dson?.morphs) ? dson.morphs.map((m) => m?.id) : [];
    const users = mesh.listParents().filter((p) => p.propertyType === "Node") as unknown as {
      getWeights(): number[];
    }[];
    for (const [id, was] of Object.entries(dials as Record<string, unknown>)) {
      if (typeof was !== "number") continue;
      let now = values.get(id) ?? values.get(percentDecode(id));
      const k = morphIds.indexOf(id);
      if (now === undefined && k >= 0) now = users.map((n) => n.getWeights()[k]).find((w) => w !== undefined);
      if (now !== undefined && Math.abs(now - was) > 1e-9) {
        changed.push(`${mesh.getName()} ${id} ${was} → ${now}`);
      }
    }
  }
  if (!changed.length) return;
  warn(
    `dson preset: ${changed.length} dial(s) whose ERC formulas move joint centres changed; the joints stay ` +
      `at the centres decode.dson worked out at the decoded dials (Daz moves them): ${few(changed)}`,
  );
}
