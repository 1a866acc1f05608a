/**
 * Showcase files: several copies of one aircraft in one file, laid out apart the way modellers and
 * stores publish them, told apart by names other than a plain level number: `Plane_High`/`Plane_Low`
 * (`_hi`/`_lo`, `_lowpoly`), `-lod1`/`.LOD1`/`_LOD_1` with the first level unmarked, Sketchfab's
 * `Aileron_L_LOD0_0` under its wrapper nodes, Unity's `Plane_LOD0`/`Plane_LOD1` group parents holding
 * the same names, a Blender duplicate of the whole aircraft (`Aileron_L.001`, `Fuselage.001`), damage
 * states (`_dmg`, `_damaged`, `_destroyed`, `_broken`) and `Variant A`/`Variant B` groups. Each copy
 * carries a propeller: a nose propeller (centre) or two wing engines named by number (`Propeller1`,
 * `Propeller2`), whose sides only the geometry gives. Copies are placed as the tools place them: a
 * group's translation, or each object's own (a duplicate moved in Blender). The aircraft is
 * `piecesAircraft`; deterministic from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh, hingeError } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { addRotor, FORWARD } from "./propellers.ts";
import type { ReportPart } from "./pipeline.ts";
import { cutInTwo, piecesAircraft, type PiecesPanel } from "./surface_pieces.ts";

/** How the copies are told apart. */
export type Naming =
  | "low_high"
  | "lod_marks"
  | "sketchfab"
  | "unity_groups"
  | "blender_dup"
  | "blender_pieces"
  | "damage"
  | "variant_groups"
  | "same_names";
/** Every naming. */
export const NAMINGS: readonly Naming[] = [
  "low_high",
  "lod_marks",
  "sketchfab",
  "unity_groups",
  "blender_dup",
  "blender_pieces",
  "damage",
  "variant_groups",
  "same_names",
];

/** Where each further copy goes from the first (aircraft axes: aft, up, left). */
export type Layout = "left" | "right" | "behind" | "stacked" | "grid" | "narrow_grid";
/** Every layout. */
export const LAYOUTS: readonly Layout[] = ["left", "right", "behind", "stacked", "grid", "narrow_grid"];

/** A panel or propeller the rig should find: its copy, its name, its group path, its side. */
export interface ShowcasePanel extends PiecesPanel {
  readonly copy: number;
  /** Which of the objects sharing its name and groups it is (its copy, where copies keep their names). */
  readonly occurrence: number;
  /** Names of the groups the object hangs under, top first. */
  readonly groups: readonly string[];
}

/** A propeller's truth (scene coordinates, the default frame). */
export interface ShowcaseSpinner {
  readonly name: string;
  readonly copy: number;
  readonly occurrence: number;
  readonly groups: readonly string[];
  readonly side: "left" | "right" | "centre";
  readonly centre: Vec3;
  readonly radius: number;
}

/** A generated showcase file and what the rig should make of it. */
export interface ShowcaseSample {
  readonly doc: Document;
  readonly panels: ShowcasePanel[];
  readonly spinners: ShowcaseSpinner[];
  readonly description: string;
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];

/** Per copy level: how an object's name is spelt, and the groups it hangs under. */
interface CopyNaming {
  readonly levels: number;
  /** Meshes coarser each level (a level of detail), or all drawn alike (damage, variants, duplicates). */
  readonly coarser: boolean;
  /** `piece`: which of a surface's two pieces (only ailerons are in pieces, and only where named so). */
  name(name: string, level: number, piece?: number): string;
  groups(level: number): string[];
}

function copyNaming(naming: Naming, next: () => number): CopyNaming & { label: string } {
  switch (naming) {
    case "low_high": {
      const marks = pick(next, [
        ["_High", "_Low"],
        ["", "_Low"],
        ["_hi", "_lo"],
        ["", "_lowpoly"],
        ["_HighPoly", "_LowPoly"],
        ["", "_Mid", "_Low"],
      ]);
      return {
        label: marks.join("/") || "plain",
        levels: marks.length,
        coarser: true,
        name: (name, level) => `${name}${marks[level]}`,
        groups: () => [],
      };
    }
    case "lod_marks": {
      const mark = pick(next, [
        (n: number) => `-lod${n}`,
        (n: number) => `.LOD${n}`,
        (n: number) => `_LOD_${n}`,
      ]);
      const unmarkedFirst = next() < 0.5;
      return {
        label: `${mark(1)}${unmarkedFirst ? ", first unmarked" : ""}`,
        levels: 3,
        coarser: true,
        name: (name, level) => level === 0 && unmarkedFirst ? name : `${name}${mark(level)}`,
        groups: () => [],
      };
    }
    case "sketchfab":
      return {
        label: "Sketchfab _LOD<n>_0",
        levels: 3,
        coarser: true,
        name: (name, level) => `${name}_LOD${level}_0`,
        groups: () => ["Sketchfab_model", "root", "GLTF_SceneRootNode"],
      };
    case "unity_groups": {
      const parent = pick(next, ["Plane", "Aircraft", "P51"]);
      return {
        label: `${parent}/${parent}_LOD<n>`,
        levels: 3,
        coarser: true,
        name: (name) => name,
        groups: (level) => [parent, `${parent}_LOD${level}`],
      };
    }
    case "blender_dup": {
      const levels = 2 + Math.floor(next() * 2);
      return {
        label: `${levels} Blender duplicates`,
        levels,
        coarser: false,
        name: (name, level) => level ? `${name}.00${level}` : name,
        groups: () => [],
      };
    }
    case "blender_pieces": {
      // The ailerons drawn in two pieces (`Aileron_L`, `Aileron_L.001`: separated by material), so
      // Blender numbers a duplicate by the next free suffix: its ailerons `.002`/`.003`, the rest `.001`.
      const levels = 2 + Math.floor(next() * 2);
      return {
        label: `${levels} Blender duplicates, ailerons in pieces`,
        levels,
        coarser: false,
        name: (name, level, piece) =>
          piece === undefined
            ? level ? `${name}.00${level}` : name
            : level || piece
            ? `${name}.00${2 * level + piece}`
            : name,
        groups: () => [],
      };
    }
    case "damage": {
      const marks = pick(next, [["", "_dmg"], ["", "_damaged", "_destroyed"], ["", "_broken"], [
        "_intact",
        "_destroyed",
      ]]);
      return {
        label: marks.join("/"),
        levels: marks.length,
        coarser: false,
        name: (name, level) => `${name}${marks[level]}`,
        groups: () => [],
      };
    }
    case "same_names":
      // A duplicate keeping its names, flattened (an exporter that does not make names unique).
      return { label: "the same names", levels: 2, coarser: false, name: (name) => name, groups: () => [] };
    case "variant_groups":
      return {
        label: "Variant A/B",
        levels: 2,
        coarser: false,
        name: (name) => name,
        groups: (level) => [`Variant ${"ABC"[level]}`],
      };
  }
}

/** Aircraft (aft, up, left) to the default frame's scene axes (−Z forward, +Y up, −X left). */
const toScene = (p: Vec3): Vec3 => [-p[2], p[1], p[0]];

/**
 * The aircraft of `seed` drawn as several copies named by `naming`, each further copy `layout` of the
 * one before (14–20 apart across the span, 18–24 along, 5–7 stacked; a grid two to a row).
 */
export function showcaseSample(seed: number, naming: Naming, layout: Layout): ShowcaseSample {
  const next = prng(seed * 7 + 3);
  const names = copyNaming(naming, next);
  const twin = next() < 0.5;
  const step = layout === "stacked"
    ? 5 + 2 * next()
    : layout === "behind"
    ? 18 + 6 * next()
    : 14 + 6 * next();
  const direction: Vec3 = layout === "left"
    ? [0, 0, 1]
    : layout === "right"
    ? [0, 0, -1]
    : layout === "behind"
    ? [1, 0, 0]
    : [0, 1, 0];
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  const groupNodes = new Map<string, Node>();
  // The group path of a copy, made once; the last group carries the copy's offset (a Unity LOD
  // parent or a Blender collection instance moved aside).
  const parentOf = (path: string[], offset: Vec3): Node | undefined => {
    let parent: Node | undefined;
    path.forEach((name, i) => {
      const key = path.slice(0, i + 1).join("/");
      let node = groupNodes.get(key);
      if (!node) {
        node = doc.createNode(name);
        if (i === path.length - 1 && naming !== "sketchfab") node.setTranslation(toScene(offset));
        if (parent) parent.addChild(node);
        else scene.addChild(node);
        groupNodes.set(key, node);
      }
      parent = node;
    });
    return parent;
  };
  const panels: ShowcasePanel[] = [], spinners: ShowcaseSpinner[] = [];
  for (let level = 0; level < names.levels; level++) {
    const around = !names.coarser ? [30, 80] as const : ([[30, 80], [14, 20], [8, 10]] as const)[level];
    const aircraft = piecesAircraft(seed, around);
    // A grid: two to a row across the span, the rows one behind another.
    // A narrow grid: each row behind the last, set across by less than a wingspan (3–6).
    const offset: Vec3 = layout === "narrow_grid"
      ? [level * (step + 6), 0, (level % 2) * (3 + step % 3)]
      : layout === "grid"
      ? [Math.floor(level / 2) * (step + 6), 0, (level % 2) * step]
      : direction.map((d) => d * step * level) as Vec3;
    const groups = names.groups(level);
    const occurrence = naming === "same_names" ? level : 0;
    const parent = parentOf(groups, offset);
    // Offset by the group, or else by each object's own translation.
    const place = (node: Node) => {
      if (!parent || naming === "sketchfab") node.setTranslation(toScene(offset));
    };
    for (const { name, mesh } of aircraft.fixed) {
      place(addAircraftMesh(doc, names.name(name, level), mesh.positions, mesh.triangles, parent));
    }
    for (const panel of aircraft.panels) {
      const origin = panel.truth!.origin.map((v, k) => v + offset[k]) as Vec3;
      const pieces = naming === "blender_pieces" && panel.kind === "aileron"
        ? cutInTwo(panel, "skins")
        : [panel.mesh];
      pieces.forEach((mesh, piece) => {
        const name = names.name(panel.name, level, pieces.length > 1 ? piece : undefined);
        place(addAircraftMesh(doc, name, mesh.positions, mesh.triangles, parent));
        panels.push({ ...panel, name, copy: level, occurrence, groups, truth: { ...panel.truth!, origin } });
      });
    }
    const rotor = prng(seed * 13 + level);
    const engines: [string, Vec3, "left" | "right" | "centre"][] = twin
      ? [["Propeller1", [2.4, -0.2, 3.2], "left"], ["Propeller2", [2.4, -0.2, -3.2], "right"]]
      : [["Propeller", [-4.3, 0, 0], "centre"]];
    for (const [base, at, side] of engines) {
      const name = names.name(base, level);
      const centre = toScene(at.map((v, k) => v + offset[k]) as Vec3);
      const radius = twin ? 1.1 : 1.3;
      addRotor(doc, rotor, {
        name,
        kind: "propeller",
        axis: FORWARD,
        centre,
        radius,
        blades: 2 + level % 2 + (twin ? 1 : 0),
        pitch: 25,
        hand: side === "right" ? -1 : 1,
        chord: 0.16,
        sectionPoints: names.coarser ? [8, 5, 4][level] : 8,
        sections: names.coarser ? [8, 5, 4][level] : 8,
        storage: "one_mesh",
        hub: level === 0 ? "spinner" : "none",
        parent: "none",
      });
      const node = scene.listChildren().find((n) => n.getName() === name && !n.getParentNode())!;
      if (parent) {
        // Drawn at its place in the world, then hung in its copy's group (its translation undone).
        scene.removeChild(node);
        parent.addChild(node);
        const world = parent.getWorldMatrix();
        node.setTranslation([-world[12], -world[13], -world[14]]);
      }
      spinners.push({ name, copy: level, occurrence, groups, side, centre, radius });
    }
  }
  return {
    doc,
    panels,
    spinners,
    description: `${naming} (${names.label}), ${names.levels} copies ${layout} ${step.toFixed(1)} apart, ` +
      `${twin ? "twin" : "nose"} propellers, seed ${seed}`,
  };
}

/**
 * The report part rigging the object `name` under `groups` (export may rename repeated names); of
 * objects sharing one name and group, the `occurrence`th (its copy, where copies keep their names).
 */
export function partFor(
  parts: readonly ReportPart[],
  object: { readonly name: string; readonly groups: readonly string[]; readonly occurrence?: number },
): ReportPart | undefined {
  const under = (p: ReportPart) => {
    const segments = (p.panel_path ?? p.path).split("/");
    return object.groups.every((g, i) => segments[i]?.startsWith(g));
  };
  const exact = parts.filter((p) => p.panel === object.name && under(p));
  if (exact.length) return exact[Math.min(object.occurrence ?? 0, exact.length - 1)];
  const renamed = new RegExp(`^${object.name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}[._]\\d+$`);
  return parts.find((p) => !!p.panel && renamed.test(p.panel) && under(p));
}

/**
 * What is wrong with `part` as the rig of `panel` — not rigged, the wrong side, a hinge more than 2° or
 * 5 % of the chord off the truth, or not `good` — as a line for a test's list; undefined when right.
 */
export function panelFault(
  label: string,
  panel: ShowcasePanel,
  part: ReportPart | undefined,
): string | undefined {
  if (!part?.hinge) return `${label}: ${panel.name} not rigged`;
  const { degrees, offset } = hingeError(panel.truth!, part.hinge.aircraft);
  const confidence = (part.fit as unknown as { confidence: string }).confidence;
  const right = part.side === panel.side && degrees <= 2 && offset <= 0.05 * panel.truth!.chord &&
    confidence === "good";
  return right
    ? undefined
    : `${label}: ${panel.name} ${part.side} (${panel.side}), ${degrees.toFixed(1)}°, ${confidence}`;
}
