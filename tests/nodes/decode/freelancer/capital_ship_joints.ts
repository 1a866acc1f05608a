/**
 * The moving parts a capital ship or station of a mod carries beyond `capital_ships.ts`'s turrets, with
 * the scripts that move them, for the LancerEdit round trip (`lancer_edit_scripts_test.ts`):
 *
 * - bay doors on `Rev` joints in mirrored pairs: the port door opens to +θ, the starboard one to −θ
 *   (its limits `[-max, 0]`), each with `Sc_open_bay` / `Sc_close_bay` scripts;
 * - a scanning mast on `Rev` whose sweep starts one way and whose parking script the other;
 * - landing gear or a docking arm on `Pris` (axis down or out), `Sc_deploy` sliding out and
 *   `Sc_retract` sliding back;
 * - a crane on `Cyl` (turn and slide along one axis, MAXLancer's turn-first limits);
 * - the radar dish's `Sphere` scanning (quaternion keys);
 * - on some seeds a root that is an empty hub (a `Root` fragment with hardpoints and no mesh, as mods
 *   that build a station from parts write it);
 * - with `oddAxes`, the axes mod tools write: not of unit length (a hinge line typed end to end, an axis
 *   doubled or halved by hand) and, on some joints, zero (a field left blank).
 *
 * @module
 */
import type { AnimationMapSpec, ConstraintSpec } from "../../../support/freelancer/encode_model.ts";

/** One part the ship gains: where it hangs, its joint and its limits (as `capital_ships.ts` plans). */
export interface JointPart {
  name: string;
  parent: string;
  kind: ConstraintSpec["kind"];
  translation: number[];
  rotation: number[];
  limits: { min?: number; max?: number; axis?: number[]; limits?: number[]; offset?: number[] };
}

/**
 * What `capitalShipFile` adds: `joints`, the moving parts; `oddAxes`, their axes as mods write them;
 * `offsets`, a non-zero `offset` on some of them (zero in every retail record; mods' tools fill it).
 */
export interface ShipOptions {
  readonly joints?: boolean;
  readonly oddAxes?: boolean;
  readonly offsets?: boolean;
}

/** The parts, the scripts over them, and whether the root is an empty hub. */
export interface ShipJoints {
  readonly parts: JointPart[];
  readonly scripts: Record<string, AnimationMapSpec[]>;
  readonly emptyRoot: boolean;
}

/**
 * Draws the moving parts of one ship from `int` (the ship's own generator, after its other draws), on
 * its sections `Section01…`, turned by `turn(degrees, axis)` as the ship's other parts are.
 */
export function shipJoints(
  int: (lo: number, hi: number) => number,
  sections: number,
  turn: (degrees: number, axis: 0 | 1 | 2) => number[],
  dish: string,
  options: ShipOptions = {},
): ShipJoints {
  const section = () => `Section${String(int(1, sections)).padStart(2, "0")}`;
  const parts: JointPart[] = [];
  const scripts: Record<string, AnimationMapSpec[]> = {};
  const map = (script: string, parent: string, child: string, keys: AnimationMapSpec["keys"], type = 0x1) =>
    (scripts[script] ??= []).push({ parent, child, type, interval: -1, keys });
  const angles = (values: number[], span = 2) =>
    values.map((angle, i) => ({ time: (span * i) / (values.length - 1), angle }));

  const pairs = int(1, 3);
  for (let i = 1; i <= pairs; i++) {
    const parent = section();
    const open = int(60, 110) * Math.PI / 180;
    // A hull turned about its long axis; the hinge runs along it.
    const rotation = turn(int(-20, 20), 2);
    for (const side of [1, -1]) {
      const name = `BayDoor${side > 0 ? "Port" : "Stbd"}${String(i).padStart(2, "0")}`;
      parts.push({
        name,
        parent,
        kind: "rev",
        translation: [side * int(4, 12), int(-6, 6), int(-20, 20)],
        rotation,
        limits: { axis: [0, 0, 1], min: side > 0 ? 0 : -open, max: side > 0 ? open : 0 },
      });
      map("Sc_open_bay", parent, name, angles([0, side * open * 0.5, side * open]));
      map("Sc_close_bay", parent, name, angles([side * open, 0]));
    }
  }
  const mast = section();
  parts.push({
    name: "ScanMast",
    parent: mast,
    kind: "rev",
    translation: [0, int(5, 9), 0],
    rotation: turn(int(-30, 30), 1),
    limits: { axis: [0, 1, 0], min: -1, max: 1 },
  });
  map("Sc_scan", mast, "ScanMast", angles([0, -0.8, 0.8, 0], 6));
  map("Sc_park", mast, "ScanMast", angles([0.4, 0]));

  const gear = int(1, 3);
  for (let i = 1; i <= gear; i++) {
    const parent = section();
    const name = `Gear${String(i).padStart(2, "0")}`;
    const reach = int(2, 6);
    parts.push({
      name,
      parent,
      kind: "pris",
      translation: [int(-8, 8), -int(2, 5), int(-30, 30)],
      rotation: i % 2 ? turn(int(-15, 15), 0) : [1, 0, 0, 0, 1, 0, 0, 0, 1],
      limits: { axis: [0, -1, 0], min: 0, max: reach },
    });
    map("Sc_deploy", parent, name, angles([0, reach * 0.25, reach]));
    map("Sc_retract", parent, name, angles([reach, 0]));
  }
  parts.push({
    name: "Crane",
    parent: section(),
    kind: "cyl",
    translation: [int(-6, 6), int(3, 6), int(-10, 10)],
    rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    // MAXLancer's order: turn min, turn max, slide min, slide max.
    limits: { axis: [0, 1, 0], limits: [-Math.PI / 2, Math.PI / 2, 0, int(1, 3)] },
  });
  const half = Math.sin(0.3), whole = Math.cos(0.3);
  map("Sc_scan", "Section01", dish, [
    { time: 0, rotation: [0, 0, 0, 1] },
    { time: 3, rotation: [0, half, 0, whole] },
  ], 0x4);
  const emptyRoot = int(0, 9) < 4;
  if (options.oddAxes) {
    for (const part of parts) {
      const axis = part.limits.axis;
      if (!axis) continue;
      // One in eight left blank; half the rest scaled: by hand (2, ½, 10) or a hinge typed end to end.
      const draw = int(0, 15);
      const length = draw < 2 ? 0 : draw < 5 ? [2, 0.5, 10][draw - 2] : draw < 9 ? int(3, 12) : 1;
      part.limits.axis = axis.map((v) => v * length || 0);
    }
  }
  if (options.offsets) {
    for (const part of parts) {
      // One in three moving parts, up to a unit off in the parent's X and Y.
      if (part.limits.axis && int(0, 2) === 0) part.limits.offset = [int(1, 4) / 4, int(-4, 4) / 4, 0];
    }
  }
  return { parts, scripts, emptyRoot };
}
