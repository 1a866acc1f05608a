/**
 * Rigidity through the whole pipeline (`decode.dson` → `dson.bake_morph`) on code-made cases — a
 * cloth strip with a box-shaped piece on it, morphs that fold, bend, twist, stretch and bulge — for
 * every rotation mode × scale-mode set, node frames turned in every rotation order, partial and
 * missing weight maps and overlapping groups, compared with the independent formulation in
 * `rigidity_reference.ts`.
 */
import assert from "node:assert/strict";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { applyRigidity, type RigidityGroup } from "../../../../nodes/decode/dson/codec/rigidity.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { channels, dsonBytes, type Json } from "./generate.ts";
import { nodeFrameAxes, type ReferenceGroup, referenceRigidity, type V3 } from "./rigidity_reference.ts";

type Rotation = ReferenceGroup["rotation"];
type Scale = ReferenceGroup["scale"][number];

/** Cloth: an 11 × 5 grid, x 0…30 cm, y 0…8 cm, z = 0 (vertex j·11 + i). */
const CLOTH: V3[] = Array.from({ length: 55 }, (_, v) => [3 * (v % 11), 2 * Math.floor(v / 11), 0]);
/** A box on the cloth: 8 corners from `low` to `high`. */
function box(low: V3, high: V3): V3[] {
  return Array.from(
    { length: 8 },
    (_, k) => [k & 1 ? high[0] : low[0], k & 2 ? high[1] : low[1], k & 4 ? high[2] : low[2]],
  );
}
/** The button (4 × 2.5 × 0.6 cm) and a watch (3 × 4 × 1 cm) beside it. */
const BUTTON = box([14, 3, 0.3], [18, 5.5, 0.9]).map((_, k) => 55 + k);
const WATCH = box([20, 2, 0.2], [23, 6, 1.2]).map((_, k) => 63 + k);
const VERTICES: V3[] = [...CLOTH, ...box([14, 3, 0.3], [18, 5.5, 0.9]), ...box([20, 2, 0.2], [23, 6, 1.2])];
/** Cloth vertices under the button (x 12…21, y 2…6): a 4 × 3 grid, wider than deep. */
const UNDER_BUTTON = CLOTH.flatMap((p, v) => (p[0] >= 12 && p[0] <= 21 && p[1] >= 2 && p[1] <= 6 ? [v] : []));
/** Cloth vertices under the watch (x 18…24, y 0…8). */
const UNDER_WATCH = CLOTH.flatMap((p, v) => (p[0] >= 18 && p[0] <= 24 ? [v] : []));
/** Size of the button's reference region (its diagonal, cm): tolerances are relative to it. */
const REGION = Math.hypot(9, 4);

const deg = (d: number) => d * Math.PI / 180;
/** Morphs (cm → cm), each about x = 15, where the cloth starts to move. */
const MORPHS: Record<string, (p: V3) => V3> = {
  fold([x, y, z]) {
    if (x <= 15) return [x, y, z];
    const a = deg(50);
    return [15 + (x - 15) * Math.cos(a) - z * Math.sin(a), y, (x - 15) * Math.sin(a) + z * Math.cos(a)];
  },
  bend: ([x, y, z]) => [x, y, z + 0.04 * (x - 15) ** 2 + 0.1 * (x - 15)],
  twist([x, y, z]) {
    const a = deg(2.5 * (x - 15));
    return [x, 4 + (y - 4) * Math.cos(a) - z * Math.sin(a), (y - 4) * Math.sin(a) + z * Math.cos(a)];
  },
  stretch: ([x, y, z]) => [15 + 1.4 * (x - 15), 4 + 0.8 * (y - 4), z],
  bulge: ([x, y, z]) => [x + 0.1 * y, y, z + 2 * Math.exp(-((x - 16) ** 2 + (y - 4) ** 2) / 20)],
  /** The whole region turned 50° about the line x = 10, z = 0: a pure turn, no stretch. */
  turn([x, y, z]) {
    const a = deg(50);
    return [10 + (x - 10) * Math.cos(a) - z * Math.sin(a), y, (x - 10) * Math.sin(a) + z * Math.cos(a)];
  },
};
const ROTATIONS: Rotation[] = ["none", "full", "primary", "secondary"];
const SCALE_SETS: Scale[][] = [
  ["none", "none", "none"],
  ["primary", "primary", "none"],
  ["primary", "secondary", "tertiary"],
  ["tertiary", "primary", "secondary"],
  ["secondary", "secondary", "secondary"],
];

interface CaseGroup {
  rotation: Rotation;
  scale: Scale[];
  refs: number[];
  mask: number[];
  /** DSON fields naming the frame node, e.g. `{transform_nodes: ["#frame-1"]}`. */
  frameFields?: Json;
}

interface Case {
  morph: string;
  groups: CaseGroup[];
  /** Sparse rigidity weights; undefined: no weight map. */
  weights?: [number, number][];
  frame?: { orientation: number[]; rotation: number[]; order: string };
}

function caseJson(c: Case): Json {
  const polys = [
    ...Array.from({ length: 40 }, (_, q) => {
      const v = Math.floor(q / 10) * 11 + (q % 10);
      return [0, 0, v, v + 1, v + 12, v + 11];
    }),
    ...[55, 63].flatMap((o) =>
      [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]].map((
        f,
      ) => [1, 1, ...f.map((k) => o + k)])
    ),
  ];
  const shape = MORPHS[c.morph];
  const deltas = VERTICES.map((p, i) => [i, ...shape(p).map((x, k) => x - p[k])]);
  const rigidity: Json = {
    groups: c.groups.map((g, i) => ({
      id: `group${i}`,
      rotation_mode: g.rotation,
      scale_modes: g.scale,
      reference_vertices: { count: g.refs.length, values: g.refs },
      mask_vertices: { count: g.mask.length, values: g.mask },
      ...g.frameFields,
    })),
  };
  if (c.weights) rigidity.weights = { count: c.weights.length, values: c.weights };
  const nodes: Json[] = [{ id: "cloth", name: "cloth", type: "node" }];
  const instances: Json[] = [{
    id: "cloth-1",
    url: "#cloth",
    geometries: [{ id: "cloth-geo", url: "#cloth_geo" }],
  }];
  if (c.frame) {
    nodes.push({
      id: "frame",
      name: "frame",
      type: "node",
      rotation_order: c.frame.order,
      orientation: channels("float", c.frame.orientation),
      rotation: channels("float", c.frame.rotation),
    });
    instances.push({ id: "frame-1", url: "#frame" });
  }
  return {
    file_version: "0.6.0.0",
    asset_info: { id: "/data/cases/rigidity.dsf", type: "prop" },
    geometry_library: [{
      id: "cloth_geo",
      type: "polygon_mesh",
      vertices: { count: VERTICES.length, values: VERTICES },
      polygon_groups: { count: 2, values: ["cloth", "pieces"] },
      polygon_material_groups: { count: 2, values: ["Cloth", "Pieces"] },
      polylist: { count: polys.length, values: polys },
      rigidity,
    }],
    node_library: nodes,
    modifier_library: [{
      id: c.morph,
      parent: "#cloth_geo",
      morph: { vertex_count: VERTICES.length, deltas: { count: deltas.length, values: deltas } },
    }],
    scene: { nodes: instances },
  };
}

/** Runs the case through decode and bake; positions per DSON vertex in cm, and the warnings. */
async function bakeCase(c: Case): Promise<{ baked: V3[]; warnings: string[] }> {
  const ctx = testContext();
  const bytes = { bytes: dsonBytes(caseJson(c)), name: "case.dsf" };
  const { scene } = await runNode(decodeDson, { bytes }, {}, ctx);
  const out = (await runNode(dsonBakeMorph, { scene }, { morph: c.morph }, ctx)).scene;
  const baked: V3[] = [];
  for (const primitive of out.getRoot().listMeshes()[0].listPrimitives()) {
    const ids = primitive.getAttribute("_DSON_VERTEX")!.getArray()!;
    const positions = primitive.getAttribute("POSITION")!.getArray()!;
    for (let i = 0; i < ids.length; i++) {
      baked[ids[i]] = [0, 1, 2].map((k) => positions[i * 3 + k] * 100) as V3;
    }
  }
  return { baked, warnings: ctx.warnings.map((w) => w.message) };
}

function expected(c: Case): V3[] {
  const after = VERTICES.map(MORPHS[c.morph]);
  const weights = c.weights && VERTICES.map((_, v) => c.weights!.find(([i]) => i === v)?.[1] ?? 0);
  // The frame node's rest axes: rigidity runs with the morphs on the mesh at rest, before any pose
  // (the node's rotation channel) turns it (dson.bake_morph v8; v7 and before read the posed axes).
  const axes = c.frame && nodeFrameAxes(c.frame.orientation, [0, 0, 0], c.frame.order);
  return referenceRigidity(
    VERTICES,
    after,
    weights,
    c.groups.map((g) => ({ ...g, axes: g.frameFields ? axes : undefined })),
  );
}

/** Largest distance between the baked and the reference positions, over every vertex. */
async function disagreement(c: Case): Promise<number> {
  const { baked } = await bakeCase(c);
  const want = expected(c);
  return Math.max(...want.map((p, v) => Math.hypot(...p.map((x, k) => x - baked[v][k]))));
}

const button = (rotation: Rotation, scale: Scale[], frameFields?: Json): CaseGroup => ({
  rotation,
  scale,
  refs: UNDER_BUTTON,
  mask: BUTTON,
  frameFields,
});

Deno.test("rigidity cases: every rotation mode × scale-mode set × morph agrees with the reference", async () => {
  let worst = 0;
  for (const morph of Object.keys(MORPHS)) {
    for (const rotation of ROTATIONS) {
      for (const scale of SCALE_SETS) {
        const error = await disagreement({ morph, groups: [button(rotation, scale)] });
        assert.ok(error < 1e-4 * REGION, `${morph} ${rotation} [${scale}]: off by ${error} cm`);
        worst = Math.max(worst, error);
      }
    }
  }
  // The reference really is another computation: it agrees to float32 precision, not bit for bit.
  assert.ok(worst > 0 && worst < 1e-5, `worst ${worst}`);
});

Deno.test("rigidity cases: frames turned in every rotation order, named by transform or reference node, read at rest", async () => {
  for (const order of ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"]) {
    for (
      const frame of [
        { orientation: [0, 0, 45], rotation: [0, 0, 0], order },
        { orientation: [10, -20, 30], rotation: [15, 25, -35], order },
      ]
    ) {
      for (const fields of [{ transform_nodes: ["#frame-1"] }, { reference: "#frame" }]) {
        for (
          const [rotation, scale] of [
            ["none", ["primary", "secondary", "tertiary"]],
            ["primary", ["secondary", "primary", "none"]],
            ["secondary", ["primary", "none", "secondary"]],
            ["full", ["tertiary", "primary", "primary"]],
          ] as [Rotation, Scale[]][]
        ) {
          for (const morph of ["stretch", "fold", "bulge"]) {
            const c: Case = { morph, frame, groups: [button(rotation, scale, fields)] };
            const error = await disagreement(c);
            assert.ok(
              error < 1e-4 * REGION,
              `${order} ${JSON.stringify(frame)} ${rotation} [${scale}] ${morph}: ${error}`,
            );
          }
        }
      }
    }
  }
});

Deno.test("rigidity cases: a turn is never a stretch, whatever the rotation mode applies", async () => {
  // The whole reference region turns by 50°: every measured ratio is 1.
  for (const rotation of ROTATIONS) {
    const { baked } = await bakeCase({
      morph: "turn",
      groups: [button(rotation, ["primary", "primary", "primary"])],
    });
    const width = Math.hypot(...baked[BUTTON[1]].map((x, k) => x - baked[BUTTON[0]][k]));
    assert.ok(Math.abs(width - 4) < 1e-4, `${rotation}: the 4 cm button is ${width} cm wide`);
  }
});

Deno.test("rigidity cases: in a YZX frame, scale_modes[i] scales the i-th axis of the rotation order", async () => {
  // A frame turned 90° about Z with rotation order YZX: its axes in order are Y′ = −X, Z, X′ = Y.
  // The stretch scales x by 1.4 and y by 0.8, so the primary (Y′) ratio is 1.4 and the tertiary
  // (X′) ratio 0.8: [primary, none, tertiary] makes the button follow the stretch exactly. Read on
  // X/Y/Z, the same modes would scale X′ = Y by 1.4 instead.
  const frame = { orientation: [0, 0, 90], rotation: [0, 0, 0], order: "YZX" };
  const c: Case = {
    morph: "stretch",
    frame,
    groups: [button("none", ["primary", "none", "tertiary"], { transform_nodes: ["#frame"] })],
  };
  const { baked } = await bakeCase(c);
  for (const v of BUTTON) {
    const want = MORPHS.stretch(VERTICES[v]);
    assert.ok(
      Math.hypot(...want.map((x, k) => x - baked[v][k])) < 1e-4,
      `vertex ${v}: ${baked[v]} vs ${want}`,
    );
  }
});

Deno.test("rigidity cases: partial weights, a missing map and overlapping groups", async () => {
  const partial: [number, number][] = BUTTON.map((v, k) => [v, [1, 0.5, 0.25, 0, 1.5, 1, 0.75, 0.1][k]]);
  const watch: CaseGroup = {
    rotation: "full",
    scale: ["primary", "none", "none"],
    refs: UNDER_WATCH,
    mask: WATCH,
  };
  // The watch's group also lists two button corners: the later group's transform wins there.
  const overlapping: CaseGroup = { ...watch, mask: [...WATCH, BUTTON[0], BUTTON[3]] };
  for (const morph of Object.keys(MORPHS)) {
    for (
      const c of [
        { morph, weights: partial, groups: [button("full", ["primary", "primary", "none"]), watch] },
        { morph, groups: [button("primary", ["primary", "secondary", "none"]), overlapping] },
        {
          morph,
          weights: [...partial, ...WATCH.map((v) => [v, 0.6] as [number, number])],
          groups: [button("secondary", ["secondary", "primary", "none"]), overlapping],
        },
      ] as Case[]
    ) {
      const error = await disagreement(c);
      assert.ok(error < 1e-4 * REGION, `${morph} ${c.groups.map((g) => g.rotation)}: ${error}`);
    }
  }
});

Deno.test("rigidity cases: a vertex in two groups' masks takes the last group's transform, with a warning naming it", async () => {
  // The watch's group also lists the button's corners 55 and 58: file order decides, and it is said.
  const overlapping: CaseGroup = {
    rotation: "full",
    scale: ["primary", "none", "none"],
    refs: UNDER_WATCH,
    mask: [...WATCH, BUTTON[0], BUTTON[3]],
  };
  const c: Case = { morph: "fold", groups: [button("full", ["primary", "primary", "none"]), overlapping] };
  const { baked, warnings } = await bakeCase(c);
  assert.deepEqual(warnings, [
    "rigidity on 'cloth-geo': vertex 55 is in the masks of groups 'group0' and 'group1' (and 1 more vertex in " +
    "several masks): it takes the last group's ('group1') rigid transform, blended by its rigidity weight " +
    "with the plain morph; Daz does not document how overlapping groups combine",
  ]);
  // Vertex 55 lands where the watch's group alone puts it, not where the button's does.
  const [watchOnly, buttonOnly] = [
    (await bakeCase({ ...c, groups: [overlapping] })).baked,
    (await bakeCase({ ...c, groups: [c.groups[0]] })).baked,
  ];
  for (const v of [BUTTON[0], BUTTON[3]]) {
    assert.ok(Math.hypot(...baked[v].map((x, k) => x - watchOnly[v][k])) < 1e-5, `${v}: ${baked[v]}`);
    assert.ok(Math.hypot(...baked[v].map((x, k) => x - buttonOnly[v][k])) > 0.1, `${v} moved by the button`);
  }
  // Corner 56 is the button's alone: the button group's result.
  assert.ok(Math.hypot(...baked[56].map((x, k) => x - buttonOnly[56][k])) < 1e-5);

  // Shared vertices the later group does not move (rigidity weight 0) are no overlap: no warning.
  const weights = [...BUTTON, ...WATCH].map((v) => [v, v === BUTTON[0] || v === BUTTON[3] ? 0 : 1]);
  assert.deepEqual((await bakeCase({ ...c, weights: weights as [number, number][] })).warnings, []);
  // Nor is a group with no reference vertex, which moves nothing: the decode names it instead
  // (decode.dson v46; before, not a word).
  const idle: CaseGroup = { ...overlapping, refs: [] };
  assert.deepEqual((await bakeCase({ ...c, groups: [c.groups[0], idle] })).warnings, [
    "dson: case.dsf at /geometry_library/0/rigidity/groups/1: 1 rigidity group(s) of geometry 'cloth_geo' have " +
    "no reference vertex ('group1'): nothing to fit their rigid transform to, so their participants take " +
    "projected morphs unprotected",
  ]);
  // Three groups: all are named, the last taken.
  const third: CaseGroup = { ...button("none", ["none", "none", "none"]), mask: [BUTTON[0]] };
  assert.match(
    (await bakeCase({ ...c, groups: [...c.groups, third] })).warnings[0],
    /^rigidity on 'cloth-geo': vertex 55 is in the masks of groups 'group0', 'group1' and 'group2' \(and 1 more vertex in several masks\): it takes the last group's \('group2'\)/,
  );
});

Deno.test("rigidity cases: with scale none, a fully rigid piece keeps every pairwise distance", () => {
  // In float64 (the GLB stores float32 metres, which cannot show 1e-6 of a 0.6 cm edge).
  for (const morph of Object.keys(MORPHS)) {
    for (const rotation of ROTATIONS) {
      const after = Float64Array.from(VERTICES.map(MORPHS[morph]).flat());
      const group: RigidityGroup = {
        id: "g",
        rotationMode: rotation,
        scaleModes: ["none", "none", "none"],
        referenceVertices: Int32Array.from(UNDER_BUTTON),
        maskVertices: Int32Array.from(BUTTON),
        transformNodes: [],
      };
      const out = applyRigidity(Float64Array.from(VERTICES.flat()), after, undefined, [group]);
      const at = (v: number) => [0, 1, 2].map((k) => out[v * 3 + k]);
      for (const a of BUTTON) {
        for (const b of BUTTON) {
          if (a >= b) continue;
          const rest = Math.hypot(...VERTICES[a].map((x, k) => x - VERTICES[b][k]));
          const now = Math.hypot(...at(a).map((x, k) => x - at(b)[k]));
          assert.ok(Math.abs(now - rest) / rest <= 1e-6, `${morph} ${rotation} ${a}-${b}: ${now} vs ${rest}`);
        }
      }
    }
  }
});

Deno.test("rigidity cases: a transform node that is not in the scene is a warning, and principal axes are used", async () => {
  const c: Case = {
    morph: "stretch",
    groups: [
      button("none", ["primary", "secondary", "none"], { transform_nodes: ["/data/other.dsf#lHand"] }),
    ],
  };
  const { warnings } = await bakeCase(c);
  assert.ok(
    warnings.some((w) =>
      /group0.*transform node '\/data\/other\.dsf#lHand' is not a node of the scene.*principal axes/.test(w)
    ),
    warnings.join("\n"),
  );
  // …and the result is the principal-axes fit.
  assert.ok(
    await disagreement({ ...c, groups: [{ ...c.groups[0], frameFields: undefined }] }) < 1e-4 * REGION,
  );
});
