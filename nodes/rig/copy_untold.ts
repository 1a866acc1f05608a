/**
 * Aircraft the rig cannot tell apart (`copies.ts`): names showing several aircraft — each panel named
 * twice or more, however each spells its side (`Aileron_L` beside `aileron.l`), or copies found whose
 * boxes neither lie apart nor coincide — where neither names nor places say which object is whose:
 * aircraft parked wing over wing (tips overlapping), two types drawn over each other. Sided about one
 * centre line, every aircraft but the one on it takes the wrong side for half its panels, silently; the
 * rig says so instead (`rig.assign_side` warns, naming the panels, and judges them weak).
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { defaultSceneNodes } from "./scene_order.ts";
import type { Mat4 } from "./transform.ts";
import { findCopies, type ModelCopy, panelKey, signature, wholeTwoSided } from "./copies.ts";
import { apartAlong, centreLinesOf, pairedCentre, pairedMiddles } from "./copy_centres.ts";
import { readingFile, sidedName } from "./copy_names.ts";
import { sceneWords } from "./file_words.ts";
import type { FileWords } from "./vocabulary.ts";
import { type Bounds, type BoundsCache, meshBounds } from "./mesh_bounds.ts";
import { touchingCentres } from "./copy_touching.ts";
import { sceneChanges } from "./copy_memo.ts";

/** How far copies' centre lines may lie apart, as a fraction of the scene's width, and still be one. */
const ONE_LINE = 0.05;

/**
 * The panels of several aircraft in `doc` that names and places cannot tell apart (see the module doc),
 * in the scene's order, read in the aircraft frame `toAircraft`; undefined when the scene holds one
 * aircraft, or its aircraft are told apart (lying apart, or copies drawn at one place whose left and right
 * pairs share one centre line, which serves them all). A panel whose own aircraft's centre line the
 * geometry tells (`copy_touching.ts`) is told.
 */
export function untoldAircraft(doc: Document, toAircraft: Mat4): Node[] | undefined {
  const groups = readGroups(doc, toAircraft, findCopies(doc), sceneWords(doc))?.filter((g) => g.several);
  if (!groups) return undefined;
  const untold = groups.flatMap((g) => g.panels.filter((n) => !g.lines.has(n)));
  return untold.length ? untold : undefined;
}

/**
 * Per node, the lateral position (aircraft frame, +left) of its aircraft's centre line: a copy's laid
 * apart (`copy_centres.ts` copyCentreLines), or, among aircraft touching, its own where the geometry tells it
 * (`copy_touching.ts`); undefined when the scene's one centre line serves every node.
 */
export function aircraftCentreLines(doc: Document, toAircraft: Mat4): Map<Node, number> | undefined {
  // The copies and the file's words once for both looks: each reads every node of the scene.
  const copies = findCopies(doc), words = sceneWords(doc);
  let out = centreLinesOf(copies, words, toAircraft);
  for (const group of readGroups(doc, toAircraft, copies, words) ?? []) {
    for (const [node, line] of group.lines) {
      // One aircraft after all: its own objects keep their centre line, objects in no copy take its.
      if (group.several || group.loose?.has(node)) (out ??= new Map()).set(node, line);
    }
  }
  return out;
}

/**
 * The untold groups with the centre lines their shape tells (`copy_touching.ts`). A group found only by
 * its panels' kinds repeating, or a copy told apart, is one aircraft after all unless its shape shows two
 * lines or more (an airliner's inner and outer ailerons and elevators are no second aircraft): its lines
 * serve only its `loose` objects, in no copy. Names are read with the file's others (`file_words.ts`).
 */
function readGroups(doc: Document, toAircraft: Mat4, copies: Copies, words: FileWords) {
  // Asked twice a node (the centre lines, the untold panels) of a scene changed between only by the
  // rig's records: read once while nothing they read changed (`copy_memo.ts` sceneChanges).
  const count = sceneChanges(doc), at = matrixKey(toAircraft), kept = groupsKept.get(doc);
  if (kept && kept.count === count && kept.at === at) return kept.groups;
  const groups = readingFile(words, () => groupsRead(doc, toAircraft, copies));
  groupsKept.set(doc, { count, at, groups });
  return groups;
}

/** Per scene, its last groups read, with the change count and aircraft frame they were read at. */
const groupsKept = new WeakMap<
  Document,
  { count: number; at: string; groups: ReturnType<typeof groupsRead> }
>();

/** A frame as a key, `-0` apart from `0` (a mirrored axis's sign reaches the boxes). */
function matrixKey(m: Mat4): string {
  return Array.from(m, (v) => Object.is(v, -0) ? "-0" : String(v)).join(",");
}

/** The copies `findCopies` found in the scene, or none. */
type Copies = readonly ModelCopy[] | undefined;

function groupsRead(doc: Document, toAircraft: Mat4, copies: Copies) {
  const groups = untoldGroups(doc, toAircraft, copies)?.map((g) => {
    const lines = touchingCentres(g.nodes, toAircraft);
    return { ...g, lines, several: !g.shapeDecides || new Set(lines.values()).size >= 2 };
  });
  return groups?.length ? groups : undefined;
}

/**
 * Several aircraft's nodes that names and places cannot tell apart, and their panels, per group;
 * `shapeDecides` where the group is several aircraft only if its shape shows two centre lines or more
 * (found by panels' kinds alone, or a copy told apart).
 */
function untoldGroups(
  doc: Document,
  toAircraft: Mat4,
  copies: Copies,
):
  | { nodes: ReadonlySet<Node>; panels: Node[]; shapeDecides?: boolean; loose?: ReadonlySet<Node> }[]
  | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return undefined;
  const nodes = defaultSceneNodes(doc);
  const panels = nodes.filter((n) => panelKey(n.getName()) !== null);
  // Touching aircraft standing apart from the others (`copy_places.ts`): only theirs are in doubt.
  const touching = copies?.filter((c) => c.untold) ?? [];
  if (touching.length) {
    return touching.map((c) => ({
      nodes: c.nodes,
      panels: panels.filter((n) => c.nodes.has(n)),
      shapeDecides: c.untold === "kinds",
    }));
  }
  if (copies) {
    const cache: BoundsCache = new Map();
    const boxes = copies.map((c) => meshBounds(c.nodes, toAircraft, cache));
    const drawn = boxes.filter((b): b is Bounds => !!b);
    const apart = drawn.some((a, i) =>
      drawn.some((b, j) => j > i && [0, 1, 2].some((k) => apartAlong(a, b, k)))
    );
    // Copies at one place (levels of detail, a damaged copy missing a wing) share one centre line: told,
    // when each copy's left and right pairs agree on it (a copy mixing aircraft's objects, read by the
    // names' order, has pairs across two aircraft) and the copies agree with each other.
    const whole = meshBounds(nodes, toAircraft, cache);
    const band = ONE_LINE * (whole ? whole.max[2] - whole.min[2] : 0);
    const spread = (xs: readonly number[]) => Math.max(...xs) - Math.min(...xs);
    const middles = copies.map((c) => pairedMiddles(c.nodes, toAircraft, cache));
    const centres = copies.flatMap((c, i) => {
      const box = boxes[i];
      const centre = pairedCentre(c.nodes, toAircraft, cache) ?? (box && (box.min[2] + box.max[2]) / 2);
      return centre === undefined ? [] : [centre];
    });
    const oneLine = middles.every((m) => !m.length || spread(m) <= band) && spread(centres) <= band;
    // Told copies may each hold several aircraft all the same (copies by the names' order, where a
    // second modeller's names come once: theirs lie in the first copy): where a copy's shape shows two
    // centre lines or more, they are its aircraft's. An object in no copy (a third `Rudder`, its
    // aircraft's others named once) is read with each, for a line to stand on; never warned of.
    if (apart || oneLine) {
      const held = new Set(copies.flatMap((c) => [...c.nodes]));
      const loose = new Set(nodes.filter((n) => !held.has(n)));
      return copies.map((c) => ({
        nodes: new Set([...c.nodes, ...loose]),
        panels: panels.filter((n) => c.nodes.has(n)),
        shapeDecides: true,
        loose,
      }));
    }
    const held = new Set(copies.flatMap((c) => [...c.nodes]));
    // Objects in no copy are read with them for their lines (never warned of).
    return [{ nodes: new Set(nodes), panels: panels.filter((n) => held.has(n)) }];
  }
  // No copies found: a panel named twice or more, however its side is spelt, is several aircraft's when
  // the panels so named make a whole aircraft named left and right (a wing's and a tail's). Then every
  // panel is: one named once (the only rudder, one type drawing its fin whole) is some aircraft's, sided
  // about a centre line that need not be its own (a line-up centred on the origin: its rudder "right",
  // judged good).
  // Two modellers' aircraft whose names barely overlap (`Aileron_L` beside `Querruder_L`): by kind.
  const [byName, byKind] = [
    (n: Node) => sidedName(n.getName()) ?? n.getName().toLowerCase(),
    (n: Node) => panelKey(n.getName())!,
  ].map((keyOf) => {
    const count = new Map<string, number>();
    for (const n of panels) count.set(keyOf(n), (count.get(keyOf(n)) ?? 0) + 1);
    return wholeTwoSided(signature(panels.filter((n) => count.get(keyOf(n))! >= 2)));
  });
  return byName || byKind ? [{ nodes: new Set(nodes), panels, shapeDecides: !byName }] : undefined;
}
