/**
 * Surface names as more tools write them (the `tool` family of `wild_names.ts`), from the conventions
 * recorded in `/work/shared/formats/aircraft-rig.md` §2.1 and what those tools do to names:
 *
 * - 3ds Max: a space before the side (`Aileron L`), `ailevon L` for an elevon-like roll surface;
 * - Maya: `pasted__` (once or twice) before a pasted object, a DAG path kept as the name
 *   (`|group1|aileron_L`, `|plane_grp|wing_grp|flap_R`);
 * - MSFS: the FSX animation names kept on nodes (`l_aileron_percent_key`,
 *   `l_aileron_percent_key_AN_Cover_65`, `elevator_percent_key`);
 * - FS modellers' `c_` control prefix (`c_aileron_left`), `_anim` suffixes (`aileron_L_anim`);
 * - X-Plane's numbered surfaces (`ail1_L`, `aileron2_R`, `spoiler1_L`, after its datarefs);
 * - DCS damage cells (`ELERON_L`, `FLAP_L_IN`), Arma bones (`aileron_lh`, `flap_rh`), JSBSim/FlightGear
 *   property words (`left-aileron`, `LeftAileron`).
 *
 * @module
 */

/** A side's words, as `wild_names.ts` hands them. */
export interface ToolSide {
  readonly letter: string;
  readonly word: string;
  readonly hand: string;
  readonly lower: string;
}

/** A tool's way of writing `w` (an English surface word, as drawn) on side `s` (none: centre). */
export type ToolTemplate = (
  w: string,
  s: ToolSide | undefined,
  n: number,
  pick: <T>(list: readonly T[]) => T,
) => string;

/** X-Plane's dataref words for each English word (`aileron1_deg`, `elevator1_deg`, …), short `ail`. */
const XPLANE: Readonly<Record<string, readonly string[]>> = {
  aileron: ["ail", "aileron"],
  elevator: ["elevator", "elv"],
  rudder: ["rudder", "rud"],
  flap: ["flap"],
  spoiler: ["spoiler"],
  slat: ["slat"],
};

/** DCS damage-cell words (`ELERON_L`: DCS spells the aileron the Russian way). */
const DCS: Readonly<Record<string, string>> = {
  aileron: "ELERON",
  elevator: "ELEVATOR",
  rudder: "RUDDER",
  flap: "FLAP",
  spoiler: "SPOILER",
  slat: "SLAT",
};

/** Every tool's template, by label. */
export const TOOL_TEMPLATES: Readonly<Record<string, ToolTemplate>> = {
  max_space: (w, s) => s ? `${w} ${s.letter}` : w,
  maya_pasted: (w, s, _n, pick) =>
    `${pick(["pasted__", "pasted__pasted__"])}${w.toLowerCase()}${s ? `_${s.letter}` : ""}`,
  maya_path: (w, s, n, pick) =>
    `${pick(["|group1|", `|group${n}|`, "|plane_grp|wing_grp|"])}${w.toLowerCase()}${
      s ? `_${s.letter}` : ""
    }`,
  msfs_key: (w, s, n, pick) =>
    `${s ? `${s.lower}_` : ""}${w.toLowerCase()}_percent_key${pick(["", `_AN_Cover_${n + 50}`])}`,
  fs_control: (w, s) => `c_${w.toLowerCase()}${s ? `_${s.word.toLowerCase()}` : ""}`,
  anim_suffix: (w, s, _n, pick) => `${w}${s ? `_${s.letter}` : ""}${pick(["_anim", "_Anim", "_ANIM"])}`,
  xplane: (w, s, n, pick) =>
    `${pick(XPLANE[w.toLowerCase()] ?? [w.toLowerCase()])}${n % 3 + 1}${s ? `_${s.letter}` : ""}`,
  dcs_cell: (w, s, _n, pick) =>
    `${DCS[w.toLowerCase()] ?? w.toUpperCase()}${s ? `_${s.letter}` : ""}${pick(["", "_IN", "_OUT"])}`,
  arma_bone: (w, s) => `${w.toLowerCase()}${s ? `_${s.hand.toLowerCase()}` : ""}`,
  jsbsim: (w, s, _n, pick) =>
    s ? pick([`${s.word.toLowerCase()}-${w.toLowerCase()}`, `${s.word}${w}`]) : `${w.toLowerCase()}-pos`,
};

/** The template labels of the `tool` family. */
export const TOOL_STYLES: readonly string[] = Object.keys(TOOL_TEMPLATES);
