/**
 * `rig.detect_panels`'s search for spinning parts by name: propellers, main and tail rotors,
 * spinners ({@link matchSpinningName}). The outermost matching node with geometry is the part, so a
 * propeller's blades as objects of their own (`Blade_1`…`Blade_3` under `Propeller`) and its hub or
 * spinner turn with it; a node that is, holds or is under a part (declared, a decoder's joint, a panel
 * found before) is left alone, and so is structure named after a rotor (`RotorMast`, `Prop_Guard`).
 * Blades with no rotor word are a rotor's too where a hub says so: a hub object holding two blade
 * objects or more (`Hub` > `blade_1`…), or one beside them (`Hub`, `Blade.001`, `Blade.002` side by
 * side, as a flat export lays them out). Blades with no hub (`Blade_1`…, `blade.001`…) are a rotor's
 * where their geometry makes a ring ({@link bladeRings}: roots meeting on a shaft the set turns onto
 * itself about by one blade spacing); blade-named objects in a row (blade antennas) are left alone,
 * and several rotors numbered on at one level (a twin's `Blade_1`…`_6`) are split by ring.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { holdsPart, isPart } from "./part_extras.ts";
import { bladeRings } from "./spin_ring.ts";
import { gatherDrawn } from "./drawn_vertices.ts";
import { IDENTITY } from "./transform.ts";
import {
  isBladeName,
  isHubName,
  matchSpinningName,
  type SpinningName,
  spinningStem,
} from "./spinning_names.ts";

/** A spinning part found by name. */
export interface SpinningCandidate {
  readonly node: Node;
  readonly named: SpinningName;
}

/**
 * The outermost nodes under `roots` named as spinning parts that move geometry and are, hold and sit
 * under no part.
 *
 * @example
 * ```ts
 * findSpinningParts(topLevelNodes(doc.getRoot().listNodes()), hasGeometry); // [{ node: Propeller, named: "bare" }]
 * ```
 */
export function findSpinningParts(
  roots: readonly Node[],
  movesGeometry: (node: Node) => boolean,
  nameOf: (node: Node) => string = (node) => node.getName(),
): SpinningCandidate[] {
  const out: SpinningCandidate[] = [];
  const free = (node: Node) => !isPart(node) && movesGeometry(node) && !holdsPart(node);
  const blade = (node: Node) => isBladeName(nameOf(node)) && !matchSpinningName(nameOf(node)) && free(node);
  const visit = (node: Node, bladeOfHub: boolean) => {
    if (isPart(node)) return;
    const named = matchSpinningName(nameOf(node)) ??
      (bladeOfHub || (isHubName(nameOf(node)) && node.listChildren().filter(blade).length >= 2)
        ? "bare"
        : undefined);
    if (named && movesGeometry(node) && !holdsPart(node)) {
      out.push({ node, named });
      return;
    }
    visitAll(node.listChildren());
  };
  // A hub among its blades, side by side: each a candidate, gathered by groupSiblingBlades. With no
  // hub, blades whose geometry makes a ring (roots meeting on a shaft they turn onto themselves about).
  const visitAll = (nodes: readonly Node[]) => {
    const loose = nodes.filter(blade);
    const hubbed = loose.length >= 2 && nodes.some((n) => isHubName(nameOf(n)) && free(n));
    const ringed = new Set(!hubbed && loose.length >= 2 ? bladeRings(loose).flat() : []);
    for (const node of nodes) {
      visit(node, ringed.has(node) || (hubbed && (blade(node) || isHubName(nameOf(node)))));
    }
  };
  visitAll(roots);
  return out;
}

/**
 * Gathers blades drawn as sibling objects of their own (`MainRotor_Blade_1`…`_4` beside the hub
 * `MainRotor`, or `main_rotor_blade_1`…) under one new node, so they turn as one part: siblings whose
 * names say the same rotor (the same words but for blade words and numbers), one of them at least
 * naming a blade. The node goes where they were, with no transform (nothing moves in the world),
 * named after what their names share; it takes the first member's kind.
 *
 * @example
 * ```ts
 * groupSiblingBlades(doc, findSpinningParts(roots, hasGeometry)); // MainRotor + MainRotor_Blade_n → one
 * ```
 */
export function groupSiblingBlades(
  doc: Document,
  candidates: readonly SpinningCandidate[],
  nameOf: (node: Node) => string = (node) => node.getName(),
): SpinningCandidate[] {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const groups = new Map<string, SpinningCandidate[]>();
  for (const c of candidates) {
    const parent = c.node.getParentNode();
    const key = `${parent ? doc.getRoot().listNodes().indexOf(parent) : "root"}|${
      spinningStem(nameOf(c.node))
    }`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  // Blades and hubs with no rotor word (`Blade.001`, `Hub`) join the one rotor named beside them
  // (`prop_hub`); beside two or more, they are left apart.
  for (const [key, members] of [...groups]) {
    if (!key.endsWith("|")) continue;
    const parent = key.slice(0, key.indexOf("|") + 1);
    const named = [...groups.keys()].filter((k) => k !== key && k.startsWith(parent));
    if (named.length !== 1) continue;
    groups.set(named[0], [...groups.get(named[0])!, ...members]);
    groups.delete(key);
  }
  const out: SpinningCandidate[] = [];
  const used = new Set<string>();
  for (const members of [...groups.values()].flatMap((m) => splitRings(m, nameOf))) {
    if (members.length < 2 || !members.some((m) => isBladeName(nameOf(m.node)))) {
      out.push(...members);
      continue;
    }
    const names = members.map((m) => nameOf(m.node));
    // `main_rotor_blade_1`, `_2` share `main_rotor_blade_`: the group is the rotor, not a blade.
    // `Blade.001`, `Blade.002` share `Blade.00` (and `Prop_Blade.003`… `Prop_Blade.00`): a blade word
    // and numbers, dropped.
    const shared = commonPrefix(names).replace(/[^\p{L}\p{N}]*(blade|blatt|pale|pala)?[^\p{L}\p{N}]*$/iu, "")
      .replace(/[^\p{L}\p{N}]*(blade|blatt|pale|pala)[^\p{L}]*$/iu, "");
    const prefix = shared || "Rotor";
    // With no prefix in common (`prop_hub`, `Blade.001`), named after the hub.
    const hub = shared ? undefined : names.find((n) => isHubName(n) && !isBladeName(n));
    const base = hub ? `${hub}_assembly` : names.includes(prefix) ? `${prefix}_assembly` : prefix;
    // Two rings of one name (a twin's `Blade_1`…`_6`) make `Rotor` and `Rotor_2`.
    let name = base;
    for (let k = 2; used.has(name); k++) name = `${base}_${k}`;
    used.add(name);
    const group = doc.createNode(name);
    const parent = members[0].node.getParentNode();
    if (parent) parent.addChild(group);
    else scene?.addChild(group);
    for (const m of members) {
      if (!parent) scene?.removeChild(m.node);
      group.addChild(m.node);
    }
    const named = members.find((m) => m.named !== "bare")?.named ?? members[0].named;
    out.push({ node: group, named });
  }
  return out;
}

/**
 * One gathering of sibling blades split by rotor where their geometry makes two rings or more
 * ({@link bladeRings}: a twin's `Blade_1`…`_6`, or `PropellerBlade1`…`4` over two wing engines, share
 * a name but not a shaft); a member in no ring (a hub, a spinner, a rotor's named object) goes with
 * the ring whose root point is nearest its centre, within that ring's blade length. One ring or none:
 * as gathered.
 */
function splitRings(
  members: readonly SpinningCandidate[],
  nameOf: (node: Node) => string,
): SpinningCandidate[][] {
  const blades = members.filter((m) => isBladeName(nameOf(m.node)));
  if (blades.length < 4) return [[...members]];
  const rings = bladeRings(blades.map((m) => m.node));
  if (rings.length < 2) return [[...members]];
  const inRing = new Set(rings.flat());
  const out = rings.map((ring) => members.filter((m) => ring.includes(m.node)));
  const centres = rings.map(ringCentre);
  for (const m of members) {
    if (inRing.has(m.node)) continue;
    const c = ringCentre([m.node]);
    const d = centres.map((r) =>
      Math.hypot(r.centre[0] - c.centre[0], r.centre[1] - c.centre[1], r.centre[2] - c.centre[2])
    );
    const k = d.indexOf(Math.min(...d));
    if (d[k] <= centres[k].size) out[k].push(m);
    else out.push([m]);
  }
  return out;
}

/**
 * The centre of nodes' world bounding boxes over what their triangles draw, and the box's largest
 * extent: a blade drawn out of the aircraft's one vertex buffer, or keeping a vertex at the origin,
 * reached over the aircraft and joined every ring.
 */
function ringCentre(nodes: readonly Node[]): { centre: number[]; size: number } {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const node of nodes) {
    const g = gatherDrawn(node, IDENTITY);
    for (let i = 0; i < g.count; i++) {
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k], g.positions[i * 3 + k]);
        hi[k] = Math.max(hi[k], g.positions[i * 3 + k]);
      }
    }
  }
  return { centre: lo.map((l, k) => (l + hi[k]) / 2), size: Math.max(...hi.map((h, k) => h - lo[k])) };
}

function commonPrefix(names: readonly string[]): string {
  let prefix = names[0];
  for (const n of names) while (!n.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
