/**
 * Rotorcraft told by their rotors: a helicopter's horizontal stabiliser (`HorizontalStabilizer`,
 * `H_Stab`, `Tailplane` on a Bell 206 or an AS350) is fixed structure, so the weak stabilator hints
 * must not make it an all-moving surface just because nothing else in the model pitches. A true
 * all-moving one is named so (the UH-60's `Stabilator`), a strong match this does not touch.
 *
 * A model is a rotorcraft when a node is named as a helicopter's rotor or a part only rotors have
 * (`MainRotor`, `Tail_Rotor`, `Hauptrotor`, `Heckrotor`, `Swashplate`, `Fenestron`), or a node
 * named a bare `Rotor` (or `Blades`, `Propeller`) is as wide as a main rotor: at least half the
 * model's largest extent. An airplane's propeller named `Rotor` (the Sketchbook airplane's is) spans
 * a fifth of the model or less, and a tilt-rotor's, which could pass, comes with elevators, which
 * weak hints never override.
 *
 * @module
 */
import { getBounds, type Node } from "@gltf-transform/core";
import { tokenize } from "./vocabulary.ts";

/** Tokens that name a part only rotorcraft have, alone or glued (`mainrotor`). */
const ROTORCRAFT_TOKENS: ReadonlySet<string> = new Set([
  "mainrotor",
  "tailrotor",
  "hauptrotor",
  "heckrotor",
  "rotorhead",
  "rotorhub",
  "swashplate",
  "fenestron",
  "helicopter",
  "hubschrauber",
  "helicoptere",
  "helicoptero",
  "elicottero",
  "вертолет",
]);

/** Words that, beside `rotor`, make it a helicopter's main or tail rotor (`Rotor_Main`, `rotor de cola`). */
const ROTOR_QUALIFIERS: ReadonlySet<string> = new Set(["main", "tail", "principal", "cola", "queue", "coda"]);

/**
 * Words that may name a main rotor or an airplane's propeller (`Rotor`, `Blades`, `Propeller`, French
 * `Helice`): a main rotor only when it is main-rotor sized.
 */
const BARE_ROTOR_TOKENS: ReadonlySet<string> = new Set([
  "rotor",
  "rotors",
  "blade",
  "blades",
  "propeller",
  "propellers",
  "prop",
  "helice",
  "airscrew",
]);

/**
 * A main rotor spans at least this share of the model's largest extent: a bare `Rotor` named (here),
 * and the flat layer `frame_rotor.ts` finds by shape.
 */
export const MAIN_ROTOR_SHARE = 0.5;

/** Why a model is taken for a rotorcraft: the nodes that say so. */
export interface RotorcraftEvidence {
  /** The rotor nodes' names, in scene order (at most a few, for a message). */
  readonly rotors: readonly string[];
}

/**
 * The evidence that the model is a rotorcraft, or undefined for a fixed-wing aircraft. Sizes are
 * measured only when a bare `Rotor` is all the names give.
 *
 * @example
 * ```ts
 * rotorcraftEvidence(doc.getRoot().listNodes())?.rotors; // ["MainRotor", "TailRotor"]
 * ```
 */
export function rotorcraftEvidence(nodes: readonly Node[]): RotorcraftEvidence | undefined {
  const named: string[] = [], bare: Node[] = [];
  for (const node of nodes) {
    const tokens = tokenize(node.getName()).map((t) => t.replace(/ё/g, "е"));
    if (tokens.some((t) => ROTORCRAFT_TOKENS.has(t))) named.push(node.getName());
    else if (tokens.some((t) => BARE_ROTOR_TOKENS.has(t))) {
      if (tokens.some((t) => ROTOR_QUALIFIERS.has(t))) named.push(node.getName());
      else bare.push(node);
    }
  }
  if (named.length > 0) return { rotors: named.slice(0, 4) };
  if (bare.length === 0) return undefined;
  const whole = largestExtent(nodes.filter((n) => !n.getParentNode()));
  const mains = bare.filter((n) => largestExtent([n]) >= MAIN_ROTOR_SHARE * whole);
  return mains.length > 0 && whole > 0 ? { rotors: mains.slice(0, 4).map((n) => n.getName()) } : undefined;
}

/** The largest side of the world bounding box around these nodes' meshes (0 when none). */
function largestExtent(roots: readonly Node[]): number {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (const root of roots) {
    const box = getBounds(root);
    for (let k = 0; k < 3; k++) {
      if (Number.isFinite(box.min[k])) min[k] = Math.min(min[k], box.min[k]);
      if (Number.isFinite(box.max[k])) max[k] = Math.max(max[k], box.max[k]);
    }
  }
  const sides = [0, 1, 2].map((k) => max[k] - min[k]).filter(Number.isFinite);
  return sides.length ? Math.max(0, ...sides) : 0;
}
