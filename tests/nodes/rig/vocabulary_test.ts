import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  classifyPanelName,
  classifyPartName,
  matchPanelName,
  openingFromName,
  sideFromName,
  tokenize,
} from "../../../nodes/rig/vocabulary.ts";

Deno.test("tokenize splits on separators, digits and camelCase", () => {
  assertEquals(tokenize("LeftAileron"), ["left", "aileron"]);
  assertEquals(tokenize("Flight_Aileron_L"), ["flight", "aileron", "l"]);
  assertEquals(tokenize("LEF1_L"), ["lef", "l"]);
  assertEquals(tokenize("HStab.R"), ["h", "stab", "r"]);
  assertEquals(tokenize("LEFlap_L"), ["le", "flap", "l"]);
  assertEquals(tokenize("elevator_parent.L"), ["elevator", "parent", "l"]);
  assertEquals(tokenize("AroneL_D0"), ["arone", "l", "d"]);
  assertEquals(tokenize("Flap01_D0"), ["flap", "d"]);
  assertEquals(tokenize("speed brake-2"), ["speed", "brake"]);
});

Deno.test("tokenize drops accents, and splits Chinese, Japanese and Korean around surface and side words", () => {
  assertEquals(tokenize("Alerón_izquierdo"), ["aleron", "izquierdo"]);
  assertEquals(tokenize("Höhenruder.links"), ["hohenruder", "links"]);
  assertEquals(tokenize("Руль_высоты_правый"), ["руль", "высоты", "правыи"]);
  // Kana keep their voicing marks: プ is not フ.
  assertEquals(tokenize("フラップ左"), ["フラップ", "左"]);
  assertEquals(tokenize("左副翼"), ["左", "副翼"]);
  assertEquals(tokenize("機体右エルロン2"), ["機体", "右", "エルロン"]);
  assertEquals(tokenize("승강타_왼쪽"), ["승강타", "왼쪽"]);
});

/** name → expected kind (undefined: not a panel). Includes every pitfall of the upstream regexes. */
const KIND_TABLE: [string, string | undefined][] = [
  ["Querruder_links", "aileron"], // German `links` is left, not the plural of a structure `link`
  ["gouverne de profondeur", "elevator"],
  ["gouverne_direction", "rudder"],
  // French gouvernail alone (or de direction) is the rudder, de profondeur the elevator.
  ["Gouvernail", "rudder"],
  ["gouvernail_de_direction", "rudder"],
  ["Gouvernail de profondeur", "elevator"],
  ["GouvernailProfondeur.001", "elevator"],
  ["Volet_G", "flap"],
  ["Déporteur_D", "spoiler"],
  ["Compensateur_profondeur", "trim_tab"],
  ["Timón de profundidad", "elevator"],
  ["timon_izq", "rudder"],
  ["Leme de profundidade", "elevator"],
  ["ster kierunku", "rudder"],
  ["Интерцептор_1", "spoiler"],
  ["воздушный_тормоз", "air_brake"],
  ["右スポイラー", "spoiler"],
  ["升降舵", "elevator"],
  ["Alerón_Bay", undefined], // structure words still veto
  ["LeftAileron", "aileron"],
  ["RightAileron", "aileron"],
  ["AileronLeft", "aileron"],
  ["aileron_lh", "aileron"],
  ["Flight_Aileron_L", "aileron"],
  ["l_aileron_percent_key", "aileron"],
  ["AroneL_D0", "aileron"],
  ["ail_r", "aileron"],
  ["Flaperon_L", "aileron"],
  ["Elevator_R", "elevator"],
  ["elev.L", "elevator"],
  ["VatorL_D0", "elevator"],
  ["Elevon_Outer_L", "elevon"],
  ["Stabilator_Stbd", "stabilator"],
  ["Taileron_L", "stabilator"],
  ["Canard_R", "canard"],
  ["CanardLeft", "canard"],
  ["Rudder", "rudder"],
  ["rud_r", "rudder"],
  ["Rudder1_D0", "rudder"],
  ["Ruddervator_L", "ruddervator"],
  ["Flap.L", "flap"],
  ["FlapL", "flap"],
  ["flp_inner_r", "flap"],
  ["Flaps", "flap"],
  ["LEF1_L", "leading_edge_flap"],
  ["lef_r", "leading_edge_flap"],
  ["LEFlap_L", "leading_edge_flap"],
  ["Leading_Edge_Flap_R", "leading_edge_flap"],
  ["Krueger_L", "leading_edge_flap"],
  ["Slat_3_R", "slat"],
  ["Airbrake", "air_brake"],
  ["Air_Brake_L", "air_brake"],
  ["SpeedBrake", "air_brake"],
  ["speed_brake", "air_brake"],
  ["Dive_Brake", "air_brake"],
  ["Spoiler_R_1", "spoiler"],
  ["Spoileron_L", "spoiler"],
  ["DragRudder_R_Outer", "drag_rudder"],
  ["drag_rudder_r_inner", "drag_rudder"],
  ["DragRudder.L.Inner", "drag_rudder"],
  ["aileron_l_brake", "drag_rudder"],
  ["Rudder_Trim_Tab", "trim_tab"],
  ["TrimTab_L", "trim_tab"],
  ["Stab_L", "stabilator"],
  ["Tailplane_R", "stabilator"],
  // Other exporters' conventions.
  ["L_Aileron", "aileron"],
  ["aileron.l.001", "aileron"],
  ["AileronLeft01", "aileron"],
  ["Elevator_Trim_Tab_L", "trim_tab"],
  // "Trim" beside a surface is its tab (the MSFS SDK names the elevator's `TrimElevator`); alone or
  // on a cockpit part it is not.
  ["ElevatorTrim", "trim_tab"],
  ["TrimElevator", "trim_tab"],
  ["Rudder_Trim", "trim_tab"],
  ["elevator_trim_l", "trim_tab"],
  ["Aileron_Trimmer_R", "trim_tab"],
  ["Trim_L", undefined],
  ["Rudder_Trim_Knob", undefined],
  ["ElevatorTrimIndicator", undefined],
  ["SM_Flap_Inner_R", "flap"],
  ["Left Aileron (mirrored)", "aileron"],
  ["Aileron_L_Metal_0", "aileron"],
  ["Höhenruder_R", "elevator"],
  // Not panels: substrings, cockpit parts, structure, rig helpers.
  ["Gear_Translation", undefined],
  ["Canopy_Translate", undefined],
  ["RudderPedal_L", undefined],
  ["Flap_Lever", undefined],
  ["CowlFlap_1", undefined],
  ["Elevator_Trim_Wheel", undefined],
  ["Flap_Track_1", undefined],
  ["Aileron_Actuator_R", undefined],
  ["MainGear_Bay_L", undefined],
  ["Flap_Track_Fairing", undefined],
  // Plural structure words: an empty of brackets or tracks is no panel (before: a flap).
  ["Flap_Brackets", undefined],
  ["AileronHinges", undefined],
  ["Flap_Tracks_L", undefined],
  ["Aileron_Hinge_L", undefined],
  ["HINGE_Aileron_L", undefined],
  ["CTRL_Rudder_L", undefined],
  ["HINGE_auto_Flap_L", undefined],
  ["Flight_Deck", undefined],
  ["Translator", undefined],
  ["Fuselage", undefined],
  ["Wing_L", undefined],
  ["Slate_Panel", undefined],
  ["Tablet", undefined],
  ["Brake_L", undefined],
  ["Rudderless", undefined],
  ["Flapjack", undefined],
  ["Spoil", undefined],
  ["Aileron_Hinge_Fairing", undefined],
  // Strips and recesses about a hinge are wing structure (before: the panel, joined as its piece).
  ["Aileron_L_Gap", undefined],
  ["Aileron_L_Cove", undefined],
  ["ElevatorGapCover_R", undefined],
  ["Flap_Seal_L", undefined],
  ["Aileron_L_Fairing", undefined],
  // A car's anti-roll bar, not a weak stabilator hint (nothing else in a car pitches to veto it).
  ["Stabilizer_Bar", undefined],
  ["SwayBar_Stabilizer", undefined],
];

Deno.test("panel kinds come from whole tokens, never substrings", () => {
  const wrong = KIND_TABLE.filter(([name, kind]) => classifyPanelName(name) !== kind)
    .map(([name, kind]) => `${name}: expected ${kind}, got ${classifyPanelName(name)}`);
  assertEquals(wrong, []);
});

Deno.test("stab and tailplane are weak hints; plural names are flagged", () => {
  assertEquals(matchPanelName("Stab_L")?.weak, true);
  assertEquals(matchPanelName("Stabilator_L")?.weak, false);
  assertEquals(matchPanelName("Canards")?.plural, true);
  assertEquals(matchPanelName("Canard_R")?.plural, false);
});

Deno.test("declared parts get a kind from name and group, without rig prefixes", () => {
  assertEquals(classifyPartName("CTRL_Elevon_L"), "elevon");
  assertEquals(classifyPartName("HINGE_auto_LeftAileron"), "aileron");
  assertEquals(classifyPartName("Surface_1", "ailerons"), "aileron");
  assertEquals(classifyPartName("CTRL_RudderPedal_L"), undefined);
  assertEquals(classifyPartName("Canopy", "canopy"), undefined);
});

const SIDE_TABLE: [string, string | undefined][] = [
  ["Alerón_izquierdo", "left"],
  ["volet droite", "right"],
  ["Alettone_sinistra", "left"],
  ["Элерон_правый", "right"],
  ["左副翼", "left"],
  ["エルロン右", "right"],
  ["VatorL_D0", "left"], // D0 is a damage level, not droite
  // French G and D (gauche, droite) only stand alone beside a French surface word.
  ["Volet_G", "left"],
  ["AileronD", "right"],
  ["Gouverne_direction_G", "left"],
  ["gouverne de profondeur D", "right"],
  ["Gouvernail_profondeur_G", "left"],
  ["gouvernail D", "right"],
  ["Déporteur.G_1", "left"],
  ["Flap_D", undefined], // the fourth of Flap_A…Flap_D
  ["Aileron_D0", undefined],
  ["Volet_G_D", undefined],
  ["Aileron_L", "left"],
  ["aileron.L", "left"],
  ["LeftAileron", "left"],
  ["AileronLeft", "left"],
  ["AileronL", "left"],
  ["FlapL", "left"],
  ["Port_Flap", "left"],
  ["aileron_lh", "left"],
  ["l_aileron_percent_key", "left"],
  ["Aileron_R", "right"],
  ["elevator.R", "right"],
  ["RightAileron", "right"],
  ["Stabilator_Stbd", "right"],
  ["Starboard_Flap", "right"],
  ["flap_rh", "right"],
  ["r_flap_percent_key", "right"],
  ["Rudder_C", "centre"],
  ["Centre_Spoiler", "centre"],
  ["CenterRudder", "centre"],
  ["Rudder", undefined],
  ["Stabilator.001", undefined],
  ["Flight_Aileron", undefined],
  ["Leftover_R_L", undefined],
];

Deno.test("sides come from name tokens; contradictions and no marker give none", () => {
  const wrong = SIDE_TABLE.filter(([name, side]) => sideFromName(name) !== side)
    .map(([name, side]) => `${name}: expected ${side}, got ${sideFromName(name)}`);
  assertEquals(wrong, []);
});

Deno.test("split surfaces say which way they open", () => {
  assertEquals(openingFromName("Brake_Upper_L"), "up");
  assertEquals(openingFromName("VentralBrake"), "down");
  assertEquals(openingFromName("DragRudder_R_Outer"), undefined);
});

Deno.test("side words glued to a kind word, LB/LT/RB/RT, and fins that are no stabilators", () => {
  assertEquals(tokenize("AILERONLEFT"), ["aileron", "left"]);
  assertEquals(tokenize("leftaileron"), ["left", "aileron"]);
  assertEquals(tokenize("flapr"), ["flap", "r"]);
  // Short sides are not unglued from the front, and words that merely end like a side stay whole.
  assertEquals(tokenize("Rail_Guard"), ["rail", "guard"]);
  assertEquals(tokenize("Upright_Strut"), ["upright", "strut"]);
  for (
    const [name, side] of [["AirbrakeLT", "left"], ["AirbrakeRB", "right"], ["EleronL", "left"], [
      "Spoiler_LB",
      "left",
    ], ["aileronright", "right"]]
  ) {
    assertEquals(sideFromName(name), side, name);
  }
  assertEquals(classifyPanelName("AirbrakeLT"), "air_brake");
  assertEquals(classifyPanelName("EleronL"), "aileron");
  assertEquals(classifyPanelName("aileronright"), "aileron");
  assertEquals(classifyPanelName("Rail_Guard"), undefined);
  for (const fin of ["VerticalStabilizer", "Vertical_Stabiliser_1", "Fin_Stab", "stabilizer_vert"]) {
    assertEquals(matchPanelName(fin), undefined, fin);
  }
  assertEquals(matchPanelName("HorizontalStabilizer_L")?.kind, "stabilator");
});
