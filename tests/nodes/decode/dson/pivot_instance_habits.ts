/**
 * Node instances of store props that have their own pivot, as Daz Studio scenes hold them: a prop's
 * `center_point` at its base or somewhere in a room set (its geometry written where it stands, in
 * scene coordinates, as every DSON mesh is), now and then an `orientation` turning its axes; the
 * prop moved and turned about that pivot. Instances (Create → New Node Instance(s)) and scatter
 * items (`studio/node/group_instance`) of it are moved and turned; an instance node's own pivot is
 * at the origin (the instance node's definition has none), or copied from its target's (a
 * duplicated node turned into an instance), and an item's likewise.
 *
 * What Daz draws is worked out with DSON's own transform rule, not the decoder's: a node's world
 * transform is its parent's times `T(translation) · T(c) · O · R · O⁻¹ · T(−c)` (c its centre
 * point, O its orientation, R its rotation in its order), a transform that leaves geometry where
 * the file writes it when nothing is moved. A copy draws the target's geometry as it stands in the
 * target's own frame, so at `world(instance) · world(target)⁻¹ · world(target) · v =
 * world(instance) · v`; where the instance's pivot is the target's this is the decoder's reading
 * before v56 too, and where it is not, that reading put the copy off by the difference.
 *
 * @module
 */
import type { Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";
import { boxGeometry, channel3, instanceExtra, type M4, mul } from "./instance_habits.ts";

/** One generated scene: each geometry's centre (cm) where it must be drawn, own place first. */
export interface PivotCase {
  readonly seed: number;
  readonly json: Json;
  /** Geometry id → the points (cm) its centre must be drawn at. */
  readonly expected: ReadonlyMap<string, readonly number[][]>;
  readonly habits: readonly string[];
}

/** Rotation (4×4, column-major) of Euler degrees applied X first, then Y, then Z. */
function euler(d: readonly number[]): M4 {
  const [x, y, z] = d.map((v) => (v * Math.PI) / 180);
  const rx: M4 = [1, 0, 0, 0, 0, Math.cos(x), Math.sin(x), 0, 0, -Math.sin(x), Math.cos(x), 0, 0, 0, 0, 1];
  const ry: M4 = [Math.cos(y), 0, -Math.sin(y), 0, 0, 1, 0, 0, Math.sin(y), 0, Math.cos(y), 0, 0, 0, 0, 1];
  const rz: M4 = [Math.cos(z), Math.sin(z), 0, 0, -Math.sin(z), Math.cos(z), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  return mul(rz, mul(ry, rx));
}

const shift = (t: readonly number[]): M4 => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, t[0], t[1], t[2], 1];
const transpose = (m: M4): M4 => [0, 1, 2, 3].flatMap((c) => [0, 1, 2, 3].map((r) => m[r * 4 + c]));

/** A node's frame: translation, centre point, orientation and rotation (cm, degrees). */
interface Frame {
  t: number[];
  c: number[];
  o: number[];
  r: number[];
}

/** DSON's local transform `T(t) · T(c) · O · R · O⁻¹ · T(−c)`. */
function local(f: Frame): M4 {
  const o = euler(f.o);
  return mul(
    shift(f.t),
    mul(shift(f.c), mul(o, mul(euler(f.r), mul(transpose(o), shift(f.c.map((v) => -v)))))),
  );
}

const point = (m: M4, p: readonly number[]) =>
  [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);

/** The pivot case of `seed`. */
export function pivotCase(seed: number): PivotCase {
  const r = prng(seed);
  const round = (x: number) => Math.round(x * 100) / 100;
  const habits = new Set<string>();
  const between = (a: number, b: number) => round(a + r() * (b - a));
  const geometries: Json[] = [], definitions: Json[] = [], nodes: Json[] = [];
  const expected = new Map<string, number[][]>();
  const frameFields = (f: Frame) => ({
    translation: channel3(f.t),
    rotation: channel3(f.r),
  });
  const props: { id: string; frame: Frame; geometry: string; centre: number[] }[] = [];
  const count = 1 + Math.floor(r() * 3);
  for (let p = 0; p < count; p++) {
    const id = ["Floor Lamp", "Armchair", "Potted Fern"][p];
    const stands = [between(-300, 300), 0, between(-300, 300)];
    const size = between(20, 80);
    const centre = [stands[0], round(size / 2), stands[2]];
    const c = r() < 0.6
      ? (habits.add("pivot at the prop's base"), stands)
      : (habits.add("pivot off the prop"), [between(-200, 200), between(0, 100), between(-200, 200)]);
    const o = r() < 0.4
      ? (habits.add("oriented pivot"), [between(-40, 40), between(-90, 90), between(-40, 40)])
      : [
        0,
        0,
        0,
      ];
    const frame = {
      t: [between(-100, 100), 0, between(-100, 100)],
      c,
      o,
      r: [between(-20, 20), between(-180, 180), 0],
    };
    geometries.push(boxGeometry(`${id}_geo`, centre, size));
    definitions.push({
      id,
      name: id,
      type: "node",
      label: id,
      center_point: channel3(c),
      orientation: channel3(o),
    });
    nodes.push({
      id,
      url: `#${encodeURIComponent(id)}`,
      name: id,
      label: id,
      ...frameFields(frame),
      geometries: [{ id: `${id} geometry`, url: `#${encodeURIComponent(`${id}_geo`)}` }],
    });
    props.push({ id, frame, geometry: `${id}_geo`, centre });
    expected.set(`${id}_geo`, [point(local(frame), centre)]);
  }
  // The instance's own pivot: at the origin, or the target's copied.
  const pivotOf = (target: Frame): { c: number[]; o: number[] } => {
    if (r() < 0.5) return (habits.add("instance pivot at the origin"), { c: [0, 0, 0], o: [0, 0, 0] });
    return (habits.add("instance pivot copied from its target"), { c: target.c, o: target.o });
  };
  const instances = 1 + Math.floor(r() * 3);
  for (let k = 0; k < instances; k++) {
    const target = props[Math.floor(r() * props.length)];
    const frame: Frame = {
      t: [between(-400, 400), between(0, 20), between(-400, 400)],
      ...pivotOf(target.frame),
      r: [0, between(-180, 180), 0],
    };
    const id = `${target.id} ${k + 1}`;
    nodes.push({
      id,
      url: "#instance",
      name: id,
      label: id,
      ...frameFields(frame),
      ...(frame.c.some((v) => v !== 0) ? { center_point: channel3(frame.c) } : {}),
      ...(frame.o.some((v) => v !== 0) ? { orientation: channel3(frame.o) } : {}),
      extra: instanceExtra(target.id, false),
    });
    expected.get(target.geometry)!.push(point(local(frame), target.centre));
  }
  if (r() < 0.5) {
    habits.add("instance group");
    const target = props[Math.floor(r() * props.length)];
    const group: Frame = {
      t: [between(-200, 200), 0, between(-200, 200)],
      c: [0, 0, 0],
      o: [0, 0, 0],
      r: [0, 0, 0],
    };
    group.r[1] = between(-180, 180);
    const written: Json[] = [];
    const itemCount = 2 + Math.floor(r() * 4);
    for (let k = 0; k < itemCount; k++) {
      const frame: Frame = {
        t: [between(-500, 500), 0, between(-500, 500)],
        ...pivotOf(target.frame),
        r: [0, between(-180, 180), 0],
      };
      written.push({
        name: `Item ${k}`,
        translation: channel3(frame.t),
        rotation: channel3(frame.r),
        center_point: channel3(frame.c),
        orientation: channel3(frame.o),
      });
      expected.get(target.geometry)!.push(point(mul(local(group), local(frame)), target.centre));
    }
    const extra = instanceExtra(target.id, false);
    extra[0] = { type: "studio/node/group_instance", instance_items: written };
    nodes.push({
      id: "Scatter",
      url: "#instance_group",
      name: "Scatter",
      label: "Scatter",
      ...frameFields(group),
      extra,
    });
  }
  const json: Json = {
    file_version: "0.6.0.0",
    asset_info: { id: "/Scenes/Living Room.duf", type: "scene" },
    geometry_library: geometries,
    node_library: [
      ...definitions,
      { id: "instance", name: "instance", type: "node", label: "Instance" },
      { id: "instance_group", name: "instance_group", type: "node", label: "Instance Group" },
    ],
    scene: { nodes },
  };
  return { seed, json, expected, habits: [...habits] };
}
