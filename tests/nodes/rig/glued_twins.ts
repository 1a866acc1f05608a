/**
 * Propellers glued into one mesh as rips and joined exports leave them: a `LPROP` and `RPROP` merged
 * into one `PROPS` (`Props`, `propellers`, `Propellers`), two engines on one wing merged (`LPROPS`),
 * two wing engines' contra-rotating pairs merged into one object, four engines' propellers in one
 * mesh — and, beside them, what must not be split sideways: a contra-rotating pair on one shaft
 * (`Contraprop`), and a two-blade propeller with no hub whose blades are separate pieces either side
 * of its shaft. Blades 2 to 4, a spinner, a hub or none; wing engines toed out and tilted up to 3° as
 * real thrust lines are, and drawn with each other's hand (mirror twins) or the same one; or one
 * engine's propeller copied across to the other, moved and not mirrored (mostly two-blade).
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { cross, normalize, transformPoint } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { addRotor, FORWARD, meshNode, tilted } from "./propellers.ts";
import { newScene } from "./fixtures.ts";
import { boxMesh } from "./surface_classes.ts";
import { revolved } from "./rotor_zoo_shapes.ts";

/** One disc the rig should rig as a part of its own: its hub centre, shaft, radius and side. */
export interface GluedTruth {
  readonly centre: Vec3;
  readonly axis: Vec3;
  readonly radius: number;
  readonly side: "left" | "right" | "centre";
}

/** A generated scene: the glued mesh's name, the discs in it, and what it is. */
export interface GluedSample {
  readonly doc: Document;
  readonly name: string;
  readonly truths: GluedTruth[];
  readonly description: string;
}

/** The variants, cycled by seed. */
export const GLUED_FAMILIES = [
  "twin",
  "one_wing",
  "twin_contra",
  "four",
  "coaxial",
  "hubless_two",
  "spinners",
  "twin_copies",
] as const;

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];

/** A fuselage, a wing and the family's propellers glued into one mesh. */
export function gluedSample(seed: number): GluedSample {
  const next = prng(seed * 7919 + 13);
  const family = GLUED_FAMILIES[seed % GLUED_FAMILIES.length];
  const scratch = newScene();
  const radius = 0.8 + 0.5 * next(), blades = 2 + Math.floor(next() * 3);
  const hub = pick(next, ["spinner", "hub", "none"] as const);
  const mirrored = next() < 0.7;
  const truths: GluedTruth[] = [];
  const draw = (centre: Vec3, axis: Vec3, hand: number, n = blades, h = hub, name = "tmp") => {
    addRotor(scratch, next, {
      name,
      kind: "propeller",
      axis,
      centre,
      radius,
      blades: n,
      pitch: 20 + 10 * next(),
      hand,
      chord: (0.12 + 0.08 * next()) * radius,
      sectionPoints: 4 + Math.floor(next() * 5),
      sections: 3 + Math.floor(next() * 3),
      storage: "one_mesh",
      hub: h,
      parent: "none",
    });
    truths.push({
      centre,
      axis,
      radius,
      side: centre[0] < -radius ? "left" : centre[0] > radius ? "right" : "centre",
    });
  };
  // World: x right (−x left), y up, −z forward.
  const engine = (
    x: number,
  ): [Vec3, Vec3] => [[x, -0.3 * next(), -1.5 - 0.3 * next()], tilted(next, FORWARD, 3)];
  let names: readonly string[], description: string, copiesAcross: number[] = [], drawn = blades;
  if (family === "twin" || family === "twin_contra") {
    const x = 2 + 2 * next();
    for (const s of [-1, 1]) {
      const [centre, axis] = engine(s * x);
      const centre2 = [
        centre[0] - axis[0] * 0.35 * radius,
        centre[1],
        centre[2] - axis[2] * 0.35 * radius,
      ] as Vec3;
      draw(centre, axis, mirrored ? s : 1);
      if (family === "twin_contra") draw(centre2, axis, mirrored ? -s : -1, blades, "none");
    }
    names = family === "twin" ? ["PROPS", "Props", "propellers", "Propellers"] : ["PROPS", "Contraprops"];
    description = family === "twin" ? "twin wing engines' propellers" : "twin wing engines' contra pairs";
  } else if (family === "one_wing") {
    const x = 2 + next();
    for (const k of [0, 1]) draw(engine(-x - k * (2.4 * radius + next()))[0], tilted(next, FORWARD, 3), 1);
    names = ["Props_Left", "left_props", "PROPS_L"];
    description = "two engines on the left wing";
  } else if (family === "four") {
    const x = 2 + next();
    for (const s of [-1, 1]) {
      for (const k of [0, 1]) {
        draw(engine(s * (x + k * (2.4 * radius + 0.5)))[0], tilted(next, FORWARD, 3), s);
      }
    }
    names = ["PROPS", "Propellers"];
    description = "four engines' propellers";
  } else if (family === "coaxial") {
    const axis = tilted(next, FORWARD, 1);
    draw([0, 0, -4.3], axis, 1, blades + 1, "spinner");
    draw([0, 0, -4.3 + 0.3 * radius], axis, -1, blades + 1, "none");
    names = ["Contraprop", "Props", "PROPS"];
    description = "a contra-rotating pair on one shaft (not to split sideways)";
  } else if (family === "twin_copies") {
    // One propeller drawn and copied across to the other engine (moved, not mirrored): the same hand,
    // the same shaft, the blades at the same angle — two-blade ones make a glued pair that turns onto
    // itself by a half turn about the centre line, as one two-blade rotor would. A third of them have
    // four engines, all four propellers copies of one; some two-blade ones are planks (one flat box).
    const four = next() < 0.33;
    let planks = false;
    const inner = 2 + 2 * next(), outer = inner + 2.4 * radius + next();
    const [centre, axis] = engine(-(four ? outer : inner));
    drawn = next() < 0.75 ? 2 : blades;
    if (drawn === 2 && next() < 0.3) {
      // A plank: a game model's two-blade propeller as one flat box, no pitch, no hub.
      meshNode(scratch, "tmp", plank(centre, axis, radius, next() * Math.PI), undefined);
      truths.push({ centre, axis, radius, side: "left" });
      planks = true;
    } else draw(centre, axis, 1, drawn);
    copiesAcross = four ? [outer - inner, outer + inner, 2 * outer] : [2 * inner];
    for (const dx of copiesAcross) {
      const x = centre[0] + dx;
      truths.push({ ...truths[0], centre: [x, centre[1], centre[2]], side: x < 0 ? "left" : "right" });
    }
    names = ["PROPS", "Props", "propellers"];
    description = `one engine's ${planks ? "plank " : ""}propeller copied to ${
      four ? "three others" : "the other"
    }`;
  } else if (family === "spinners") {
    // Two engines' spinners alone (the blades drawn apart, or blurred away), glued: round, no blades.
    const x = 2 + 2 * next(), segments = 10 + Math.floor(next() * 16), rh = 0.18 * radius;
    for (const s of [-1, 1]) {
      const [centre, axis] = engine(s * x);
      const rings: [number, number][] = [[-0.12, 1], [0.05, 0.95], [0.16, 0.6], [0.22, 0.2]];
      const spinner = revolved(centre, axis, rings.map(([a, r]) => [a * radius, r * rh]), segments);
      meshNode(scratch, "tmp", spinner, undefined);
      truths.push({ centre, axis, radius: rh, side: s < 0 ? "left" : "right" });
    }
    names = ["Prop_Spinners", "PropSpinners"];
    description = "twin wing engines' spinners";
  } else {
    draw([0, 0, -4.3], tilted(next, FORWARD, 2), 1, 2, "none");
    names = ["Props", "Propeller", "PROP"];
    description = "one two-blade propeller, no hub (not to split)";
  }
  const positions: number[] = [], triangles: number[] = [];
  for (const node of scratch.getRoot().listNodes()) {
    const matrix = node.getWorldMatrix();
    for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
      const base = positions.length / 3, position = primitive.getAttribute("POSITION")!;
      for (let i = 0; i < position.getCount(); i++) {
        positions.push(...transformPoint(matrix, position.getElement(i, [0, 0, 0]) as Vec3));
      }
      const indices = primitive.getIndices()!;
      for (let i = 0; i < indices.getCount(); i++) triangles.push(base + indices.getScalar(i));
    }
  }
  const count = positions.length / 3, corners = triangles.length;
  for (const dx of copiesAcross) {
    const base = positions.length / 3;
    for (let i = 0; i < count; i++) {
      positions.push(positions[3 * i] + dx, positions[3 * i + 1], positions[3 * i + 2]);
    }
    for (let k = 0; k < corners; k++) triangles.push(triangles[k] + base);
  }
  const doc = newScene();
  meshNode(doc, "Fuselage", boxMesh([-0.6, -0.6, -2], [0.6, 0.6, 8]), undefined);
  meshNode(doc, "Wing", boxMesh([-9, -0.1, 0], [9, 0.1, 1.5]), undefined);
  const name = pick(next, names);
  meshNode(doc, name, { positions, triangles }, undefined);
  return {
    doc,
    name,
    truths,
    description: `seed ${seed} ${family} '${name}': ${description}, ${drawn} blades, hub ${hub}`,
  };
}

/** A two-blade propeller as one flat box across `axis` at `centre`, its blades at `phase` (radians). */
function plank(
  centre: Vec3,
  axis: Vec3,
  radius: number,
  phase: number,
): { positions: number[]; triangles: number[] } {
  const helper: Vec3 = Math.abs(axis[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  const u0 = normalize(cross(axis, helper)), w0 = cross(axis, u0);
  const u = u0.map((v, k) => v * Math.cos(phase) + w0[k] * Math.sin(phase)), w = cross(axis, u as Vec3);
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    const a = (i & 1 ? 1 : -1) * radius,
      b = (i & 2 ? 1 : -1) * 0.07 * radius,
      c = (i & 4 ? 1 : -1) * 0.015 * radius;
    positions.push(...[0, 1, 2].map((k) => centre[k] + a * u[k] + b * w[k] + c * axis[k]));
  }
  const faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
  return { positions, triangles: faces.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]) };
}
