/**
 * Scenes with Daz Studio node instances, as Daz Studio saves them after Create → New Node
 * Instance(s): props (boxes, some with a child prop — a lamp and its shade), and 1–5 instance
 * nodes each written as a scene node with `extra: [{type: "studio/node/instance"}, {type:
 * "studio_node_channels", channels: [{channel: {id: "Instance Target", type: "node", node:
 * "#Tree%20Prop"}}]}]` (the target's instance id, URI-encoded), moved and turned away from the
 * target. Habits mixed in: an instance of an instance (a row of trees made by instancing the last
 * copy), an instance listed before its target, an instance under a moved group node, the extra's
 * two entries in the other order (community writers), and now and then an instance whose target was deleted from the scene.
 *
 * What a correct decode draws is worked out here: each geometry drawn once at its own world
 * transform and once more per instance that reaches its prop (directly or through other instances),
 * at the instance's world transform times the geometry's transform relative to the prop; an
 * instance of a deleted target draws nothing and is warned of.
 *
 * @module
 */
import type { Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";

/** A 4×4 column-major matrix. */
export type M4 = number[];

/** One generated scene. */
export interface InstanceCase {
  readonly seed: number;
  readonly json: Json;
  /** For each geometry id, the world matrices (cm) it must be drawn at, own first. */
  readonly expected: ReadonlyMap<string, readonly M4[]>;
  /** A reference point of each geometry (cm, its file coordinates): its centre. */
  readonly centres: ReadonlyMap<string, readonly number[]>;
  /** Instances whose target is not in the scene (each must be warned of by its id). */
  readonly orphans: readonly string[];
  readonly habits: readonly string[];
}

/** `a · b`. */
/** The instance `extra` Daz Studio writes, naming target id `target`. */
export function instanceExtra(target: string, reversed: boolean): Json[] {
  const extra: Json[] = [
    { type: "studio/node/instance" },
    {
      type: "studio_node_channels",
      channels: [
        {
          channel: {
            id: "Instance Target",
            type: "node",
            name: "Instance Target",
            label: "Target",
            node: `#${encodeURIComponent(target)}`,
          },
          group: "/Instance",
        },
        { channel: { id: "Copy Modifiers", type: "bool", value: true } },
      ],
    },
  ];
  return reversed ? extra.reverse() : extra;
}

export function mul(a: M4, b: M4): M4 {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
    }
  }
  return out;
}

/** `m · p` for a point. */
export function apply(m: M4, p: readonly number[]): number[] {
  return [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
}

/** Translation then rotation about Y (degrees): T · Ry. */
export function placed(t: readonly number[], degrees: number): M4 {
  const a = (degrees * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  return [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, t[0], t[1], t[2], 1];
}

/** The inverse of a rigid `T · Ry`. */
export function invertRigid(m: M4): M4 {
  const r = [m[0], m[4], m[8], 0, m[1], m[5], m[9], 0, m[2], m[6], m[10], 0, 0, 0, 0, 1];
  const t = apply(r, [m[12], m[13], m[14]]);
  r[12] = -t[0], r[13] = -t[1], r[14] = -t[2];
  return r;
}

/** One scene node of a generated case: a prop, a group or an instance. */
export interface Item {
  id: string;
  parent?: number;
  local: M4;
  geometry?: string;
  target?: number;
  orphan?: string;
}

/**
 * What a correct decode draws, by geometry id: each geometry at its world matrix, and once more per
 * instance reaching it, at the instance's world matrix times the geometry's matrix relative to the
 * instance's target (a group target: its whole subtree, instances inside it included).
 */
export function expectedDraws(items: readonly Item[]): Map<string, M4[]> {
  const world = (i: number): M4 => {
    const item = items[i];
    return item.parent === undefined ? item.local : mul(world(item.parent), item.local);
  };
  const draws = (i: number): [string, M4][] => {
    const item = items[i];
    if (item.target === undefined) {
      if (item.orphan !== undefined) return [];
      const own: [string, M4][] = item.geometry ? [[item.geometry, world(i)]] : [];
      const children = items.flatMap((c, j) => (c.parent === i ? draws(j) : []));
      return [...own, ...children];
    }
    const t = item.target;
    const back = invertRigid(world(t));
    return draws(t).map(([g, m]) => [g, mul(world(i), mul(back, m))]);
  };
  const expected = new Map<string, M4[]>();
  for (let i = 0; i < items.length; i++) {
    if (items[i].parent !== undefined) continue; // drawn with its parent
    for (const [g, m] of draws(i)) expected.set(g, [...(expected.get(g) ?? []), m]);
  }
  return expected;
}

/** A box prop's geometry (surface "Bark") as Daz writes a primitive cube: 8 vertices, 6 quads. */
export function boxGeometry(id: string, centre: readonly number[], size: number): Json {
  const h = size / 2;
  const v = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => [
    centre[0] + (k & 1 ? h : -h),
    centre[1] + (k & 2 ? h : -h),
    centre[2] + (k & 4 ? h : -h),
  ]);
  const faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  return {
    id,
    name: id,
    type: "polygon_mesh",
    vertices: { count: 8, values: v },
    polygon_groups: { count: 1, values: ["default"] },
    polygon_material_groups: { count: 1, values: ["Bark"] },
    polylist: { count: 6, values: faces.map((f) => [0, 0, ...f]) },
  };
}

/** A DSON channel triple of values `v`. */
export const channel3 = (v: readonly number[]) =>
  ["x", "y", "z"].map((axis, k) => ({ id: axis, type: "float", value: v[k] }));

/** The case of `seed`. */
export function instanceCase(seed: number): InstanceCase {
  const r = prng(seed);
  const round = (x: number) => Math.round(x * 100) / 100;
  const habits: string[] = [];
  const items: Item[] = [];
  const geometries: Json[] = [], definitions: Json[] = [], centres = new Map<string, number[]>();
  const box = (id: string, centre: number[], size: number) => {
    geometries.push(boxGeometry(`${id}_geo`, centre, size));
    centres.set(`${id}_geo`, centre);
  };
  const props = 2 + Math.floor(r() * 3);
  for (let p = 0; p < props; p++) {
    const id = ["Tree Prop", "Rock", "Lamp", "Fence Post", "Barrel"][p];
    const local = placed([round(r() * 400 - 200), 0, round(r() * 400 - 200)], round(r() * 360 - 180));
    box(id, [round(r() * 20 - 10), round(20 + r() * 40), round(r() * 20 - 10)], round(10 + r() * 30));
    definitions.push({ id, name: id, type: "node", label: id });
    items.push({ id, local, geometry: `${id}_geo` });
    if (r() < 0.4) {
      const child = `${id} Shade`;
      habits.push("child prop");
      box(child, [round(r() * 10), round(80 + r() * 20), round(r() * 10)], round(5 + r() * 10));
      definitions.push({ id: child, name: child, type: "node", label: child });
      items.push({
        id: child,
        parent: items.length - 1,
        local: placed([0, round(r() * 10), 0], 0),
        geometry: `${child}_geo`,
      });
    }
  }
  const propItems = items.map((_, i) => i).filter((i) => items[i].parent === undefined);
  let group: number | undefined;
  if (r() < 0.4) {
    habits.push("instances under a moved group");
    group = items.length;
    items.push({
      id: "Instances Group",
      local: placed([round(r() * 100), 0, round(r() * 100)], round(r() * 90)),
    });
  }
  const instanceCount = 1 + Math.floor(r() * 5);
  const instances: number[] = [];
  for (let k = 0; k < instanceCount; k++) {
    const id = `${items[propItems[0]].id} ${k + 1}`.replace("Tree Prop", "Tree Prop Instance");
    const item: Item = {
      id,
      parent: group !== undefined && r() < 0.6 ? group : undefined,
      local: placed(
        [round(r() * 400 - 200), round(r() * 20), round(r() * 400 - 200)],
        round(r() * 360 - 180),
      ),
    };
    const roll = r();
    if (instances.length && roll < 0.35) {
      habits.push("instance of an instance");
      item.target = instances[Math.floor(r() * instances.length)];
    } else if (roll > 0.92) {
      habits.push("deleted target");
      item.orphan = "Deleted Tree";
    } else item.target = propItems[Math.floor(r() * propItems.length)];
    instances.push(items.length);
    items.push(item);
  }
  const expected = expectedDraws(items);
  // The scene, as Daz Studio saves it.
  const order = items.map((_, i) => i);
  if (r() < 0.3) {
    habits.push("instance listed before its target");
    const first = instances[0];
    order.splice(order.indexOf(first), 1);
    order.unshift(first);
    if (items[first].parent !== undefined) {
      order.splice(order.indexOf(items[first].parent!), 1);
      order.unshift(items[first].parent!);
    }
  }
  const sceneNodes = order.map((i) => {
    const item = items[i];
    const m = item.local;
    const degrees = Math.round((Math.atan2(m[8], m[0]) * 180) / Math.PI * 100) / 100;
    const node: Json = {
      id: item.id,
      url: `#${encodeURIComponent(item.target !== undefined || item.orphan ? "instance" : item.id)}`,
      name: item.id,
      label: item.id,
      translation: channel3([m[12], m[13], m[14]]),
      rotation: channel3([0, degrees, 0]),
    };
    if (item.parent !== undefined) node.parent = `#${encodeURIComponent(items[item.parent].id)}`;
    if (item.geometry) {
      node.geometries = [{ id: `${item.id} geometry`, url: `#${encodeURIComponent(item.geometry)}` }];
    }
    if (item.id === "Instances Group") node.url = "#group";
    if (item.target !== undefined || item.orphan) {
      const targetId = item.orphan ?? items[item.target!].id;
      const extra = instanceExtra(targetId, false);
      if (r() < 0.25) {
        habits.push("extra in the other order");
        extra.reverse();
      }
      node.extra = extra;
    }
    return node;
  });
  const json: Json = {
    file_version: "0.6.0.0",
    asset_info: { id: "/Scenes/Forest.duf", type: "scene", contributor: { author: "Vendor", version: 1 } },
    geometry_library: geometries,
    node_library: [
      ...definitions,
      { id: "instance", name: "instance", type: "node", label: "Instance" },
      { id: "group", name: "group", type: "node", label: "Group" },
    ],
    scene: { nodes: sceneNodes },
  };
  const orphans = items.filter((i) => i.orphan !== undefined).map((i) => i.id);
  // An instance of an orphan draws nothing either, unwarned: its target's warning says why.
  return { seed, json, expected, centres, orphans, habits };
}
