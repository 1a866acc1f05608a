/**
 * Aircraft with several surfaces of one kind per side, as airliners and biplanes are modelled:
 * airliner wings with two or three flap segments and inboard and outboard ailerons side by side
 * along the span (`Flap_Inboard_L`, `Flap_2_R`, `OutbdAileronLeft`, `AileronL1`), and biplanes with
 * ailerons on both wings (`Aileron_Upper_L`, `LowerAileron_R`, `Aileron_L.001`, `Aileron_Bottom_R`),
 * interplane struts between them. Every third one low-poly, every fifth one's flaps (or ailerons)
 * modelled deflected; samples cycle through clean, unwelded, the right side drawn as the left's mesh
 * mirrored by a −1 scale, and both. Aircraft coordinates; deterministic from a seed.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { type AirfoilSurface, airfoilSurface } from "./airfoil_panels.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { unwelded } from "./split_rudders.ts";
import {
  boxMesh,
  type ClassMesh,
  type ClassPanel,
  type ClassSample,
  FUSELAGE,
  mirroredPair,
} from "./surface_classes.ts";

/** How a sample's panels are stored. */
export type Storage = "clean" | "unwelded" | "mirrored" | "both";

/** A sample with how its panels are stored. */
export interface SegmentedSample extends ClassSample {
  readonly storage: Storage;
}

const STORAGE: readonly Storage[] = ["clean", "unwelded", "mirrored", "both"];
const shift = (d: Vec3) => (p: Vec3): Vec3 => [p[0] + d[0], p[1] + d[1], p[2] + d[2]];

function extreme(mesh: ClassMesh, k: number, sign: 1 | -1): number {
  let out = -Infinity;
  for (let i = k; i < mesh.positions.length; i += 3) out = Math.max(out, sign * mesh.positions[i]);
  return sign * out;
}

const options = (index: number, deflection: number) => ({
  deflection,
  ...(index % 3 === 0 ? { around: [12, 20] as const } : {}),
});

const AIRLINER_NAMES = [
  (word: string, j: number, side: string) => `${word}_${["Inboard", "Mid", "Outboard"][j]}_${side}`,
  (word: string, j: number, side: string) => `${word}_${j + 1}_${side}`,
  (word: string, j: number, side: string) =>
    `${["Inbd", "Mid", "Outbd"][j]}${word}${side === "L" ? "Left" : "Right"}`,
  (word: string, j: number, side: string) => `${word}${side}${j + 1}`,
];

/**
 * An airliner's wing, swept 20–35° with 3–7° dihedral: two or three flaps and an inboard and an
 * outboard aileron per side, each behind its own piece of fixed wing, laid out along the span.
 */
export function airlinerWing(next: () => number, index: number): SegmentedSample {
  const name = AIRLINER_NAMES[index % AIRLINER_NAMES.length];
  const flaps = 2 + (index % 2), deflection = index % 5 === 4 ? 10 + 10 * Math.floor(next() * 3) : 0;
  const sweep = 20 + 15 * next(), dihedral = 3 + 4 * next();
  const [tanSweep, tanDihedral] = [sweep, dihedral].map((d) => Math.tan(d * Math.PI / 180));
  const surfaces: [string, string, number][] = [
    ...Array.from({ length: flaps }, (_, j) => ["Flap", "flap", j] as [string, string, number]),
    ["Aileron", "aileron", 0],
    ["Aileron", "aileron", 2],
  ];
  const panels: ClassPanel[] = [], fixed: ClassSample["fixed"] = [];
  let z = 1.2;
  for (const [word, kind, j] of surfaces) {
    const s = airfoilSurface(next, {
      sweep: [sweep - 3, sweep + 3],
      ...options(index, kind === "flap" ? deflection : 0),
    });
    const place = shift([
      4 + z * tanSweep - s.origin[0],
      z * tanDihedral - s.origin[1],
      z - extreme(s, 2, -1),
    ]);
    const pair = mirroredPair(
      s,
      place,
      [name(word, j, "L"), name(word, j, "R")],
      kind,
      `Wing${panels.length / 2}`,
    );
    panels.push(...pair.panels);
    fixed.push(...pair.fixed);
    z = extreme(pair.panels[0].mesh, 2, 1) + 0.05;
  }
  const storage = STORAGE[index % STORAGE.length];
  return {
    panels,
    fixed: [FUSELAGE, ...fixed],
    storage,
    description: `${flaps} flaps${deflection ? ` at ${deflection}°` : ""}, sweep ${
      sweep.toFixed(0)
    }°, ${storage}`,
  };
}

const BIPLANE_NAMES: readonly (readonly [string, string, string, string])[] = [
  ["Aileron_Upper_L", "Aileron_Upper_R", "Aileron_Lower_L", "Aileron_Lower_R"],
  ["UpperAileron_L", "UpperAileron_R", "LowerAileron_L", "LowerAileron_R"],
  ["Aileron_L", "Aileron_R", "Aileron_L.001", "Aileron_R.001"],
  ["Aileron_Top_L", "Aileron_Top_R", "Aileron_Bottom_L", "Aileron_Bottom_R"],
  ["TopWing_Aileron_L", "TopWing_Aileron_R", "BottomWing_Aileron_L", "BottomWing_Aileron_R"],
];

/**
 * A biplane: ailerons on an upper wing staggered ahead and 1.4–2 above a lower one (every seventh
 * on the upper wing only), four interplane struts, a fin and a tailplane box (named so no name calls it a surface).
 */
export function biplane(next: () => number, index: number): SegmentedSample {
  const names = BIPLANE_NAMES[index % BIPLANE_NAMES.length];
  const deflection = index % 5 === 4 ? [-15, 10, 20][Math.floor(next() * 3)] : 0;
  const upper = airfoilSurface(next, { sweep: [-5, 12], ...options(index, deflection) });
  const lower = airfoilSurface(next, { sweep: [-5, 12], ...options(index, deflection) });
  const stagger = 0.3 + 0.6 * next(), gap = 1.4 + 0.6 * next();
  const at = (s: AirfoilSurface, aft: number, up: number) =>
    shift([aft - s.origin[0], up - s.origin[1], 0.6 + 2.5 * next() - extreme(s, 2, -1)]);
  const top = mirroredPair(upper, at(upper, 3 - stagger, gap), [names[0], names[1]], "aileron", "UpperWing");
  const bottom = mirroredPair(lower, at(lower, 3, -0.4), [names[2], names[3]], "aileron", "LowerWing");
  const upperOnly = index % 7 === 6;
  const struts = [1.5, -1.5, 3, -3].map((z, k) => ({
    name: `Strut_${k}`,
    mesh: boxMesh([2.6, -0.3, z - 0.05], [2.7, gap, z + 0.05]),
  }));
  const storage = STORAGE[index % STORAGE.length];
  return {
    panels: [...top.panels, ...(upperOnly ? [] : bottom.panels)],
    fixed: [
      FUSELAGE,
      ...top.fixed,
      ...bottom.fixed,
      ...struts,
      { name: "Fin", mesh: boxMesh([9, 0.5, -0.05], [10, 2, 0.05]) },
      { name: "TailBox", mesh: boxMesh([9, 0, -1.5], [10, 0.06, 1.5]) },
    ],
    storage,
    description: `${upperOnly ? "upper wing only, " : ""}${
      deflection ? `at ${deflection}°, ` : ""
    }${storage}`,
  };
}

/**
 * The sample as a scene in the default frame, every object at the root; unwelded panels have each
 * triangle's own vertices, and mirrored right panels store the left's mesh under a (−1, 1, 1) scale.
 */
export function segmentedScene(sample: SegmentedSample): Document {
  const doc = newScene();
  for (const { name, mesh } of sample.fixed) addAircraftMesh(doc, name, mesh.positions, mesh.triangles);
  for (const panel of sample.panels) {
    const mesh = sample.storage === "unwelded" || sample.storage === "both"
      ? unwelded(panel.mesh)
      : panel.mesh;
    if (panel.side === "right" && (sample.storage === "mirrored" || sample.storage === "both")) {
      // Stored as the left's mesh (its mirror image), drawn mirrored back by the node's scale.
      const positions = Array.from(mesh.positions, (v, i) => i % 3 === 2 ? -v : v);
      addAircraftMesh(doc, panel.name, positions, mesh.triangles).setScale([-1, 1, 1]);
    } else addAircraftMesh(doc, panel.name, mesh.positions, mesh.triangles);
  }
  return doc;
}
