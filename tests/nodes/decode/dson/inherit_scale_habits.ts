/**
 * Posed chains under scaled figures, as Daz Studio scenes hold them: a figure root a user stretched
 * per axis ("Y Scale 108%" to make a character taller, a squashed toon) or scaled evenly with the
 * general "Scale" dial, a hip under it that inherits scale (a bone under the figure), bones under bones
 * that do not (`inherits_scale: false`, as Daz writes almost every bone), each bone in its own frame
 * (`orientation`, Genesis-like arm and leg frames or whole right angles), posed or left at rest, now
 * and then a bone dialled to a scale of its own (a forearm "X Scale 120%"), and props parented to bones
 * (a sword in a hand, a hat on a head), which inherit scale as nodes do.
 *
 * Where Daz draws each node is DSON's composition (formats B.6), worked out here for any depth:
 * `global_rotation = parent.global_rotation · O·R·O⁻¹`, `global_scale = parent.global_scale ·
 * [parent's own scale⁻¹ when the node does not inherit scale] · O·S·g·O⁻¹`, the parent's global
 * transform carrying the node's offset (`c − c_parent + t`), and a vertex `origin + rotation · scale ·
 * (p − c)`.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import { channels } from "./generate.ts";
import { eulerRows } from "./follower_shape_habits.ts";
import type { V3 } from "./rigidity_reference.ts";

type Json = Record<string, unknown>;

const mul = (a: V3[], b: V3[]): V3[] =>
  a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j] + row[1] * b[1][j] + row[2] * b[2][j]) as V3);
const transpose = (a: V3[]): V3[] => [0, 1, 2].map((i) => [a[0][i], a[1][i], a[2][i]] as V3);
const diagonal = (d: readonly number[]): V3[] =>
  [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? d[i] : 0)) as V3);
const apply = (m: V3[], v: readonly number[]): V3 =>
  [0, 1, 2].map((k) => m[k][0] * v[0] + m[k][1] * v[1] + m[k][2] * v[2]) as V3;

/** One node of a chain case: its key, parent, and where Daz draws its geometry's vertices (cm). */
export interface ChainNode {
  readonly key: string;
  /** The node's id in the node library (its geometry is `<name>_geo`). */
  readonly name: string;
  /** Index of the parent in the case's nodes (−1: the root). */
  readonly parent: number;
  readonly inheritsScale: boolean;
  readonly drawn: V3[];
  readonly habit: string;
}

/** A chain case: the scene's DSON and its nodes. */
export interface ChainCase {
  readonly json: Record<string, unknown>;
  readonly nodes: ChainNode[];
}

/** What a node of a case is written with. */
interface Spec {
  name: string;
  parent: number;
  inherits: boolean | undefined;
  c: V3;
  t: V3;
  orientation: V3;
  turn: V3;
  order: string;
  scale: V3;
  general: number;
  size: number;
  habit: string;
}

const ORDERS = ["XYZ", "YZX", "ZYX", "ZXY", "XZY", "YXZ"];

/** How a chain case is written. */
export interface ChainOptions {
  /**
   * The props are rigid followers (`studio/node/rigid_follow`) of the bone they sit on, its mesh's
   * four vertices their reference (a sword kept in a hand, a bracelet on a forearm), and the nodes are
   * written as a figure's are (`type` figure and bone), so they are placed on the figure at rest.
   */
  readonly followers?: boolean;
  /**
   * The followers are written under the figure root, as Daz saves a prop fitted to a figure, and
   * follow their bone by their reference vertices' weights alone (Daz draws them at the same place).
   */
  readonly underFigure?: boolean;
  /** Props (which inherit scale) turned by right angles only, each turn rounded to one. */
  readonly rightAngles?: boolean;
}

/** The chain case of `seed`. */
export function chainScaleCase(seed: number, options: ChainOptions = {}): ChainCase {
  const r = prng(seed * 131 + 7);
  const round = (x: number, step: number) => Math.round(x / step) * step;
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)];
  const specs: Spec[] = [];
  // The figure root: stretched per axis (55 %), scaled evenly by the general dial (20 %), or not.
  const fs: V3 = [1, 1, 1];
  let fg = 1;
  const habit = r();
  if (habit < 0.55) {
    for (let k = 0; k < 3; k++) if (r() < 0.45) fs[k] = round(0.7 + r() * 0.6, 0.01);
    if (fs.every((x) => x === 1)) fs[1] = round(1.02 + r() * 0.2, 0.01);
  } else if (habit < 0.75) fg = round(0.6 + r() * 0.8, 0.01);
  specs.push({
    name: "Figure",
    parent: -1,
    inherits: undefined,
    c: [0, 0, 0],
    t: [round(r() * 200 - 100, 0.1), 0, round(r() * 200 - 100, 0.1)],
    orientation: [0, 0, 0],
    turn: [0, round(r() * 360 - 180, 1), 0],
    order: "YXZ",
    scale: fs,
    general: fg,
    size: 20,
    habit: `figure ${fs.join("/")} general ${fg}`,
  });
  // The hip inherits (a bone under the figure); posed a little, scaled now and then.
  const hipScale: V3 = r() < 0.2 ? [1, round(0.8 + r() * 0.4, 0.01), 1] : [1, 1, 1];
  specs.push({
    name: "hip",
    parent: 0,
    inherits: true,
    c: [0, round(90 + r() * 20, 0.01), round(r() * 4 - 2, 0.01)],
    t: [0, 0, 0],
    orientation: [0, 0, 0],
    turn: r() < 0.5 ? [round(r() * 30 - 15, 0.5), round(r() * 30 - 15, 0.5), 0] : [0, 0, 0],
    order: "YZX",
    scale: hipScale,
    general: 1,
    size: 12,
    habit: `hip ${hipScale.join("/")}`,
  });
  // Bones under bones, each in its own frame; each one does not inherit scale, as Daz writes them.
  const chains = 1 + Math.floor(r() * 2);
  for (let chain = 0; chain < chains; chain++) {
    let parent = 1;
    const side = r() < 0.5 ? 1 : -1;
    const depth = 2 + Math.floor(r() * 2);
    for (let d = 0; d < depth; d++) {
      const from = specs[parent];
      const c: V3 = [
        round(from.c[0] + side * (8 + r() * 20), 0.01),
        round(from.c[1] + (r() * 30 - 15), 0.01),
        round(from.c[2] + (r() * 6 - 3), 0.01),
      ];
      const frame = r();
      const orientation: V3 = frame < 0.3
        ? [0, 0, 0]
        : frame < 0.55
        ? [0, 0, 0].map(() => pick([0, 90, -90, 180])) as V3
        : [round(r() * 20 - 10, 0.01), round(r() * 20 - 10, 0.01), round(side * (30 + r() * 30), 0.01)];
      const pose = r();
      const turn: V3 = pose < 0.3
        ? [0, 0, 0]
        : pose < 0.45
        ? [0, 0, 0].map(() => pick([0, 0, 90, -90])) as V3
        : [0, 0, 0].map(() => (r() < 0.6 ? round(r() * 120 - 60, 0.1) : 0)) as V3;
      const dialled = r();
      const scale: V3 = dialled < 0.3
        ? [1, 1, 1].map((x) => (r() < 0.5 ? round(0.7 + r() * 0.6, 0.01) : x)) as V3
        : dialled < 0.4
        ? [1, 1, 1].fill(round(0.8 + r() * 0.4, 0.01)) as V3
        : [1, 1, 1];
      const name = `bone${chain}_${d}`;
      specs.push({
        name,
        parent,
        inherits: false,
        c,
        t: [0, 0, 0],
        orientation,
        turn,
        order: pick(ORDERS),
        scale,
        general: 1,
        size: round(3 + r() * 10, 0.1),
        habit: `${name} orientation ${orientation.join("/")} turn ${turn.join("/")} scale ${scale.join("/")}`,
      });
      parent = specs.length - 1;
      if (r() < 0.35) {
        // A prop parented to the bone: a node, so it inherits scale; turned or square to the bone.
        const drawnTurn: V3 = r() < 0.4 ? [0, 0, 0] : [0, 0, 0].map(() => round(r() * 180 - 90, 0.5)) as V3;
        // Held square to the bone by right angles (a holster, a hat turned to face forward).
        const propTurn = options.rightAngles ? drawnTurn.map((x) => round(x, 90) || 0) as V3 : drawnTurn;
        const pname = `prop${chain}_${d}`;
        specs.push({
          name: pname,
          parent,
          inherits: undefined,
          c: c.map((x) => round(x + r() * 6 - 3, 0.01)) as V3,
          t: [round(r() * 2 - 1, 0.01), round(r() * 2 - 1, 0.01), 0],
          orientation: [0, 0, 0],
          turn: propTurn,
          order: "XYZ",
          scale: [1, 1, 1],
          general: 1,
          size: round(5 + r() * 20, 0.1),
          habit: `${pname} turn ${propTurn.join("/")}`,
        });
      }
    }
  }
  return build(seed, specs, options);
}

/** The DSON scene of `specs` and where Daz draws each node. */
function build(seed: number, specs: Spec[], options: ChainOptions): ChainCase {
  const library: Record<string, unknown>[] = [], geometries: unknown[] = [], instances: unknown[] = [];
  const rot: V3[][] = [], gs: V3[][] = [], ls: V3[][] = [], origin: V3[] = [];
  const nodes: ChainNode[] = [];
  for (const [i, s] of specs.entries()) {
    const vertices: V3[] = [[-1, -1, 0], [1, -1, 0.3], [1, 1, 0.6], [-1, 1, -0.4]].map((p) =>
      p.map((x, k) => Math.round((s.c[k] + x * s.size / 2) * 1e4) / 1e4) as V3
    );
    geometries.push({
      id: `${s.name}_geo`,
      name: `${s.name}_geo`,
      type: "polygon_mesh",
      vertices: { count: 4, values: vertices },
      polygon_groups: { count: 1, values: ["g"] },
      polygon_material_groups: { count: 1, values: ["m"] },
      polylist: { count: 1, values: [[0, 0, 0, 1, 2, 3]] },
    });
    const prop = s.inherits === undefined && s.parent >= 0;
    library.push({
      id: s.name,
      name: s.name,
      type: options.followers && !prop ? (s.parent < 0 ? "figure" : "bone") : "node",
      rotation_order: s.order,
      ...(s.inherits === undefined ? {} : { inherits_scale: s.inherits }),
      center_point: channels("float", s.c),
      orientation: channels("float", s.orientation),
      translation: channels("float", s.t),
      rotation: channels("float", s.turn),
      scale: channels("float", s.scale),
      ...(s.general !== 1
        ? {
          general_scale: { id: "general_scale", type: "float", value: s.general, current_value: s.general },
        }
        : {}),
    });
    instances.push({
      id: `${s.name}-1`,
      url: `#${s.name}`,
      ...(s.parent >= 0
        ? { parent: `#${specs[options.followers && options.underFigure && prop ? 0 : s.parent].name}-1` }
        : {}),
      geometries: [{ id: `${s.name}_geo-1`, url: `#${s.name}_geo` }],
      // Kept on its bone's mesh: no morph moves it, so Daz draws it where its node composes.
      ...(options.followers && prop
        ? {
          extra: [{
            type: "studio/node/rigid_follow",
            vertex_count: 4,
            rigidity_group: {
              id: "follow",
              rotation_mode: "full",
              scale_modes: ["none", "none", "none"],
              reference_vertices: { count: 4, values: [0, 1, 2, 3] },
            },
          }],
        }
        : {}),
    });
    // DSON's composition (formats B.6).
    const o = eulerRows(s.orientation, "XYZ"), ob = transpose(o);
    const r = mul(mul(o, eulerRows(s.turn, s.order)), ob);
    ls[i] = mul(mul(o, diagonal(s.scale.map((x) => x * s.general))), ob);
    const p = s.parent;
    const inherits = s.inherits !== false;
    rot[i] = p >= 0 ? mul(rot[p], r) : r;
    const above = p < 0 ? diagonal([1, 1, 1]) : inherits ? gs[p] : mul(
      gs[p],
      mul(
        mul(
          eulerRows(specs[p].orientation, "XYZ"),
          diagonal(specs[p].scale.map((x) => 1 / (x * specs[p].general))),
        ),
        transpose(eulerRows(specs[p].orientation, "XYZ")),
      ),
    );
    gs[i] = mul(above, ls[i]);
    const offset = s.c.map((x, k) => x - (p >= 0 ? specs[p].c[k] : 0) + s.t[k]);
    origin[i] = p >= 0
      ? apply(mul(rot[p], gs[p]), offset).map((x, k) => x + origin[p][k]) as V3
      : offset as V3;
    const linear = mul(rot[i], gs[i]);
    nodes.push({
      key: `${s.name}-1`,
      name: s.name,
      parent: p,
      inheritsScale: inherits,
      drawn: vertices.map((v) =>
        apply(linear, v.map((x, k) => x - s.c[k])).map((x, k) => x + origin[i][k]) as V3
      ),
      habit: s.habit,
    });
  }
  const modifiers: Record<string, unknown> = {};
  if (options.followers) skinFigure(specs, geometries as Record<string, unknown>[], instances, modifiers);
  const json = {
    file_version: "0.6.0.0",
    asset_info: { id: `/scenes/chain${seed}.duf`, type: "scene" },
    geometry_library: geometries,
    node_library: library,
    ...modifiers.library ? { modifier_library: modifiers.library } : {},
    scene: { nodes: instances, ...modifiers.scene ? { modifiers: modifiers.scene } : {} },
  };
  return { json, nodes };
}

/**
 * The figure's mesh skinned as a figure's is: after its own four vertices, a copy of each bone's
 * quad weighted wholly to that bone (Daz draws it where the bone's composition puts it), and each
 * follower's reference vertices the copy of the quad of the bone it sits on, as a ring's are the
 * finger's skin.
 */
function skinFigure(
  specs: readonly Spec[],
  geometries: Record<string, unknown>[],
  instances: unknown[],
  out: Record<string, unknown>,
): void {
  const figure = geometries[0] as { vertices: { count: number; values: number[][] }; polylist: unknown };
  const values = [...figure.vertices.values], polys: number[][] = [[0, 0, 0, 1, 2, 3]];
  const weights: Record<string, number[][]> = { Figure: [0, 1, 2, 3].map((v) => [v, 1]) };
  const quadOf = new Map<number, number[]>();
  specs.forEach((s, i) => {
    if (i === 0 || s.inherits === undefined) return;
    const geometry = geometries[i] as { vertices: { values: number[][] } };
    const start = values.length, quad = [start, start + 1, start + 2, start + 3];
    values.push(...geometry.vertices.values);
    polys.push([0, 0, ...quad]);
    weights[s.name] = quad.map((v) => [v, 1]);
    quadOf.set(i, quad);
  });
  figure.vertices = { count: values.length, values };
  figure.polylist = { count: polys.length, values: polys };
  specs.forEach((s, i) => {
    const follower = instances[i] as { extra?: { vertex_count: number; rigidity_group: Json }[] };
    if (!follower.extra) return;
    const refs = quadOf.get(s.parent)!;
    follower.extra[0].vertex_count = values.length;
    follower.extra[0].rigidity_group.reference_vertices = { count: 4, values: refs };
  });
  out.library = [{
    id: "SkinBinding",
    name: "SkinBinding",
    parent: "#Figure_geo",
    skin: {
      node: "#Figure",
      geometry: "#Figure_geo",
      vertex_count: values.length,
      joints: Object.entries(weights).map(([name, list]) => ({
        id: name,
        node: `#${name}`,
        node_weights: { count: list.length, values: list },
      })),
    },
  }];
  out.scene = [{ id: "SkinBinding-1", url: "#SkinBinding", parent: "#Figure_geo-1" }];
}
