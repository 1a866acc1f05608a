/**
 * Spinning parts as users' files have them when no name says "rotor": blades exported as objects of
 * their own with only a blade word (`Blade_1`…, Blender's `blade.001`…, Sketchfab's
 * `Blade_1_Material_0`), no hub object and no node named for the rotor — a nose propeller, a twin's
 * two wing propellers numbered on (`Blade_1`…`_6` side by side at the root), a helicopter's main and
 * tail rotors, or the blades under an unnamed empty (`Object_7`, `Empty.003`); beside them, blade
 * antennas (`Blade_Antenna_1`…) in a row on the spine that must stay still. And blurred-propeller discs
 * (`prop_disc`, `PropDisk`, `rotor_blur`) drawn beside the blades off the blades' shaft (a disc left
 * in the wrong plane, or tipped), which spin wobbling about the blades' shaft: the fit must say so.
 * Scene axes: −Z forward, +Y up, −X left. Deterministic from a seed.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import type { SpinningKind } from "../../../nodes/rig/spinning_names.ts";
import { newScene } from "./fixtures.ts";
import { addRotor, meshNode, type RotorDraw, type SpinTruth } from "./propellers.ts";
import { boxMesh } from "./surface_classes.ts";
import { disc, flatten, joinRotors, revolved } from "./rotor_zoo_shapes.ts";
import type { ZooPart } from "./rotor_zoo.ts";

/** A generated aircraft, the parts the rig should find, what it must leave still, and discs drawn off their shaft. */
export interface WildCase {
  readonly doc: Document;
  readonly parts: ZooPart[];
  readonly still: string[];
  /** Parts whose disc is drawn off the blades' shaft: their fit must not be good without naming the disc. */
  readonly offDisc: { part: string; disc: string }[];
  /**
   * Two rotors joined in one object: `separable` when its pieces fall on either side of the plane
   * between the discs (to be split), not when one hub is drawn through both (to be left whole, said).
   */
  readonly joined?: { name: string; separable: boolean };
  readonly family: string;
  readonly description: string;
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];
const add = (a: Vec3, b: Vec3, s = 1): Vec3 => [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];

/** The families, one per index modulo their count. */
export const WILD_FAMILIES = [
  "loose_blades",
  "twin_loose_blades",
  "heli_loose_blades",
  "joined_pair",
  "disc_off_shaft",
] as const;

/** How an exporter names the n-th (1-based) loose blade. */
const BLADE_NAMERS: readonly ((n: number) => string)[] = [
  (n) => `Blade_${n}`,
  (n) => n === 1 ? "blade" : `blade.${String(n - 1).padStart(3, "0")}`,
  (n) => `Blade${n}_Material_0`,
  (n) => `Blade.${String(n).padStart(3, "0")}`,
  (n) => `PropellerBlade${n}`,
  (n) => n === 1 ? "Prop_Blade" : `Prop_Blade.${String(n - 1).padStart(3, "0")}`,
];

function drawn(next: () => number, over: Partial<RotorDraw> & SpinTruth): RotorDraw {
  const dense = next() < 0.5;
  return {
    pitch: lerp(15, 35, next()),
    hand: 1,
    chord: lerp(0.12, 0.22, next()) * over.radius,
    sectionPoints: dense ? 16 : 4 + Math.floor(next() * 5),
    sections: dense ? 14 : 3 + Math.floor(next() * 3),
    storage: "per_blade",
    hub: "none",
    parent: "none",
    ...over,
  };
}

/**
 * A rotor drawn blade by blade, no hub, its group flattened away: the blades side by side at the root
 * (or under an unnamed empty), named by `namer` from `first` on. The part must hold them all.
 */
function looseRotor(
  doc: Document,
  next: () => number,
  draw: RotorDraw,
  namer: (n: number) => string,
  first: number,
  empty: string | undefined,
): ZooPart {
  const truth = addRotor(doc, next, draw);
  const members = flatten(doc, draw.name, (child) => namer(Number(child.slice(6)) + first - 1));
  if (empty) {
    const holder = doc.createNode(empty);
    const scene = doc.getRoot().getDefaultScene()!;
    scene.addChild(holder);
    for (const m of members) {
      const node = doc.getRoot().listNodes().find((n) => n.getName() === m)!;
      scene.removeChild(node);
      holder.addChild(node);
    }
  }
  return { ...truth, name: members[0], kinds: [truth.kind], members };
}

/** Blade antennas in a row along the spine: blade-named, like-shaped, about no common axis. */
function antennas(doc: Document, next: () => number, namer: (n: number) => string, first: number): string[] {
  const count = 2 + Math.floor(next() * 2), names: string[] = [];
  const z0 = lerp(-2, 1, next()), h = lerp(0.15, 0.3, next()), chord = lerp(0.15, 0.3, next());
  for (let i = 0; i < count; i++) {
    const z = z0 + i * lerp(0.8, 1.4, next());
    const name = namer(first + i).replace(/blade/i, (b) => `${b}_Antenna`);
    meshNode(doc, name, boxMesh([-0.01, 0.6, z], [0.01, 0.6 + h, z + chord]), undefined);
    names.push(name);
  }
  return names;
}

/** One generated aircraft of family `index % WILD_FAMILIES.length`. */
export function wildCase(next: () => number, index: number): WildCase {
  const family = WILD_FAMILIES[index % WILD_FAMILIES.length];
  const variant = Math.floor(index / WILD_FAMILIES.length);
  const doc = newScene();
  meshNode(doc, "Fuselage", boxMesh([-0.6, -0.6, -4], [0.6, 0.6, 6]), undefined);
  const parts: ZooPart[] = [], still: string[] = [], offDisc: WildCase["offDisc"] = [];
  const namer = BLADE_NAMERS[variant % BLADE_NAMERS.length];
  const empty = variant % 3 === 2 ? pick(next, ["Object_7", "Empty.003", "Sketchfab_model_12"]) : undefined;
  let description = "";
  if (family === "loose_blades") {
    const blades = 2 + (variant % 4);
    const pusher = variant % 5 === 4;
    const axis = normalize(
      add([0, 0, pusher ? 1 : -1], [lerp(-0.03, 0.03, next()), lerp(-0.03, 0.03, next()), 0]),
    );
    const signed: Vec3 = pusher ? axis.map((v) => -v) as Vec3 : axis;
    parts.push(looseRotor(
      doc,
      next,
      drawn(next, {
        name: "tmp",
        kind: "propeller",
        axis: signed,
        centre: [0, 0, pusher ? 6.2 : -4.3],
        radius: lerp(0.8, 1.3, next()),
        blades,
      }),
      namer,
      1,
      empty,
    ));
    still.push(...antennas(doc, next, namer, blades + 1));
    description = `${blades} loose blades ${namer(1)}… ${pusher ? "pusher" : "nose"}${
      empty ? ` under ${empty}` : ""
    }`;
  } else if (family === "twin_loose_blades") {
    const blades = 2 + (variant % 4);
    const span = lerp(2.6, 4, next()), radius = lerp(0.9, 1.25, next());
    for (const [k, x] of [-span, span].entries()) {
      parts.push(looseRotor(
        doc,
        next,
        drawn(next, {
          name: "tmp",
          kind: "propeller",
          axis: [0, 0, -1],
          centre: [x, 0, -1.5],
          radius,
          blades,
          hand: k === 0 ? 1 : -1,
        }),
        namer,
        1 + k * blades,
        undefined,
      ));
    }
    const [a, b] = parts as [ZooPart, ZooPart];
    parts.splice(0, 2, { ...a, notWith: b.members }, { ...b, notWith: a.members });
    description = `twin wing props, ${blades} loose blades each, ${namer(1)}…${namer(2 * blades)}`;
  } else if (family === "heli_loose_blades") {
    const blades = 2 + (variant % 4), tailBlades = 2 + (variant % 3);
    const main = looseRotor(
      doc,
      next,
      drawn(next, {
        name: "tmp",
        kind: "main_rotor",
        axis: [0, 1, 0],
        centre: [0, 1.9, 0],
        radius: lerp(4, 5.5, next()),
        blades,
        pitch: 8,
        chord: lerp(0.05, 0.08, next()) * 5,
      }),
      namer,
      1,
      empty,
    );
    const tail = looseRotor(
      doc,
      next,
      drawn(next, {
        name: "tmp",
        kind: "tail_rotor",
        axis: [-1, 0, 0],
        centre: [-0.45, 1.1, 6.3],
        radius: lerp(0.6, 0.9, next()),
        blades: tailBlades,
      }),
      namer,
      blades + 1,
      undefined,
    );
    parts.push({ ...main, notWith: tail.members }, { ...tail, notWith: main.members });
    description = `helicopter, ${blades} + ${tailBlades} loose blades ${namer(1)}…${
      empty ? ` main under ${empty}` : ""
    }`;
  } else if (family === "joined_pair") {
    // Two rotors turning opposite ways joined into one object, as a Sketchfab model or a joined Blender
    // object is: contra-rotating propellers or a coaxial helicopter's rotors; in one case in three one
    // hub drawn through both discs, which no plane between them can cut.
    const main = variant % 2 === 1;
    const shared = variant % 3 === 2;
    const radius = main ? lerp(4, 6, next()) : lerp(0.9, 1.3, next());
    const axis: Vec3 = main ? [0, 1, 0] : [0, 0, -1];
    const centres: Vec3[] = main ? [[0, 2.4, 0], [0, 1.6, 0]] : [[0, 0, -4.3], [0, 0, -3.95]];
    const blades = main ? 2 + (variant % 3) : 3 + (variant % 4);
    for (const [k, centre] of centres.entries()) {
      const name = `tmp_${k}`;
      parts.push({
        ...addRotor(
          doc,
          next,
          drawn(next, {
            name,
            kind: main ? "main_rotor" : "propeller",
            axis,
            centre,
            radius,
            blades,
            hand: k === 0 ? 1 : -1,
            pitch: main ? lerp(6, 12, next()) : lerp(15, 35, next()),
            chord: (main ? lerp(0.06, 0.08, next()) : lerp(0.12, 0.2, next())) * radius,
            hub: shared
              ? "none"
              : k === 0
              ? (main ? "hub" : "spinner")
              : pick(next, ["hub", "none"] as const),
          }),
        ),
        kinds: [main ? "main_rotor" : "propeller"],
      });
    }
    if (shared) {
      const group = doc.getRoot().listNodes().find((n) => n.getName() === "tmp_0")!;
      const far = Math.abs(centres[1][main ? 1 : 2] - centres[0][main ? 1 : 2]);
      const rings: [number, number][] = [[-far - 0.06 * radius, 0.1 * radius], [0.06 * radius, 0.1 * radius]];
      meshNode(doc, "Hub", revolved(centres[0], axis, rings, 16), group);
    }
    const name = pick(
      next,
      main ? ["CoaxialRotor", "Rotors", "rotor_system"] : ["Contraprop", "Propeller", "Props"],
    );
    joinRotors(doc, parts, name);
    const joined = { name, separable: !shared };
    description = `${name} joined, ${main ? "coaxial" : "contra"} ${blades} blades${
      shared ? ", one hub through both" : ""
    }`;
    return { doc, parts, still, offDisc, joined, family, description: `#${index} ${family}: ${description}` };
  } else {
    // A propeller named as one, its blades and a blurred disc in its group; the disc left in the
    // wrong plane (its normal square to the shaft) or tipped 8–30° off it.
    const name = pick(next, ["Propeller", "Prop", "MainRotor"]);
    const main = name === "MainRotor";
    const axis: Vec3 = main ? [0, 1, 0] : [0, 0, -1];
    const centre: Vec3 = main ? [0, 1.9, 0] : [0, 0, -4.3];
    const radius = main ? lerp(4, 5.5, next()) : lerp(0.8, 1.3, next());
    const kind: SpinningKind = main ? "main_rotor" : "propeller";
    const t = addRotor(
      doc,
      next,
      drawn(next, {
        name,
        kind,
        axis,
        centre,
        radius,
        blades: 2 + (variant % 4),
        hub: "spinner",
        pitch: main ? 8 : 25,
      }),
    );
    const square = variant % 2 === 0;
    const tip = square ? 90 : lerp(8, 30, next());
    const across: Vec3 = main ? [0, 0, 1] : [1, 0, 0];
    const t0 = (tip * Math.PI) / 180;
    const normal = normalize(add(add([0, 0, 0], axis, Math.cos(t0)), across, Math.sin(t0)));
    const discName = pick(next, ["prop_disc", "PropDisk", "rotor_blur", "Prop_Blur"]);
    const group = doc.getRoot().listNodes().find((n) => n.getName() === name)!;
    meshNode(
      doc,
      discName,
      disc(centre, normal, radius, pick(next, [4, 16, 32]), next(), next() < 0.5),
      group,
    );
    parts.push({ ...t, kinds: [kind] });
    offDisc.push({ part: name, disc: discName });
    description = `${name} with ${discName} ${tip.toFixed(0)}° off the shaft`;
  }
  return { doc, parts, still, offDisc, family, description: `#${index} ${family}: ${description}` };
}
