/**
 * Rigid followers (`studio/node/rigid_follow`) whose props users have scaled per axis, as Daz Studio
 * scenes hold them: a bracelet stretched along one axis ("X Scale 140%"), squashed along two, mirrored
 * (a negative scale on one axis, to make a left earring of a right one), with `general_scale` on top,
 * on a node whose `orientation` turns its axes (store props are often modelled in another frame) and
 * whose `rotation_order` is not XYZ. The figure, its body shape and the followers' rigidity modes are
 * `follower_shape_habits.ts`'s (with modes).
 *
 * Where Daz draws each prop is worked out here from the DSON transform (docs: formats B.6): the node's
 * scale acts in its oriented frame, `c + t + O·R·S·g·O⁻¹·(p − c)`, then the group's fit of its reference
 * vertices from the base figure to the shaped one moves that place ({@link expectedFollower}).
 *
 * @module
 */
import { channels } from "./generate.ts";
import { prng } from "../../../support/prng.ts";
import {
  eulerRows,
  type FollowerCase,
  type FollowerShapeCase,
  followerShapeCase,
} from "./follower_shape_habits.ts";
import type { V3 } from "./rigidity_reference.ts";

const mulRows = (a: V3[], b: V3[]): V3[] =>
  a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j] + row[1] * b[1][j] + row[2] * b[2][j]) as V3);
const transpose = (a: V3[]): V3[] => [0, 1, 2].map((i) => [a[0][i], a[1][i], a[2][i]] as V3);

/** A case of props scaled per axis: the follower case and what was drawn for each prop. */
export interface AxisScaleCase {
  readonly c: FollowerShapeCase;
  readonly followers: FollowerCase[];
  /** Per follower: its scale, general scale, orientation and rotation order as written. */
  readonly habits: string[];
}

const ORDERS = ["XYZ", "YZX", "ZXY", "XZY", "YXZ", "ZYX"];

/** The case of `seed`. */
export function axisScaleCase(seed: number): AxisScaleCase {
  const c = followerShapeCase(seed, { modes: true });
  const r = prng(seed * 71 + 13);
  const round = (x: number, step: number) => Math.round(x / step) * step;
  const library = c.json.node_library as Record<string, unknown>[];
  const geometries = c.json.geometry_library as { id: string; vertices: { values: V3[] } }[];
  const value = (node: Record<string, unknown>, key: string) =>
    (node[key] as { value: number }[]).map((ch) => ch.value);
  const habits: string[] = [];
  const followers = c.followers.map((f) => {
    const node = library.find((n) => n.id === f.name)!;
    // Daz's scale dials read in percent: whole percents.
    const s: V3 = [1, 1, 1];
    const axes = r() < 0.6 ? 1 : r() < 0.7 ? 2 : 3;
    const first = Math.floor(r() * 3);
    for (let k = 0; k < axes; k++) s[(first + k) % 3] = round(0.4 + r() * 1.8, 0.01);
    const mirrored = r() < 0.25;
    if (mirrored) s[Math.floor(r() * 3)] *= -1;
    const general = r() < 0.35 ? round(0.6 + r() * 0.9, 0.01) : 1;
    const oriented = r() < 0.5;
    const orientation: V3 = oriented
      ? (r() < 0.5
        ? [0, 0, 0].map(() => [0, 90, -90, 180][Math.floor(r() * 4)]) as V3
        : [0, 0, 0].map(() => round(r() * 180 - 90, 0.5)) as V3)
      : [0, 0, 0];
    const order = ORDERS[Math.floor(r() * ORDERS.length)];
    node.scale = channels("float", s);
    if (general !== 1) {
      node.general_scale = { id: "general_scale", type: "float", value: general, current_value: general };
    }
    node.orientation = channels("float", orientation);
    node.rotation_order = order;
    habits.push(
      `${f.name}: scale ${s.join("/")}${mirrored ? " (mirrored)" : ""}, general ${general}, orientation ${
        orientation.join("/")
      }, ${order}, ${f.rotation} ${f.scale.join("/")}`,
    );
    const cp = value(node, "center_point"), t = value(node, "translation");
    const o = eulerRows(orientation, "XYZ");
    const linear = mulRows(
      mulRows(o, eulerRows(value(node, "rotation"), order)),
      mulRows(s.map((x, k) => [0, 1, 2].map((j) => (j === k ? x * general : 0))) as V3[], transpose(o)),
    );
    const geometry = geometries.find((g) => g.id === `${f.name}_geo`)!;
    const written = geometry.vertices.values.map((p) => {
      const d = [0, 1, 2].map((k) => p[k] - cp[k]);
      return [0, 1, 2].map((k) =>
        cp[k] + t[k] + linear[k][0] * d[0] + linear[k][1] * d[1] + linear[k][2] * d[2]
      ) as V3;
    });
    return { ...f, written };
  });
  return { c, followers, habits };
}

/** A prop of a nested case: its node's key and where Daz draws its vertices (cm). */
export interface NestedProp {
  readonly key: string;
  readonly drawn: V3[];
  readonly habit: string;
}

/**
 * Props nested under a group node a user scaled per axis (a shelf of items stretched to fit a room,
 * a "Group" node at 100/140/100 %), each prop turned in it (or not, or only about the stretched axis),
 * some modelled in another frame (`orientation`), some mirrored, now and then the group scaled evenly
 * or not at all. Where Daz draws each is DSON's composition (formats B.6): the group's world transform
 * carries the prop's offset; the prop's vertices turn by the group's rotation then its own, and
 * stretch by the group's scale then its own, both in world axes: `o + Rg·Rp·Sg·Sp·(p − c)`.
 */
export function nestedScaleCase(seed: number): { json: Record<string, unknown>; props: NestedProp[] } {
  const r = prng(seed);
  const round = (x: number, step: number) => Math.round(x / step) * step;
  const habit = r();
  // Scaled per axis (60 %), evenly (20 %), or not at all.
  const gs: V3 = [1, 1, 1];
  if (habit < 0.6) {
    for (let k = 0; k < 3; k++) if (r() < 0.5) gs[k] = round(0.5 + r() * 1.5, 0.01);
    if (!gs.some((x) => x !== 1)) gs[Math.floor(r() * 3)] = round(1.1 + r(), 0.01);
  } else if (habit < 0.8) gs.fill(round(0.5 + r() * 1.5, 0.01));
  if (r() < 0.15) gs[Math.floor(r() * 3)] *= -1;
  const gc: V3 = [round(r() * 100 - 50, 0.1), round(r() * 100, 0.1), round(r() * 100 - 50, 0.1)];
  const gt: V3 = [round(r() * 20 - 10, 0.1), 0, round(r() * 20 - 10, 0.1)];
  const gturn: V3 = [0, round(r() * 360 - 180, 1), 0];
  const go = eulerRows([0, 0, 0], "XYZ");
  const gr = eulerRows(gturn, "XYZ");
  const gS = gs.map((x, k) => [0, 1, 2].map((j) => (j === k ? x : 0))) as V3[];
  const geometries: unknown[] = [], library: Record<string, unknown>[] = [], nodes: unknown[] = [];
  library.push({
    id: "Group",
    name: "Group",
    type: "node",
    center_point: channels("float", gc),
    translation: channels("float", gt),
    rotation: channels("float", gturn),
    scale: channels("float", gs),
  });
  nodes.push({ id: "Group-1", url: "#Group" });
  const props: NestedProp[] = [];
  const many = 1 + Math.floor(r() * 3);
  for (let i = 0; i < many; i++) {
    const name = `Item${i}`;
    const size = round(2 + r() * 28, 0.1);
    const c: V3 = gc.map((x) => round(x + r() * 40 - 20, 0.1)) as V3;
    const t: V3 = [round(r() * 4 - 2, 0.01), round(r() * 4 - 2, 0.01), round(r() * 4 - 2, 0.01)];
    const kind = r();
    const turn: V3 = kind < 0.25
      ? [0, 0, 0]
      : kind < 0.45
      ? [0, 0, 0].map((_, k) =>
        (gs[k] !== gs[(k + 1) % 3] || gs[k] !== gs[(k + 2) % 3]) && r() < 0.5 ? 0 : 0
      ) as V3
      : [round(r() * 120 - 60, 0.5), round(r() * 120 - 60, 0.5), round(r() * 120 - 60, 0.5)];
    if (kind >= 0.25 && kind < 0.45) {
      // Turned only about an axis the group's scale is even across (a lamp spun on a stretched floor).
      const axis = [0, 1, 2].find((k) => gs[(k + 1) % 3] === gs[(k + 2) % 3]);
      if (axis !== undefined) turn[axis] = round(r() * 180 - 90, 0.5);
    }
    const orientation: V3 = r() < 0.3 ? [0, round(r() * 180 - 90, 0.5), 0] : [0, 0, 0];
    const ps: V3 = r() < 0.3 ? [1, 1, 1].map(() => round(0.7 + r() * 0.6, 0.01)) as V3 : [1, 1, 1];
    const order = ORDERS[Math.floor(r() * ORDERS.length)];
    const vertices: V3[] = [[-1, -1, 0], [1, -1, 0], [1, 1, 0.5], [-1, 1, -0.5]].map((p) =>
      p.map((x, k) => round(c[k] + x * size / 2, 0.0001)) as V3
    );
    geometries.push({
      id: `${name}_geo`,
      name: `${name}_geo`,
      type: "polygon_mesh",
      vertices: { count: 4, values: vertices },
      polygon_groups: { count: 1, values: ["g"] },
      polygon_material_groups: { count: 1, values: ["m"] },
      polylist: { count: 1, values: [[0, 0, 0, 1, 2, 3]] },
    });
    library.push({
      id: name,
      name,
      type: "node",
      rotation_order: order,
      center_point: channels("float", c),
      orientation: channels("float", orientation),
      translation: channels("float", t),
      rotation: channels("float", turn),
      scale: channels("float", ps),
    });
    nodes.push({
      id: `${name}-1`,
      url: `#${name}`,
      parent: "#Group-1",
      geometries: [{ id: `${name}_geo-1`, url: `#${name}_geo` }],
    });
    // DSON's composition: the group's transform carries the offset; rotation and scale compose apart.
    const o = eulerRows(orientation, "XYZ"), ob = transpose(o);
    const pr = mulRows(mulRows(o, eulerRows(turn, order)), ob);
    const pS = mulRows(mulRows(o, ps.map((x, k) => [0, 1, 2].map((j) => (j === k ? x : 0))) as V3[]), ob);
    const groupLinear = mulRows(mulRows(mulRows(go, gr), transpose(go)), gS);
    const offset = [0, 1, 2].map((k) => c[k] - gc[k] + t[k]);
    const origin = [0, 1, 2].map((k) =>
      gc[k] + gt[k] + groupLinear[k][0] * offset[0] + groupLinear[k][1] * offset[1] +
      groupLinear[k][2] * offset[2]
    );
    const linear = mulRows(mulRows(gr, pr), mulRows(gS, pS));
    const drawn = vertices.map((p) => {
      const d = [0, 1, 2].map((k) => p[k] - c[k]);
      return [0, 1, 2].map((k) =>
        origin[k] + linear[k][0] * d[0] + linear[k][1] * d[1] + linear[k][2] * d[2]
      ) as V3;
    });
    props.push({
      key: `${name}-1`,
      drawn,
      habit: `group ${gs.join("/")}, turn ${turn.join("/")} ${order}, orientation ${orientation[1]}, own ${
        ps.join("/")
      }`,
    });
  }
  const json = {
    file_version: "0.6.0.0",
    asset_info: { id: `/scenes/nested${seed}.duf`, type: "scene" },
    geometry_library: geometries,
    node_library: library,
    scene: { nodes },
  };
  return { json, props };
}
