/**
 * Pieces of one surface: a control surface exported as several objects that each read as the
 * panel — split by material (Blender's "separate by material", `Aileron_L` and `Aileron_L.001`; a
 * game rip's per-material submeshes, `aileron_l_0` and `aileron_l_1`; Sketchfab's
 * `Aileron_L_Paint_0` and `Aileron_L_Metal_0` flattened to the root), or into upper and lower skins.
 * Each piece alone is no whole surface: a skin's forward edge lies a quarter of the nose's thickness
 * off the hinge, a body without its leading-edge strip hinges where the strip was cut off, an end
 * cap is a flat rib — fitted alone they were 10–40 % of chord off, many judged `good`. Pieces of one
 * kind lying over each other (sharing most of their span, touching across it) whose own hinges
 * disagree are fitted as one surface, the union of their triangles, and every piece turns about that
 * hinge. Pieces whose own hinges agree (level-of-detail or damage-state copies drawn at one place,
 * `Aileron_L_LOD1`, `AroneL_D1`) keep their own fits, as before. Split drag rudders, whose halves open
 * apart, are paired by `split_halves.ts`; air brakes, which may open apart too, are left alone.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { HingeFit } from "./hinge_fit.ts";
import { type PanelGeometry, unionGeometry } from "./split_halves.ts";
import { cross, dot, length, sub, type Vec3 } from "./transform.ts";
import { sideFromName } from "./vocabulary.ts";
import { wordsAround } from "./file_words.ts";
import { BoxGrid } from "./box_grid.ts";

/** Kinds whose pieces are not one rigid surface: split halves that open apart. */
const OPEN_APART: ReadonlySet<string> = new Set(["drag_rudder", "air_brake"]);

/** A piece's own hinge and the whole surface's agree within this angle (degrees)… */
export const PIECE_AGREE_DEGREES = 2;
/** …and this share of the whole surface's chord, at both ends of the piece's span. */
export const PIECE_AGREE_CHORD = 0.05;

/**
 * A surface split by material or into skins is a few pieces; a larger group (hundreds of panels
 * drawing one mesh at overlapping places, a hostile file) is left as fitted, so no union of them
 * all is gathered.
 */
export const MAX_PIECES = 8;

/** An aircraft-frame box around a panel's vertices. */
export interface Box {
  readonly lo: Vec3;
  readonly hi: Vec3;
}

/** The box around a panel's gathered vertices (aircraft frame). */
export function boxOf(geometry: PanelGeometry): Box {
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  const p = geometry.positions;
  for (let i = 0; i < geometry.count * 3; i += 3) {
    for (let k = 0; k < 3; k++) {
      if (p[i + k] < lo[k]) lo[k] = p[i + k];
      if (p[i + k] > hi[k]) hi[k] = p[i + k];
    }
  }
  return { lo, hi };
}

/**
 * Groups of two or more panels that may be pieces of one surface: of one kind (not one that opens
 * apart), no side names disagreeing, their boxes touching on every axis (within 5 % of the larger
 * chord) and sharing at least half of the shorter one's extent along the span (so segments side by
 * side along one hinge — an airliner's flaps — are no pieces of each other, while an end cap, flat
 * along the span, lies within its surface's), and not mirror images canted apart (a V-tail's pair).
 * Linked pairs join transitively; order follows `nodes`.
 */
export function pieceGroups(
  nodes: readonly Node[],
  fitOf: (node: Node) => HingeFit,
  boxOf: (node: Node) => Box,
  kindOf: (node: Node) => string,
): Node[][] {
  const root = new Map<Node, Node>(nodes.map((n) => [n, n]));
  const find = (n: Node): Node => {
    while (root.get(n) !== n) n = root.get(n)!;
    return n;
  };
  // Read once each: the pairs are quadratic in the panels. With the file's words (`Klapa_P` beside
  // `Klapa_L` is right: no piece of the left flap it touches across the centre line).
  const words = wordsAround(nodes);
  const kinds = nodes.map(kindOf), sides = nodes.map((n) => sideFromName(n.getName(), words));
  forNearPairs(nodes.map(boxOf), nodes.map((n) => fitOf(n).chord), (i, j) => {
    if (OPEN_APART.has(kinds[i])) return;
    if (kinds[i] !== kinds[j] || (sides[i] && sides[j] && sides[i] !== sides[j])) return;
    const [a, b] = [nodes[i], nodes[j]];
    // The boxes first: most pairs lie apart, told by a few subtractions (two angles' arc cosines
    // for every pair were a tenth of 20,000 small panels' hinge fit).
    if (!liesOver(fitOf(a), boxOf(a), fitOf(b), boxOf(b))) return;
    if (!mirrorImages(fitOf(a), fitOf(b))) root.set(find(b), find(a));
  });
  const groups = new Map<Node, Node[]>();
  for (const n of nodes) {
    const r = find(n);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(n);
  }
  return [...groups.values()].filter((g) => g.length > 1 && g.length <= MAX_PIECES);
}

/**
 * Visits the pairs (i, j), i < j, of `boxes` that {@link liesOver} may link: those whose boxes come
 * within a twentieth of the largest chord of each other on every axis, found in a grid of the boxes
 * (`box_grid.ts`) — the rest of the pairs (of 20,000 small panels, 2·10⁸) are never looked at. A sweep
 * along x alone tried every pair sharing an x: 20,000 panels in rows of 100 made 2·10⁶ tries, ten times
 * as many a panel as 2,000 did. When a box or a chord is not finite no grid holds them all: sorted by
 * lowest x (every pair when an x or a chord is not finite). Which pairs link, and so the groups, do not
 * depend on the order they come in.
 */
function forNearPairs(
  boxes: readonly Box[],
  chords: readonly number[],
  visit: (i: number, j: number) => void,
): void {
  let reach = 0, finite = true;
  // A loop, not Math.max(...chords): a spread of many panels' chords can overflow the stack.
  for (const chord of chords) finite &&= Number.isFinite(chord), reach = Math.max(reach, 0.05 * chord);
  let allFinite = finite;
  for (const box of boxes) {
    finite &&= Number.isFinite(box.lo[0]) && Number.isFinite(box.hi[0]);
    allFinite &&= box.lo.every(Number.isFinite) && box.hi.every(Number.isFinite);
  }
  if (allFinite) return gridPairs(boxes, reach, visit);
  if (!finite) {
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) visit(i, j);
    return;
  }
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a].lo[0] - boxes[b].lo[0] || a - b);
  for (let p = 0; p < order.length; p++) {
    const i = order[p];
    for (let q = p + 1; q < order.length; q++) {
      const j = order[q];
      if (boxes[j].lo[0] - boxes[i].hi[0] > reach) break;
      if (i < j) visit(i, j);
      else visit(j, i);
    }
  }
}

/**
 * {@link forNearPairs} over finite boxes: each box asks a grid for those reaching a cube around it
 * grown by `reach` (a little more, so rounding loses no pair at the edge), and visits the later ones
 * that come within `reach` on every axis, as {@link liesOver} measures it.
 */
function gridPairs(boxes: readonly Box[], reach: number, visit: (i: number, j: number) => void): void {
  const grid = new BoxGrid(boxes.map((b) => ({ min: b.lo, max: b.hi })));
  for (let i = 0; i < boxes.length; i++) {
    const { lo, hi } = boxes[i];
    const centre: Vec3 = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2) as Vec3;
    const half = Math.max(...[0, 1, 2].map((k) => (hi[k] - lo[k]) / 2)) + reach;
    const far = Math.max(...lo.map(Math.abs), ...hi.map(Math.abs));
    for (const j of grid.reaching({ centre, reach: half + 1e-9 * (half + far) })) {
      if (j <= i) continue;
      const b = boxes[j];
      let near = true;
      for (let k = 0; k < 3 && near; k++) {
        near = Math.min(hi[k], b.hi[k]) - Math.max(lo[k], b.lo[k]) >= -reach;
      }
      if (near) visit(i, j);
    }
  }
}

/** Spans of mirror images differ by more than this (degrees)… */
const MIRROR_APART_DEGREES = 20;
/** …and one's span mirrored across the centre plane lies within this of the other's. */
const MIRROR_MATCH_DEGREES = 10;

/**
 * True when two panels are mirror images canted apart (a V-tail's two surfaces, or a dihedral pair
 * whose roots cross the centre plane): one's span mirrored left for right is the other's, and the two
 * spans differ. Their boxes overlap about the root, but they are two surfaces, each turning about its
 * own line: joined, the pair fitted one upright line on the centre plane and both were sided centre
 * (unnamed V-tails, fin_sides_tally.ts). Pieces of one surface share its span direction.
 */
function mirrorImages(fa: HingeFit, fb: HingeFit): boolean {
  const degrees = (u: Vec3, v: Vec3) =>
    Math.acos(Math.min(1, Math.abs(dot(u, v)) / (length(u) * length(v) || 1))) * 180 / Math.PI;
  const mirrored: Vec3 = [fa.span[0], fa.span[1], -fa.span[2]];
  return degrees(fa.span, fb.span) > MIRROR_APART_DEGREES &&
    degrees(mirrored, fb.span) <= MIRROR_MATCH_DEGREES;
}

function liesOver(fa: HingeFit, a: Box, fb: HingeFit, b: Box): boolean {
  const tolerance = 0.05 * Math.max(fa.chord, fb.chord);
  const overlap = (k: number) => Math.min(a.hi[k], b.hi[k]) - Math.max(a.lo[k], b.lo[k]);
  for (let k = 0; k < 3; k++) if (overlap(k) < -tolerance) return false;
  // Along the span of the longer piece (its own span direction's largest aircraft axis).
  const span = (fa.spanLength >= fb.spanLength ? fa : fb).span;
  const k = [0, 1, 2].reduce((m, j) => Math.abs(span[j]) > Math.abs(span[m]) ? j : m, 0);
  const shorter = Math.min(a.hi[k] - a.lo[k], b.hi[k] - b.lo[k]);
  return overlap(k) >= 0.5 * shorter - tolerance;
}

/** All pieces' geometry as one (positions appended, triangles renumbered). */
export function unionOfPieces(pieces: readonly PanelGeometry[]): PanelGeometry {
  return pieces.slice(1).reduce((sum, piece) => unionGeometry(sum, piece), pieces[0]);
}

/**
 * True when a piece's own hinge agrees with the whole surface's: within {@link PIECE_AGREE_DEGREES}
 * and, at both ends of the piece's span, {@link PIECE_AGREE_CHORD} of the whole's chord.
 */
export function agreesWithWhole(piece: HingeFit, whole: HingeFit): boolean {
  const degrees = Math.acos(Math.min(1, Math.abs(dot(piece.axis, whole.axis)))) * 180 / Math.PI;
  if (!(degrees <= PIECE_AGREE_DEGREES)) return false;
  return [-0.5, 0.5].every((f) => {
    const end = [0, 1, 2].map((k) => piece.origin[k] + piece.axis[k] * f * piece.spanLength) as Vec3;
    return length(cross(sub(end, whole.origin), whole.axis)) <= PIECE_AGREE_CHORD * whole.chord;
  });
}

/**
 * A piece's fit on the whole surface's hinge: the whole's line, measures and far edge (so every
 * piece is signed alike, as one rigid surface); the piece keeps its own centre and lateral extent,
 * so it sides by its own place.
 */
export function onWholeSurface(piece: HingeFit, whole: HingeFit): HingeFit {
  return { ...whole, centre: piece.centre, lateral: piece.lateral };
}
