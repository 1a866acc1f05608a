/**
 * Scenes with Daz Studio 4.9+ instance groups as scatter tools (UltraScatter and the like) and
 * Create → New Node Instances (as group) save them: one scene node whose `extra` holds
 * `{type: "studio/node/group_instance", instance_items: [...]}` beside the "Instance Target" channel,
 * each item a placement of the target (a prop, or a group of props) under that node. Habits mixed in:
 * items written as channel triples (`[{id: "x", value}]`, some with `current_value`) or as bare
 * `[x, y, z]` (community scripts), a turn about Y in the item's own `rotation_order`, uniform
 * `scale` or `general_scale` on some items, a moved and turned scatter node, an item naming no name,
 * the scatter node listed before its target, and the extra's entries in either order.
 *
 * What a correct decode draws is worked out by `expectedDraws`: each item is a child of the scatter
 * node copying the target, so the target's content is drawn at `world(scatter) · item · world(target)⁻¹`.
 *
 * @module
 */
import type { Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";
import { instanceExtra } from "./instance_habits.ts";
import {
  boxGeometry,
  channel3,
  expectedDraws,
  type InstanceCase,
  type Item,
  type M4,
  mul,
  placed,
} from "./instance_habits.ts";

/** The scatter case of `seed`. */
export function scatterCase(seed: number): InstanceCase {
  const r = prng(seed);
  const round = (x: number) => Math.round(x * 100) / 100;
  const habits = new Set<string>();
  const items: Item[] = [];
  const geometries: Json[] = [], definitions: Json[] = [], centres = new Map<string, number[]>();
  const prop = (id: string, parent?: number) => {
    const centre = [round(r() * 20 - 10), round(10 + r() * 30), round(r() * 20 - 10)];
    geometries.push(boxGeometry(`${id}_geo`, centre, round(8 + r() * 20)));
    centres.set(`${id}_geo`, centre);
    definitions.push({ id, name: id, type: "node", label: id });
    const local = placed([round(r() * 300 - 150), 0, round(r() * 300 - 150)], round(r() * 360 - 180));
    items.push({ id, parent, local, geometry: `${id}_geo` });
    return items.length - 1;
  };
  // The target: a prop, or a group of two or three props (a tree and its rocks).
  let target: number;
  const groupNodes = new Set<number>();
  if (r() < 0.5) {
    habits.add("target a group");
    target = items.length;
    groupNodes.add(target);
    items.push({ id: "Tree Group", local: placed([round(r() * 200), 0, round(r() * 200)], round(r() * 90)) });
    for (const name of ["Pine", "Rock", "Stump"].slice(0, 2 + Math.floor(r() * 2))) prop(name, target);
  } else target = prop("Pine");
  const scatterAt = placed([round(r() * 400 - 200), 0, round(r() * 400 - 200)], round(r() * 360 - 180));
  if (scatterAt[12] !== 0) habits.add("moved scatter node");
  const scatter = items.length;
  items.push({ id: "UltraScatter", local: scatterAt });
  const bare = r() < 0.4;
  habits.add(bare ? "items as bare [x, y, z]" : "items as channel triples");
  const written: Json[] = [];
  const count = 2 + Math.floor(r() * 12);
  for (let k = 0; k < count; k++) {
    const t = [round(r() * 2000 - 1000), round(r() * 20), round(r() * 2000 - 1000)];
    const degrees = round(r() * 360 - 180);
    const s = r() < 0.4 ? round(0.5 + r() * 1.5) : 1;
    const viaGeneral = s !== 1 && r() < 0.5;
    if (s !== 1) habits.add(viaGeneral ? "general_scale" : "uniform scale");
    const local = mul(placed(t, degrees), [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1] as M4);
    const name = r() < 0.1 ? undefined : `Item ${k}`;
    if (!name) habits.add("item without a name");
    items.push({ id: `UltraScatter ${name ?? k}`, parent: scatter, local, target });
    const triple = (v: number[]) =>
      bare ? v : channel3(v).map((c, a) => (r() < 0.3 ? { ...c, value: 0, current_value: v[a] } : c));
    const item: Json = {
      ...(name ? { name } : {}),
      translation: triple(t),
      rotation: triple([0, degrees, 0]),
      rotation_order: r() < 0.5 ? "YZX" : "XYZ",
    };
    if (viaGeneral) item.general_scale = bare ? s : { id: "general_scale", type: "float", value: s };
    else if (s !== 1) item.scale = triple([s, s, s]);
    written.push(item);
  }
  const expected = expectedDraws(items);
  const reversed = r() < 0.3;
  if (reversed) habits.add("extra in the other order");
  const extra = instanceExtra(items[target].id, false);
  extra[0] = { type: "studio/node/group_instance", instance_items: written };
  if (reversed) extra.reverse();
  const node = (i: number): Json => {
    const item = items[i], m = item.local;
    const degrees = round((Math.atan2(m[8], m[0]) * 180) / Math.PI);
    const url = groupNodes.has(i) ? "group" : i === scatter ? "instance_group" : item.id;
    return {
      id: item.id,
      url: `#${encodeURIComponent(url)}`,
      name: item.id,
      label: item.id,
      translation: channel3([m[12], m[13], m[14]]),
      rotation: channel3([0, degrees, 0]),
      ...(item.parent !== undefined ? { parent: `#${encodeURIComponent(items[item.parent].id)}` } : {}),
      ...(item.geometry ? { geometries: [{ id: `${item.id} geometry`, url: `#${item.geometry}` }] } : {}),
      ...(i === scatter ? { extra } : {}),
    };
  };
  const listed = items.map((_, i) => i).filter((i) => i <= scatter);
  if (r() < 0.35) {
    habits.add("scatter node listed first");
    listed.splice(listed.indexOf(scatter), 1);
    listed.unshift(scatter);
  }
  const json: Json = {
    file_version: "0.6.0.0",
    asset_info: { id: "/Scenes/Forest Scatter.duf", type: "scene" },
    geometry_library: geometries,
    node_library: [
      ...definitions,
      { id: "instance_group", name: "instance_group", type: "node", label: "Instance Group" },
      {
        id: "group",
        name: "group",
        type: "node",
        label: "Group",
        extra: [{ type: "studio/node/group_node" }],
      },
    ],
    scene: { nodes: listed.map(node) },
  };
  return { seed, json, expected, centres, orphans: [], habits: [...habits] };
}
