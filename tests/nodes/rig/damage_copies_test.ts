/**
 * Damage-state copies drawn beside the intact surface (`rough_surfaces.ts`: IL-2's `_D0`…`_D3`, `_dmg`
 * and its kin, DCS's `_DAMAGE`, War Thunder's `_dm` boxes in an `xray` group): each intact surface is
 * fitted alone and every copy turns about its hinge (`nodes/rig/damage_states.ts`). Held-out seeds
 * (developed on 0–155). Before v64, of 320 surfaces and 480 copies on seeds 1001–1360, 457 were off
 * (156 judged good: a War Thunder box pulled both its surface's and its own hinge 14–33° off).
 *
 * @module
 */
import assert from "node:assert";
import { Document } from "@gltf-transform/core";
import { damageLevel, leastDamaged } from "../../../nodes/rig/damage_states.ts";
import { judgeRough } from "./rough_tally.ts";
import { ROUGHS } from "./rough_surfaces.ts";

const DAMAGE = ["damage_levels", "damage_words", "dcs_damage", "wt_dm"];

Deno.test("damage-state copies: every intact surface right, every copy on its hinge", async () => {
  let surfaces = 0, copies = 0;
  const wrong: string[] = [];
  for (let seed = 2001; seed <= 2132; seed++) {
    const rough = ROUGHS[seed % ROUGHS.length];
    if (!DAMAGE.includes(rough)) continue;
    const verdict = await judgeRough(seed);
    surfaces += verdict.panels, copies += verdict.copies;
    if (verdict.wrong.length) wrong.push(`${verdict.description}: ${verdict.wrong.join("; ")}`);
  }
  console.log(`damage copies: ${surfaces} surfaces, ${copies} copies, ${wrong.length} scenes wrong`);
  assert(surfaces >= 80 && copies >= 160, `${surfaces} surfaces, ${copies} copies`);
  assert(wrong.length === 0, wrong.slice(0, 4).join("\n"));
});

Deno.test("damage marks: IL-2 levels, words, an xray group; the least damaged of a group", () => {
  const doc = new Document();
  const names = ["AroneL_D0", "AroneL_D3", "Aileron_L_dmg_0", "Aileron_L", "Flap_D", "Rudder_intact"];
  const nodes = names.map((n) => doc.createNode(n));
  assert.deepStrictEqual(nodes.map(damageLevel), [0, 3, 1, undefined, undefined, 0]);
  const xray = doc.createNode("xray").addChild(doc.createNode("aileron_l"));
  assert.strictEqual(damageLevel(xray.listChildren()[0]), 1);
  assert.deepStrictEqual(leastDamaged([nodes[1], nodes[0]]).map((n) => n.getName()), ["AroneL_D0"]);
  assert.deepStrictEqual(leastDamaged([nodes[2], nodes[3]]).map((n) => n.getName()), ["Aileron_L"]);
});
