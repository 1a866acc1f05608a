/**
 * Damage-state copies (`rough_surfaces.ts`) hidden the ways exporters and collections leave them, beyond
 * a copy's own scale 0 or flag (`damage_hidden.ts`): **a parent's scale** — every damage copy under one
 * group (`Damage`, `DMG_parts`) or each under its own 3ds Max dummy, shrunk to 0 or to 1e-4…1e-6 — and
 * **tiny scales** on the copy itself (1e-4, 1e-5, 1e-6: exporters hide by shrinking, not always to 0),
 * half the time about the copy's own middle (its node moved there, its vertices local) rather than the
 * scene's origin; and **display groups**: Blender collections exported as a parent node (`DAMAGE`,
 * `_hidden`, `LOD_dmg`, `Hidden`, `Damaged.001`) carrying `{"hide_render": true}`, `"visible": false` or
 * nothing, the copies in them named with their own mark or only Blender's `.001`. Every copy lies at its
 * place; its truth is its intact surface's hinge, and it must stay hidden. Deterministic from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";
import { DAMAGE_ROUGHS, type HiddenTruth } from "./damage_hidden.ts";
import type { Hinge } from "./damage_hidden_judge.ts";
import type { ReportPart } from "./pipeline.ts";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { roughSample } from "./rough_surfaces.ts";

/** How a damage copy is put away here. */
export type GroupConcealment = "parent_scale" | "tiny_scale" | "display_group";
/** Every way, in the order seeds cycle them. */
export const GROUP_CONCEALMENTS: readonly GroupConcealment[] = [
  "parent_scale",
  "tiny_scale",
  "display_group",
];

/** A truth of this generator's scenes: how the copy was put away and the group hiding it, if one. */
export interface GroupTruth extends Omit<HiddenTruth, "concealed"> {
  readonly concealed?: GroupConcealment | "apart";
  /** The node whose scale or display flag hides the copy (the copy itself for its own tiny scale). */
  readonly hiddenBy?: string;
  /** The copy's name in the scene with its copies shown (`damage_hidden.ts` `plainSample`). */
  readonly shownAs?: string;
}

/** A generated scene. */
export interface GroupSample {
  readonly doc: Document;
  readonly truths: GroupTruth[];
  readonly concealment: GroupConcealment;
  readonly description: string;
}

const GROUP_NAMES = ["Damage", "DMG_parts", "damaged", "Destroyed_parts", "Dmg"];
const DISPLAY_NAMES = ["DAMAGE", "_hidden", "LOD_dmg", "Hidden", "Damaged.001", "dmg_collection"];
const DISPLAY_EXTRAS: Record<string, unknown>[] = [
  { hide_render: true },
  { visible: false },
  { hide_render: true, hide_viewport: true },
  {},
];

/** Moves `node`'s vertices so its node sits at their middle (a pivot at the object's centre, as Max keeps). */
function recentre(node: Node): void {
  const position = node.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  const array = position.getArray()! as Float32Array;
  const mid = [0, 1, 2].map((k) => {
    let lo = Infinity, hi = -Infinity;
    for (let i = k; i < array.length; i += 3) [lo, hi] = [Math.min(lo, array[i]), Math.max(hi, array[i])];
    return (lo + hi) / 2;
  });
  const moved = array.slice();
  for (let i = 0; i < moved.length; i++) moved[i] -= mid[i % 3];
  position.setArray(moved);
  node.setTranslation(mid as [number, number, number]);
}

/** A group node at the scene's root, holding `nodes` (taken from where they were). */
function groupOf(doc: Document, name: string, nodes: readonly Node[]): Node {
  const group = doc.createNode(name);
  doc.getRoot().getDefaultScene()!.addChild(group);
  for (const node of nodes) {
    for (const parent of node.listParents()) {
      if (parent !== group && "removeChild" in parent) (parent as Node).removeChild(node);
    }
    group.addChild(node);
  }
  return group;
}

/** The sample of `seed`: a damage scene of `rough_surfaces.ts`, its copies hidden by a group or a tiny scale. */
export function groupSample(seed: number, scattered = false): GroupSample {
  const next = prng(seed * 6151 + 11);
  const rough = DAMAGE_ROUGHS[seed % DAMAGE_ROUGHS.length];
  const concealment = GROUP_CONCEALMENTS[Math.floor(seed / DAMAGE_ROUGHS.length) % GROUP_CONCEALMENTS.length];
  const sample = roughSample(seed * 4 + 1, rough);
  const doc = sample.doc;
  const byName = new Map(doc.getRoot().listNodes().map((n) => [n.getName(), n] as [string, Node]));
  const copies = sample.truths.filter((t) => t.copyOf);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const tiny = () => pick([0, 1e-4, 1e-5, 1e-6]);
  const truths: GroupTruth[] = sample.truths.filter((t) => !t.copyOf);
  let how = "";
  if (concealment === "parent_scale") {
    const s = tiny();
    if (next() < 0.5) {
      const group = groupOf(doc, pick(GROUP_NAMES), copies.map((t) => byName.get(t.name)!));
      group.setScale([s, s, s]);
      how = `group '${group.getName()}' at scale ${s}`;
      for (const t of copies) truths.push({ ...t, concealed: concealment, hiddenBy: group.getName() });
    } else {
      how = `each in a dummy at scale ${s}`;
      copies.forEach((t, i) => {
        const dummy = groupOf(doc, `Dummy${String(i + 1).padStart(3, "0")}`, [byName.get(t.name)!]);
        dummy.setScale([s, s, s]);
        truths.push({ ...t, concealed: concealment, hiddenBy: dummy.getName() });
      });
    }
  } else if (concealment === "tiny_scale") {
    const centred = next() < 0.5;
    how = `own tiny scales${centred ? ", about their middles" : ""}`;
    for (const t of copies) {
      const node = byName.get(t.name)!, s = pick([1e-4, 1e-5, 1e-6]);
      if (centred) recentre(node);
      node.setScale([s, s, s]);
      truths.push({ ...t, concealed: concealment, hiddenBy: t.name });
    }
  } else {
    // Blender keeps names unique: a copy with its mark taken off is the intact one's `.001`.
    const renamed = next() < 0.5;
    const group = groupOf(doc, pick(DISPLAY_NAMES), copies.map((t) => byName.get(t.name)!));
    group.setExtras(pick(DISPLAY_EXTRAS));
    how = `display group '${group.getName()}' ${JSON.stringify(group.getExtras())}${
      renamed ? ", named .001" : ""
    }`;
    const used = new Map<string, number>();
    // Debris in the collection (`scattered`): each copy dropped beside the aircraft and turned.
    const scatterNext = prng(seed * 104729 + 7);
    const span = Math.max(...sample.truths.map((t) => Math.abs(t.origin[0]) + t.span / 2));
    if (scattered) how += ", scattered";
    for (const t of copies) {
      const node = byName.get(t.name)!;
      let name = t.name;
      if (renamed) {
        const n = (used.get(t.copyOf!) ?? 0) + 1;
        used.set(t.copyOf!, n);
        name = `${t.copyOf!.replace(/_D0$/, "")}.${String(n).padStart(3, "0")}`;
        node.setName(name);
      }
      const truth: GroupTruth = {
        ...t,
        name,
        shownAs: t.name,
        concealed: concealment,
        hiddenBy: group.getName(),
      };
      truths.push(scattered ? scatter(node, truth, span, scatterNext) : truth);
    }
  }
  return {
    doc,
    truths,
    concealment,
    description: `${sample.description}; copies ${concealment} (${how}), seed ${seed}`,
  };
}

/**
 * `node` (a copy, `truth`'s) dropped beside the aircraft, clear of the span, on the ground and turned about
 * up, as `damage_hidden.ts` scatters debris; its truth its own hinge where it lies, `"apart"`.
 */
function scatter(node: Node, truth: GroupTruth, span: number, next: () => number): GroupTruth {
  const degrees = 360 * next(), a = degrees * Math.PI / 180, c = Math.cos(a), s = Math.sin(a);
  const d: Vec3 = [(next() < 0.5 ? 1 : -1) * span * (1.3 + next()), -1 - next(), (next() - 0.5) * span];
  const moved = (p: Vec3): Vec3 => [c * p[0] + s * p[2] + d[0], p[1] + d[1], -s * p[0] + c * p[2] + d[2]];
  node.setTranslation(d).setRotation([0, Math.sin(a / 2), 0, Math.cos(a / 2)]);
  const origin = moved(truth.origin), end = moved(truth.origin.map((v, k) => v + truth.axis[k]) as Vec3);
  return { ...truth, origin, axis: [0, 1, 2].map((k) => end[k] - origin[k]) as Vec3, concealed: "apart" };
}

/** Whether `node` (a copy of `truth`) is still hidden the way the generator hid it. */
export function stillGroupHidden(node: Node, truth: GroupTruth): boolean {
  if (truth.concealed === "display_group" || truth.concealed === "apart") {
    for (let at = node.getParentNode(); at; at = at.getParentNode()) {
      if (at.getName() === truth.hiddenBy) return true;
    }
    return false;
  }
  const m = node.getWorldMatrix();
  return Math.hypot(m[0], m[1], m[2]) < 1e-3;
}

/**
 * The world hinge of `part` (a rig report's) as a game shows its copy: with the group hiding it unscaled
 * (`hiddenBy`, a parent's scale), its pivot's local X through its origin; the report's own otherwise.
 */
export function shownHinge(scene: Document, part: ReportPart, truth: GroupTruth): Hinge | undefined {
  if (truth.concealed !== "parent_scale" || !part.hinge) return part.hinge?.world;
  const pivot = scene.getRoot().listNodes().find((n) => n.getName() === part.name);
  let group = pivot?.getParentNode();
  while (group && group.getName() !== truth.hiddenBy) group = group.getParentNode();
  if (!pivot || !group) return part.hinge.world;
  const scale = group.getScale();
  group.setScale([1, 1, 1]);
  const m = pivot.getWorldMatrix();
  group.setScale(scale);
  const length = Math.hypot(m[0], m[1], m[2]);
  return { origin: [m[12], m[13], m[14]], axis: [m[0] / length, m[1] / length, m[2] / length] };
}
