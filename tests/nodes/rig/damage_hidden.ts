/**
 * Damage-state copies (`rough_surfaces.ts`: IL-2's `_D1`…`_D3`, `_dmg` and its kin, DCS's `_DAMAGE`, War
 * Thunder's `_dm` boxes) as exporters leave them: **hidden** — `KHR_node_visibility` `visible: false`
 * (Godot 4.5+ and UnityGLTF write it; Blender's exporter does not, glTF-Blender-IO issue 2597), a
 * `visible: false` extra (a custom property, a game exporter's flag) or scale 0 (how engines without visibility switch a copy off, and how glTF
 * exporters of them write it) — or **apart**: the destroyed copy lying as debris beside the aircraft
 * (moved clear of the wing, dropped to the ground, turned). A hidden copy's truth is its intact surface's
 * hinge and it must stay hidden; a debris piece's is its own hinge where it lies, moved with it, or left
 * out with a warning naming it — it is no surface of the intact aircraft and must not move the others'
 * verdicts. Deterministic from a seed.
 *
 * @module
 */
import { KHRNodeVisibility, type Visibility } from "@gltf-transform/extensions";
import type { Document, Node } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { roughSample, type RoughTruth } from "./rough_surfaces.ts";

/** How a damage copy is put away. */
export type Concealment = "khr_visibility" | "visible_extra" | "scale_zero" | "apart";
/** Every way, in the order seeds cycle them. */
export const CONCEALMENTS: readonly Concealment[] = [
  "khr_visibility",
  "visible_extra",
  "scale_zero",
  "apart",
];
/** The damage habits of `rough_surfaces.ts`. */
export const DAMAGE_ROUGHS = ["damage_levels", "damage_words", "dcs_damage", "wt_dm"] as const;

/** A truth of a hidden or scattered scene: how its node was put away, if it was. */
export interface HiddenTruth extends RoughTruth {
  readonly concealed?: Concealment;
}

/** A generated scene. */
export interface HiddenSample {
  readonly doc: Document;
  readonly truths: HiddenTruth[];
  readonly concealment: Concealment;
  readonly description: string;
}

/** The turn of `p` by `degrees` about up (+Y), then moved by `d`. */
function moved(p: Vec3, degrees: number, d: Vec3): Vec3 {
  const a = degrees * Math.PI / 180, c = Math.cos(a), s = Math.sin(a);
  return [c * p[0] + s * p[2] + d[0], p[1] + d[1], -s * p[0] + c * p[2] + d[2]];
}

/** The scene of `seed` before its copies were hidden or moved: `rough_surfaces.ts`'s own. */
export function plainSample(seed: number): { doc: Document; truths: HiddenTruth[] } {
  const sample = roughSample(seed * 4 + 1, DAMAGE_ROUGHS[seed % DAMAGE_ROUGHS.length]);
  return { doc: sample.doc, truths: sample.truths };
}

/** The sample of `seed`: a damage scene of `rough_surfaces.ts`, its copies hidden or set apart. */
export function hiddenSample(seed: number): HiddenSample {
  const next = prng(seed * 7919 + 3);
  const rough = DAMAGE_ROUGHS[seed % DAMAGE_ROUGHS.length];
  const concealment = CONCEALMENTS[Math.floor(seed / DAMAGE_ROUGHS.length) % CONCEALMENTS.length];
  const sample = roughSample(seed * 4 + 1, rough);
  const doc = sample.doc;
  const byName = new Map(doc.getRoot().listNodes().map((n) => [n.getName(), n] as [string, Node]));
  const visibility = concealment === "khr_visibility" ? doc.createExtension(KHRNodeVisibility) : undefined;
  // The debris: IL-2's most damaged level, or every copy named by a word; one in two in a DCS or WT file.
  const copies = sample.truths.filter((t) => t.copyOf);
  const debris = (t: RoughTruth) =>
    rough === "damage_levels" ? t.name.endsWith("_D3") : rough === "damage_words" || next() < 0.5;
  // Where the debris lies: to one side, clear of the span, on the ground, turned.
  const span = Math.max(...sample.truths.map((t) => Math.abs(t.origin[0]) + t.span / 2));
  const aside = (next() < 0.5 ? 1 : -1) * (span * (1.3 + next())), ground = -1 - next();
  const truths: HiddenTruth[] = [];
  for (const truth of sample.truths) {
    if (!truth.copyOf || !copies.includes(truth)) {
      truths.push(truth);
      continue;
    }
    const node = byName.get(truth.name)!;
    if (concealment === "apart") {
      if (!debris(truth)) {
        truths.push(truth);
        continue;
      }
      const degrees = 360 * next(), d: Vec3 = [aside, ground, (next() - 0.5) * span];
      const a = degrees * Math.PI / 180;
      node.setTranslation(d).setRotation([0, Math.sin(a / 2), 0, Math.cos(a / 2)]);
      const tip: Vec3 = [0, 1, 2].map((k) => truth.origin[k] + truth.axis[k]) as Vec3;
      const origin = moved(truth.origin, degrees, d), end = moved(tip, degrees, d);
      const axis = [0, 1, 2].map((k) => end[k] - origin[k]) as Vec3;
      truths.push({ ...truth, origin, axis, concealed: "apart" });
      continue;
    }
    if (visibility) node.setExtension("KHR_node_visibility", visibility.createVisibility().setVisible(false));
    else if (concealment === "visible_extra") node.setExtras({ ...node.getExtras(), visible: false });
    else node.setScale([0, 0, 0]);
    truths.push({ ...truth, concealed: concealment });
  }
  return {
    doc,
    truths,
    concealment,
    description: `${sample.description}; copies ${concealment}, seed ${seed}`,
  };
}

/** Whether `node` is still hidden the way `how` hid it, anywhere up its chain (a pivot above it counts). */
export function stillHidden(node: Node, how: Concealment): boolean {
  if (how === "khr_visibility") {
    const v = node.getExtension<Visibility>("KHR_node_visibility");
    return v?.getVisible() === false;
  }
  if (how === "visible_extra") return (node.getExtras() as { visible?: unknown }).visible === false;
  if (how === "scale_zero") {
    const m = node.getWorldMatrix();
    return Math.hypot(m[0], m[1], m[2]) < 1e-9;
  }
  return true;
}
