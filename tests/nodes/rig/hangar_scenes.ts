/**
 * Hangar and collection files: two or three DIFFERENT aircraft in one scene, the way users make them —
 * a showcase with `Spitfire_Aileron_L` beside `Bf109_Aileron_L`, one group per type (`P51/Aileron_L`,
 * `Zero/Aileron_L`, one of them without a separate rudder), a Sketchfab "aircraft collection" with
 * each plane under its own named root below `Sketchfab_model`, and two aircraft keeping the very same
 * names under unnamed parents at different depths, the same names flat in no order (an exporter listing by
 * material), and each aircraft from its own modeller spelling sides its own way (`Aileron_L`,
 * `aileron.l`, `AileronLeft`, `L_Aileron`) — names that cannot tell which object is whose. Each aircraft is `piecesAircraft` of its own seed
 * (its own wing, tail and fin); they stand side by side, or in a grid whose rows are narrower than the
 * wingspan (one behind another, set across by a few metres). Every panel's true side is about its own
 * aircraft's centre line; half the files stand them on a hangar floor reaching under them all. Deterministic from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { piecesAircraft } from "./surface_pieces.ts";
import { boxMesh } from "./surface_classes.ts";
import { panelFault, partFor, type ShowcasePanel } from "./showcase_copies.ts";
import { type ReportPart, rig } from "./pipeline.ts";

/** How the aircraft are told apart. */
export type HangarNaming =
  | "prefix"
  | "type_groups"
  | "sketchfab_collection"
  | "unnamed_depths"
  | "shuffled_names"
  | "mixed_conventions";
/**
 * Two modellers' aircraft in one file, their names barely overlapping: every other aircraft is named in
 * German (`Querruder_L`, `Höhenruder_L`, `Rumpf`), keeping only the English `Rudder` — one name shared.
 * Not in {@link HANGAR_NAMINGS}: the touching-aircraft tests read it on its own.
 */
export const BARELY_OVERLAPPING = "barely_overlapping";

/** The German words of {@link BARELY_OVERLAPPING} (the rudder keeps its English name). */
const GERMAN: Readonly<Record<string, string>> = {
  Aileron: "Querruder",
  Elevator: "Höhenruder",
  Fuselage: "Rumpf",
  Wing: "Flügel",
  Stabilizer: "Leitwerk",
  Fin: "Seitenflosse",
};

/** Every naming. */
export const HANGAR_NAMINGS: readonly HangarNaming[] = [
  "prefix",
  "type_groups",
  "sketchfab_collection",
  "unnamed_depths",
  "shuffled_names",
  "mixed_conventions",
];

/** Where the further aircraft stand (aircraft axes: aft, up, left). */
export type HangarLayout = "left" | "right" | "grid_overlap";
/** Every layout. */
export const HANGAR_LAYOUTS: readonly HangarLayout[] = ["left", "right", "grid_overlap"];

/**
 * Crowded layouts, where place cannot tell the aircraft apart: parked wing over wing (`touching`: tips
 * overlapping by up to a tenth of the span, a little staggered, as a showcase packs them), or standing
 * apart inside a hangar building whose floor, roof and walls (Sketchfab's `Object_<n>`) touch them all.
 */
export type CrowdedLayout = "touching" | "hangar_building";
/** Every crowded layout. */
export const CROWDED_LAYOUTS: readonly CrowdedLayout[] = ["touching", "hangar_building"];
/**
 * A showcase line-up: parked wing over wing as `touching`, but noses in one line (no stagger) and the
 * row centred on the scene's origin, as a showcase file is framed — the left aircraft's right wing
 * then mirrors onto the right aircraft's left wing across the scene's centre line.
 */
export const LINE_UP = "line_up";

/**
 * Scenes where only some aircraft touch (a showcase packing two wing over wing, the rest parked clear of
 * each other): `pair_among` 3–6 aircraft of which one pair touches, `pair_plus_one` a touching pair and
 * one apart, `two_pairs` two touching pairs apart from each other. Apart means a gap of 20–60 % of the
 * two half spans between tips; touching, tips overlapping by up to a tenth of the span.
 */
export type PartlyTouchingLayout = "pair_among" | "pair_plus_one" | "two_pairs";
/** Every partly touching layout. */
export const PARTLY_TOUCHING: readonly PartlyTouchingLayout[] = ["pair_among", "pair_plus_one", "two_pairs"];

/** How many aircraft stand in each group of a partly touching layout, in line order. */
function groupSizes(layout: PartlyTouchingLayout, next: () => number): number[] {
  if (layout === "pair_plus_one") return next() < 0.5 ? [2, 1] : [1, 2];
  if (layout === "two_pairs") return [2, 2];
  const alone = 1 + Math.floor(next() * 4);
  const at = Math.floor(next() * (alone + 1));
  return Array.from({ length: alone + 1 }, (_, k) => k === at ? 2 : 1);
}

/** The largest lateral reach (aircraft +left) of an aircraft's meshes either side of its centre line. */
function halfSpan(aircraft: ReturnType<typeof piecesAircraft>): number {
  let reach = 0;
  for (const { mesh } of [...aircraft.fixed, ...aircraft.panels]) {
    for (let i = 2; i < mesh.positions.length; i += 3) reach = Math.max(reach, Math.abs(mesh.positions[i]));
  }
  return reach;
}

/** A generated hangar file and the panels the rig should find. */
export interface HangarSample {
  readonly doc: Document;
  readonly panels: ShowcasePanel[];
  readonly description: string;
  /** The aircraft (their `copy`) standing touching another: place cannot tell them apart. */
  readonly touching?: ReadonlySet<number>;
}

/** A box's positions and triangles, as `addAircraftMesh` takes them. */
function floorMesh(min: Vec3, max: Vec3): [number[], number[]] {
  const { positions, triangles } = boxMesh(min, max);
  return [Array.from(positions), Array.from(triangles)];
}

/** Ways modellers spell a side: `Aileron_L`, `aileron.l`, `AileronLeft`, `L_Aileron`. */
const SPELLINGS: readonly ((name: string) => string)[] = [
  (n) => n,
  (n) => n.toLowerCase().replace(/_([lr])$/, ".$1"),
  (n) => n.replace(/_L$/, "Left").replace(/_R$/, "Right"),
  (n) => n.replace(/^(.*)_([LR])$/, "$2_$1"),
];

const TYPES = ["Spitfire", "Bf109", "P51", "Zero", "Hurricane", "Yak3", "Corsair"];

/** Aircraft (aft, up, left) to the default frame's scene axes (−Z forward, +Y up, −X left). */
const toScene = (p: Vec3): Vec3 => [-p[2], p[1], p[0]];

/**
 * Two or three different aircraft of `seed` named by `naming`, standing as `layout` says: side by side
 * 14–20 apart, or in a grid 18–24 behind and 3–6 across (less than a wingspan).
 */
export function hangarSample(
  seed: number,
  naming: HangarNaming | typeof BARELY_OVERLAPPING,
  layout: HangarLayout | CrowdedLayout | typeof LINE_UP | PartlyTouchingLayout,
): HangarSample {
  const lineUp = layout === LINE_UP;
  if (lineUp) layout = "touching";
  const next = prng(seed * 11 + 5);
  let count = 2 + Math.floor(next() * 2);
  const partly = (PARTLY_TOUCHING as readonly string[]).includes(layout);
  const sizes = partly ? groupSizes(layout as PartlyTouchingLayout, next) : [count];
  const groupOf = sizes.flatMap((n, g) => Array.from({ length: n }, () => g));
  if (partly) count = groupOf.length;
  const touching = new Set(
    layout === "touching" ? groupOf.keys() : groupOf.flatMap((g, i) => sizes[g] > 1 ? [i] : []),
  );
  const first = Math.floor(next() * TYPES.length);
  const types = Array.from({ length: count }, (_, i) => TYPES[(first + 2 * i) % TYPES.length]);
  const across = 14 + 6 * next(), behind = 18 + 6 * next(), skew = 3 + 3 * next();
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  const wrappers = new Map<string, Node>();
  const panels: ShowcasePanel[] = [];
  const offsets: Vec3[] = [];
  const built = types.map((_, i) => piecesAircraft(seed * 31 + i * 977));
  // Parked wing over wing: each next to the last, tips overlapping by 0–10 % of the span, staggered.
  const packed: Vec3[] = [[0, 0, 0]];
  // Partly touching: a group's next stands so, the next group's clear of it.
  for (let i = 1; (layout === "touching" || partly) && i < count; i++) {
    const spans = halfSpan(built[i - 1]) + halfSpan(built[i]);
    packed.push([
      packed[i - 1][0] + (next() - 0.5) * (lineUp ? 0 : 3),
      0,
      packed[i - 1][2] + spans * (groupOf[i] === groupOf[i - 1] ? 0.9 + 0.1 * next() : 1.2 + 0.4 * next()),
    ]);
  }
  if (lineUp) {
    const middle = (packed[0][2] + packed[packed.length - 1][2]) / 2;
    for (const p of packed) p[2] -= middle;
  }
  for (let i = 0; i < count; i++) {
    const type = types[i];
    const offset: Vec3 = layout === "grid_overlap"
      ? [i * behind, 0, (i % 2 ? 1 : -1) * skew * Math.min(i, 1)]
      : layout === "touching" || partly
      ? packed[i]
      : [0, 0, (layout === "right" ? -1 : 1) * across * i];
    offsets.push(offset);
    const groups = naming === "type_groups"
      ? [type]
      : naming === "sketchfab_collection"
      ? ["Sketchfab_model", "root", "GLTF_SceneRootNode", `${type}_${i}`]
      : naming === "unnamed_depths"
      ? Array.from({ length: 1 + i }, () => "")
      : [];
    // Shared wrappers once (Sketchfab's), the aircraft's own group its own, moved to its place.
    let parent: Node | undefined;
    groups.forEach((name, depth) => {
      const own = depth === groups.length - 1;
      const key = own ? `${i}:${groups.slice(0, depth + 1).join("/")}` : groups.slice(0, depth + 1).join("/");
      let node = naming === "unnamed_depths" ? undefined : wrappers.get(key);
      if (!node) {
        node = doc.createNode(name);
        if (own) node.setTranslation(toScene(offset));
        if (parent) parent.addChild(node);
        else scene.addChild(node);
        wrappers.set(key, node);
      }
      parent = node;
    });
    const spell = SPELLINGS[(first + i) % SPELLINGS.length];
    const name = (n: string) =>
      naming === "prefix"
        ? `${type}_${n}`
        : naming === "mixed_conventions"
        ? spell(n)
        : naming === BARELY_OVERLAPPING && i % 2
        ? n.replace(/^[A-Za-z]+/, (w) => GERMAN[w] ?? w)
        : n;
    const place = (node: Node) => {
      if (!parent) node.setTranslation(toScene(offset));
    };
    const aircraft = built[i];
    // Some types have no separate rudder (the fin drawn whole): the aircraft's panels differ.
    const noRudder = i > 0 && next() < 0.5;
    for (const { name: n, mesh } of aircraft.fixed) {
      place(addAircraftMesh(doc, name(n), mesh.positions, mesh.triangles, parent));
    }
    for (const panel of aircraft.panels) {
      if (noRudder && panel.kind === "rudder") continue;
      const node = addAircraftMesh(doc, name(panel.name), panel.mesh.positions, panel.mesh.triangles, parent);
      place(node);
      if (naming === "shuffled_names") node.setExtras({ copy: i });
      const origin = panel.truth!.origin.map((v, k) => v + offset[k]) as Vec3;
      panels.push({
        ...panel,
        name: name(panel.name),
        copy: i,
        occurrence: naming === "unnamed_depths" || naming === "shuffled_names" ? i : 0,
        groups: naming === "sketchfab_collection" ? groups : naming === "type_groups" ? groups : [],
        truth: { ...panel.truth!, origin },
      });
    }
  }
  // Half the files stand the aircraft on a hangar floor reaching under them all.
  const floor = next() < 0.5;
  const lateral = offsets.map((o) => o[2]);
  const [lo, hi] = [Math.min(0, ...lateral) - 10, Math.max(0, ...lateral) + 10];
  const aft = Math.max(...offsets.map((o) => o[0])) + 20;
  if (floor && layout !== "hangar_building") {
    addAircraftMesh(doc, "Hangar_Floor", ...floorMesh([-12, -1.6, lo], [aft, -1.5, hi]));
  }
  if (layout === "hangar_building") {
    // The building as a Sketchfab export names it: floor, roof, back and side walls, doors.
    const pieces: [Vec3, Vec3][] = [
      [[-12, -1.6, lo], [aft, -1.5, hi]],
      [[-12, 7, lo], [aft, 7.2, hi]],
      [[aft, -1.5, lo], [aft + 0.3, 7, hi]],
      [[-12, -1.5, lo - 0.3], [aft, 7, lo]],
      [[-12, -1.5, hi], [aft, 7, hi + 0.3]],
      [[-12.3, 4.5, lo], [-12, 7, hi]],
    ];
    pieces.forEach(([min, max], k) =>
      addAircraftMesh(doc, `Object_${count * 20 + k}`, ...floorMesh(min, max))
    );
  }
  if (naming === "shuffled_names") {
    // Listed in no order: the k-th of a name is not the k-th aircraft's.
    const nodes = scene.listChildren();
    nodes.forEach((n) => scene.removeChild(n));
    const order = nodes.map((n) => ({ n, key: next() })).sort((a, b) => a.key - b.key);
    order.forEach(({ n }) => scene.addChild(n));
    // The truth's occurrence follows the new order.
    const seen = new Map<string, number>();
    const rank = new Map<Node, number>();
    for (const { n } of order) {
      rank.set(n, seen.get(n.getName()) ?? 0);
      seen.set(n.getName(), rank.get(n)! + 1);
    }
    const byCopy = new Map<string, Node>();
    for (const { n } of order) byCopy.set(`${n.getName()}#${(n.getExtras() as { copy?: number }).copy}`, n);
    for (let k = 0; k < panels.length; k++) {
      const node = byCopy.get(`${panels[k].name}#${panels[k].copy}`)!;
      panels[k] = { ...panels[k], occurrence: rank.get(node)! };
    }
  }
  return {
    doc,
    panels,
    touching,
    description:
      `${naming}, ${types.join("+")} ${lineUp ? LINE_UP : layout}${
        floor && layout !== "hangar_building" ? " on a floor" : ""
      } (${across.toFixed(1)} across, ${behind.toFixed(1)} behind ` +
      `${skew.toFixed(1)} across), seed ${seed}`,
  };
}

/**
 * The report part rigging `panel`: of the parts named as it is (under its groups), the one whose hinge
 * lies nearest its true hinge — where aircraft keep the same names, the report's order is no aircraft's.
 */
export function hangarPart(parts: readonly ReportPart[], panel: ShowcasePanel): ReportPart | undefined {
  const named = parts.filter((p) =>
    p.panel === panel.name &&
    panel.groups.every((g, i) => (p.panel_path ?? p.path).split("/")[i]?.startsWith(g))
  );
  const far = (p: ReportPart) => {
    const o = p.hinge?.aircraft.origin;
    return o ? Math.hypot(...o.map((v, k) => v - panel.truth!.origin[k])) : Infinity;
  };
  return named.sort((a, b) => far(a) - far(b))[0] ?? partFor(parts, panel);
}

/** The frames hangar tests rig each sample in: the one the sample is drawn in, and `"auto"`. */
export const HANGAR_FRAMES: readonly Record<string, string>[] = [{}, { forward: "auto", up: "auto" }];

/**
 * Rigs `sample` in `frame` and judges each of its panels ({@link panelFault} of its {@link hangarPart}):
 * each panel with its fault (undefined when right), the run's warnings, and its report (for tests that
 * look further into the same run rather than rigging the sample again).
 */
export async function judgeHangar(sample: HangarSample, frame: Record<string, string>) {
  const { report, ctx } = await rig(sample.doc, frame);
  const label = `${sample.description}, ${"forward" in frame ? "auto" : "given"} frame`;
  const judged = sample.panels.map((panel) => ({
    panel,
    fault: panelFault(label, panel, hangarPart(report.parts, panel)),
  }));
  return { judged, warnings: ctx.warnings, report };
}
