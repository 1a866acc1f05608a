/**
 * Surfaces hidden by a flag on their own node and nothing else: a copy of a surface drawn over it (a
 * damage state, an alternative, a modeller's backup) named as Blender names a duplicate (`Aileron_L.001`,
 * `Aileron_L.002`) with no damage word, no damage level and no hidden group above it — only
 * `KHR_node_visibility` `visible: false` on its own node (Godot 4.5+ and UnityGLTF write it for a hidden
 * node; Blender's exporter writes no flag: it exports a hidden object plainly, or drops it when told to
 * keep only visible or renderable ones) or a `visible: false` extra (a `userData.visible` a three.js app
 * set — its exporter drops invisible objects by default —, a game exporter's flag). The copies are
 * `rough_surfaces.ts`'s damage copies (dented, holed, torn short and bent) renamed so. And, as control,
 * a lone surface hidden so with no twin beside it: it is the only drawing of that surface. A copy's
 * truth is its intact surface's hinge, and every hidden node must stay hidden. Deterministic from a seed.
 *
 * @module
 */
import { KHRNodeVisibility } from "@gltf-transform/extensions";
import type { Document, Node } from "@gltf-transform/core";
import { roughSample } from "./rough_surfaces.ts";
import type { HiddenTruth } from "./damage_hidden.ts";

/** The damage habits whose copies are renamed plainly here. */
const HABITS = ["damage_levels", "damage_words", "dcs_damage"] as const;

/**
 * A generated scene; `plain` is the same scene as `rough_surfaces.ts` drew it (its copies marked by
 * their damage names, nothing hidden: faults it has are the aircraft's), `renamed` its names to ours.
 */
export interface HiddenOwnSample {
  readonly doc: Document;
  readonly plain: Document;
  readonly truths: HiddenTruth[];
  readonly plainTruths: HiddenTruth[];
  readonly renamed: ReadonlyMap<string, string>;
  /** `copies`: hidden copies over intact surfaces; `lone`: one surface hidden with no twin. */
  readonly layout: "copies" | "lone";
  readonly description: string;
}

/** The sample of `seed`: copies on three seeds in four, a lone hidden surface on the fourth. */
export function hiddenOwnSample(seed: number): HiddenOwnSample {
  const lone = seed % 4 === 3;
  const how = Math.floor(seed / 4) % 2 === 0 ? "khr_visibility" as const : "visible_extra" as const;
  const make = () =>
    lone ? roughSample(seed * 4 + 1, "bevel_box") : roughSample(seed * 4 + 1, HABITS[seed % 3]);
  const sample = make(), plain = make();
  const doc = sample.doc;
  const visibility = how === "khr_visibility" ? doc.createExtension(KHRNodeVisibility) : undefined;
  const hide = (node: Node) => {
    if (visibility) node.setExtension("KHR_node_visibility", visibility.createVisibility().setVisible(false));
    else node.setExtras({ ...node.getExtras(), visible: false });
  };
  const byName = (d: Document) =>
    new Map(d.getRoot().listNodes().map((n) => [n.getName(), n] as [string, Node]));
  const nodes = byName(doc);
  // Plain names: the intact surface's without a level, its copies Blender's duplicates of it.
  const renamed = new Map<string, string>(), counts = new Map<string, number>();
  const intactName = (name: string) => name.replace(/_D0$/, "");
  for (const t of sample.truths) {
    if (!t.copyOf) renamed.set(t.name, intactName(t.name));
  }
  for (const t of sample.truths) {
    if (!t.copyOf) continue;
    const base = intactName(t.copyOf), n = (counts.get(base) ?? 0) + 1;
    counts.set(base, n);
    renamed.set(t.name, `${base}.${String(n).padStart(3, "0")}`);
  }
  for (const [from, to] of renamed) {
    nodes.get(from)?.setName(to);
  }
  const truths: HiddenTruth[] = [], plainTruths: HiddenTruth[] = [];
  const loneName = lone ? sample.truths.find((t) => t.side === "left")?.name : undefined;
  for (const t of sample.truths) {
    const name = renamed.get(t.name) ?? t.name;
    const copyOf = t.copyOf ? renamed.get(t.copyOf) ?? t.copyOf : undefined;
    const base = { ...t, name, ...(copyOf ? { copyOf } : {}) };
    plainTruths.push(t);
    if (t.copyOf || t.name === loneName) {
      hide(nodes.get(t.name)!);
      truths.push({ ...base, concealed: how });
    } else truths.push(base);
  }
  return {
    doc,
    plain: plain.doc,
    truths,
    plainTruths,
    renamed,
    layout: lone ? "lone" : "copies",
    description: `${sample.description}; ${
      lone ? `'${loneName}' alone` : "copies"
    } hidden by ${how}, seed ${seed}`,
  };
}
