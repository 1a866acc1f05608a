/**
 * Scenes with instances of group nodes, as Daz Studio 4.9+ saves them: props gathered under a group
 * (Create → New Group, a scene node over the `group` definition with `extra` `studio/node/group_node`),
 * groups nested in groups, and Create → New Node Instance(s) run on a group, so the instance's
 * "Instance Target" names the group and the copy is the group's whole subtree. Habits mixed in: a
 * group holding an instance of a prop (a copy inside the copied group), an instance of an instance
 * of a group (a row of copies made by instancing the last one), instances listed before the group
 * they copy, a group listed after its children's instances, the instance's `extra` entries in either
 * order, and a moved, turned group (so a copy made in place must undo the group's own transform).
 *
 * The expected drawing is worked out by `expectedDraws` from the item tree, independently of the
 * decoder: each geometry once at its world matrix and once per instance reaching it.
 *
 * @module
 */
import type { Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";
import {
  boxGeometry,
  channel3,
  expectedDraws,
  type InstanceCase,
  instanceExtra,
  type Item,
  placed,
} from "./instance_habits.ts";

/** The group-instance case of `seed`. */
export function groupInstanceCase(seed: number): InstanceCase {
  const r = prng(seed);
  const round = (x: number) => Math.round(x * 100) / 100;
  const at = (spread: number) =>
    placed(
      [round(r() * spread - spread / 2), round(r() * 10), round(r() * spread - spread / 2)],
      round(r() * 360 - 180),
    );
  const habits = new Set<string>();
  const items: Item[] = [];
  const kinds: ("prop" | "group" | "instance")[] = [];
  const geometries: Json[] = [], definitions: Json[] = [], centres = new Map<string, number[]>();
  const add = (
    item: Item,
    kind: "prop" | "group" | "instance",
  ) => (items.push(item), kinds.push(kind), items.length - 1);
  const prop = (id: string, parent?: number) => {
    const centre = [round(r() * 20 - 10), round(10 + r() * 30), round(r() * 20 - 10)];
    geometries.push(boxGeometry(`${id}_geo`, centre, round(8 + r() * 20)));
    centres.set(`${id}_geo`, centre);
    definitions.push({ id, name: id, type: "node", label: id });
    return add({ id, parent, local: at(parent === undefined ? 400 : 120), geometry: `${id}_geo` }, "prop");
  };
  // One or two groups of props; the second sometimes inside the first.
  const groups: number[] = [];
  const groupCount = 1 + (r() < 0.5 ? 1 : 0);
  let propNo = 0;
  const names = ["Chair", "Table", "Vase", "Lamp", "Crate", "Bench", "Pot", "Sign"];
  for (let g = 0; g < groupCount; g++) {
    const nested = g > 0 && r() < 0.5;
    if (nested) habits.add("nested groups");
    const group = add({
      id: g ? `Group ${g + 1}` : "Group",
      parent: nested ? groups[0] : undefined,
      local: at(300),
    }, "group");
    groups.push(group);
    const members = 1 + Math.floor(r() * 3);
    for (let m = 0; m < members; m++) {
      prop(names[propNo++ % names.length] + (propNo > names.length ? ` ${propNo}` : ""), group);
    }
  }
  if (r() < 0.5) prop("Rock");
  // A copy of one of the group's props inside the group (made before the group was instanced).
  if (r() < 0.45) {
    habits.add("instance inside the copied group");
    const inside = groups[Math.floor(r() * groups.length)];
    const props = items.flatMap((item, i) => (kinds[i] === "prop" && item.parent === inside ? [i] : []));
    add(
      { id: `${items[props[0]].id} Instance`, parent: inside, local: at(120), target: props[0] },
      "instance",
    );
  }
  // Instances of the groups (and of earlier instances of them), at the root.
  const copies: number[] = [];
  const count = 1 + Math.floor(r() * 4);
  for (let k = 0; k < count; k++) {
    let target = groups[Math.floor(r() * groups.length)];
    if (copies.length && r() < 0.4) {
      habits.add("instance of an instance of a group");
      target = copies[Math.floor(r() * copies.length)];
    }
    copies.push(add({ id: `Group Instance ${k + 1}`, local: at(600), target }, "instance"));
  }
  const expected = expectedDraws(items);
  // The scene, as Daz Studio saves it: parents before children, save for the habits below.
  const order = items.map((_, i) => i);
  if (r() < 0.35) {
    habits.add("instance listed before the group it copies");
    const first = copies[0];
    order.splice(order.indexOf(first), 1);
    order.unshift(first);
  }
  const reversed = r() < 0.3;
  if (reversed) habits.add("extra in the other order");
  const sceneNodes = order.map((i) => {
    const item = items[i], m = item.local;
    const degrees = round((Math.atan2(m[8], m[0]) * 180) / Math.PI);
    const url = kinds[i] === "prop" ? item.id : kinds[i];
    const node: Json = {
      id: item.id,
      url: `#${encodeURIComponent(url)}`,
      name: item.id,
      label: item.id,
      translation: channel3([m[12], m[13], m[14]]),
      rotation: channel3([0, degrees, 0]),
    };
    if (item.parent !== undefined) node.parent = `#${encodeURIComponent(items[item.parent].id)}`;
    if (item.geometry) {
      node.geometries = [{ id: `${item.id} geometry`, url: `#${encodeURIComponent(item.geometry)}` }];
    }
    if (item.target !== undefined) node.extra = instanceExtra(items[item.target].id, reversed);
    return node;
  });
  const json: Json = {
    file_version: "0.6.0.0",
    asset_info: {
      id: "/Scenes/Dining Room.duf",
      type: "scene",
      contributor: { author: "Vendor", version: 1 },
    },
    geometry_library: geometries,
    node_library: [
      ...definitions,
      { id: "instance", name: "instance", type: "node", label: "Instance" },
      {
        id: "group",
        name: "group",
        type: "node",
        label: "Group",
        extra: [{ type: "studio/node/group_node" }],
      },
    ],
    scene: { nodes: sceneNodes },
  };
  return { seed, json, expected, centres, orphans: [], habits: [...habits] };
}
