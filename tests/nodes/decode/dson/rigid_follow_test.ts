/**
 * Rigid followers (`extra` of type `studio/node/rigid_follow`: a prop Daz keeps on a mesh's surface
 * through its `rigidity_group.reference_vertices`) go under the joint that dominates the skin
 * weights of those vertices, with their world transform at rest unchanged — compared with the same
 * file decoded without the marker, both unposed, and with the numbers worked out by hand — so the
 * pose carries them along: the scene's own (a follower's channels place it on the figure at rest,
 * decode.dson v62) and any later one. Followers that cannot follow stay as written, with a warning
 * naming why.
 *
 * The figure is the generated 4 × 4 grid (1 cm apart) with two bones: vertices of rows 0–1 are
 * weighted 1 : 2 to bones 0 and 1, rows 2–3 2 : 1. Bone 1 (head at (0, 1.5, 0) cm, oriented 10°
 * about z) is posed 30° about z in its definition.
 */
import assert from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { dsonApplyPreset } from "../../../../nodes/decode/dson/apply_preset.ts";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { describeDson } from "../../../../nodes/decode/dson/codec/describe.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { channels, dsonBytes, generateFigure, type Json, posePreset } from "./generate.ts";
import { worldPositions } from "./posed_positions.ts";
import { decodeAndExport, quatMultiply } from "./dson_runs.ts";

const MARKER = { type: "studio/node/rigid_follow" };

/** A rigid_follow extra following vertices `values` of a 16-vertex mesh. */
const follow = (values: unknown[], more: Json = {}): Json => ({
  ...MARKER,
  vertex_count: 16,
  rigidity_group: {
    id: "g",
    rotation_mode: "full",
    scale_modes: ["none", "none", "none"],
    reference_vertices: { count: values.length, values },
  },
  ...more,
});

/**
 * The figure and a ring (a triangle at (3, 2.5, 0.5) cm, translated 1 cm along x and turned 45°
 * about y) under `parent`, its instance carrying `extra` (its definition `definitionExtra`).
 */
function withRing(parent: string | undefined, extra: unknown[], definitionExtra?: unknown[]): Json {
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.node_library as Json[])[2].rotation = channels("float", [0, 0, 30]);
  (json.geometry_library as Json[]).push({
    id: "Ring_geo",
    vertices: { count: 3, values: [[3, 2.5, 0.5], [3.2, 2.5, 0.5], [3, 2.7, 0.5]] },
    polylist: { count: 1, values: [[0, 0, 0, 1, 2]] },
  });
  (json.node_library as Json[]).push({
    id: "Ring",
    name: "Ring",
    label: "Ring",
    type: "node",
    center_point: channels("float", [3, 2.5, 0.5]),
    translation: channels("float", [1, 0, 0]),
    rotation: channels("float", [0, 45, 0]),
    ...(definitionExtra ? { extra: definitionExtra } : {}),
  });
  const ring: Json = {
    id: "Ring-1",
    url: "#Ring",
    extra,
    geometries: [{ id: "Ring_geo-1", url: "#Ring_geo" }],
  };
  if (parent !== undefined) ring.parent = parent;
  ((json.scene as Json).nodes as Json[]).push(ring);
  return json;
}

async function decoded(json: Json) {
  const ctx = testContext();
  const scene = (await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name: "ring.duf" } }, {}, ctx))
    .scene as Document;
  const node = (name: string) => scene.getRoot().listNodes().find((n) => n.getName() === name)!;
  return { scene, node, warnings: ctx.warnings.map((w) => w.message) };
}

/** The largest difference between two matrices' entries. */
function gap(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let most = 0;
  for (let k = 0; k < 16; k++) most = Math.max(most, Math.abs(a[k] - b[k]));
  return most;
}

/** The mesh node of a follower: its child, or the skinned node at the root that names it. */
function meshOf(scene: Document, follower: Node): Node {
  const key = (getPartgraphExtras(follower).dson as { key: string }).key;
  return follower.listChildren().find((c) => c.getMesh()) ??
    scene.getRoot().listNodes().find((n) =>
      (getPartgraphExtras(n).dson as { rigid_follow_mesh?: { follower: string } } | undefined)
        ?.rigid_follow_mesh?.follower === key
    )!;
}

/** `json` with every bone unposed: the figure at rest. */
function unposed(json: Json): Json {
  const out = structuredClone(json);
  for (const definition of out.node_library as Json[]) {
    if (definition.type === "bone") delete definition.rotation;
  }
  return out;
}

/**
 * Asserts the ring (with mesh) of `json`, decoded with its bones at rest, is where the same file
 * without the marker puts it; returns both rings (the plain one `before`).
 */
async function assertWorldKept(json: Json) {
  const { scene, node } = await decoded(unposed(json));
  const ring = node("Ring");
  const plain = unposed(json);
  const nodes = (plain.scene as Json).nodes as Json[];
  nodes[nodes.length - 1].extra = [];
  for (const definition of plain.node_library as Json[]) delete definition.extra;
  const plainDecoded = await decoded(plain);
  const before = plainDecoded.node("Ring");
  // The world position to the last bit; the turn within 1e-8: the decoder's quaternions are float32
  // (gl-matrix), so a recomposed rotation differs below that (and far below the GLB's float32).
  assert.deepEqual(ring.getWorldTranslation(), before.getWorldTranslation());
  assert.ok(gap(ring.getWorldMatrix(), before.getWorldMatrix()) < 1e-8, "ring world matrix changed");
  const mesh = meshOf(scene, ring);
  const [now, then] = [worldPositions(mesh), worldPositions(meshOf(plainDecoded.scene, before))];
  // A mesh skinned with its blend (`follow_skin.ts`) is placed by float32 inverse binds: within 1e-8 m.
  const tolerance = mesh.getSkin() ? 1e-8 : 1e-9;
  now.forEach((p, i) => p.forEach((v, k) => assert.ok(Math.abs(v - then[i][k]) < tolerance, `vertex ${i}`)));
  return { before, ring };
}

/** Where the ring's origin goes, (x, y) cm from bone 1's head (0, 1.5, 0) at rest, turned `degrees` about z with it. */
const aboutHead = (x: number, y: number, degrees: number): number[] => {
  const [cos, sin] = [Math.cos(degrees * Math.PI / 180), Math.sin(degrees * Math.PI / 180)];
  return [(x * cos - y * sin) / 100, (x * sin + y * cos + 1.5) / 100, 0.005];
};

/** Within float32 rounding of a number worked out by hand (the decoder's transforms are float32). */
const near = (got: ArrayLike<number>, want: number[], tolerance = 1e-7) =>
  want.forEach((w, k) => assert.ok(Math.abs(got[k] - w) < tolerance, `${Array.from(got)} ≠ ${want}`));

Deno.test("dson: a rigid follower goes under the joint dominating its reference vertices, its world kept", async () => {
  // Under the figure root; vertices 0, 1, 5, 6 (rows 0–1) are 2/3 bone 1's.
  const json = withRing("#F-1", [{ type: "studio/node/other" }, follow([0, 1, 5, 6])]);
  const { scene, node, warnings } = await decoded(json);
  assert.deepEqual(warnings, []);
  const ring = node("Ring");
  assert.equal(ring.getParentNode()?.getName(), "F_bone1");
  // `partgraph inspect` lists it with the joint it goes under.
  const [listed] = describeDson(scene).rigid_followers as Json[];
  const rounded = (v: unknown) => Math.round((v as number) * 1e6) / 1e6;
  assert.deepEqual({
    ...listed,
    share: rounded(listed.share),
    blend: (listed.blend as Json[]).map((b) => ({ ...b, weight: rounded(b.weight) })),
  }, {
    name: "Ring",
    joint: "F_bone1",
    target: "F_geo-1",
    share: 0.666667,
    parent: "F-1",
    blend: [{ joint: "F_bone1", weight: 0.666667 }, { joint: "F_bone0", weight: 0.333333 }],
  });
  const { before, ring: atRest } = await assertWorldKept(json);
  assert.equal(before.getParentNode()?.getName(), "F");
  // At rest (3 + 1, 2.5, 0.5) cm, turned 45° about y: the figure root sits at the origin unturned.
  near(atRest.getWorldTranslation(), [0.04, 0.025, 0.005]);
  near(atRest.getWorldRotation(), [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)]);
  // Bone 1's 30° carries it about the bone's head: (4, 2.5) − (0, 1.5) = (4, 1) turned 30°.
  near(ring.getWorldTranslation(), aboutHead(4, 1, 30));
  near(
    ring.getWorldRotation(),
    quatMultiply([0, 0, Math.sin(Math.PI / 12), Math.cos(Math.PI / 12)], [
      0,
      Math.sin(Math.PI / 8),
      0,
      Math.cos(Math.PI / 8),
    ]),
  );
  const record = (getPartgraphExtras(ring).dson as { rigid_follow: Json }).rigid_follow;
  const round = (v: unknown) => Math.round((v as number) * 1e6) / 1e6;
  assert.deepEqual({
    ...record,
    share: round(record.share),
    parent_offset: null,
    blend: (record.blend as Json[]).map((b) => ({ ...b, weight: round(b.weight) })),
  }, {
    target: "F_geo-1",
    joint: "F_bone1",
    share: 0.666667,
    reference_vertices: 4,
    vertices: [0, 1, 5, 6],
    parent: "F-1",
    parent_offset: null,
    // 2/3 bone 1, 1/3 bone 0: its mesh is skinned with these (see rigid_blend_test.ts).
    blend: [{ joint: "F_bone1", weight: 0.666667 }, { joint: "F_bone0", weight: 0.333333 }],
  });

  // Turning bone 1 by a further 90° about z carries the ring about bone 1's head (0, 1.5, 0) cm:
  // (4, 1) turns by 120° in all.
  const bone = node("F_bone1");
  const q = bone.getRotation();
  const [c, h] = [Math.SQRT1_2, Math.SQRT1_2]; // a 90° turn about z: (0, 0, sin 45°, cos 45°), times q
  bone.setRotation([
    c * q[0] - h * q[1],
    c * q[1] + h * q[0],
    c * q[2] + h * q[3],
    c * q[3] - h * q[2],
  ]);
  near(ring.getWorldTranslation(), aboutHead(4, 1, 120));
  // As written (under the figure root), the same pose would have left it at (4, 2.5, 0.5) cm.
  near(before.getWorldTranslation(), [0.04, 0.025, 0.005]);
});

Deno.test("dson: exported, the follower is a valid GLB's child of the bone, and three.js carries it along", async () => {
  const json = withRing("#F-1", [follow([0, 1, 5, 6])]);
  const { glb } = await decodeAndExport(json, "ring.duf");
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
  type Object3D = {
    name: string;
    isBone?: boolean;
    parent: Object3D | null;
    rotateZ(angle: number): void;
    updateMatrixWorld(force?: boolean): void;
    matrixWorld: { elements: number[] };
    getObjectByName(name: string): Object3D | undefined;
  };
  const gltf = await new Promise<{ scene: Object3D }>((resolve, reject) =>
    new GLTFLoader().parse(glb.slice().buffer, "", resolve as never, reject)
  );
  const ring = gltf.scene.getObjectByName("Ring")!, bone = gltf.scene.getObjectByName("F_bone1")!;
  assert.ok(bone.isBone && ring.parent === bone, `the ring's parent is ${ring.parent?.name}`);
  const where = () => {
    gltf.scene.updateMatrixWorld(true);
    return ring.matrixWorld.elements.slice(12, 15);
  };
  // Carried by bone 1's 30° from its rest place (4, 2.5, 0.5) cm.
  near(where(), aboutHead(4, 1, 30));
  // Bone 1's world turn is about z only (bone 0 is unturned), so a local turn about z is a world one.
  bone.rotateZ(Math.PI / 2);
  near(where(), aboutHead(4, 1, 120));
});

Deno.test("dson: a follower under a bone follows its figure's mesh; the definition's group serves the instance", async () => {
  // Real files write the group on the node_library definition and a bare marker on the instance.
  // Vertices 8, 9, 13 (rows 2–3) are 2/3 bone 0's.
  const json = withRing("F-1:#F_bone1", [MARKER], [follow([8, 9, 13])]);
  const { node, warnings } = await decoded(json);
  assert.deepEqual(warnings, []);
  const ring = node("Ring");
  assert.equal(ring.getParentNode()?.getName(), "F_bone0");
  const { before } = await assertWorldKept(json);
  assert.equal(before.getParentNode()?.getName(), "F_bone1");
  // Written under bone 1, placed on the figure at rest: (4, 1, 0.5) cm from bone 1's head, so
  // (4, 2.5, 0.5) cm; bone 0, which it rides, is unposed, so bone 1's 30° does not move it.
  near(ring.getWorldTranslation(), aboutHead(4, 1, 0));
});

Deno.test("dson: a follower with a Follow Target follows that node's mesh; an unskinned one's node", async () => {
  const json = withRing(undefined, [
    follow([0, 1, 2], { vertex_count: 3 }),
    {
      type: "studio_node_channels",
      channels: [{ channel: { id: "Follow Target", type: "node", node: "#Plate-1" } }],
    },
  ]);
  (json.geometry_library as Json[]).push({
    id: "Plate_geo",
    vertices: { count: 3, values: [[0, 5, 0], [1, 5, 0], [0, 6, 0]] },
    polylist: { count: 1, values: [[0, 0, 0, 1, 2]] },
  });
  (json.node_library as Json[]).push({
    id: "Plate",
    name: "Plate",
    type: "node",
    center_point: channels("float", [0, 5, 0]),
  });
  ((json.scene as Json).nodes as Json[]).push({
    id: "Plate-1",
    url: "#Plate",
    parent: "#F-1",
    rotation: channels("float", [20, 0, 0]),
    geometries: [{ id: "Plate_geo-1", url: "#Plate_geo" }],
  });
  const { node, warnings } = await decoded(json);
  assert.deepEqual(warnings, []);
  const ring = node("Ring");
  assert.equal(ring.getParentNode()?.getName(), "Plate");
  await assertWorldKept(json);
  near(ring.getWorldTranslation(), [0.04, 0.025, 0.005]);
  const record = (getPartgraphExtras(ring).dson as { rigid_follow: Json }).rigid_follow;
  assert.equal(record.share, 1);
  assert.equal(record.parent, null);
});

Deno.test("dson: followers that cannot follow stay as written, one warning per reason naming the first", async () => {
  const stays = async (parent: string | undefined, extra: unknown[], reason: string, parentName?: string) => {
    const json = withRing(parent, extra);
    const { node, warnings } = await decoded(json);
    const index = ((json.scene as Json).nodes as unknown[]).length - 1;
    const k = extra.findIndex((e) => (e as Json).type === MARKER.type);
    assert.deepEqual(warnings.filter((w) => !w.includes("unresolved reference")), [
      `dson: ring.duf at /scene/nodes/${index}/extra/${k}: 1 rigid follower(s) (the first 'Ring-1': ${reason}) ` +
      "stay under their parents as written: Daz keeps them on a mesh's surface as it is posed or morphed, so a " +
      "posed or morphed figure leaves them behind",
    ]);
    assert.equal(node("Ring").getParentNode()?.getName(), parentName);
    return warnings;
  };
  await stays("#F-1", [follow([])], "its rigidity_group names no reference vertex", "F");
  await stays("#F-1", [MARKER], "it has no rigidity_group, so no reference vertex", "F");
  await stays(
    "#F-1",
    [follow([16, -1, 99])],
    "none of its 3 reference vertices is a vertex of 'F_geo-1' (16 vertices)",
    "F",
  );
  await stays(
    "#F-1",
    [follow([1], { vertex_count: 17 })],
    "it was made for a mesh of 17 vertices, 'F_geo-1' has 16",
    "F",
  );
  await stays(undefined, [follow([1])], "it has no parent and no Follow Target, so no mesh to follow");
  // A Follow Target naming nothing: the parent is taken (here none), and the reference is listed.
  const missing = await stays(undefined, [
    follow([1]),
    { type: "studio_node_channels", channels: [{ channel: { id: "Follow Target", node: "#Nobody" } }] },
  ], "it has no parent and no Follow Target, so no mesh to follow");
  assert.ok(
    missing.some((w) =>
      w.startsWith("dson: unresolved reference '#Nobody': the Follow Target of rigid follower 'Ring-1'")
    ),
  );
  // Its own mesh, unskinned: the joint would be the follower itself.
  await stays(undefined, [
    follow([0, 1, 2], { vertex_count: 3 }),
    { type: "studio_node_channels", channels: [{ channel: { id: "Follow Target", node: "#Ring-1" } }] },
  ], "the joint its reference vertices follow, 'Ring-1', is the follower or below it (a cycle)");
});

Deno.test("dson: a follower whose target figure hangs below it stays (a cycle); the others are counted", async () => {
  const target = (node: string) => ({
    type: "studio_node_channels",
    channels: [{ channel: { id: "Follow Target", type: "node", node } }],
  });
  const json = withRing(undefined, [follow([0, 1]), target("#F-1")]);
  const nodes = (json.scene as Json).nodes as Json[];
  // The ring first, the figure under it; a second ring under the first, and a third that follows its own mesh.
  nodes.unshift(nodes.pop()!);
  nodes[1].parent = "#Ring-1";
  nodes.push(
    { id: "Ring-2", url: "#Ring", parent: "#Ring-1", extra: [follow([0, 1]), target("#F-1")] },
    {
      id: "Ring-3",
      url: "#Ring",
      extra: [follow([0, 1, 2], { vertex_count: 3 }), target("#Ring-3")],
      geometries: [{ id: "Ring_geo-3", url: "#Ring_geo" }],
    },
  );
  const { node, warnings } = await decoded(json);
  assert.deepEqual(warnings, [
    "dson: ring.duf at /scene/nodes/0/extra/0: 2 rigid follower(s) (the first 'Ring-1': the joint its reference " +
    "vertices follow, 'F_bone1', is the follower or below it (a cycle)) stay under their parents as written: Daz " +
    "keeps them on a mesh's surface as it is posed or morphed, so a posed or morphed figure leaves them behind",
    // Ring-2 follows a blend but has no mesh to skin with it (`follow_skin.ts`).
    "dson: rigid follower 'Ring-2' has no mesh to skin with its reference vertices' blend of joints: it " +
    "rides 'F_bone1' alone, ignoring 33.3% of their skin weight (on 'F_bone0')",
  ]);
  const rings = (await decoded(json)).scene.getRoot().listNodes().filter((n) => n.getName() === "Ring");
  assert.deepEqual(rings.map((r) => r.getParentNode()?.getName()), [undefined, "F_bone1", undefined]);
  assert.equal(node("F").getParentNode()?.getName(), "Ring");
});

Deno.test("dson: reference vertices out of range are dropped with a warning; the rest are followed", async () => {
  const json = withRing("#F-1", [follow([8, 40, 9, 13, -3])]);
  const { node, warnings } = await decoded(json);
  const index = ((json.scene as Json).nodes as unknown[]).length - 1;
  assert.deepEqual(warnings, [
    `dson: ring.duf at /scene/nodes/${index}/extra/0/rigidity_group/reference_vertices/values/1: 2 of the 5 ` +
    "reference vertices of a rigid follower are not vertices of 'F_geo-1' (16 vertices; the first is 40); " +
    "ignored, it follows the others",
  ]);
  assert.equal(node("Ring").getParentNode()?.getName(), "F_bone0");
  await assertWorldKept(json);
});

Deno.test("dson: a reference vertex that is not an integer is a DecodeError at its path", async () => {
  const json = withRing("#F-1", [follow([1, "2"])]);
  const index = ((json.scene as Json).nodes as unknown[]).length - 1;
  await assert.rejects(decoded(json), (error: unknown) => {
    assert.ok(error instanceof DecodeError, String(error));
    assert.match(
      error.message,
      new RegExp(`/scene/nodes/${index}/extra/0/rigidity_group/reference_vertices/values/1`),
    );
    return true;
  });
});

Deno.test("dson: morphs moving a follower's reference vertices are warned: it follows the pose, not them", async () => {
  const json = withRing("#F-1", [follow([0, 1, 5, 6])]);
  const morph = (id: string, value: number, deltas: number[][]): Json => ({
    id,
    name: id,
    parent: "#F_geo",
    channel: { id: "value", type: "float", value, current_value: value },
    morph: { vertex_count: 16, deltas: { count: deltas.length, values: deltas } },
  });
  (json.modifier_library as Json[]).push(
    morph("Far", 0, [[15, 0, 1, 0]]),
    morph("Smile", 0, [[5, 0, 0.5, 0], [15, 1, 0, 0]]),
    morph("Flat", 0.5, [[0, 0, 0, 0], [1, 0, 0, 2]]),
  );
  const { node, warnings } = await decoded(json);
  const index = ((json.scene as Json).nodes as unknown[]).length - 1;
  assert.deepEqual(warnings, [
    `dson: ring.duf at /scene/nodes/${index}/extra/0: 1 rigid follower(s) (the first 'Ring-1', put under ` +
    "'F_bone1') follow the pose, not morphs: 2 morph(s) of 'F_geo-1' move its reference vertices ('Smile', " +
    "'Flat'), and a viewer dialling one moves the surface but not them (dson.apply_preset and dson.bake_morph " +
    "refit it); 'Flat' is at 0.5 in this file: the follower is fitted to where the file's dials put them, as " +
    "Daz places it",
  ]);
  assert.equal(node("Ring").getParentNode()?.getName(), "F_bone1");
});

Deno.test("dson: a pose preset poses a follower in its written parent's frame, as without the follow", async () => {
  // Bone 1 turned by the preset too: the ring under it moves with it, and by its own channels.
  const channels = [["Ring", "translation/x", 2], ["Ring", "rotation/z", 30], [
    "F_bone1",
    "rotation/z",
    50,
  ]] as const;
  const preset = posePreset(channels);
  const posed = async (extra: unknown[]) => {
    const { scene } = await decoded(withRing("#F-1", extra));
    const ctx = testContext();
    const out = (await runNode(dsonApplyPreset, { scene, preset }, {}, ctx)).scene as Document;
    const ring = out.getRoot().listNodes().find((n) => n.getName() === "Ring")!;
    return { ring, warnings: ctx.warnings.map((w) => w.message) };
  };
  const following = await posed([follow([0, 1, 5, 6])]);
  const written = await posed([]);
  assert.deepEqual(following.warnings, []);
  assert.equal(following.ring.getParentNode()?.getName(), "F_bone1");
  assert.equal(written.ring.getParentNode()?.getName(), "F");
  // Posed in the figure root's frame: (3 + 2, 2.5, 0.5) cm, whatever bone 1 does.
  near(written.ring.getWorldTranslation(), [0.05, 0.025, 0.005]);
  // Following bone 1 (at 50° about its head (0, 1.5, 0) cm), its place at rest (5, 2.5, 0.5) cm, the
  // offset (5, 1, 0.5) cm from the head, is turned 50°.
  near(following.ring.getWorldTranslation(), aboutHead(5, 1, 50));
  // Its own turn is the preset's (30° about z after the written 45° about y), carried 50° about z.
  const expected = quatMultiply(
    [0, 0, Math.sin(Math.PI * 50 / 360), Math.cos(Math.PI * 50 / 360)],
    written.ring.getWorldRotation(),
  );
  near(following.ring.getWorldRotation(), expected);
});

Deno.test("dson: a preset scaling a follower leaves its child that does not inherit scale its size, as Daz does", async () => {
  // A bead under the ring, 1 cm along x, that does not inherit scale (as Daz writes bones).
  const withBead = (ringScale?: number) => {
    const json = withRing("#F-1", [follow([0, 1, 5, 6])]);
    if (ringScale) {
      (json.node_library as Json[]).find((n) => n.id === "Ring")!.scale = channels("float", [
        ringScale,
        ringScale,
        ringScale,
      ]);
    }
    (json.node_library as Json[]).push({
      id: "Bead",
      name: "Bead",
      label: "Bead",
      type: "node",
      inherits_scale: false,
      center_point: channels("float", [3, 2.5, 0.5]),
      translation: channels("float", [1, 0, 0]),
    });
    ((json.scene as Json).nodes as Json[]).push({ id: "Bead-1", url: "#Bead", parent: "#Ring-1" });
    return json;
  };
  const preset = {
    bytes: dsonBytes({
      file_version: "0.6.1.0",
      asset_info: { id: "/code/preset.duf", type: "preset_pose" },
      scene: {
        animations: ["x", "y", "z"].map((axis) => ({
          url: `name://@selection/Ring:?scale/${axis}/value`,
          keys: [[0, 2]],
        })),
      },
    }),
    name: "scale.duf",
  };
  const { scene } = await decoded(withBead());
  const ctx = testContext();
  const out = (await runNode(dsonApplyPreset, { scene, preset }, {}, ctx)).scene as Document;
  assert.deepEqual(ctx.warnings, []);
  const node = (doc: Document, name: string) => doc.getRoot().listNodes().find((n) => n.getName() === name)!;
  const written = await decoded(withBead(2));
  assert.equal(node(out, "Ring").getParentNode()?.getName(), "F_bone1");
  // The ring twice its size; the bead its own size (1, not 2), placed 2 cm from the ring's centre.
  near(node(out, "Ring").getWorldMatrix(), Array.from(written.node("Ring").getWorldMatrix()));
  near(node(out, "Bead").getWorldMatrix(), Array.from(written.node("Bead").getWorldMatrix()));
  near(node(out, "Bead").getScale(), [0.5, 0.5, 0.5]);
  const m = node(out, "Bead").getWorldMatrix();
  near([Math.hypot(m[0], m[1], m[2]), Math.hypot(m[4], m[5], m[6])], [1, 1]);
});
