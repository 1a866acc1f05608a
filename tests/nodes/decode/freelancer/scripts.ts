/**
 * Animation scripts for the Freelancer tests and the Blender interop run, written with
 * `animationTree` onto `buildCompound`'s joints.
 *
 * @module
 */
import { quat, vec3 } from "gl-matrix";
import type { AnimationMapSpec } from "../../../support/freelancer/encode_model.ts";

/** The rotation `Sc_open` turns the radar to, and those of the compressed-quaternion scripts. */
export const RADAR_TURN = quat.setAxisAngle(quat.create(), vec3.normalize(vec3.create(), [1, 1, 0]), -0.5);
export const PACKED_TURN = quat.setAxisAngle(quat.create(), [0, 1, 0], (50 * Math.PI) / 180);
export const SCALED_TURN = quat.setAxisAngle(quat.create(), [1, 0, 0], Math.PI / 3);
const int16 = (v: number) => Math.round(v * 0x7fff);

/**
 * Scripts for `buildCompound`'s joints: `Sc_open` (revolute with explicit times, prismatic at a fixed
 * interval past its limit, sphere with full quaternions), `Sc_packed` (0x40) and `Sc_scaled` (0x80) on
 * the sphere, and `Sc_unsettled`, every map of which the decoder must skip with a warning.
 */
export const SCRIPTS: Record<string, AnimationMapSpec[]> = {
  Sc_open: [
    // Explicit times (negative interval); the parent is spelled as the Cons record spells it.
    {
      parent: "Root",
      child: "TURRET",
      type: 0x01,
      interval: -1,
      keys: [{ time: 0, angle: 0 }, { time: 0.5, angle: 0.8 }, { time: 2, angle: -0.6 }],
    },
    // Fixed interval; 1.9 is past the joint's max of 1.5, and stays so.
    {
      parent: "Turret",
      child: "Barrel",
      type: 0x01,
      interval: 0.25,
      keys: [{ angle: 0 }, { angle: 0.5 }, { angle: 1.5 }, { angle: 1.9 }],
    },
    {
      parent: "Root",
      child: "Radar",
      type: 0x04,
      interval: 1,
      keys: [{ rotation: [0, 0, 0, 1] }, { rotation: [...RADAR_TURN] }],
    },
  ],
  // Vector part stored, W restored (0x40); the axis scaled by angle / π (0x80).
  Sc_packed: [{
    parent: "Root",
    child: "Radar",
    type: 0x40,
    interval: 1,
    keys: [{ packed: [0, 0, 0] }, { packed: [0, int16(PACKED_TURN[1]), 0] }],
  }],
  Sc_scaled: [{
    parent: "Root",
    child: "Radar",
    type: 0x80,
    interval: 1,
    keys: [{ packed: [0, 0, 0] }, { packed: [int16(1 / 3), 0, 0] }],
  }],
  Sc_unsettled: [
    { parent: "Root", child: "Piston", type: 0x01, interval: 1, keys: [{ angle: 0 }, { angle: 1 }] },
    {
      parent: "Root",
      child: "Cargo",
      type: 0x06,
      interval: 1,
      keys: [{ position: [0, 0, 0], rotation: [0, 0, 0, 1] }],
    },
    { parent: "Root", child: "Wing", type: 0x01, interval: 1, keys: [{ angle: 1 }] },
    { parent: "Root", type: 0x06, interval: 1, keys: [{ position: [0, 1, 0], rotation: [0, 0, 0, 1] }] },
    { parent: "Root", child: "Nothing", type: 0x01, interval: 1, keys: [{ angle: 1 }] },
    { parent: "Root", child: "TURRET", type: 0x04, interval: 1, keys: [{ rotation: [0, 0, 0, 1] }] },
    // Damaged: a count the frames do not hold, times going back, the event bit.
    { parent: "Root", child: "TURRET", type: 0x01, interval: 1, keys: [{ angle: 0 }], count: 5 },
    {
      parent: "Root",
      child: "TURRET",
      type: 0x01,
      interval: -1,
      keys: [{ time: 1, angle: 0 }, { time: 0.5, angle: 1 }],
    },
    { parent: "Root", child: "TURRET", type: 0x08, interval: 1, keys: [{ angle: 0 }] },
  ],
};
