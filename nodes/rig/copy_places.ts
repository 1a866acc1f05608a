/**
 * Aircraft told apart by place, where names cannot tell which object is whose (`copies.ts`): two
 * aircraft keeping the same names listed in no order (an exporter listing by material), or each spelling
 * its sides its own way (`Aileron_L` beside `aileron.l`, `L_Aileron`). The drawn objects cluster by
 * touching boxes — two objects join when their boxes overlap, or stand apart by less than a tenth of the
 * larger one's size, on every axis (a wing floating a little off its fuselage still joins it) — and
 * each cluster holding a whole aircraft named left and right is one aircraft.
 *
 * A floor or hangar under them all, touching every aircraft, is read past: the clusters are read again
 * without the largest objects naming no panel and larger than any panel, up to eight (a hangar building's
 * floor, roof, walls and doors).
 *
 * Never splitting one aircraft: a cluster holding panels but no whole aircraft named left and right (a
 * biplane's upper wing standing clear, wing panels laid out detached) or naming one object twice, however
 * each spells its side (two aircraft drawn at one place, or touching), makes no split at all.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { IDENTITY } from "./transform.ts";
import { type Bounds, type BoundsCache, meshBounds } from "./mesh_bounds.ts";
import { type ModelCopy, panelKey as panelKind } from "./copies.ts";
import { sidedName } from "./copy_names.ts";
import { overlaying } from "./copy_members.ts";

/** How far apart, as a fraction of the larger box's largest extent, two objects still touch. */
const TOUCH = 0.1;

/** The most objects naming no panel read past as scenery (a hangar's floor, roof, walls and doors). */
const MAX_DROPPED = 8;

/** The box around `boxes`. */
function around(boxes: readonly Bounds[]): Bounds {
  const min = [0, 1, 2].map((k) => boxes.reduce((m, b) => Math.min(m, b.min[k]), Infinity));
  const max = [0, 1, 2].map((k) => boxes.reduce((m, b) => Math.max(m, b.max[k]), -Infinity));
  return { min: min as Bounds["min"], max: max as Bounds["max"] };
}

/** A drawn object's box and its largest extent. */
interface Placed {
  readonly node: Node;
  readonly box: Bounds;
  readonly size: number;
}

function touching(a: Placed, b: Placed): boolean {
  const gap = TOUCH * Math.max(a.size, b.size);
  for (let k = 0; k < 3; k++) {
    if (Math.max(a.box.min[k], b.box.min[k]) - Math.min(a.box.max[k], b.box.max[k]) > gap) return false;
  }
  return true;
}

/**
 * The aircraft among `nodes` (every node of the scene) by place, or undefined unless two clusters or
 * more each hold a whole aircraft and every cluster holding panels does (see the module doc). `whole`
 * judges a cluster's nodes (its drawn objects and the groups over them alone); `holdsPanel` tells a node
 * drawing or naming a panel.
 */
export function copiesByPlace(
  nodes: readonly Node[],
  whole: (nodes: readonly Node[]) => boolean,
  holdsPanel: (node: Node) => boolean,
): ModelCopy[] | undefined {
  const cache: BoundsCache = new Map();
  const drawn: Placed[] = [];
  for (const node of nodes) {
    const box = node.getMesh() ? meshBounds([node], IDENTITY, cache) : undefined;
    if (box) drawn.push({ node, box, size: Math.max(...[0, 1, 2].map((k) => box.max[k] - box.min[k])) });
  }
  if (drawn.length < 2) return undefined;
  // Swept along x: a pair further apart there than the largest object's reach cannot touch.
  drawn.sort((a, b) => a.box.min[0] - b.box.min[0]);
  // A floor or hangar under every aircraft touches them all: read again without the largest objects
  // naming no panel (larger than any panel), up to eight — a hangar building's floor, roof, walls and
  // doors (Sketchfab's `Object_<n>`) each touch every aircraft.
  const panelSize = drawn.reduce((m, d) => holdsPanel(d.node) ? Math.max(m, d.size) : m, 0);
  const largest = drawn.filter((d) => d.size > panelSize && !holdsPanel(d.node))
    .sort((a, b) => b.size - a.size).slice(0, MAX_DROPPED);
  for (let drop = 0; drop <= largest.length; drop++) {
    const left = new Set(largest.slice(0, drop));
    const copies = clustered(drawn.filter((d) => !left.has(d)), nodes, whole, holdsPanel);
    if (copies) return copies;
  }
  return undefined;
}

/** How often each key of `held` comes, and the objects whose key comes twice or more. */
function repeatedUnder(held: readonly Node[], key: (n: Node) => string) {
  const count = new Map<string, number>();
  for (const n of held) count.set(key(n), (count.get(key(n)) ?? 0) + 1);
  return { count, repeated: held.filter((n) => count.get(key(n))! >= 2) };
}

/** The aircraft by clusters of `drawn` (sorted by their least x), as {@link copiesByPlace} says. */
function clustered(
  drawn: readonly Placed[],
  nodes: readonly Node[],
  whole: (nodes: readonly Node[]) => boolean,
  holdsPanel: (node: Node) => boolean,
): ModelCopy[] | undefined {
  const reach = TOUCH * drawn.reduce((m, d) => Math.max(m, d.size), 0);
  const parent = drawn.map((_, i) => i);
  const find = (i: number): number => parent[i] === i ? i : (parent[i] = find(parent[i]));
  for (let i = 0; i < drawn.length; i++) {
    for (let j = i + 1; j < drawn.length && drawn[j].box.min[0] - drawn[i].box.max[0] <= reach; j++) {
      if (touching(drawn[i], drawn[j])) parent[find(i)] = find(j);
    }
  }
  const clusters = new Map<number, Node[]>();
  drawn.forEach(({ node }, i) => {
    const root = find(i);
    const cluster = clusters.get(root);
    if (cluster) cluster.push(node);
    else clusters.set(root, [node]);
  });
  // In the scene's order (the first aircraft listed first: its frame is read for "auto").
  const order = new Map(nodes.map((n, i) => [n, i]));
  const first = (c: Node[]) => c.reduce((m, n) => Math.min(m, order.get(n)!), Infinity);
  const holding = [...clusters.values()].filter((c) => c.some(holdsPanel)).sort((a, b) =>
    first(a) - first(b)
  );
  if (holding.length < 2) return undefined;
  const clusterOf = new Map<Node, number>();
  holding.forEach((cluster, i) => cluster.forEach((n) => clusterOf.set(n, i)));
  const members = holding.map((cluster) => new Set(cluster));
  // An object standing clear of every panel (a twin's propeller past its wing tip) goes with the aircraft
  // nearest it, when that one is clearly nearest (under half as far as the next).
  const placed = new Map(drawn.map((d) => [d.node, d.box]));
  const boxes = holding.map((cluster) => around(cluster.map((n) => placed.get(n)!)));
  for (const cluster of clusters.values()) {
    if (clusterOf.has(cluster[0])) continue;
    const box = around(cluster.map((n) => placed.get(n)!));
    const middle = [0, 1, 2].map((k) => (box.min[k] + box.max[k]) / 2);
    const far = boxes.map((b) =>
      Math.hypot(...[0, 1, 2].map((k) => Math.max(0, b.min[k] - middle[k], middle[k] - b.max[k])))
    );
    const nearest = far.indexOf(Math.min(...far));
    if (far.every((d, i) => i === nearest || far[nearest] < 0.5 * d)) {
      for (const n of cluster) {
        members[nearest].add(n);
        clusterOf.set(n, nearest);
      }
    }
  }
  // A group node goes with its drawn descendants' aircraft when they share one.
  for (const node of nodes) {
    if (clusterOf.has(node)) continue;
    const homes = new Set<number>();
    const walk = (n: Node) => {
      const home = clusterOf.get(n);
      if (home !== undefined) homes.add(home);
      n.listChildren().forEach(walk);
    };
    walk(node);
    if (homes.size === 1) members[[...homes][0]].add(node);
  }
  const untold: (boolean | "kinds")[] = [];
  for (const cluster of members) {
    if (!whole([...cluster])) return undefined;
    // Two objects of one name, however each spells its side (`aileron.l`, `AileronLeft`): two aircraft
    // touching, when the panels so named make a whole aircraft named left and right. The group stands
    // apart from the others all the same: it is one copy, untold, so only its panels are in doubt (the
    // aircraft parked clear keep their own centre lines). Repeated names making no whole aircraft (one
    // aileron in two pieces of one name) leave the cluster's whose unknown: no split.
    const held = [...cluster].filter(holdsPanel);
    const byName = (n: Node) => sidedName(n.getName()) ?? n.getName();
    // Two modellers' aircraft whose names barely overlap (`Aileron_L` beside `Querruder_L`, one `Rudder`
    // each): their panels' kinds repeat where their names do not.
    const byKind = (n: Node) => panelKind(n.getName()) ?? byName(n);
    const [names, kinds] = [byName, byKind].map((key) => repeatedUnder(held, key));
    const key = whole(names.repeated) || !whole(kinds.repeated) ? byName : byKind;
    const { count, repeated } = key === byName ? names : kinds;
    if (count.size === held.length) {
      untold.push(false);
      continue;
    }
    if (!whole(repeated)) return undefined;
    // Each name's objects drawn over each other: copies at one place (an aircraft duplicated where it
    // stands), read by the names' order as before, not aircraft touching.
    const firstOf = new Map<string, Bounds>();
    const atOnePlace = repeated.every((n) => {
      const box = placed.get(n);
      if (!box) return true;
      const first = firstOf.get(key(n)) ?? firstOf.set(key(n), box).get(key(n))!;
      return overlaying(first, box);
    });
    if (atOnePlace) return undefined;
    untold.push(key === byName || "kinds");
  }
  // Aircraft told apart first (the first one's frame is read for "auto"), then the touching groups.
  const rank = members.map((_, i) => i).sort((a, b) => Number(!!untold[a]) - Number(!!untold[b]));
  return rank.map((i, k) =>
    untold[i]
      ? { label: `aircraft ${k + 1} by place (touching others)`, nodes: members[i], untold: untold[i] }
      : { label: `aircraft ${k + 1} by place`, nodes: members[i] }
  );
}
