/**
 * Scenes where a posed figure is copied by Daz Studio node instances (Create → New Node Instance(s)
 * on a figure, "Copy Modifiers" on or off: a crowd or a row of guards), as Daz Studio saves them:
 * the figure moved and turned, its bones posed, now and then a prop parented to a bone (a hat on the
 * head), one to three instances at the root, some an instance of another instance. Daz Studio draws
 * each instance as the figure as posed, at the instance's place.
 *
 * What a correct decode draws is worked out without the decoder's instance code: the same scene
 * without instances is decoded, and each of its drawn meshes must be drawn once more per instance,
 * moved by `world(instance) · world(figure)⁻¹`.
 *
 * @module
 */
import { generateFigure, type Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";
import { boxGeometry, channel3, invertRigid, type M4, mul, placed } from "./instance_habits.ts";
import { instanceExtra } from "./instance_habits.ts";

/** One generated scene. */
export interface FigureInstanceCase {
  readonly seed: number;
  /** The scene with its instances. */
  readonly json: Json;
  /** The same scene without them. */
  readonly plain: Json;
  /** One matrix (cm) per copy the figure must get: world(instance) · world(figure)⁻¹. */
  readonly copies: readonly M4[];
  readonly habits: readonly string[];
  /** Instances with "Copy Modifiers" off: each must be warned of by id (Daz's drawing of them is undocumented). */
  readonly copyModifiersOff: readonly string[];
}

/** The figure-instance case of `seed`. */
export function figureInstanceCase(seed: number): FigureInstanceCase {
  const r = prng(seed);
  const round = (x: number) => Math.round(x * 100) / 100;
  const habits = new Set<string>();
  let figureWorld: M4 = placed([0, 0, 0], 0);
  const make = (withInstances: boolean): Json => {
    const q = prng(seed * 13 + 5); // the same figure and pose both times
    const json = generateFigure({ side: 4, bones: 3, figureId: "Guard", spacing: 10 });
    for (const node of json.node_library as Json[]) {
      if (node.type !== "bone") continue;
      node.rotation = channel3([0, 0, 0]).map((c) => ({ ...c, current_value: round(q() * 50 - 25) }));
    }
    const scene = json.scene as { nodes: Json[] };
    const figureAt = placed([round(q() * 200 - 100), 0, round(q() * 200 - 100)], round(q() * 360 - 180));
    Object.assign(scene.nodes[0], location(figureAt));
    figureWorld = figureAt;
    if (q() < 0.5) {
      (json.geometry_library as Json[]).push(boxGeometry("Hat_geo", [0, 32, 0], 6));
      (json.node_library as Json[]).push({ id: "Hat", name: "Hat", type: "node" });
      scene.nodes.push({
        id: "Hat",
        url: "#Hat",
        name: "Hat",
        parent: "Guard-1:#Guard_bone2",
        geometries: [{ id: "Hat geometry", url: "#Hat_geo" }],
      });
    }
    if (withInstances) scene.nodes.push(...instances);
    return json;
  };
  const instances: Json[] = [];
  const worlds: M4[] = [];
  const copyModifiersOff: string[] = [];
  const count = 1 + Math.floor(r() * 3);
  for (let k = 0; k < count; k++) {
    const world = placed(
      [round(r() * 600 - 300), round(r() * 20), round(r() * 600 - 300)],
      round(r() * 360 - 180),
    );
    let target = "Guard-1";
    if (k > 0 && r() < 0.4) {
      habits.add("instance of an instance");
      target = `Guard ${Math.floor(r() * k) + 1}`;
    }
    const copyModifiers = r() < 0.7;
    habits.add(copyModifiers ? "Copy Modifiers on" : "Copy Modifiers off");
    if (!copyModifiers) copyModifiersOff.push(`Guard ${k + 1}`);
    const extra = instanceExtra(target, r() < 0.3);
    for (const entry of extra) {
      for (const c of (entry.channels ?? []) as { channel: Json }[]) {
        if (c.channel.id === "Copy Modifiers") c.channel.value = copyModifiers;
      }
    }
    instances.push({
      id: `Guard ${k + 1}`,
      url: "#instance",
      name: `Guard ${k + 1}`,
      ...location(world),
      extra,
    });
    worlds.push(world);
  }
  const json = make(true), plain = make(false);
  (json.node_library as Json[]).push({ id: "instance", name: "instance", type: "node" });
  if ((plain.scene as { nodes: Json[] }).nodes.some((n) => n.id === "Hat")) habits.add("prop on a bone");
  const copies = worlds.map((w) => mul(w, invertRigid(figureWorld)));
  return { seed, json, plain, copies, habits: [...habits], copyModifiersOff };
}

/** The translation and rotation channels of a rigid `T · Ry`. */
function location(m: M4): Json {
  const degrees = Math.round((Math.atan2(m[8], m[0]) * 180) / Math.PI * 100) / 100;
  return { translation: channel3([m[12], m[13], m[14]]), rotation: channel3([0, degrees, 0]) };
}
