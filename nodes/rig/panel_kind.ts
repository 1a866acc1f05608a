/**
 * The panel kinds name search can find: a leaf module (it imports nothing), so that the word tables
 * (`vocabulary_words.ts`) can name kinds without importing the rules that read them (`vocabulary.ts`,
 * which imports the tables; the two imported each other). `vocabulary.ts` re-exports both symbols.
 *
 * @module
 */

/** The panel kinds name search can find. */
export type PanelKind =
  | "aileron"
  | "elevator"
  | "elevon"
  | "stabilator"
  | "canard"
  | "rudder"
  | "flap"
  | "leading_edge_flap"
  | "air_brake"
  | "spoiler"
  | "drag_rudder"
  | "ruddervator"
  | "trim_tab"
  | "slat";

/** Every panel kind, in a stable order. */
export const PANEL_KINDS: readonly PanelKind[] = [
  "aileron",
  "elevator",
  "elevon",
  "stabilator",
  "canard",
  "rudder",
  "flap",
  "leading_edge_flap",
  "air_brake",
  "spoiler",
  "drag_rudder",
  "ruddervator",
  "trim_tab",
  "slat",
];
