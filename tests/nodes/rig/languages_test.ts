/**
 * Aircraft named in the modeller's own language, as models on Sketchfab and modding sites are: the
 * demo fighter with its surfaces renamed in French, Spanish, German, Russian, Japanese and Chinese
 * rigs to the same parts as in English — kind, side, how found and hinge — and before, those
 * surfaces were not found by name at all.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { copyScene } from "../../../runtime/scene/copy.ts";
import { runNode } from "../../support/context.ts";
import { type ReportPart, rig } from "./pipeline.ts";

/** English node name → its name in each language (absent: kept in English). */
const NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  french: {
    Flight_Aileron_R: "Aileron_droite",
    LeftAileron: "aileron gauche",
    flap_rh: "Volet_droite",
    "Flap.L": "volet.gauche",
    Rudder: "Gouverne de direction gauche",
    rud_r: "gouverne_direction_droite",
    SpeedBrake: "Aérofrein",
  },
  "french (gouvernail)": {
    Rudder: "Gouvernail_gauche",
    rud_r: "gouvernail de direction droit",
  },
  spanish: {
    Flight_Aileron_R: "Alerón_derecho",
    LeftAileron: "alerón izquierdo",
    Rudder: "Timón izquierdo",
    rud_r: "timón_derecho",
    SpeedBrake: "Aerofreno",
  },
  german: {
    Flight_Aileron_R: "Querruder_rechts",
    LeftAileron: "Querruder links",
    flap_rh: "Landeklappe_rechts",
    "Flap.L": "Landeklappe.links",
    Spoiler_R_1: "Störklappe_rechts_1",
    Spoiler_L_1: "Störklappe_links_1",
    Rudder: "Seitenruder_links",
    rud_r: "Seitenruder_rechts",
    SpeedBrake: "Bremsklappe",
  },
  russian: {
    Flight_Aileron_R: "Элерон_правый",
    LeftAileron: "элерон левый",
    flap_rh: "Закрылок_правый",
    "Flap.L": "закрылок левый",
    Spoiler_R_1: "Интерцептор_правый_1",
    Spoiler_L_1: "интерцептор левый 1",
    Rudder: "Руль направления левый",
    rud_r: "руль_направления_правый",
    SpeedBrake: "Воздушный тормоз",
  },
  japanese: {
    Flight_Aileron_R: "右エルロン",
    LeftAileron: "左エルロン",
    flap_rh: "右フラップ",
    "Flap.L": "左フラップ",
    Spoiler_R_2: "右スポイラー2",
    Spoiler_L_2: "左スポイラー2",
    Canard_R: "右カナード",
    CanardLeft: "左カナード",
    Rudder: "左ラダー",
    rud_r: "右ラダー",
    SpeedBrake: "エアブレーキ",
  },
  chinese: {
    Flight_Aileron_R: "右副翼",
    LeftAileron: "左副翼",
    flap_rh: "右襟翼",
    "Flap.L": "左襟翼",
    Spoiler_R_1: "右扰流板1",
    Spoiler_L_1: "左扰流板1",
    Canard_R: "右鸭翼",
    CanardLeft: "左鸭翼",
    Rudder: "左方向舵",
    rud_r: "右方向舵",
    SpeedBrake: "减速板",
  },
};

const source = (await runNode(demoFighter, {})).scene;
const english = await rig(source, { forward: "auto", up: "auto" });

/** What must not depend on the language of a part's name. */
const facts = (part: ReportPart) => ({
  kind: part.kind,
  side: part.side,
  found_by: part.found_by,
  hinge: part.hinge?.aircraft,
});

for (const [language, names] of Object.entries(NAMES)) {
  Deno.test(`surfaces named in ${language} rig as the same parts as in English`, async () => {
    const scene = copyScene(source);
    for (const node of scene.getRoot().listNodes()) {
      const name = names[node.getName()];
      if (name) node.setName(name);
    }
    const translated = await rig(scene, { forward: "auto", up: "auto" });
    const byName = new Map(translated.report.parts.map((part) => [part.name, part]));
    // Parts are reported by their pivot's name, `HINGE_auto_` and the surface's.
    const translate = (name: string) =>
      name.replace(/^(HINGE_auto_)?(.*)$/, (_, pivot, rest) => `${pivot ?? ""}${names[rest] ?? rest}`);
    const differ = english.report.parts.flatMap((part) => {
      const other = byName.get(translate(part.name));
      const same = other && JSON.stringify(facts(other)) === JSON.stringify(facts(part));
      return same ? [] : [`${part.name} → ${translate(part.name)}: ${JSON.stringify(other && facts(other))}`];
    });
    assertEquals(differ, []);
    assertEquals(translated.report.parts.length, english.report.parts.length);
  });
}
