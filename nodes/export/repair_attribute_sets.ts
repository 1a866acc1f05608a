/**
 * Export repairs of a primitive's numbered attribute sets (`TEXCOORD_n`, `COLOR_n`, `JOINTS_n`,
 * `WEIGHTS_n`), which glTF numbers from 0 without gaps (MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY) and
 * pairs joints with weights (MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH). Exporters leave a lone
 * `TEXCOORD_1` when a mesh's first UV map was deleted; viewers read the sets by name, so the file draws,
 * but the validator refuses it. Called by `repair_properties.ts`; each function follows `repair.ts`.
 *
 * @module
 */
import type { Mesh } from "@gltf-transform/core";
import { remapUvSets } from "./repair_uv_sets.ts";
import { attributeReader, type Attributes, type AttributesOf } from "./primitive_attributes.ts";

const NUMBERED = /^(TEXCOORD|COLOR|JOINTS|WEIGHTS)_(\d+)$/;

/**
 * A joint set without its weight set (or the reverse) is left out: nothing says how much each joint
 * moves a vertex. Then each family is renumbered from 0 in its order, the textures sampling a
 * renumbered UV set following it (on the primitive's own copy of the material).
 */
export function attributeSetRepairs(
  mesh: Mesh,
  apply: boolean,
  messages: string[],
  attributes: AttributesOf = attributeReader(apply),
): void {
  const unpaired = new Set<string>(), renumbered = new Set<string>();
  for (const primitive of attributes.primitives(mesh)) {
    const sets = numberedSets(attributes(primitive));
    if (!sets) continue;
    const lone = [
      ...unpairedSets(sets.get("JOINTS"), sets.get("WEIGHTS"), "JOINTS"),
      ...unpairedSets(sets.get("WEIGHTS"), sets.get("JOINTS"), "WEIGHTS"),
    ];
    for (const semantic of lone) {
      unpaired.add(semantic);
      const [family, set] = semantic.split("_");
      sets.get(family)!.splice(sets.get(family)!.indexOf(Number(set)), 1);
      if (apply) primitive.setAttribute(semantic, null);
    }
    for (const [family, numbers] of sets) {
      numbers.sort((a, b) => a - b);
      const renames = new Map(numbers.map((set, i) => [set, i] as const).filter(([set, i]) => set !== i));
      if (!renames.size) continue;
      for (const [from, to] of renames) renumbered.add(`${family}_${from} → ${family}_${to}`);
      if (!apply) continue;
      const accessors = numbers.map((set) => primitive.getAttribute(`${family}_${set}`));
      for (const set of numbers) primitive.setAttribute(`${family}_${set}`, null);
      accessors.forEach((accessor, i) => primitive.setAttribute(`${family}_${i}`, accessor));
      if (family === "TEXCOORD") remapUvSets(primitive, renames);
    }
  }
  const name = mesh.getName();
  if (unpaired.size) {
    messages.push(
      `mesh '${name}': ${
        [...unpaired].join(", ")
      } left out: each JOINTS_n needs its WEIGHTS_n, and each WEIGHTS_n its JOINTS_n`,
    );
  }
  if (renumbered.size) {
    messages.push(
      `mesh '${name}': attribute sets renumbered from 0 without gaps, as glTF numbers them: ${
        [...renumbered].join(", ")
      } (textures sampling a renumbered UV set follow it)`,
    );
  }
}

/**
 * The set numbers of each numbered family of `primitive`, or undefined when every family is numbered
 * 0…n−1 and joints and weights pair up (nearly every primitive: one pass over its semantics).
 */
function numberedSets(attributes: Attributes): Map<string, number[]> | undefined {
  if (inOrder(attributes)) return undefined;
  setMaps.count++;
  const sets = new Map<string, number[]>();
  for (const semantic of attributes.keys()) {
    const match = NUMBERED.exec(semantic);
    if (!match) continue;
    const numbers = sets.get(match[1]) ?? [];
    sets.set(match[1], numbers);
    numbers.push(Number(match[2]));
  }
  const gapless = [...sets.values()].every((numbers) => numbers.every((n) => n < numbers.length));
  const paired = (sets.get("JOINTS")?.length ?? 0) === (sets.get("WEIGHTS")?.length ?? 0);
  return gapless && paired ? undefined : sets;
}

/** How many primitives {@link numberedSets} built its map of sets for (a count for tests). */
export const setMaps = { count: 0 };

/** Per family (TEXCOORD, COLOR, JOINTS, WEIGHTS): how many sets, and the largest number. Scratch. */
const COUNTS = new Float64Array(4), LARGEST = new Float64Array(4);
const FAMILIES: Readonly<Record<string, number>> = { TEXCOORD: 0, COLOR: 1, JOINTS: 2, WEIGHTS: 3 };

/**
 * Whether {@link numberedSets} finds nothing to repair in `attributes`' semantics, without its map and lists: each
 * family numbered 0…n−1 (its largest number below its count, which is the test below, `every(n <
 * length)`) and as many joint sets as weight sets. Nearly every primitive of every export.
 */
function inOrder(attributes: Attributes): boolean {
  COUNTS.fill(0);
  LARGEST.fill(-1);
  for (const semantic of attributes.keys()) {
    const match = NUMBERED.exec(semantic);
    if (!match) continue;
    const family = FAMILIES[match[1]], number = Number(match[2]);
    COUNTS[family]++;
    if (number > LARGEST[family]) LARGEST[family] = number;
  }
  for (let f = 0; f < 4; f++) if (COUNTS[f] > 0 && !(LARGEST[f] < COUNTS[f])) return false;
  return COUNTS[2] === COUNTS[3];
}

/** The semantics of `sets` (of family `name`) whose number the partner family's `partners` lacks. */
function unpairedSets(
  sets: readonly number[] | undefined,
  partners: readonly number[] | undefined,
  name: string,
): string[] {
  return (sets ?? []).filter((set) => !partners?.includes(set)).map((set) => `${name}_${set}`);
}
