/**
 * Spinning parts as real files draw them beyond `propellers.ts`'s straight shafts: tail rotors canted
 * 10–25° from the aircraft's left (a UH-60's is canted 20°), tilt-rotor nacelles at 0–90°, each with
 * the shaft baked into the vertices or carried by a nacelle/gearbox node whose local −Z runs along it;
 * blades retopologised apart from one another or given an extra edge loop; rotors deliberately broken
 * (something asymmetric drawn in, a blade set off its spacing, pitched or coned apart); single-blade
 * propellers (alone, with a spinner, with a counterweight); and centre-line and wing propellers in
 * scenes from 1 cm to 100 m across. Scene axes: −Z forward, +Y up, −X left. Deterministic from a seed.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import type { SpinningKind } from "../../../nodes/rig/spinning_names.ts";
import { newScene } from "./fixtures.ts";
import { addRotor, type BladeShape, LEFT, meshNode, type RotorDraw, type SpinTruth } from "./propellers.ts";
import { boxMesh } from "./surface_classes.ts";

/** A generated scene, what the rig should find, and whether it was broken on purpose. */
export interface SpinCase {
  readonly doc: Document;
  readonly parts: (SpinTruth & {
    readonly side?: "left" | "right" | "centre";
    /**
     * Two blades on a leaning shaft with no node along it and no hub or spinner (an object of its own,
     * or an island of the blades' mesh): right, but nothing vouches for it (weak).
     */
    readonly unvouched?: boolean;
  })[];
  readonly broken: boolean;
  readonly description: string;
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];

/** `from` turned toward `to` (unit, square to it) by `degrees`. */
function lean(from: Vec3, to: Vec3, degrees: number): Vec3 {
  const t = (degrees * Math.PI) / 180;
  return normalize([0, 1, 2].map((k) => from[k] * Math.cos(t) + to[k] * Math.sin(t)));
}

/**
 * Drawing defaults of a rotor, randomised as `propellers.ts` does; `apart`: its blades are drawn
 * apart from one another, so stored one mesh or one object per blade (linked duplicates share one),
 * and drawn finely enough (8 points or more round, 9 sections or more) that a blade drawn another way
 * can follow the same surface, as a modeller's retopology does.
 */
function draw(
  next: () => number,
  index: number,
  over: Partial<RotorDraw> & SpinTruth,
  apart = false,
): RotorDraw {
  const dense = index % 2 === 1;
  const storages = apart
    ? (["one_mesh", "per_blade"] as const)
    : (["one_mesh", "per_blade", "linked"] as const);
  return {
    pitch: lerp(15, 35, next()),
    hand: 1,
    chord: lerp(0.12, 0.22, next()) * over.radius,
    sectionPoints: dense ? 16 : 4 + Math.floor(next() * 5),
    sections: dense ? 18 : apart ? 9 + Math.floor(next() * 4) : 3 + Math.floor(next() * 3),
    storage: storages[Math.floor(index / 2) % storages.length],
    hub: (["spinner", "none", "hub"] as const)[index % 3],
    parent: (index >> 2) % 2 === 0 ? "nacelle" : "none",
    ...over,
  };
}

/**
 * One blade drawn apart: retopologised (the same section shape, 10–16 points where the others have
 * 16 or 8: a retopology follows the surface, where a 4-point diamond is another shape), or given an
 * extra loop (the same surface exactly, other vertices).
 */
function retopologised(next: () => number): BladeShape {
  return next() < 0.5
    ? {
      sectionPoints: 10 + Math.floor(next() * 7),
      sections: 7 + Math.floor(next() * 12),
      pointPhase: next(),
    }
    : { loopAt: lerp(0.2, 0.8, next()) };
}

/** One blade broken apart from the others (the shaft is not theirs to find cleanly). */
function brokenBlade(next: () => number, which: number): BladeShape {
  return [{ phiDelta: lerp(6, 12, next()) }, { pitchDelta: lerp(8, 14, next()) }, {
    cone: lerp(8, 14, next()),
  }][
    which % 3
  ];
}

/**
 * A canted tail rotor (10–25°, with its helicopter's main rotor) or a pair of tilt-rotor nacelles
 * (0–90°, skipping 42–48° where forward and up are a toss-up); `variant` draws one blade retopologised
 * (`retopo`), or breaks the first rotor (`broken`: an asymmetric box, or one blade set apart);
 * `nacelleOff` leans the tail rotor's gearbox node that many degrees apart from its shaft.
 */
export function cantedCase(
  next: () => number,
  index: number,
  variant: "clean" | "retopo" | "broken",
  nacelleOff = 0,
): SpinCase {
  const doc = newScene();
  meshNode(doc, "Fuselage", boxMesh([-0.6, -0.6, -4], [0.6, 0.6, 6]), undefined);
  const parts: SpinCase["parts"] = [];
  const blades = 2 + (index % 4);
  const shapes = (): (BladeShape | undefined)[] | undefined => {
    if (variant === "retopo") return [undefined, retopologised(next)];
    if (variant === "broken" && index % 4 !== 3) return [brokenBlade(next, index >> 2), undefined];
    return undefined;
  };
  let description: string;
  if (index % 2 === 0) {
    const cant = lerp(10, 25, next());
    description = `canted tail rotor ${cant.toFixed(1)}°`;
    parts.push(addRotor(
      doc,
      next,
      draw(next, index, {
        name: pick(next, ["MainRotor", "Rotor_Main"]),
        kind: "main_rotor",
        axis: [0, 1, 0],
        centre: [0, 1.6, 0],
        radius: lerp(4, 5.5, next()),
        blades: 4,
        pitch: lerp(6, 12, next()),
        parent: "none",
      }),
    ));
    const tail = draw(next, index, {
      name: pick(next, ["TailRotor", "Rotor_Tail", "Heckrotor"]),
      kind: "tail_rotor",
      axis: lean(LEFT, [0, 1, 0], cant),
      centre: [-0.45, 1.1, 6.3],
      radius: lerp(0.6, 0.9, next()),
      blades: Math.min(blades, 4),
      pitch: lerp(8, 15, next()),
      parentName: "TailGearbox",
      nacelleOff,
      bladeShapes: shapes(),
    }, variant !== "clean");
    parts.push({
      ...addRotor(doc, next, tail),
      unvouched: tail.blades === 2 && (tail.parent === "none" || nacelleOff !== 0) && tail.hub === "none",
    });
    // The broken rotor is the tail rotor: move it first.
    parts.reverse();
  } else {
    let tilt = lerp(0, 90, next());
    if (tilt > 42 && tilt < 48) tilt = tilt < 45 ? 42 : 48;
    description = `tilt-rotor nacelles at ${tilt.toFixed(1)}°`;
    const axis = lean([0, 0, -1], [0, 1, 0], tilt);
    const kind: SpinningKind = tilt < 45 ? "propeller" : "main_rotor";
    const radius = lerp(2.5, 3.5, next());
    for (const [name, x, hand] of [["Proprotor_L", -6, 1], ["Proprotor_R", 6, -1]] as const) {
      parts.push(addRotor(
        doc,
        next,
        draw(next, index, {
          name,
          kind,
          axis,
          centre: [x, 0.8, -0.5],
          radius,
          blades: Math.max(3, Math.min(blades, 4)),
          hand,
          parentName: name === "Proprotor_L" ? "Nacelle_L" : "Nacelle_R",
          bladeShapes: name === "Proprotor_L" ? shapes() : undefined,
        }, variant !== "clean"),
      ));
    }
  }
  if (variant === "broken" && index % 4 === 3) {
    const t = parts[0], r = t.radius;
    const first = doc.getRoot().listNodes().find((n) => n.getName() === t.name)!;
    const c = t.centre;
    meshNode(
      doc,
      "Lip",
      boxMesh([c[0] + 0.3 * r, c[1] + 0.2 * r, c[2] - 0.1 * r], [
        c[0] + 0.6 * r,
        c[1] + 0.5 * r,
        c[2] + 0.3 * r,
      ]),
      first,
    );
  }
  return {
    doc,
    parts,
    broken: variant === "broken",
    description: `#${index} ${variant} ${description}, ${blades} blades`,
  };
}

/**
 * A single-blade propeller named `Propeller`: alone as one mesh, as `Blade_1` in a group, with a
 * spinner, with a counterweight and a hub, or with a counterweight alone. `shaftFromHub` says whether
 * a shaft can honestly be found (a round hub or spinner of its own).
 */
export function oneBladeCase(next: () => number, index: number): SpinCase & { shaftFromHub: boolean } {
  const doc = newScene();
  meshNode(doc, "Fuselage", boxMesh([-0.6, -0.6, -4], [0.6, 0.6, 6]), undefined);
  const form = index % 5;
  const hub = form === 2 ? "spinner" : form === 3 ? "hub" : "none";
  const axis = normalize([lerp(-0.05, 0.05, next()), lerp(-0.05, 0.05, next()), -1]);
  const truth = addRotor(
    doc,
    next,
    draw(next, index, {
      name: "Propeller",
      kind: "propeller",
      axis,
      centre: [0, 0, -4.3],
      radius: lerp(0.8, 1.3, next()),
      blades: 1,
      hub,
      storage: form === 0 ? "one_mesh" : "per_blade",
      parent: "none",
      counterweight: form >= 3,
    }),
  );
  const description = [
    "alone, one mesh",
    "Blade_1 alone",
    "with a spinner",
    "with a counterweight and hub",
    "with a counterweight",
  ][form];
  return {
    doc,
    parts: [truth],
    broken: false,
    description: `#${index} one blade ${description}`,
    shaftFromHub: hub !== "none",
  };
}

/**
 * Propellers and rotors whose side the rig must tell, in a scene scaled by `scale` (0.01 to 100): a
 * nose or pusher propeller up to 30 % of its radius off the centre line, a helicopter's main rotor and
 * its tail rotor beside the fin (30–120 % of its radius out), and unnamed wing propellers.
 */
export function sideCase(next: () => number, index: number, scale: number): SpinCase {
  const doc = newScene();
  const s = (v: Vec3): Vec3 => [v[0] * scale, v[1] * scale, v[2] * scale];
  meshNode(doc, "Fuselage", boxMesh(s([-0.6, -0.6, -4]), s([0.6, 0.6, 6])), undefined);
  const parts: SpinCase["parts"] = [];
  const config = index % 4;
  const rotor = (over: Partial<RotorDraw> & SpinTruth, side: "left" | "right" | "centre") =>
    parts.push({
      ...addRotor(doc, next, draw(next, index, { parent: "none", ...over, radius: over.radius * scale })),
      side,
    });
  let description = "";
  if (config === 0 || config === 1) {
    const radius = lerp(0.8, 1.3, next()), off = lerp(-0.3, 0.3, next()) * radius;
    description = `${config === 0 ? "nose" : "pusher"} propeller ${
      (off / radius * 100).toFixed(0)
    } % of its radius off`;
    rotor({
      name: "Propeller",
      kind: "propeller",
      axis: [0, 0, -1],
      centre: s([off, 0, config === 0 ? -4.3 : 6.4]),
      radius,
      blades: 2 + (index % 4),
    }, "centre");
  } else if (config === 2) {
    const radius = lerp(0.6, 0.9, next()), out = lerp(0.3, 1.2, next()) * radius;
    description = `helicopter, tail rotor ${(out / radius * 100).toFixed(0)} % of its radius out`;
    rotor({
      name: "MainRotor",
      kind: "main_rotor",
      axis: [0, 1, 0],
      centre: s([lerp(-0.05, 0.05, next()), 1.6, 0]),
      radius: lerp(4, 5.5, next()),
      blades: 4,
    }, "centre");
    const sign = next() < 0.5 ? -1 : 1;
    const tail = {
      name: "TailRotor",
      kind: "tail_rotor" as const,
      centre: s([sign * out, 1.1, 6.3]),
      radius,
      blades: 2,
    };
    rotor({ ...tail, axis: LEFT }, "centre");
  } else {
    description = "unnamed wing propellers";
    const radius = lerp(0.8, 1.3, next()), x = lerp(1.9, 4, next());
    rotor({
      name: "Propeller.001",
      kind: "propeller",
      axis: [0, 0, -1],
      centre: s([-x, 0, -1.5]),
      radius,
      blades: 3,
    }, "left");
    rotor({
      name: "Propeller.002",
      kind: "propeller",
      axis: [0, 0, -1],
      centre: s([x, 0, -1.5]),
      radius,
      blades: 3,
      hand: -1,
    }, "right");
  }
  return { doc, parts, broken: false, description: `#${index} ×${scale} ${description}` };
}
