/**
 * Alias channels as Daz Studio content ships them (DSON `channel_alias`): a modifier with no morph
 * whose channel is `"type": "alias"` and `target_channel` a URL of another modifier's value, kept
 * so an older property name (a renamed morph, a legacy controller) still dials the new one. Each
 * seed makes a figure with a few plain morphs, aliases of some (now and then an alias of an alias),
 * optionally a controller driving one morph by a formula (and an alias of the controller), a scene
 * whose instance of one alias carries the user's dial (as Daz saves a changed alias), and a shaping
 * preset dialling one alias. The expected weights are worked out here from the aliases' targets.
 *
 * @module
 */
import { generateFigure, type Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";

/** One generated case. */
export interface AliasCase {
  readonly json: Json;
  /** Morph id → its weight once the scene is decoded. */
  readonly scene: ReadonlyMap<string, number>;
  /** The preset's dials ([id, value]) and the weights after it (morph id → weight). */
  readonly preset: readonly (readonly [string, number])[];
  readonly afterPreset: ReadonlyMap<string, number>;
  /** Whether the figure has a formula at all. */
  readonly formulas: boolean;
}

const dialOf = (r: () => number) => Math.round((0.1 + r() * 0.8) * 100) / 100;

/**
 * The case of `seed`. The figure's id is `F`; morphs `M0…`, aliases `OLD_M0…` (and `LEGACY_M0`
 * for an alias of an alias), the controller `CTRL` with alias `OLD_CTRL`.
 */
export function aliasCase(seed: number): AliasCase {
  const r = prng(seed);
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  const library = json.modifier_library as Json[];
  const instances = (json.scene as Json).modifiers as Json[];
  const count = 2 + Math.floor(r() * 3);
  const formulas = r() < 0.5;
  const morphs = Array.from({ length: count }, (_, k) => `M${k}`);
  const weights = new Map(morphs.map((m) => [m, 0]));
  // Which modifier each alias stands for (after chains).
  const stands = new Map<string, string>();
  const modifier = (id: string, channel: Json, extra: Json = {}) => {
    library.push({ id, name: id, parent: "#F_geo", channel, ...extra });
    instances.push({ id: `${id}-1`, url: `#${id}`, parent: "#F_geo-1" });
  };
  morphs.forEach((id, k) => {
    const morph = { vertex_count: 16, deltas: { count: 1, values: [[k, 0, 0, 1]] } };
    const driven = formulas && k === 0;
    modifier(id, { id: "value", type: "float", value: 0, min: 0, max: 1 }, {
      morph,
      ...(driven
        ? { formulas: [{ output: "F:#M0?value", operations: [{ op: "push", url: "F:#CTRL?value" }] }] }
        : {}),
    });
  });
  // The target as Daz writes it within one file (node-qualified), or short (`#id?value`).
  const url = (id: string) => (r() < 0.6 ? `F:#${id}?value` : `#${id}?value`);
  const alias = (id: string, target: string) =>
    modifier(id, {
      id: "value",
      type: "alias",
      name: id,
      label: id.replace(/_/g, " "),
      target_channel: target,
    });
  if (formulas) {
    modifier("CTRL", { id: "value", type: "float", value: 0, min: 0, max: 1 });
    alias("OLD_CTRL", "F:#CTRL?value");
    stands.set("OLD_CTRL", "CTRL");
  }
  // Only the morphs no formula drives take aliases of their own (M0 follows CTRL when driven).
  const plain = morphs.filter((_, k) => !(formulas && k === 0));
  for (const id of plain) {
    if (r() < 0.3) continue;
    alias(`OLD_${id}`, url(id));
    stands.set(`OLD_${id}`, id);
    if (r() < 0.3) {
      alias(`LEGACY_${id}`, `F:#OLD_${id}?value`);
      stands.set(`LEGACY_${id}`, id);
    }
  }
  if (stands.size === 0) {
    const id = plain[0];
    alias(`OLD_${id}`, `F:#${id}?value`);
    stands.set(`OLD_${id}`, id);
  }
  const aliases = [...stands.keys()];
  const apply = (into: Map<string, number>, target: string, value: number) => {
    if (target === "CTRL") into.set("M0", Math.min(1, Math.max(0, value)));
    else into.set(target, value);
  };
  // The scene: the user dialled one alias; Daz saves the value on the alias's instance.
  const dialled = aliases[Math.floor(r() * aliases.length)];
  const dial = dialOf(r);
  const instance = instances.find((i) => i.id === `${dialled}-1`)!;
  instance.channel = { id: "value", current_value: dial };
  apply(weights, stands.get(dialled)!, dial);
  // The preset dials another alias (or the same one) to a new value.
  const presetAlias = aliases[Math.floor(r() * aliases.length)];
  const presetValue = dialOf(r);
  const afterPreset = new Map(weights);
  apply(afterPreset, stands.get(presetAlias)!, presetValue);
  return { json, scene: weights, preset: [[presetAlias, presetValue]], afterPreset, formulas };
}
