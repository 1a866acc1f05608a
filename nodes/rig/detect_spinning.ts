/**
 * `rig.detect_panels`'s search for spinning parts by name: propellers, main and tail rotors,
 * spinners ({@link matchSpinningName}). The outermost matching node with geometry is the part, so a
 * propeller's blades as objects of their own (`Blade_1`…`Blade_3` under `Propeller`) and its hub or
 * spinner turn with it; a node that is, holds or is under a part (declared, a decoder's joint, a panel
 * found before) is left alone, and so is structure named after a rotor (`RotorMast`, `Prop_Guard`).
 * Blades with no rotor word are a rotor's too where a hub says so: a hub object holding two blade
 * objects or more (`Hub` > `blade_1`…), or one beside them (`Hub`, `Blade.001`, `Blade.002` side by
 * side, as a flat export lays them out); blades alone (`Blade_1`, `Blade_2`) may be a sword's or a
 * turbine's, and are left alone.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { holdsPart, isPart } from "./part_extras.ts";
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
  // A hub among its blades, side by side: each a candidate, gathered by groupSiblingBlades.
  const visitAll = (nodes: readonly Node[]) => {
    const hubbed = nodes.filter(blade).length >= 2 && nodes.some((n) => isHubName(nameOf(n)) && free(n));
    for (const node of nodes) visit(node, hubbed && (blade(node) || isHubName(nameOf(node))));
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
  for (const members of groups.values()) {
    if (members.length < 2 || !members.some((m) => isBladeName(nameOf(m.node)))) {
      out.push(...members);
      continue;
    }
    const names = members.map((m) => nameOf(m.node));
    // `main_rotor_blade_1`, `_2` share `main_rotor_blade_`: the group is the rotor, not a blade.
    const shared = commonPrefix(names).replace(/[^\p{L}\p{N}]*(blade|blatt|pale|pala)?[^\p{L}\p{N}]*$/iu, "");
    const prefix = shared || "Rotor";
    // With no prefix in common (`prop_hub`, `Blade.001`), named after the hub.
    const hub = shared ? undefined : names.find((n) => isHubName(n) && !isBladeName(n));
    const name = hub ? `${hub}_assembly` : names.includes(prefix) ? `${prefix}_assembly` : prefix;
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

function commonPrefix(names: readonly string[]): string {
  let prefix = names[0];
  for (const n of names) while (!n.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
