/**
 * Rigidity groups whose participants a projected morph moves. Daz applies rigidity to exactly the
 * morphs it projects onto a fitted item (formats B.10, D7: "Rigidity only applies to morphs that are
 * dynamically generated and projected"), keeping buttons, buckles and rings rigid as the garment
 * follows a body shape. The projection here (`auto_project.ts`) makes a morph target, linear in the
 * body's dial, which cannot hold a fit that turns or scales with it, so the participants move as the
 * surface under them does. At a dial the decoded scene sets, the decode fits rigidity into the morph
 * (decode.dson v72, `preset_rigidity.ts`); at a dial not known (not a finite number) the groups whose
 * participants rigidity would place elsewhere are named (decode.dson v70; before, silently).
 * `dson.apply_preset` (v54) fits rigidity into the morph at the dial it sets, and `dson.bake_morph`
 * applies it when it bakes the morph.
 *
 * @module
 */
import type { Mesh } from "@gltf-transform/core";
import type { JsonValue } from "../../../../runtime/node.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { RIGIDITY_ATTRIBUTE } from "./build_primitive.ts";
import { METRES_PER_CM } from "./model.ts";
import { applyRigidity, type DsonRigidity, type RigidityGroup, rigidityGroupFromJson } from "./rigidity.ts";

/**
 * Beyond this (cm, a tenth of a millimetre) a participant's rigid place and its projected one differ:
 * nearer, a viewer cannot tell the two apart.
 */
const APART_CM = 0.01;

/**
 * The ids of `rigidity`'s groups with a participant that rigidity, applied to the projected morph at
 * `weight` (sparse `index`/`delta`, cm, over `positions`), would place over {@link APART_CM} from
 * where the morph puts it; the axes are the reference vertices' own (a group's frame node is not at
 * hand here, and only decides whether it is said).
 *
 * @example
 * ```ts
 * const ids = rigidGroupsOff(geometry.positions, geometry.rigidity, index, delta, 0.7);
 * ```
 */
export function rigidGroupsOff(
  positions: Float64Array,
  rigidity: DsonRigidity | undefined,
  index: Int32Array,
  delta: Float64Array,
  weight: number,
): string[] {
  if (!rigidity?.groups.length || !index.length || !weight) return [];
  const after = Float64Array.from(positions);
  for (let k = 0; k < index.length; k++) {
    for (let c = 0; c < 3; c++) after[index[k] * 3 + c] += weight * delta[k * 3 + c];
  }
  let weights: Float64Array | undefined;
  if (rigidity.weights) {
    weights = new Float64Array(positions.length / 3);
    const { index: at, value } = rigidity.weights;
    for (let k = 0; k < at.length; k++) weights[at[k]] = value[k];
  }
  const out: string[] = [];
  for (const group of rigidity.groups) {
    if (!group.referenceVertices.length) continue;
    const rigid = applyRigidity(positions, after, weights, [group]);
    const off = group.maskVertices.some((v) =>
      Math.hypot(
        rigid[v * 3] - after[v * 3],
        rigid[v * 3 + 1] - after[v * 3 + 1],
        rigid[v * 3 + 2] - after[v * 3 + 2],
      ) >
        APART_CM
    );
    if (off) out.push(group.id);
  }
  return out;
}

/**
 * The warning naming an item's rigidity groups that projected morphs move (`groups`, `morphs` their
 * names), or undefined when there are none.
 */
export function describeRigidProjection(
  groups: readonly string[],
  morphs: readonly string[],
): string | undefined {
  if (!groups.length) return undefined;
  const list = (l: readonly string[]) =>
    l.slice(0, 5).map((g) => `'${g}'`).join(", ") + (l.length > 5 ? ` and ${l.length - 5} more` : "");
  return `${groups.length} rigidity group(s) of this item have participants the morph(s) projected from the ` +
    `body (${morphs.slice(0, 5).join(", ")}${
      morphs.length > 5 ? ", …" : ""
    }) move: Daz applies rigidity to ` +
    "the morphs it projects, keeping such parts (buttons, buckles) rigid as the item follows the body, and " +
    "a projected morph target here moves them as the surface under them moves (dson.apply_preset fits " +
    "rigidity into the morph at the dial it sets, and dson.bake_morph applies it when it bakes the morph): " +
    list(groups);
}

/**
 * A decoded mesh's base positions (cm) and rigidity by DSON vertex, read back from its primitives
 * (`dsonVertex`: each glTF vertex's DSON vertex, per primitive) and its extras, as a preset finds it;
 * undefined when it has no rigidity group.
 *
 * @example
 * ```ts
 * const drawn = drawnRigidity(item.mesh, item.dsonVertex, item.vertexCount);
 * ```
 */
export function drawnRigidity(
  mesh: Mesh,
  dsonVertex: readonly (readonly number[])[],
  vertexCount: number,
): { positions: Float64Array; rigidity: DsonRigidity } | undefined {
  const dson = getPartgraphExtras(mesh).dson as { rigidity?: { groups?: JsonValue[] } } | undefined;
  const groups = (dson?.rigidity?.groups ?? []).map((json) => rigidityGroupFromJson(json, vertexCount))
    .filter((g): g is RigidityGroup => typeof g !== "string");
  if (!groups.length) return undefined;
  const positions = new Float64Array(vertexCount * 3);
  let painted: Float64Array | undefined;
  mesh.listPrimitives().forEach((primitive, p) => {
    const position = primitive.getAttribute("POSITION")?.getArray();
    const weights = primitive.getAttribute(RIGIDITY_ATTRIBUTE)?.getArray();
    if (weights) painted ??= new Float64Array(vertexCount);
    dsonVertex[p].forEach((v, i) => {
      if (position) {
        for (let c = 0; c < 3; c++) positions[v * 3 + c] = position[i * 3 + c] / METRES_PER_CM;
      }
      if (weights && painted) painted[v] = weights[i];
    });
  });
  const index: number[] = [], value: number[] = [];
  painted?.forEach((w, v) => {
    if (w > 0) index.push(v), value.push(w);
  });
  return {
    positions,
    rigidity: {
      groups,
      ...(painted ? { weights: { index: Int32Array.from(index), value: Float64Array.from(value) } } : {}),
    },
  };
}
