/**
 * Procedural demo sources: `demo.fighter`, the rig's test aircraft (its exact hinges come from
 * `fighterTruth()` in `fighter_truth.ts`).
 *
 * @module
 */
import type { Plugin } from "../../runtime/node.ts";
import { demoFighter } from "./fighter.ts";

/** The demo source nodes. */
export const demoPlugin: Plugin = { nodes: [demoFighter] };
