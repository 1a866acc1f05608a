/**
 * Glider airbrakes that no name tells: a Schempp-Hirth blade named only by a word any brake shares
 * (Polish `Hamulec_L`, Czech `Brzda_L`, German `Bremse_L`, `Brake_L` — a wheel's brake too) or by a
 * tool's default (`Object_23`, `Cube.004`, `pCube12`) is found by its shape, on a glider only: its
 * names say so (glider, Segelflugzeug, szybowiec, kluzák, planeur), or its wings are long and thin
 * (aspect ratio 13 or more as the fixed wing's drawn planform reads it) and nothing names an engine or
 * propeller. There a mirror-image pair of upright blades standing in the wings (`slide_blades.ts`)
 * at 35–70 % of the fixed wing's chord is rigged as named brakes are, warned. A flat plate lying on a
 * blade's outer end (its cap drawn apart, `Object_23.002`) goes with it. A wheel's brake disc (round,
 * facing the span, in the gear) is no blade and no pair.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { getPart, isPart, type PartAnnotation } from "./part_extras.ts";
import { namedPanelPart } from "./kinds.ts";
import { matchPanelName, tokenize } from "./vocabulary.ts";
import { type Mat4, multiply, type Vec3 } from "./transform.ts";
import type { FixedMeshes } from "./blade_skins.ts";
import { type BladeSlide, bladeSlide } from "./slide_blades.ts";
import { isSpinningPart } from "./spin_hinge.ts";

/** Words that name a glider (English, German, Polish, Czech, French; accents dropped). */
const GLIDER_WORDS = new Set([
  "glider",
  "sailplane",
  "segelflugzeug",
  "segler",
  "szybowiec",
  "kluzak",
  "vetron",
  "planeur",
]);

/** Words that name an engine or what an engine drives: such an aircraft is no glider by its wings. */
const ENGINE_WORDS = new Set([
  "engine",
  "motor",
  "propeller",
  "prop",
  "spinner",
  "jet",
  "turbine",
  "exhaust",
  "nacelle",
  "intake",
  "triebwerk",
  "silnik",
  "smiglo",
  "vrtule",
  "helice",
]);

/** Long thin wings: a glider's read 15–30; the fixed wing's planform (less its ailerons) reads more. */
const GLIDER_ASPECT = 13;

/** Where a blade stands along the fixed wing's chord at its span (Schempp-Hirth: 40–60 %). */
const CHORD_FROM = 0.35, CHORD_TO = 0.7;

/** A part found by its shape: the node, its annotation, and why (for the warning). */
export interface ShapeBrake {
  readonly node: Node;
  readonly part: PartAnnotation;
  readonly why: string;
}

/** A mesh node's drawn triangles in aircraft coordinates. */
interface Placed {
  readonly node: Node;
  readonly positions: Float64Array;
  readonly count: number;
  readonly triangles: Uint32Array;
  readonly lo: Vec3;
  readonly hi: Vec3;
}

/**
 * The glider airbrakes no name tells, found by shape (see the module), each with its part (kind
 * `air_brake`, `found_by: "shape"`); none on an aircraft that is not a glider.
 */
export function shapeBrakes(doc: Document, toAircraft: Mat4): ShapeBrake[] {
  const nodes = doc.getRoot().listNodes();
  const underPart = (node: Node) => {
    for (let n: Node | null = node; n; n = n.getParentNode()) if (isPart(n)) return true;
    return false;
  };
  // Unread mesh nodes only: a name that reads as a surface was the name search's to take or leave.
  const unread = nodes.filter((n) =>
    n.getMesh() && !underPart(n) && !matchPanelName(n.getName(), new Set()) && !n.getSkin()
  );
  if (unread.length < 2) return [];
  // Names first (no geometry read): a glider by name, or an engine named on an aircraft that is not.
  const gliderName = nodes.flatMap((n) => [n.getName(), n.getMesh()?.getName() ?? ""])
    .find((name) => tokenize(name).some((t) => GLIDER_WORDS.has(t)));
  const engine = nodes.find((n) =>
    isSpinningPart(getPart(n)) || tokenize(n.getName()).some((t) => ENGINE_WORDS.has(t))
  );
  if (!gliderName && engine) return [];
  // The unread nodes are read first; the rest of the aircraft only once one may be a blade (its middle
  // faces the flow: bladeSlide asks for the wing about it only then).
  let all: Placed[] | undefined;
  const allPlaced = () =>
    all ??= nodes.filter((n) => n.getMesh() && !n.getSkin() && !underPart(n))
      .map((n) => placeNode(n, toAircraft)).filter((p): p is Placed => p !== undefined);
  let halfSpan: number | undefined;
  // Meshes reaching far along the span: the wings (not a cap, nor a blade beside it).
  const wings = () => {
    const placed = allPlaced();
    halfSpan ??= Math.max(0, ...placed.map((p) => Math.max(Math.abs(p.lo[2]), Math.abs(p.hi[2]))));
    return placed.filter((p) => p.hi[2] - p.lo[2] > 0.3 * halfSpan!);
  };
  const near = (self: Node) => (centre: Vec3, reach: number): FixedMeshes =>
    wings().filter((p) =>
      p.node !== self && [0, 1, 2].every((k) => p.lo[k] <= centre[k] + reach && p.hi[k] >= centre[k] - reach)
    );
  let known: { why?: string } | undefined;
  const evidence = () =>
    (known ??= { why: gliderName ? `named '${gliderName}'` : gliderByWings(allPlaced()) }).why;
  const own = unread.map((n) => placeNode(n, toAircraft)).filter((p): p is Placed => p !== undefined);
  const blades: { placed: Placed; slide: BladeSlide; chordAt: number }[] = [];
  for (const p of own) {
    // A blade with its cap as a child (`Object_23` > `Object_23.001`) is read whole, as a named one is.
    const tree = p.node.listChildren().length ? placeTree(p.node, toAircraft) ?? p : p;
    const slide = bladeSlide(p.node.getName(), tree, near(p.node), { glider: evidence });
    if (!slide) continue;
    const chordAt = chordFraction(tree, wings().filter((q) => q.node !== p.node));
    if (chordAt === undefined || chordAt < CHORD_FROM || chordAt > CHORD_TO) continue;
    blades.push({ placed: tree, slide, chordAt });
  }
  if (blades.length < 2) return [];
  const glider = evidence();
  if (!glider) return [];
  // Mirror-image pairs: a blade's twin lies across the centre line, the same size and place within a
  // tenth of its span.
  const out: ShapeBrake[] = [];
  const paired = new Set<Placed>();
  for (const a of blades) {
    const twin = blades.find((b) =>
      b !== a && !paired.has(b.placed) && b.slide.surface === a.slide.surface && mirrorOf(a.placed, b.placed)
    );
    if (!twin || paired.has(a.placed)) continue;
    paired.add(a.placed), paired.add(twin.placed);
  }
  for (const b of blades) {
    if (!paired.has(b.placed)) continue;
    const why = `found by its shape on a glider (${glider}): one of a mirror-image pair of upright blades ` +
      `standing in the wings at ${
        Math.round(100 * b.chordAt)
      } % of the chord, as Schempp-Hirth airbrakes stand`;
    out.push({ node: b.placed.node, part: { ...namedPanelPart("air_brake"), found_by: "shape" }, why });
    // Its cap drawn apart: an unread flat plate lying over the blade's outer end.
    for (const c of own) {
      if (out.some((o) => o.node === c.node) || within(c.node, blades)) continue;
      if (!capsBlade(c, b.placed, b.slide)) continue;
      out.push({
        node: c.node,
        part: { ...namedPanelPart("air_brake"), found_by: "shape" },
        why: `found by its shape: a plate on the outer end of the blade '${b.placed.node.getName()}'`,
      });
    }
  }
  return out;
}

/** Whether `node` is one of the blades or under one (a child cap slides with its blade as drawn). */
function within(node: Node, blades: readonly { placed: Placed }[]): boolean {
  for (let n: Node | null = node; n; n = n.getParentNode()) {
    if (blades.some((b) => b.placed.node === n)) return true;
  }
  return false;
}

/**
 * Why the aircraft is a glider — a node or mesh named so, or, with no engine or propeller named, wings
 * of aspect ratio 13 or more as drawn — else undefined.
 */
export function gliderEvidence(doc: Document, toAircraft: Mat4): string | undefined {
  const nodes = doc.getRoot().listNodes();
  const gliderName = nodes.flatMap((n) => [n.getName(), n.getMesh()?.getName() ?? ""])
    .find((name) => tokenize(name).some((t) => GLIDER_WORDS.has(t)));
  if (gliderName) return `named '${gliderName}'`;
  const engine = nodes.some((n) =>
    isSpinningPart(getPart(n)) || tokenize(n.getName()).some((t) => ENGINE_WORDS.has(t))
  );
  if (engine) return undefined;
  const placed = nodes.filter((n) => n.getMesh() && !n.getSkin())
    .map((n) => placeNode(n, toAircraft)).filter((p): p is Placed => p !== undefined);
  return gliderByWings(placed);
}

/** Why an aircraft no name calls a glider and none names an engine is one: its long thin wings. */
function gliderByWings(placed: readonly Placed[]): string | undefined {
  const aspect = wingAspect(placed);
  return aspect !== undefined && aspect >= GLIDER_ASPECT
    ? `wings of aspect ratio ${aspect.toFixed(0)} and no engine`
    : undefined;
}

/**
 * The wing's aspect ratio as drawn: span squared over the planform of the meshes reaching 40 % of
 * the half span or more along it (the wings; half their faces' plan area, the upper and lower skins).
 */
function wingAspect(placed: readonly Placed[]): number | undefined {
  const half = Math.max(0, ...placed.map((p) => Math.max(Math.abs(p.lo[2]), Math.abs(p.hi[2]))));
  if (!(half > 0)) return undefined;
  const wings = placed.filter((p) => p.hi[2] - p.lo[2] >= 0.4 * half);
  if (wings.length === 0) return undefined;
  let area = 0;
  for (const w of wings) {
    const p = w.positions, t = w.triangles;
    for (let i = 0; i + 2 < t.length; i += 3) {
      const a = 3 * t[i], b = 3 * t[i + 1], c = 3 * t[i + 2];
      // The plan (aft, span) area of the triangle: its normal's up component.
      area += Math.abs((p[b + 2] - p[a + 2]) * (p[c] - p[a]) - (p[b] - p[a]) * (p[c + 2] - p[a + 2])) / 4;
    }
  }
  const span = Math.max(...wings.map((w) => w.hi[2])) - Math.min(...wings.map((w) => w.lo[2]));
  return area > 0 ? span * span / area : undefined;
}

/** Where a blade's middle lies along the chord of the wing meshes at its mid-span (0 nose, 1 tail). */
function chordFraction(blade: Placed, wings: readonly Placed[]): number | undefined {
  const z = (blade.lo[2] + blade.hi[2]) / 2, x = (blade.lo[0] + blade.hi[0]) / 2;
  const y = (blade.lo[1] + blade.hi[1]) / 2, height = blade.hi[1] - blade.lo[1];
  let lead = Infinity, trail = -Infinity;
  for (const w of wings) {
    if (w.lo[2] > z || w.hi[2] < z) continue;
    const p = w.positions, t = w.triangles;
    for (let i = 0; i + 2 < t.length; i += 3) {
      const a = 3 * t[i], b = 3 * t[i + 1], c = 3 * t[i + 2];
      const zs = [p[a + 2], p[b + 2], p[c + 2]];
      if (Math.min(...zs) > z || Math.max(...zs) < z) continue;
      const ys = [p[a + 1], p[b + 1], p[c + 1]];
      // The wing's section through the blade: near its height (not a tailplane far above).
      if (Math.min(...ys) > y + 4 * height || Math.max(...ys) < y - 4 * height) continue;
      // Where the triangle's edges cross the section's plane (a wing lofted root to tip has no vertex there).
      for (const [u, v] of [[a, b], [b, c], [c, a]]) {
        const du = p[u + 2] - z, dv = p[v + 2] - z;
        if (du * dv > 0 || du === dv) continue;
        const at = p[u] + (p[v] - p[u]) * du / (du - dv);
        lead = Math.min(lead, at), trail = Math.max(trail, at);
      }
    }
  }
  return trail > lead ? (x - lead) / (trail - lead) : undefined;
}

/** Whether `b` is `a` mirrored across the centre line (aft, up, span ends within a tenth of its span). */
function mirrorOf(a: Placed, b: Placed): boolean {
  const tol = 0.1 * (a.hi[2] - a.lo[2]);
  return Math.abs(a.lo[0] - b.lo[0]) <= tol && Math.abs(a.hi[0] - b.hi[0]) <= tol &&
    Math.abs(a.lo[1] - b.lo[1]) <= tol && Math.abs(a.hi[1] - b.hi[1]) <= tol &&
    Math.abs(a.lo[2] + b.hi[2]) <= tol && Math.abs(a.hi[2] + b.lo[2]) <= tol;
}

/** Whether flat `plate` lies over `blade` in plan and on its outer end (as `slide_caps.ts` reads a cap). */
function capsBlade(plate: Placed, blade: Placed, slide: BladeSlide): boolean {
  const overSpan = Math.min(plate.hi[2], blade.hi[2]) - Math.max(plate.lo[2], blade.lo[2]);
  if (overSpan < 0.5 * (plate.hi[2] - plate.lo[2])) return false;
  const x = (blade.lo[0] + blade.hi[0]) / 2;
  if (x < plate.lo[0] || x > plate.hi[0]) return false;
  const thick = plate.hi[1] - plate.lo[1], tol = 0.2 * slide.height + 0.1 * thick;
  if (thick > 0.5 * slide.height + 0.1 * (plate.hi[2] - plate.lo[2])) return false;
  const end = slide.direction[1] > 0 ? blade.hi[1] : blade.lo[1];
  return (end >= plate.lo[1] - tol && end <= plate.hi[1] + tol);
}

/** A node's own mesh's triangles placed in aircraft coordinates; undefined without triangles. */
function placeNode(node: Node, toAircraft: Mat4): Placed | undefined {
  return placeMeshes(node, [node], toAircraft);
}

/** A node's and its descendants' meshes placed in aircraft coordinates, as one. */
function placeTree(node: Node, toAircraft: Mat4): Placed | undefined {
  const all: Node[] = [];
  const visit = (n: Node) => (all.push(n), n.listChildren().forEach(visit));
  visit(node);
  return placeMeshes(node, all.filter((n) => n.getMesh() && !n.getSkin()), toAircraft);
}

/** `drawing`'s meshes' triangles placed in aircraft coordinates, as `node`'s; undefined without any. */
function placeMeshes(node: Node, drawing: readonly Node[], toAircraft: Mat4): Placed | undefined {
  const positions: number[] = [], triangles: number[] = [];
  for (
    const [matrix, primitive] of drawing.flatMap((n) => {
      const m = multiply(toAircraft, n.getWorldMatrix());
      return (n.getMesh()?.listPrimitives() ?? []).map((p) => [m, p] as const);
    })
  ) {
    const position = primitive.getAttribute("POSITION");
    if (!position || (primitive.getMode() !== 4)) continue;
    const base = positions.length / 3, count = position.getCount(), v = [0, 0, 0];
    for (let i = 0; i < count; i++) {
      position.getElement(i, v);
      for (let k = 0; k < 3; k++) {
        positions.push(matrix[k] * v[0] + matrix[4 + k] * v[1] + matrix[8 + k] * v[2] + matrix[12 + k]);
      }
    }
    const indices = primitive.getIndices();
    const n = indices ? indices.getCount() : count;
    for (let i = 0; i + 2 < n; i += 3) {
      for (let j = 0; j < 3; j++) triangles.push(base + (indices ? indices.getScalar(i + j) : i + j));
    }
  }
  const count = positions.length / 3;
  if (triangles.length < 3 || !positions.every(Number.isFinite)) return undefined;
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], positions[3 * i + k]), hi[k] = Math.max(hi[k], positions[3 * i + k]);
    }
  }
  return {
    node,
    positions: Float64Array.from(positions),
    count,
    triangles: Uint32Array.from(triangles),
    lo,
    hi,
  };
}
