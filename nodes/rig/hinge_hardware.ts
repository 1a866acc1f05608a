/**
 * Hinge hardware modelled as objects of its own: `Flap_Bracket_1`, `Aileron_Hinge_Fitting`,
 * `FlapMount.003` — at the scene's root, under the wing, or under an empty of brackets. Name search
 * leaves such objects alone (structure words), so the panel's fit never sees them; yet a bracket that
 * sits against a panel and reaches well below (or above) its sections says the real pivot is likely
 * down there — a dropped hinge — and not along the nose the fit follows. Brackets inside the panel's
 * own subtree are part of its geometry and are judged by `hanging.ts`.
 *
 * An object counts for a panel when, between the panel's span ends, it comes within 15 % of the
 * chord of the panel's sections (it sits against it) and, near the hinge edge (from half a chord ahead
 * of it to a third of the chord behind), lies more than 5 % of the chord above or below them.
 *
 * Brackets are as often left with the modeller's default names — Blender's `Cube.012`,
 * `Cylinder.003`, 3ds Max's `Box001`, Maya's `pCube3`, Sketchfab's `Object_7`, or none. Such objects
 * count too when they are small beside the panel: no side of their box longer than its chord (the
 * box read from the accessors' bounds first, so a large unnamed model — a wing, the whole aircraft
 * in one node — is passed over without gathering its vertices). Named wings, fuselages and fairings
 * are left alone: only the default names say nothing of what an object is.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import { subtreeNodes } from "./geometry.ts";
import { gatherDrawn } from "./drawn_vertices.ts";
import { drawnBox, TRIANGLE_MODES } from "./mesh_bounds.ts";
import type { HingeFit } from "./hinge_fit.ts";
import { MARGIN } from "./hanging.ts";
import type { HingeEdge } from "./kinds.ts";
import { LineReach } from "./hardware_on_line.ts";
import { getPart, isPart } from "./part_extras.ts";
import { type Mat4, multiply, transformDirection, transformPoint, type Vec3 } from "./transform.ts";
import { tokenize } from "./vocabulary.ts";

/**
 * Name tokens (singular) of the parts a control surface's hinge is carried on. Not `track`: a flap
 * on tracks slides aft as it turns (Fowler), which no hinge line describes, and the forward-edge hinge
 * is the documented approximation for it (the demo fighter's `Flap_Track_1` runs 15 % of its flap's
 * chord below it, and the flap stays good); nor `fairing`, which also names wing-root and pylon
 * fairings.
 */
const HARDWARE_TOKENS: ReadonlySet<string> = new Set(["bracket", "fitting", "mount", "hinge"]);

/** An object of hinge hardware (or named by default, see the module doc) in the aircraft frame. */
export interface HardwareObject {
  readonly name: string;
  /** True when only its default name (`Cube.012`) lists it: it counts only when small. */
  readonly generic: boolean;
  /** Its box (local bounds, transformed): a corner and the three edges from it. */
  readonly box: { readonly corner: Vec3; readonly edges: readonly [Vec3, Vec3, Vec3] };
  /** Its vertices, gathered on first use. */
  vertices(): { readonly positions: Float64Array; readonly count: number };
}

/** Hardware beside a panel, and how far it reaches outside the panel's sections (share of its chord). */
export interface HardwareReach {
  readonly name: string;
  readonly depth: number;
}

/** Within this share of the chord of the sections an object sits against the panel. */
const TOUCH = 0.15;
/** Further than this (shares of the chord) from the sections an object is something else. */
const FAR = 1;
/**
 * Hardware about the fitted line stands outside the sections on both sides, the lesser reach more
 * than this share of the greater (a wing bracket beside a surface modelled deflected stands out
 * less on one side; a dropped hinge's bracket rising into the nose, 4–20 % as far above as below).
 */
const TWO_SIDED = 0.2;
/** Vertices of one object judged; a denser one is sampled evenly down to about this. */
const SAMPLED = 5_000;
/** A default-named object counts when no side of its box is longer than this share of the chord. */
const GENERIC_SIZE = 1;

/**
 * Names modelling tools give new objects (`Cube.012`, `Cylinder.003`, `Box001`, `pCube3`,
 * `polySurface12`, `Object_7`, `Mesh.004`), or a number or nothing at all: they say nothing of what
 * the object is.
 */
const DEFAULT_NAME =
  /^(?:cube|box|chamferbox|cylinder|sphere|uvsphere|icosphere|geosphere|plane|circle|cone|torus|tube|mesh|object|node|geometry|primitive|polysurface|pcube|pcylinder|psphere|pplane|pcone|ptorus)?(?:[ ._-]*\d+)*$/i;

/** True when a name (`Flap_Bracket_1`, `HingeFittings`, `flap-mount.003`) names hinge hardware. */
export function isHardwareName(name: string): boolean {
  return tokenize(name).some((t) =>
    HARDWARE_TOKENS.has(t.length > 4 && t.endsWith("s") ? t.slice(0, -1) : t)
  );
}

/** True when a name is a modelling tool's default for a new object (`Cube.012`, `Object_7`, ""). */
export function isDefaultName(name: string): boolean {
  return DEFAULT_NAME.test(name.trim());
}

/**
 * Every mesh node named like hinge hardware (or under a node so named, an empty of brackets) that is
 * no part, holds none and hangs under none, and every such node named by default (`Cube.012`, see
 * the module doc), in the aircraft frame. Skinned meshes are left out (they are drawn where their
 * joints put them).
 */
export function listHardware(doc: Document, toAircraft: Mat4): HardwareObject[] {
  const nodes = doc.getRoot().listNodes();
  const moving = new Set(nodes.filter(isPart).flatMap(subtreeNodes));
  const out: HardwareObject[] = [];
  for (const node of nodes) {
    if (!node.getMesh() || node.getSkin() || moving.has(node)) continue;
    const parent = node.getParentNode();
    const named = isHardwareName(node.getName())
      ? node
      : parent && isHardwareName(parent.getName())
      ? parent
      : undefined;
    const generic = !named && isDefaultName(node.getName());
    if ((!named && !generic) || subtreeNodes(node).some((n) => getPart(n))) continue;
    const box = localBox(node.getMesh()!);
    if (!box) continue;
    const matrix = multiply(toAircraft, node.getWorldMatrix());
    let gathered: { positions: Float64Array; count: number } | undefined;
    out.push({
      name: node.getName() || named?.getName() || `#${nodes.indexOf(node)}`,
      generic,
      box: {
        corner: transformPoint(matrix, box.min),
        edges: [0, 1, 2].map((k) =>
          transformDirection(matrix, [0, 1, 2].map((j) => (j === k ? box.max[j] - box.min[j] : 0)))
        ) as [Vec3, Vec3, Vec3],
      },
      // What its triangles draw: a stray vertex is no part of a bracket's shape.
      vertices: () => gathered ??= gatherDrawn(node, toAircraft, { descend: false }),
    });
  }
  return out;
}

/**
 * The bounds of a mesh's positions in its own space over what its triangles draw (`mesh_bounds.ts`
 * drawnBox; morph targets widen them by their own bounds, whatever their weights); undefined when it
 * has none. Before, the accessors' bounds: a bracket drawn out of a game rip's one vertex buffer, or
 * keeping a vertex at the origin or a guide edge, was as large as the aircraft, no small object beside
 * the panel, and a flap on a dropped hinge was judged good on its nose.
 */
function localBox(mesh: Mesh): { min: Vec3; max: Vec3 } | undefined {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const primitives = mesh.listPrimitives();
  // Lines or points beside triangles are a modeller's guides, no part of the object's shape.
  const surface = primitives.some((p) => TRIANGLE_MODES.has(p.getMode()));
  for (const primitive of primitives) {
    const position = primitive.getAttribute("POSITION");
    if (!position || position.getCount() === 0 || position.getType() !== "VEC3") continue;
    if (surface && !TRIANGLE_MODES.has(primitive.getMode())) continue;
    const drawn = drawnBox(primitive);
    if (!drawn) continue;
    const [low, high] = [drawn.min, drawn.max];
    const widen = [0, 0, 0], narrow = [0, 0, 0];
    for (const target of primitive.listTargets()) {
      const delta = target.getAttribute("POSITION");
      if (!delta || delta.getCount() === 0) continue;
      const dLow: Vec3 = [0, 0, 0], dHigh: Vec3 = [0, 0, 0];
      delta.getMinNormalized(dLow);
      delta.getMaxNormalized(dHigh);
      for (let k = 0; k < 3; k++) {
        narrow[k] += Math.min(0, dLow[k], -dHigh[k]);
        widen[k] += Math.max(0, dHigh[k], -dLow[k]);
      }
    }
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], low[k] + narrow[k]);
      max[k] = Math.max(max[k], high[k] + widen[k]);
    }
  }
  return min.every(Number.isFinite) && max.every(Number.isFinite) ? { min, max } : undefined;
}

/**
 * The hardware objects that sit against the panel and reach outside its sections near its hinge
 * edge (see the module doc), furthest first; empty when the fit has no section envelope.
 *
 * @example
 * ```ts
 * hardwareBeside(fit, "forward", listHardware(doc, toAircraft)); // [{ name: "Flap_Bracket_1", depth: 0.31 }]
 * ```
 */
export function hardwareBeside(
  fit: HingeFit,
  edge: HingeEdge,
  objects: readonly HardwareObject[],
): HardwareReach[] {
  const sections = fit.sections;
  if (!sections || !(fit.chord > 0) || edge === "quarter") return [];
  const { envelope, mean, uMin, uMax } = sections;
  const [s0, s1, s2] = fit.span, [c0, c1, c2] = fit.chordDir, [n0, n1, n2] = fit.normal;
  const [m0, m1, m2] = mean;
  const ends = 0.05 * fit.chord;
  // Chord positions (0 lead, 1 trail) near the hinge edge, where a dropped hinge's pivot hangs.
  const [hingeFrom, hingeTo] = edge === "aft" ? [0.65, 1.5] : [-0.5, 0.35];
  const found: HardwareReach[] = [];
  for (const object of objects) {
    if (object.generic && !besideAndSmall(object, fit, ends)) continue;
    const { name } = object, { positions, count } = object.vertices();
    // A default-named object counts only inside the span: at its ends it may as well be the next
    // piece of the structure (a wing tip block, the next surface), not a bracket.
    const from = object.generic ? uMin + ends : uMin - ends, to = object.generic ? uMax - ends : uMax + ends;
    let touch = Infinity, depth = 0, above = 0, below = 0;
    const reach = new LineReach(fit.origin, fit.axis, fit.normal, fit.span, mean);
    const stride = Math.max(1, Math.floor(count / SAMPLED));
    for (let i = 0; i < count; i += stride) {
      const dx = positions[i * 3] - m0, dy = positions[i * 3 + 1] - m1, dz = positions[i * 3 + 2] - m2;
      const u = dx * s0 + dy * s1 + dz * s2;
      if (!(u >= from && u <= to)) continue;
      const v = dx * c0 + dy * c1 + dz * c2, w = dx * n0 + dy * n1 + dz * n2;
      const x = envelope.chordPosition(u, v, w);
      if (!(x >= -0.5 && x <= 1.5)) continue;
      const beyond = envelope.beyond(u, v, w);
      // Ahead of the lead or behind the trail the distance along the chord counts toward touching.
      touch = Math.min(touch, Math.hypot(Math.max(0, -x, x - 1), beyond));
      reach.add(positions[i * 3], positions[i * 3 + 1], positions[i * 3 + 2], u);
      if (!(x >= hingeFrom && x <= hingeTo && beyond <= FAR)) continue;
      depth = Math.max(depth, beyond);
      if (beyond > 0) {
        if (envelope.above(u, v, w)) above = Math.max(above, beyond);
        else below = Math.max(below, beyond);
      }
    }
    if (!(touch <= TOUCH && depth > MARGIN)) continue;
    // Outside the sections on both sides, about the fitted line: the hinge's own brackets, which
    // say the line is where it turns (`hardware_on_line.ts`). Both sides: a dropped hinge's bracket
    // rising inside the nose through its centre reaches as far above the line as the skin, yet out
    // of the sections only below (at most a few hundredths of the chord above, at its corners).
    if (Math.min(above, below) > TWO_SIDED * Math.max(above, below) && reach.surrounds()) continue;
    found.push({ name, depth });
  }
  return found.sort((a, b) => b.depth - a.depth || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Whether a default-named object is small beside the panel (no side of its box longer than
 * {@link GENERIC_SIZE} chords) and its box reaches inside the panel's span ends — checked on the box,
 * before any vertex is gathered.
 */
function besideAndSmall(object: HardwareObject, fit: HingeFit, ends: number): boolean {
  const { corner, edges } = object.box;
  if (edges.some((e) => Math.hypot(e[0], e[1], e[2]) > GENERIC_SIZE * fit.chord)) return false;
  const { mean, uMin, uMax } = fit.sections!;
  const span = fit.span;
  let low = (corner[0] - mean[0]) * span[0] + (corner[1] - mean[1]) * span[1] +
    (corner[2] - mean[2]) * span[2];
  let high = low;
  for (const e of edges) {
    const along = e[0] * span[0] + e[1] * span[1] + e[2] * span[2];
    if (along < 0) low += along;
    else high += along;
  }
  return high >= uMin + ends && low <= uMax - ends;
}
