/**
 * Spinning parts as Blender and Sketchfab users lay them out beyond `propeller_cases.ts`: two-blade
 * rotors on a leaning shaft with a hub or spinner object of their own; tilt-rotors near 45° (forward
 * and up a toss-up); coaxial main rotors and contra-rotating propellers (two on one shaft, blades
 * twisted opposite ways); ducted fans and fenestrons (`TailFan`, `Fenestron`: many blades, some
 * unevenly spaced as an EC135's are, inside a duct ring); rotor heads with non-spinning parts named
 * `rotor_*` (`rotor_servo_1`, `rotor_swash_lower`, `Rotor_Support`); spinners and hubs drawn without
 * blades (`Spinner`, `prop_hub`, long or stubby cones of any segment count); blades as objects of
 * their own under a hub object (`Rotor_Hub` > `blade_1…4`); and blurred propeller discs (`prop_disc`,
 * a flat polygon from a quad up, alone or beside the blades). Flat exports too: a coaxial pair's
 * blades and hubs side by side at the root, numbered (`Rotor1_Blade1`, `Rotor2_Hub`), and a hub beside
 * `Blade.001`…. Scene axes: −Z forward, +Y up, −X left.
 * Deterministic from a seed.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import type { SpinningKind } from "../../../nodes/rig/spinning_names.ts";
import { newScene } from "./fixtures.ts";
import { addRotor, meshNode, type RotorDraw, type SpinTruth } from "./propellers.ts";
import { boxMesh, type ClassMesh } from "./surface_classes.ts";
import { disc, flatten, joinRotors, revolved } from "./rotor_zoo_shapes.ts";

export { judgeZoo, spinningNames } from "./rotor_zoo_judge.ts";

/** A spinning part the rig should find; `kinds` lists the kinds that are right (near 45°, either). */
export interface ZooPart extends SpinTruth {
  readonly kinds: readonly SpinningKind[];
  /** Nothing in the file can vouch for the shaft (two blades leaning, no hub or node along it): weak is right. */
  readonly unvouchable?: boolean;
  /** Objects drawn side by side (no node holds them) that must turn as one part: the part must hold them all. */
  readonly members?: readonly string[];
  /** Objects of another rotor (turning the other way) the part must not hold. */
  readonly notWith?: readonly string[];
  /**
   * Two counter-rotating rotors drawn as one object: one pivot cannot turn them both right, so the
   * rig must split it into `<name>_Front` and `<name>_Rear` (`_Upper`/`_Lower`), each on its own
   * disc's centre ({@link pairCentres}: the front's, then the rear's), or leave it whole, not good,
   * and say so.
   */
  readonly twoInOne?: boolean;
  readonly pairCentres?: readonly [Vec3, Vec3];
}

/** A generated aircraft, what the rig should find, and what it must leave still. */
export interface ZooCase {
  readonly doc: Document;
  readonly parts: ZooPart[];
  readonly still: string[];
  readonly family: string;
  readonly description: string;
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];
const add = (a: Vec3, b: Vec3, s = 1): Vec3 => [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];

/** `from` turned toward `to` (unit, square to it) by `degrees`. */
function lean(from: Vec3, to: Vec3, degrees: number): Vec3 {
  const t = (degrees * Math.PI) / 180;
  return normalize([0, 1, 2].map((k) => from[k] * Math.cos(t) + to[k] * Math.sin(t)));
}

function fuselage(doc: Document): void {
  meshNode(doc, "Fuselage", boxMesh([-0.6, -0.6, -4], [0.6, 0.6, 6]), undefined);
}

/** Drawing defaults for a rotor (`propellers.ts`'s loft), the truth given. */
function drawn(next: () => number, over: Partial<RotorDraw> & SpinTruth): RotorDraw {
  const dense = next() < 0.5;
  return {
    pitch: lerp(15, 35, next()),
    hand: 1,
    chord: lerp(0.12, 0.22, next()) * over.radius,
    sectionPoints: dense ? 16 : 4 + Math.floor(next() * 5),
    sections: dense ? 14 : 3 + Math.floor(next() * 3),
    storage: pick(next, ["one_mesh", "per_blade"] as const),
    hub: "none",
    parent: "none",
    ...over,
  };
}

function part(truth: SpinTruth, kinds: readonly SpinningKind[] = [truth.kind], unvouchable = false): ZooPart {
  return { ...truth, kinds, unvouchable };
}

/** The families, one per index modulo their count. */
export const FAMILIES = [
  "two_blade_leaning",
  "tilt_near_45",
  "coaxial",
  "contra_props",
  "ducted_fan",
  "rotor_head",
  "bare_spinner",
  "blades_under_hub",
  "prop_disc",
] as const;

/** One generated aircraft of family `index % FAMILIES.length`. */
export function zooCase(next: () => number, index: number): ZooCase {
  const family = FAMILIES[index % FAMILIES.length];
  const doc = newScene();
  fuselage(doc);
  const parts: ZooPart[] = [], still: string[] = [];
  let description = "";
  const variant = Math.floor(index / FAMILIES.length);
  if (family === "two_blade_leaning") {
    // A tilt-rotor's or a canted tail rotor's two blades, the shaft baked into the vertices; a hub or
    // spinner (round about the shaft) in two cases of three, an object of its own or joined into the
    // blades' mesh (one case in four).
    const hub = (["hub", "spinner", "none"] as const)[variant % 3];
    const storage = variant % 4 === 3 ? "one_mesh" : "per_blade";
    const tail = variant % 2 === 1;
    const tilt = tail ? lerp(10, 25, next()) : lerp(10, 80, next());
    const axis = tail ? lean([-1, 0, 0], [0, 1, 0], tilt) : lean([0, 0, -1], [0, 1, 0], tilt);
    const kind: SpinningKind = tail ? "tail_rotor" : tilt < 45 ? "propeller" : "main_rotor";
    const near45 = Math.abs(tilt - 45) < 5;
    const name = tail ? "TailRotor" : "Proprotor";
    const t = addRotor(
      doc,
      next,
      drawn(next, {
        name,
        kind,
        axis,
        centre: tail ? [-0.45, 1.1, 6.3] : [-6, 0.8, -0.5],
        radius: tail ? lerp(0.6, 0.9, next()) : lerp(2.5, 3.5, next()),
        blades: 2,
        hub,
        storage,
      }),
    );
    parts.push(part(t, near45 ? ["propeller", "main_rotor"] : [kind], hub === "none"));
    description = `${name} two blades leaning ${tilt.toFixed(1)}°, ${hub} (${storage})`;
  } else if (family === "tilt_near_45") {
    const tilt = lerp(38, 52, next());
    const axis = lean([0, 0, -1], [0, 1, 0], tilt);
    const blades = 3 + (variant % 2);
    for (const [name, x, hand] of [["Proprotor_L", -6, 1], ["Proprotor_R", 6, -1]] as const) {
      const t = addRotor(
        doc,
        next,
        drawn(next, {
          name,
          kind: tilt < 45 ? "propeller" : "main_rotor",
          axis,
          centre: [x, 0.8, -0.5],
          radius: 3,
          blades,
          hand,
          hub: "spinner",
          parent: variant % 3 === 0 ? "nacelle" : "none",
          parentName: `Nacelle_${name.slice(-1)}`,
        }),
      );
      parts.push(part(t, ["propeller", "main_rotor"]));
    }
    description = `tilt-rotors at ${tilt.toFixed(1)}°, ${blades} blades`;
  } else if (family === "coaxial") {
    // Ka-27 / X2: two main rotors on one mast, turning opposite ways.
    const [upper, lower] = pick(next, [
      ["MainRotor_Upper", "MainRotor_Lower"],
      ["Rotor_Top", "Rotor_Bottom"],
      ["rotor_upper", "rotor_lower"],
    ]);
    const blades = 2 + (variant % 3);
    const radius = lerp(4, 6, next());
    // One case in two is exported flat: each rotor's blades and hub side by side at the root,
    // numbered (`Rotor1_Blade1`, `Rotor2_Hub`), no node holding either rotor.
    const flat = variant % 2 === 1;
    for (const [n, [name, y, hand]] of ([[upper, 2.4, 1], [lower, 1.6, -1]] as const).entries()) {
      const truth = addRotor(
        doc,
        next,
        drawn(next, {
          name,
          kind: "main_rotor",
          axis: [0, 1, 0],
          centre: [0, y, 0],
          radius,
          blades,
          pitch: lerp(6, 12, next()),
          hand,
          chord: lerp(0.06, 0.08, next()) * radius,
          hub: "hub",
          storage: flat ? "per_blade" : pick(next, ["one_mesh", "per_blade"] as const),
        }),
      );
      if (!flat) {
        parts.push(part(truth));
        continue;
      }
      const members = flatten(doc, name, (child) => `Rotor${n + 1}_${child.replace("_", "")}`);
      parts.push({ ...part({ ...truth, name: `Rotor${n + 1}` }), members });
    }
    if (flat) {
      // Counter-rotating: neither rotor's part may hold the other's objects.
      const [a, b] = parts as [ZooPart, ZooPart];
      parts.splice(0, 2, { ...a, notWith: b.members }, { ...b, notWith: a.members });
    }
    meshNode(doc, "RotorMast", boxMesh([-0.08, 0.6, -0.08], [0.08, 2.6, 0.08]), undefined);
    still.push("RotorMast");
    description = flat
      ? `coaxial flat Rotor1_*/Rotor2_*, ${blades} blades`
      : `coaxial ${upper}/${lower}, ${blades} blades`;
  } else if (family === "contra_props") {
    const names = pick(next, [["Prop_Front", "Prop_Rear"], ["Propeller_1", "Propeller_2"], [
      "Propeller.001",
      "Propeller.002",
    ]]);
    const blades = 3 + (variant % 4);
    const radius = lerp(0.9, 1.3, next());
    // One case in three joins both into one object, as a Sketchfab model often is.
    const joinedInOne = variant % 3 === 2;
    for (const [n, name] of names.entries()) {
      parts.push(part(addRotor(
        doc,
        next,
        drawn(next, {
          name,
          kind: "propeller",
          axis: [0, 0, -1],
          centre: [0, 0, -4.3 + 0.35 * n],
          radius,
          blades,
          hand: n === 0 ? 1 : -1,
          hub: n === 0 ? "spinner" : "none",
          storage: joinedInOne ? "per_blade" : pick(next, ["one_mesh", "per_blade"] as const),
        }),
      )));
    }
    const joinedName = pick(next, ["Propeller", "Contraprop", "Prop_Contra"]);
    if (joinedInOne) joinRotors(doc, parts, joinedName);
    description = `contra-rotating ${
      joinedInOne ? `joined as ${joinedName}` : names.join("/")
    }, ${blades} blades`;
  } else if (family === "ducted_fan") {
    // A fenestron in the fin, or a ducted fan: many blades (some spaced unevenly), a duct ring.
    const name = pick(next, ["Fenestron", "TailFan", "tail_fan", "Fan"]);
    const tail = name !== "Fan";
    const axis: Vec3 = tail ? [-1, 0, 0] : [0, 0, -1];
    const centre: Vec3 = tail ? [0, 1.0, 6.0] : [0, 0, -4.3];
    const radius = lerp(0.4, 0.6, next()), blades = 7 + Math.floor(next() * 5);
    const uneven = variant % 2 === 1;
    const shapes = uneven
      ? Array.from({ length: blades }, (_, i) => ({ phiDelta: i % 2 === 0 ? 0 : lerp(4, 8, next()) }))
      : undefined;
    const t = addRotor(
      doc,
      next,
      drawn(next, {
        name,
        kind: tail ? "tail_rotor" : "propeller",
        axis,
        centre,
        radius,
        blades,
        chord: 0.25 * radius,
        hub: "hub",
        storage: "per_blade",
        bladeShapes: shapes,
      }),
    );
    const ductIn = variant % 3 === 0;
    const duct = revolved(
      centre,
      axis,
      [[-0.2 * radius, 1.06 * radius], [0.2 * radius, 1.06 * radius]],
      32,
      false,
    );
    const owner = ductIn ? doc.getRoot().listNodes().find((n) => n.getName() === name) : undefined;
    meshNode(doc, ductIn ? "Duct" : `${name}_Duct`, duct, owner);
    if (!ductIn) still.push(`${name}_Duct`);
    parts.push(part(t));
    description = `${name} ${blades} blades${uneven ? " unevenly spaced" : ""}, duct ${
      ductIn ? "inside" : "beside"
    }`;
  } else if (family === "rotor_head") {
    parts.push(part(addRotor(
      doc,
      next,
      drawn(next, {
        name: "MainRotor",
        kind: "main_rotor",
        axis: [0, 1, 0],
        centre: [0, 1.9, 0],
        radius: lerp(4, 5.5, next()),
        blades: 4,
        pitch: 8,
        hub: "hub",
      }),
    )));
    const stillParts: [string, ClassMesh][] = [
      ["rotor_swash_lower", revolved([0, 1.5, 0], [0, 1, 0], [[-0.02, 0.3], [0.02, 0.3]], 24)],
      ["Rotor_Support", boxMesh([-0.3, 1.2, -0.3], [0.3, 1.3, 0.3])],
      ["rotor_stator", revolved([0, 1.35, 0], [0, 1, 0], [[-0.05, 0.2], [0.05, 0.2]], 12)],
    ];
    for (let k = 0; k < 3; k++) {
      const a = (2 * Math.PI * k) / 3 + 0.3;
      const c: Vec3 = [0.4 * Math.cos(a), 1.3, 0.4 * Math.sin(a)];
      stillParts.push([
        `rotor_servo_${k + 1}`,
        boxMesh(add(c, [-0.05, -0.15, -0.04]), add(c, [0.05, 0.15, 0.04])),
      ]);
    }
    for (const [name, mesh] of stillParts) meshNode(doc, name, mesh, undefined), still.push(name);
    description = "rotor head with servos, lower swashplate, support and stator";
  } else if (family === "bare_spinner") {
    // Blades hidden or never drawn: a spinner or hub on its own, long or stubby, any segment count.
    const name = pick(next, ["Spinner", "prop_hub", "Prop_Spinner"]);
    const radius = lerp(0.15, 0.25, next()), long = lerp(0.4, 2.5, next()) * 2 * radius;
    const axis = normalize(add([0, 0, -1], [lerp(-0.04, 0.04, next()), lerp(-0.04, 0.04, next()), 0]));
    const centre: Vec3 = [0, 0, -4.2];
    const segments = pick(next, [8, 12, 16, 20, 24, 32]);
    const rings: [number, number][] = [
      [0, radius],
      [0.4 * long, 0.92 * radius],
      [0.75 * long, 0.55 * radius],
      [
        long,
        0.05 * radius,
      ],
    ];
    meshNode(doc, name, revolved(centre, axis, rings, segments), undefined);
    parts.push(part({ name, kind: "propeller", axis, centre, radius, blades: 0 }));
    description = `${name} alone, ${segments} segments, length ${
      (long / (2 * radius)).toFixed(2)
    }× its diameter`;
  } else if (family === "blades_under_hub") {
    const hubName = pick(next, ["Rotor_Hub", "prop_hub", "RotorHub", "Hub", "Nabe"]);
    const main = hubName !== "prop_hub" && hubName !== "Nabe";
    // One case in two is exported flat: the hub and `Blade.001`… side by side at the root.
    const flat = variant % 2 === 1;
    const blades = 2 + (variant % 4);
    const t = addRotor(
      doc,
      next,
      drawn(next, {
        name: "tmp_group",
        kind: main ? "main_rotor" : "propeller",
        axis: main ? [0, 1, 0] : [0, 0, -1],
        centre: main ? [0, 1.9, 0] : [0, 0, -4.3],
        radius: main ? lerp(4, 5.5, next()) : lerp(0.8, 1.3, next()),
        blades,
        pitch: main ? 8 : lerp(15, 35, next()),
        hub: "hub",
        storage: "per_blade",
      }),
    );
    if (flat) {
      const members = flatten(
        doc,
        "tmp_group",
        (child) => child === "Hub" ? hubName : `Blade.${child.slice(6).padStart(3, "0")}`,
      );
      parts.push({ ...part({ ...t, name: hubName }), members });
      description = `${hubName} beside Blade.001…${blades}`;
      return { doc, parts, still, family, description: `#${index} ${family}: ${description}` };
    }
    // The hub object takes the group's place; the blades become its children (`blade_1`…).
    const group = doc.getRoot().listNodes().find((n) => n.getName() === "tmp_group")!;
    const hub = group.listChildren().find((n) => n.getName() === "Hub")!;
    const scene = doc.getRoot().getDefaultScene()!;
    group.removeChild(hub);
    scene.addChild(hub.setName(hubName));
    for (const b of group.listChildren()) {
      group.removeChild(b);
      hub.addChild(b.setName(b.getName().toLowerCase()));
    }
    scene.removeChild(group);
    group.dispose();
    parts.push(part({ ...t, name: hubName }));
    description = `${hubName} holding blade_1…${blades}`;
  } else {
    // A blurred disc: beside the blades in the propeller's group, or on its own (blades hidden).
    const alone = variant % 2 === 0;
    const sides = pick(next, [4, 6, 16, 32]);
    const twoSided = next() < 0.5;
    const radius = lerp(0.8, 1.3, next());
    const axis = normalize(add([0, 0, -1], [lerp(-0.04, 0.04, next()), lerp(-0.04, 0.04, next()), 0]));
    const centre: Vec3 = [0, 0, -4.3];
    if (alone) {
      const name = pick(next, ["prop_disc", "Prop_Blur", "PropDisc"]);
      meshNode(doc, name, disc(centre, axis, radius, sides, next(), twoSided), undefined);
      parts.push(part({ name, kind: "propeller", axis, centre, radius, blades: 0 }));
    } else {
      const t = addRotor(
        doc,
        next,
        drawn(next, {
          name: "Propeller",
          kind: "propeller",
          axis,
          centre,
          radius,
          blades: 3,
          hub: "spinner",
          storage: "per_blade",
        }),
      );
      const group = doc.getRoot().listNodes().find((n) => n.getName() === "Propeller")!;
      meshNode(
        doc,
        "prop_disc",
        disc(add(centre, axis, -0.02 * radius), axis, radius, sides, next(), twoSided),
        group,
      );
      parts.push(part(t));
    }
    description = `prop disc ${sides}-gon${twoSided ? " two-sided" : ""}, ${
      alone ? "alone" : "beside the blades"
    }`;
  }
  return { doc, parts, still, family, description: `#${index} ${family}: ${description}` };
}
