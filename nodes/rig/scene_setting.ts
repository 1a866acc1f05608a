/**
 * What a surface-named node belongs to: an aircraft, or a thing of another scene that shares a
 * surface's word — a car's `Rear_Spoiler`, a building's `Elevator`, a ship's or a sailboat's `Rudder`, a
 * powerboat's `Trim_Tab`, a tent's `Flap`. Read from the scene, nearest evidence first:
 *
 * 1. the node's own name (`Ship_Rudder`, `SM_Building_Elevator`);
 * 2. the objects the node's box touches, then those they touch, and so on for three rings (a level
 *    file's `Elevator` touches `Floor_1`, which touches `Stairs`; an aileron touches its `Wing_L`) —
 *    leaving out what is far larger than the node (a carrier's deck under a parked aircraft);
 * 3. each group above it, by the names in the group (`Car` > `Bumper`, `Rear_Spoiler`; an `F18` group
 *    holding `Aileron_L`, `Elevator_L`, `Rudder`) — a group holding both (a carrier whose deck holds an
 *    aircraft) tells nothing and the next group up is asked;
 * 4. the whole scene (a theatre's `Flaps` hung clear of everything, among `Stage` and `Curtain_L`).
 *
 * Step 1 and the first ring of 2 go first for every panel; then the rest for the panels still open.
 * Evidence is words ({@link PROP_WORDS} against {@link AIRCRAFT_WORDS}), the side with more
 * winning (a tie tells nothing), and three or more kinds of surface among the open panels of a group or
 * rings (ailerons, an elevator, a rudder: an aircraft, whatever else is named there). A node nothing
 * tells about is taken as an aircraft's, as before.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { type Bounds, type BoundsCache, meshBounds } from "./mesh_bounds.ts";
import { IDENTITY, type Vec3 } from "./transform.ts";
import { BoxGrid, type Near } from "./box_grid.ts";
import { topLevelNodes } from "./part_extras.ts";
import { tokenize } from "./vocabulary.ts";
import { AIRCRAFT_PAIRS, AIRCRAFT_WORDS, PROP_PAIRS, PROP_WORDS } from "./vocabulary_scenes.ts";

/** What the scene says a node belongs to, and the names that say it. */
export interface Setting {
  /** `aircraft`, or what the prop words tell (`car`, `ship`, `building`, …). */
  readonly what: string;
  /** The names that told. */
  readonly evidence: readonly string[];
}

/** Evidence gathered from names. */
interface Tally {
  air: number;
  props: Map<string, number>;
  evidence: string[];
  kinds: Set<string>;
  /** The words counted so far. */
  words: Set<string>;
}

const RINGS = 3;
/** How many times a panel's size a neighbour may be and still tell what the panel belongs to. */
const GROUND = 20;
/** How many objects the rings gather at most: a crowded level's rings stop there, told nothing. */
const MAX_SEEN = 256;

/** A box's diagonal. */
const size = (x: Bounds) => Math.hypot(x.max[0] - x.min[0], x.max[1] - x.min[1], x.max[2] - x.min[2]);

/**
 * Reads what each of `panels` (surface-named nodes, with the kind each is named) belongs to among
 * `nodes` (the scene's); `name` reads a node's name as name search does. Only panels some evidence
 * names a prop are returned.
 */
export function propSettings(
  panels: ReadonlyMap<Node, string>,
  nodes: readonly Node[],
  name: (node: Node) => string,
): Map<Node, Setting> {
  const contacts = contactsOf(nodes);
  // First the nearest evidence: the name, what the panel touches. A carrier's `Elevator_1` touching its
  // deck and its `Rudder` on its hull are a ship's before its deck's aircraft is weighed.
  const first = new Map<Node, Setting>();
  for (const [panel] of panels) {
    const setting = ownName(panel, name) ?? byContact(panel, panels, name, contacts, 1);
    if (setting) first.set(panel, setting);
  }
  const open = new Map([...panels].filter(([node]) => !first.has(node)));
  const out = new Map([...first].filter(([, s]) => s.what !== "aircraft"));
  let scene: Setting | undefined | null = null;
  for (const [panel] of open) {
    // Last, the whole scene: a theatre's `Flaps` hung clear of everything, among `Stage` and `Curtain_L`.
    const setting = byContact(panel, open, name, contacts, RINGS) ?? byGroups(panel, open, name) ??
      (scene === null ? scene = verdict(tallyOf(topLevelNodes(nodes), open, name)) : scene);
    if (setting && setting.what !== "aircraft") out.set(panel, setting);
  }
  return out;
}

/** A prop's words in the panel's own name decide (its aircraft words do not: `Wing_Spoiler` is a car's too). */
function ownName(panel: Node, name: (node: Node) => string): Setting | undefined {
  const tally = newTally();
  add(tally, name(panel));
  return tally.props.size > 0 && tally.air === 0 ? verdict(tally) : undefined;
}

function byGroups(
  panel: Node,
  panels: ReadonlyMap<Node, string>,
  name: (node: Node) => string,
): Setting | undefined {
  for (let group = panel.getParentNode(); group; group = group.getParentNode()) {
    const found = verdict(tallyOf([group], panels, name));
    if (found) return found;
  }
  return undefined;
}

/** The names of `roots` and everything under them, with the kinds of the `panels` among them. */
function tallyOf(
  roots: readonly Node[],
  panels: ReadonlyMap<Node, string>,
  name: (node: Node) => string,
): Tally {
  const tally = newTally();
  const visit = (n: Node) => {
    add(tally, name(n), panels.get(n));
    n.listChildren().forEach(visit);
  };
  roots.forEach(visit);
  return tally;
}

/** The box of every node that draws a mesh, in world space. */
function meshBoxes(nodes: readonly Node[]): Map<Node, Bounds> {
  const out = new Map<Node, Bounds>();
  // One vertex pass per accessor, however many nodes draw it (2,000 nodes drawing one 65,535-vertex
  // mesh read it 2,000 times: 8.6 s of the hostile shape's run).
  const primitiveBoxes: BoundsCache = new Map();
  for (const node of nodes) {
    const box = node.getMesh() ? meshBounds([node], IDENTITY, primitiveBoxes) : undefined;
    if (box) out.set(node, box);
  }
  return out;
}

function byContact(
  panel: Node,
  panels: ReadonlyMap<Node, string>,
  name: (node: Node) => string,
  contacts: Contacts,
  rings: number,
): Setting | undefined {
  const own = contacts.boxes.get(panel);
  if (!own) return undefined;
  const tally = newTally();
  const seen = new Set<Node>([panel]);
  add(tally, name(panel), panels.get(panel), false);
  let ring = [panel];
  for (let r = 0; r < rings && ring.length > 0 && seen.size < MAX_SEEN; r++) {
    const next: Node[] = [];
    for (const node of ring.flatMap((n) => contacts.touching(n))) {
      // What is far larger than the panel (a carrier's deck under a parked aircraft, the ground) holds
      // it up and tells nothing of what it belongs to.
      if (seen.has(node) || size(contacts.boxes.get(node)!) > GROUND * size(own)) continue;
      seen.add(node);
      next.push(node);
      add(tally, name(node), panels.get(node));
    }
    // The surfaces hung on what the rings reached count as their kinds before their names' words do: an
    // elevator's rings reach the fuselage, then the wings and the fin with an aileron and a rudder on
    // them, as soon as a `Bow_Anchor` on its nose.
    for (const node of next) {
      for (const hung of contacts.touching(node)) {
        const kind = panels.get(hung);
        if (kind && !seen.has(hung)) tally.kinds.add(kind);
      }
    }
    const found = verdict(tally);
    if (found) return found;
    ring = next;
  }
  return undefined;
}

/** The mesh boxes of a scene, and which touch which (found once per node asked about). */
export interface Contacts {
  readonly boxes: ReadonlyMap<Node, Bounds>;
  touching(node: Node): readonly Node[];
}

function contactsOf(nodes: readonly Node[]): Contacts {
  return contactsOfBoxes(meshBoxes(nodes));
}

/**
 * {@link Contacts} of given boxes (by node): which boxes touch each, within a tenth of the smaller's
 * size, in order of their lowest x.
 *
 * @example
 * ```ts ignore
 * contactsOfBoxes(new Map([[wing, wingBox], [flap, flapBox]])).touching(flap); // [wing]
 * ```
 */
export function contactsOfBoxes(boxes: ReadonlyMap<Node, Bounds>): Contacts {
  // Sorted by their lowest x, each with its size: a node's touching boxes are a run of this list.
  const sorted = [...boxes].map(([node, box]) => ({ node, box, size: size(box) }))
    .sort((a, b) => a.box.min[0] - b.box.min[0]);
  // The largest max x of the list up to each place: a run before the first place where it reaches a
  // box's min x (less its slack) ends before that box on x and touches none of it, so the scan starts
  // there (found by halving) — 20,000 small panels scanned every box before each, 4·10⁸ box tests.
  const reach: number[] = [];
  for (const [i, { box }] of sorted.entries()) reach.push(Math.max(reach[i - 1] ?? -Infinity, box.max[0]));
  const firstReaching = (x: number) => {
    let lo = 0, hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (reach[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // Rows of panels sharing their x (the shape's rows of 100) made the run along x a column across every
  // row: 200 boxes a panel at 20,000. With every box finite, a grid of the sorted boxes hands each scan
  // only the boxes near it, in their places in the list; the scan's own tests decide as before.
  const grid = sorted.every(({ box, size }) => Number.isFinite(size) && finiteBox(box))
    ? new BoxGrid(sorted.map(({ box }) => box))
    : undefined;
  const memo = new Map<Node, Node[]>();
  return {
    boxes,
    touching(node) {
      let out = memo.get(node);
      if (out) return out;
      const box = boxes.get(node)!, own = size(box);
      out = [];
      const start = firstReaching(box.min[0] - 0.1 * own);
      // `touches` allows a tenth of the smaller box's size, at most a tenth of this one's.
      const near = grid && Number.isFinite(own) && finiteBox(box)
        ? grid.reaching(around(box, 0.1 * own))
        : undefined;
      for (let at = near ? 0 : start; at < (near ?? sorted).length; at++) {
        const i = near ? near[at] : at;
        if (i < start) continue;
        const other = sorted[i];
        if (other.box.min[0] > box.max[0] + 0.1 * own) break;
        if (other.node !== node && touches(box, other.box, Math.min(own, other.size))) out.push(other.node);
      }
      memo.set(node, out);
      return out;
    },
  };
}

/** True when every corner of the box, and its middle, is a finite number. */
function finiteBox({ min, max }: Bounds): boolean {
  for (let k = 0; k < 3; k++) if (!Number.isFinite(min[k]) || !Number.isFinite(max[k] + min[k])) return false;
  return true;
}

/**
 * A cube holding `box` grown by `slack` on every side, a little larger still, so rounding loses no box
 * the scan's tests would take.
 */
function around({ min, max }: Bounds, slack: number): Near {
  const centre: Vec3 = [0, 1, 2].map((k) => (min[k] + max[k]) / 2) as Vec3;
  const reach = Math.max(...[0, 1, 2].map((k) => (max[k] - min[k]) / 2)) + slack;
  const far = Math.max(...min.map(Math.abs), ...max.map(Math.abs));
  return { centre, reach: reach + 1e-9 * (reach + far) };
}

/** True when two boxes touch or overlap, within a tenth of `smaller` (the smaller box's size). */
function touches(a: Bounds, b: Bounds, smaller: number): boolean {
  const slack = 0.1 * smaller;
  for (let k = 0; k < 3; k++) {
    if (a.min[k] - slack > b.max[k] || b.min[k] - slack > a.max[k]) return false;
  }
  return true;
}

function newTally(): Tally {
  return { air: 0, props: new Map(), evidence: [], kinds: new Set(), words: new Set() };
}

/**
 * A name's tokens, read once however many panels' rings reach it (2,000 panels crowding one place reach
 * the same 256 nodes each: 4.5 of detect_panels' 9.5 s on the hostile shape went to reading them again).
 * Bounded, as the studio runs graph after graph in one process.
 */
const TOKENS = new Map<string, readonly string[]>();
function tokensOf(name: string): readonly string[] {
  let tokens = TOKENS.get(name);
  if (!tokens) {
    if (TOKENS.size >= 20_000) TOKENS.clear();
    TOKENS.set(name, tokens = tokenize(name));
  }
  return tokens;
}

/** Adds a name's words (and the surface kind it is named, if a panel) to `tally`. */
function add(tally: Tally, name: string, kind?: string, aircraftWords = true): void {
  if (kind) tally.kinds.add(kind);
  let told = false;
  const tokens = tokensOf(name);
  const paired = new Set<string>();
  for (const [first, second, what] of PROP_PAIRS) {
    if (!tokens.includes(first) || !tokens.includes(second)) continue;
    paired.add(first).add(second);
    told = true;
    const pair = `${first} ${second}`;
    if (tally.words.has(pair)) continue;
    tally.words.add(pair);
    tally.props.set(what, (tally.props.get(what) ?? 0) + 1);
  }
  const airPaired = new Set<string>();
  for (const [first, second] of aircraftWords ? AIRCRAFT_PAIRS : []) {
    if (!tokens.includes(first) || !tokens.includes(second)) continue;
    airPaired.add(first).add(second);
    told = true;
    const pair = `${first} ${second}`;
    if (!tally.words.has(pair)) tally.air++;
    tally.words.add(pair);
  }
  const rest = tokens.filter((t) => !paired.has(t) && !airPaired.has(t));
  // A name with an aircraft's word names a part of the aircraft, whatever else its words are elsewhere:
  // `Pilot_Torso`, `Gear_Truck_L`, `Float_Anchor`, `Boeing_737_Ship`.
  const aircraftPart = aircraftWords && (airPaired.size > 0 || rest.some((t) => AIRCRAFT_WORDS.has(t)));
  for (const token of rest) {
    // Each word counts once however many nodes hold it: a cabin's hundred `TrayTable_12` are one table.
    if (tally.words.has(token)) continue;
    const prop = aircraftPart ? undefined : PROP_WORDS[token];
    const air = aircraftWords && AIRCRAFT_WORDS.has(token);
    if (prop) tally.props.set(prop, (tally.props.get(prop) ?? 0) + 1);
    if (air) tally.air++;
    if (prop || air) tally.words.add(token);
    told ||= prop !== undefined || air;
  }
  if (told && tally.evidence.length < 4) tally.evidence.push(name);
}

/** The side with more evidence, or undefined on a tie (none, or as much of each). */
function verdict(tally: Tally): Setting | undefined {
  // Three kinds of surface no prop explained (ailerons, an elevator, a rudder) are an aircraft's, and so
  // is roll control beside pitch or yaw control: no car, ship or building has ailerons and an elevator.
  if (tally.kinds.size >= 3 || rollAndMore(tally.kinds)) {
    return { what: "aircraft", evidence: tally.evidence };
  }
  const air = tally.air;
  let props = 0, what = "";
  for (const [w, n] of tally.props) {
    props += n;
    if (n > (tally.props.get(what) ?? 0)) what = w;
  }
  if (air === props) return undefined;
  return { what: air > props ? "aircraft" : what, evidence: tally.evidence };
}

/** Surfaces that roll an aircraft, and those that pitch or yaw it. */
const ROLL = new Set(["aileron", "elevon"]);
const PITCH_OR_YAW = new Set(["elevator", "stabilator", "canard", "rudder", "ruddervator", "elevon"]);

/** True when `kinds` hold a roll surface and another that pitches or yaws (an elevon both). */
function rollAndMore(kinds: ReadonlySet<string>): boolean {
  const roll = [...kinds].filter((k) => ROLL.has(k));
  return roll.length > 0 &&
    [...kinds].some((k) => PITCH_OR_YAW.has(k) && !(roll.length === 1 && k === roll[0]));
}
