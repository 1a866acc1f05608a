/**
 * Aircraft exported with their control surfaces posed, as showcase models (Sketchfab, a game's
 * screenshot pose) are: flaps down, all-moving canards and stabilators turned, the pose baked into
 * the meshes and no partgraph extras. {@link posedAircraft} draws the aircraft at rest: a fuselage,
 * all-moving canards (whole airfoils, no fixed surface ahead), a wing with flaps (real airfoil
 * sections, a cove, the true hinge from the construction) and a tail of stabilators (odd samples:
 * all-moving, no tailplane) or elevators behind a fixed stabiliser (even samples). {@link posed} turns
 * chosen panels about given lines, as the modeller posed them. An all-moving surface's shaft is a
 * convention (quarter chord, square to the flow), so a test takes it from the rig of the same
 * aircraft at rest and asks the posed one for the same shaft. Aircraft coordinates (aft, up, left);
 * deterministic from a seed.
 *
 * @module
 */
import type { Vec3 } from "../../../nodes/rig/transform.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import {
  type ClassMesh,
  type ClassPanel,
  type ClassSample,
  FUSELAGE,
  joined,
  mirroredPair,
} from "./surface_classes.ts";

/** Deflections of a pose, degrees (trailing edge down positive). */
export interface Pose {
  /** The flaps, turned about their true hinges (0: at rest). */
  readonly flap?: number;
  /** The tail's elevators behind a fixed stabiliser (even samples). */
  readonly elevator?: number;
}

/** A posed aircraft at rest, and which of its panels are all-moving (their shaft a convention). */
export interface PosedSample extends ClassSample {
  /** Names of the all-moving panels (canards, stabilators). */
  readonly allMoving: readonly string[];
}

const shift = (d: Vec3) => (p: Vec3): Vec3 => [p[0] + d[0], p[1] + d[1], p[2] + d[2]];

/** A whole all-moving surface: the airfoil's movable part and the part ahead of it, one object. */
function wholeSurface(
  pair: Pick<ClassSample, "panels" | "fixed">,
  kind: string,
): ClassPanel[] {
  return pair.panels.map((panel, i) => ({
    name: panel.name,
    kind,
    side: panel.side,
    mesh: joined([panel.mesh, pair.fixed[i].mesh]),
  }));
}

/**
 * An aircraft whose surfaces a modeller may pose (see the module): canards `Canard_L`/`_R`, flaps
 * `Flap_L`/`_R` on `Wing_L`/`_R`, and `Elevator_L`/`_R` (all-moving on odd samples). The flaps and
 * elevators are modelled at `pose`'s deflections about their true hinges; the all-moving surfaces
 * at rest (turn them with {@link posed}).
 */
export function posedAircraft(next: () => number, index: number, pose: Pose = {}): PosedSample {
  const fore = airfoilSurface(next, { sweep: [15, 45] });
  const wing = airfoilSurface(next, { sweep: [-5, 35], deflection: pose.flap ?? 0 });
  const stabilators = index % 2 === 1;
  const tail = airfoilSurface(next, {
    sweep: [15, 45],
    deflection: stabilators ? 0 : pose.elevator ?? 0,
  });
  const canards = wholeSurface(
    mirroredPair(
      fore,
      shift([-2.5 - fore.origin[0], 0.1 - fore.origin[1], 0]),
      ["Canard_L", "Canard_R"],
      "canard",
      "Fore",
    ),
    "canard",
  );
  const flaps = mirroredPair(
    wing,
    shift([5 - wing.origin[0], -0.2 - wing.origin[1], 0]),
    ["Flap_L", "Flap_R"],
    "flap",
    "Wing",
  );
  const tailPair = mirroredPair(
    tail,
    shift([9.5 - tail.origin[0], 0.3 - tail.origin[1], 0]),
    ["Elevator_L", "Elevator_R"],
    "elevator",
    "Stabiliser",
  );
  const elevators = stabilators ? wholeSurface(tailPair, "elevator") : tailPair.panels;
  return {
    panels: [...canards, ...flaps.panels, ...elevators],
    fixed: [FUSELAGE, ...flaps.fixed, ...(stabilators ? [] : tailPair.fixed)],
    allMoving: [...canards.map((p) => p.name), ...(stabilators ? elevators.map((p) => p.name) : [])],
    description: `${stabilators ? "stabilators" : "elevators"}; canards ${fore.description}; ` +
      `flaps ${wing.description}; tail ${tail.description}`,
  };
}

/** A line to turn about: a point and a unit direction, aircraft coordinates. */
export interface Line {
  readonly origin: Vec3;
  readonly axis: Vec3;
}

/** `mesh` turned by `degrees` about `line` (right-handed about its axis). */
export function turnedAbout(mesh: ClassMesh, line: Line, degrees: number): ClassMesh {
  const a = degrees * Math.PI / 180, c = Math.cos(a), s = Math.sin(a);
  const [x, y, z] = line.axis;
  const positions: number[] = [];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    const d = [0, 1, 2].map((k) => mesh.positions[i + k] - line.origin[k]);
    const dot = d[0] * x + d[1] * y + d[2] * z;
    const cr = [y * d[2] - z * d[1], z * d[0] - x * d[2], x * d[1] - y * d[0]];
    // Rodrigues' rotation.
    for (let k = 0; k < 3; k++) {
      positions.push(line.origin[k] + d[k] * c + cr[k] * s + line.axis[k] * dot * (1 - c));
    }
  }
  return { positions, triangles: mesh.triangles };
}

/** The sample with each panel named in `turns` turned about its line by its degrees. */
export function posed<T extends ClassSample>(
  sample: T,
  turns: ReadonlyMap<string, { line: Line; degrees: number }>,
): T {
  return {
    ...sample,
    panels: sample.panels.map((panel) => {
      const turn = turns.get(panel.name);
      return turn ? { ...panel, mesh: turnedAbout(panel.mesh, turn.line, turn.degrees) } : panel;
    }),
  };
}
