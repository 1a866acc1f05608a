import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { compoundTree, encodeConstraints } from "../../../support/freelancer/encode_model.ts";
import { sharedMeshCompound } from "../../../support/shapes.ts";
import {
  encodeFloats,
  encodeUtf,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { MAX_HIERARCHY_DEPTH } from "../../../../runtime/depth.ts";
import type { JsonValue } from "../../../../runtime/node.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import { readGltf, writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { getSourceInfo } from "../../../../runtime/scene/source.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import {
  buildCompound,
  byName,
  CONSTRAINTS,
  type Mat4,
  MATERIALS,
  mul,
  mulRows,
  placement,
  rotationRows,
} from "./fixtures.ts";

function assertMatrix(actual: ArrayLike<number>, expected: Mat4, label: string): void {
  for (let i = 0; i < 16; i++) {
    assert.ok(
      Math.abs(actual[i] - expected[i]) < 1e-5,
      `${label}[${i}]: ${actual[i]} vs ${expected[i]}\n${Array.from(actual)}\n${expected}`,
    );
  }
}

async function decode(bytes: Uint8Array, name = "ship.cmp") {
  const ctx = testContext();
  // LancerEdit's layout, LODs and wireframes as child nodes (the default keeps them off-node).
  const { scene } = await runNode(decodeCmp, { bytes: { bytes, name } }, { lods: "all" }, ctx);
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

async function resolve(scene: Document, pose: Record<string, JsonValue> = {}) {
  const ctx = testContext();
  const out = await runNode(constraintsResolve, { scene }, { pose }, ctx);
  return { scene: out.scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

const record = (child: string) => CONSTRAINTS.find((c) => c.child.toLowerCase() === child.toLowerCase())!;

Deno.test("decode.cmp puts every part at the root with LODs, wireframe, hardpoints and raw constraints", async () => {
  const { bytes } = buildCompound();
  const { scene, warnings } = await decode(bytes);
  const roots = scene.getRoot().getDefaultScene()!.listChildren().map((n) => n.getName());
  assert.deepEqual(roots, ["Root", "Wing", "Turret", "Barrel", "Piston", "Radar", "Cargo"]);
  assert.equal(getSourceInfo(scene)?.format, "cmp");
  assert.equal(getSourceInfo(scene)?.forward, "-Z");
  const raw =
    (scene.getRoot().getDefaultScene()!.getExtras().partgraph as { constraints: { kind: string }[] })
      .constraints;
  assert.deepEqual(raw.map((r) => r.kind).sort(), CONSTRAINTS.map((c) => c.kind).sort());

  const root = byName(scene, "Root");
  const children = root.listChildren().map((n) => n.getName());
  assert.deepEqual(children, ["Root$lod1", "Root.vmeshwire", "HpMount01", "HpTurret01"]);
  assert.equal(root.getMesh()?.getName(), "Root.mesh");
  assert.equal(root.getMesh()?.listPrimitives().length, 2);
  assert.equal(
    byName(scene, "Root$lod1").getMesh()?.listPrimitives()[0].getAttribute("POSITION")?.getCount(),
    4,
  );
  const freelancer =
    (root.getExtras().partgraph as { freelancer: { switch_distances: number[]; file_name: string } })
      .freelancer;
  assert.deepEqual(freelancer.switch_distances, [0, 250, 1000]);
  assert.equal(freelancer.file_name, "hull_lod1030109103849.3db");
  assert.ok(root.getCamera(), "camera from the Camera fragment");
  assert.ok(Math.abs(root.getCamera()!.getYFov() - 0.9) < 1e-6);

  // Wire: VWireData vertexStart 1 + indices 0,1,2 → hull vertices 1, 2, 3 as a line list.
  const wire = byName(scene, "Root.vmeshwire").getMesh()!.listPrimitives()[0];
  assert.equal(wire.getMode(), 1);
  const wirePositions = Array.from(wire.getAttribute("POSITION")!.getArray()!);
  assert.deepEqual(wirePositions, [2, 0, -2, 2, 0, 2, -2, 0, 2]);
  assert.equal(wire.getIndices()!.getCount(), 6);

  const hp = byName(scene, "HpTurret01");
  const hpExtras = hp.getExtras() as Record<string, number>;
  assert.deepEqual(
    { ...hpExtras, partgraph: undefined, min: round(hpExtras.min), max: round(hpExtras.max) },
    { hardpoint: true, hptype: "rev", min: -180, max: 90, axis: [0, 1, 0], partgraph: undefined },
  );
  assert.deepEqual(byName(scene, "HpMount01").getExtras().hptype, "fix");
  assert.deepEqual(byName(scene, "HpMount01").getTranslation(), [0, 1, 2]);
  assert.ok(byName(scene, "HpRadar"), "hardpoint on a part without geometry");
  assert.ok(
    warnings.some((w) => w.includes("not found in any loaded material library")),
    warnings.join("\n"),
  );
});

Deno.test("shared meshes: absolute vertex = ref start + group start + index", async () => {
  const { bytes, sharedPositions } = buildCompound();
  const { scene } = await decode(bytes);
  const positions = (name: string) =>
    Array.from(byName(scene, name).getMesh()!.listPrimitives()[0].getAttribute("POSITION")!.getArray()!);
  assert.deepEqual(positions("Turret"), sharedPositions.slice(0, 12));
  assert.deepEqual(positions("Barrel"), sharedPositions.slice(12, 24)); // 4 + 0 + i
  assert.deepEqual(positions("Piston"), sharedPositions.slice(24, 36)); // 4 + 4 + i
  assert.equal(byName(scene, "Wing").getName(), "Wing", "Object name written without its NUL");
});

Deno.test("materials: Dc, Dt with clamp flags, Oc/Ot blend, Two double-sided, named placeholders, BGRA diffuse", async () => {
  const { bytes } = buildCompound();
  const { scene } = await decode(bytes);
  const materials = new Map(scene.getRoot().listMaterials().map((m) => [m.getName(), m]));
  const hull = materials.get(MATERIALS.hull)!;
  assert.ok(hull.getBaseColorTexture(), "Dt_name → base colour texture (case-insensitive texture lookup)");
  assert.equal(hull.getBaseColorTextureInfo()!.getWrapS(), 33071, "flag 0x2 clamps U");
  assert.equal(hull.getBaseColorTextureInfo()!.getWrapT(), 10497);
  assert.ok(
    Math.abs(hull.getBaseColorFactor()[1] - Math.pow((0.5 + 0.055) / 1.055, 2.4)) < 1e-6,
    "sRGB → linear",
  );
  const glass = materials.get(MATERIALS.glass)!;
  assert.equal(glass.getAlphaMode(), "BLEND");
  assert.equal(glass.getDoubleSided(), true);
  assert.equal(glass.getBaseColorFactor()[3], 0.5);
  const placeholder = `material_0x${flCrc32(MATERIALS.missing).toString(16).toUpperCase().padStart(8, "0")}`;
  assert.ok(materials.has(placeholder), [...materials.keys()].join());
  const png = hull.getBaseColorTexture()!.getImage()!;
  assert.deepEqual(Array.from(png.subarray(1, 4)), [0x50, 0x4e, 0x47]);

  const colors = byName(scene, "Root$lod1").getMesh()!.listPrimitives()[0].getAttribute("COLOR_0")!
    .getArray()!;
  // 0xFF0000FF is opaque blue; 0x8000FF00 is green with alpha 0x80.
  assert.deepEqual(Array.from(colors.subarray(0, 4)), [0, 0, 1, 1]);
  assert.deepEqual(Array.from(colors.subarray(4, 7)), [0, 1, 0]);
  assert.ok(Math.abs(colors[7] - 128 / 255) < 1e-6);
});

/** Expected world matrices at rest or under `pose` (degrees/units), computed from the fixture's inputs. */
function expectedWorld(pose: { turret?: number; barrel?: number; radar?: number[]; piston?: number[] } = {}) {
  const world = new Map<string, Mat4>();
  const rad = (d: number) => d * Math.PI / 180;
  world.set("Root", placement([0, 0, 0], rotationRows([1, 0, 0], 0)));
  const local = (child: string): Mat4 => {
    const r = record(child);
    const t = [...r.translation];
    let rows = [...r.rotation];
    if (child === "Turret" && pose.turret !== undefined) {
      rows = mulRows(rotationRows(r.axis!, pose.turret), rows);
    }
    if (child === "Barrel" && pose.barrel !== undefined) {
      const n = Math.hypot(...r.axis!);
      r.axis!.forEach((a, k) => t[k] += a / n * pose.barrel!);
    }
    if (child === "Piston" && pose.piston) {
      rows = mulRows(rotationRows(r.axis!, pose.piston[0]), rows);
      r.axis!.forEach((a, k) => t[k] += a * pose.piston![1]);
    }
    if (child === "Radar" && pose.radar) {
      const [a, b, c] = pose.radar;
      rows = mulRows(
        rotationRows([1, 0, 0], a),
        mulRows(rotationRows([0, 1, 0], b), mulRows(rotationRows([0, 0, 1], c), rows)),
      );
    }
    void rad;
    return placement(t, rows);
  };
  for (const child of ["Wing", "Turret", "Piston", "Radar", "Cargo"]) {
    world.set(child, mul(world.get("Root")!, local(child)));
  }
  world.set("Barrel", mul(world.get("Turret")!, local("Barrel")));
  return world;
}

Deno.test("constraints.resolve: world transform of every part matches T(t)·R chains", async () => {
  const { scene } = await decode(buildCompound().bytes);
  const { scene: resolved, warnings } = await resolve(scene);
  for (const [name, matrix] of expectedWorld()) {
    assertMatrix(byName(resolved, name).getWorldMatrix(), matrix, name);
  }
  assert.ok(warnings.some((w) => w.includes('"Barrel01\\t"') && w.includes("dropped")), warnings.join("\n"));
  assert.equal(byName(scene, "Turret").listParents().length > 0, true, "input scene untouched");
  assert.equal(scene.getRoot().getDefaultScene()!.listChildren().length, 7, "input scene untouched");
  // Fix joint: placed directly under its parent, no pivot.
  assert.equal(byName(resolved, "Wing").getParentNode()?.getName(), "Root");
  assert.equal(byName(resolved, "Wing").getExtras().construct, "fix");
  // Hardpoints ride on their part.
  assertMatrix(
    byName(resolved, "HpRadar").getWorldMatrix(),
    mul(expectedWorld().get("Radar")!, placement([0, 0.2, 0], rotationRows([0, 1, 0], 0))),
    "HpRadar",
  );
});

Deno.test("joints become parts: local X is the axis (in the parent frame), limits in degrees/units", async () => {
  const { scene } = await decode(buildCompound().bytes);
  const { scene: resolved } = await resolve(scene);
  const parts = resolved.getRoot().listNodes().filter((n) => n.getExtras().ctrl_type);
  const summary = Object.fromEntries(parts.map((n) => {
    const e = n.getExtras() as Record<string, unknown>;
    const part = (e.partgraph as { part: { kind: string; found_by: string } }).part;
    return [n.getName(), [
      e.ctrl_type,
      e.axis,
      e.unit,
      round(e.min as number),
      round(e.max as number),
      e.rest,
      part.kind,
      part.found_by,
    ]];
  }));
  assert.deepEqual(summary, {
    Turret_joint: ["rotation", "X", "deg", -90, 90, 0, "rev", "constraint"],
    Barrel_joint: ["translation", "X", "m", 0, 1.5, 0, "pris", "constraint"],
    Piston_joint: ["rotation", "X", "deg", -45, 45, 0, "cyl", "constraint"],
    Piston_slide: ["translation", "X", "m", 0, 2, 0, "cyl", "constraint"],
    Radar_joint_x: [
      "rotation",
      "X",
      "deg",
      round(-0.5 * 180 / Math.PI),
      round(0.5 * 180 / Math.PI),
      0,
      "sphere",
      "constraint",
    ],
    Radar_joint_y: [
      "rotation",
      "X",
      "deg",
      round(-180 / Math.PI),
      round(180 / Math.PI),
      0,
      "sphere",
      "constraint",
    ],
    Radar_joint_z: [
      "rotation",
      "X",
      "deg",
      round(-0.25 * 180 / Math.PI),
      round(0.25 * 180 / Math.PI),
      0,
      "sphere",
      "constraint",
    ],
    Cargo_joint_x: ["rotation", "X", "deg", -180, 180, 0, "loose", "constraint"],
    Cargo_joint_y: ["rotation", "X", "deg", -180, 180, 0, "loose", "constraint"],
    Cargo_joint_z: ["rotation", "X", "deg", -180, 180, 0, "loose", "constraint"],
  });
  // No interop `group` (the contract's "parts that move together"): one value would drive a Sphere's
  // three axes, or a Cyl's turn and slide, together. Each pivot names its joint and degree of freedom.
  const joints = Object.fromEntries(parts.map((n) => {
    const e = n.getExtras() as Record<string, unknown>;
    const part = (e.partgraph as { part: Record<string, unknown> }).part;
    return [n.getName(), [e.group ?? part.group ?? "none", part.joint, part.dof]];
  }));
  assert.deepEqual(joints, {
    Turret_joint: ["none", "Turret", "rotation"],
    Barrel_joint: ["none", "Barrel", "translation"],
    Piston_joint: ["none", "Piston", "rotation"],
    Piston_slide: ["none", "Piston", "translation"],
    Radar_joint_x: ["none", "Radar", "x"],
    Radar_joint_y: ["none", "Radar", "y"],
    Radar_joint_z: ["none", "Radar", "z"],
    Cargo_joint_x: ["none", "Cargo", "x"],
    Cargo_joint_y: ["none", "Cargo", "y"],
    Cargo_joint_z: ["none", "Cargo", "z"],
  });
  // The pivot's world X equals the joint axis carried into world space by the parent.
  const worldX = (name: string) => Array.from(byName(resolved, name).getWorldMatrix().slice(0, 3));
  const close = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]) < 1e-5);
  assert.ok(close(worldX("Turret_joint"), [0, 1, 0]), String(worldX("Turret_joint")));
  const turretWorld = expectedWorld().get("Turret")!;
  const barrelAxis = [0, 1, 2].map((r) => -turretWorld[8 + r]); // turret rotation · (0,0,-1)
  assert.ok(close(worldX("Barrel_joint"), barrelAxis), `${worldX("Barrel_joint")} vs ${barrelAxis}`);
  assert.ok(close(worldX("Radar_joint_y"), [0, 1, 0]));
  assert.ok(close(worldX("Radar_joint_z"), [0, 0, 1]));
  assert.deepEqual(byName(resolved, "Turret").getExtras().construct, "rev");
  assert.deepEqual(round(byName(resolved, "Turret").getExtras().max as number), 90);
});

Deno.test("pose moves joints (clamped to limits), and the GLB validates", async () => {
  const { scene } = await decode(buildCompound().bytes);
  const { scene: posed, warnings } = await resolve(scene, {
    turret: 30,
    Barrel: 0.75,
    Piston: [20, 1],
    Radar: [10, -20, 5],
    Wing: 5,
    nothing: 1,
  });
  const expected = expectedWorld({ turret: 30, barrel: 0.75, piston: [20, 1], radar: [10, -20, 5] });
  for (const [name, matrix] of expected) assertMatrix(byName(posed, name).getWorldMatrix(), matrix, name);
  assert.ok(warnings.some((w) => w.includes("'Wing'") && w.includes("not movable")), warnings.join("\n"));
  assert.ok(warnings.some((w) => w.includes("'nothing'")), warnings.join("\n"));

  const { scene: clamped, warnings: clampWarnings } = await resolve(scene, {
    Turret: 120,
    Turret_joint: 120,
  });
  assertMatrix(
    byName(clamped, "Turret").getWorldMatrix(),
    expectedWorld({ turret: 90 }).get("Turret")!,
    "clamped",
  );
  assert.ok(clampWarnings.some((w) => w.includes("clamped to 90")));

  const glb = await writeGlb(posed, { generator: GENERATOR });
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}

function compoundWithCons(cons: UtfNode[]): Uint8Array {
  const tree = compoundTree({
    parts: [{ name: "Root", fileName: "a.3db", fragment: { lods: [] } }],
    constraints: [],
  });
  const children = (tree as { readonly children: readonly UtfNode[] }).children.map((c) =>
    c.name === "Cmpnd"
      ? utfDir("Cmpnd", [...(c as { readonly children: readonly UtfNode[] }).children, utfDir("Cons", cons)])
      : c
  );
  return encodeUtf(utfDir("\\", children));
}

Deno.test("a 200-byte Sphere leaf (the short published layout) fails clearly at its offset", async () => {
  const sphere = encodeConstraints("sphere", [{
    kind: "sphere",
    parent: "Root",
    child: "B",
    translation: [0, 0, 0],
    rotation: rotationRows([1, 0, 0], 0),
  }]);
  const bytes = compoundWithCons([utfLeaf("Sphere", sphere.slice(0, 200))]);
  const error = await decode(bytes).then(() => undefined, (e) => e);
  assert.ok(error instanceof DecodeError, String(error));
  assert.match(error.message, /212-byte records/);
  assert.equal(error.found, "200 bytes (200 left over)");
  // The offset is the leaf's data start in the file.
  const at = (error.at as { offset: number }).offset;
  assert.equal(bytes[at], "R".charCodeAt(0), "points at the record's parent name");
});

Deno.test("an unknown Cons leaf is an error, not a desync", async () => {
  const bytes = compoundWithCons([utfLeaf("Spring", new Uint8Array(176))]);
  await assert.rejects(
    () => decode(bytes),
    (e: unknown) => e instanceof DecodeError && /Spring/.test(e.found),
  );
});

Deno.test("a constraint cycle is a DecodeError at the record's byte offset", async () => {
  const parts = ["Root", "A", "B"].map((name) => ({ name, fileName: `${name}.3db`, fragment: { lods: [] } }));
  const rows = rotationRows([1, 0, 0], 0);
  const bytes = encodeUtf(compoundTree({
    parts,
    constraints: [
      { kind: "fix", parent: "B", child: "A", translation: [0, 0, 0], rotation: rows },
      { kind: "fix", parent: "a", child: "b", translation: [0, 0, 0], rotation: rows },
    ],
  }));
  const { scene } = await decode(bytes);
  const error = await resolve(scene).then(() => undefined, (e) => e);
  assert.ok(error instanceof DecodeError, String(error));
  assert.match(error.found, /cycle/);
  const at = (error.at as { offset: number }).offset;
  assert.equal(String.fromCharCode(bytes[at]), "B", "offset of the first record (parent 'B')");
});

/** A compound whose parts hang in one chain of `length` fixed joints, Root first. */
function chainCompound(length: number, closed = false): Uint8Array {
  const names = Array.from({ length }, (_, i) => (i === 0 ? "Root" : `Link${i}`));
  const parts = names.map((name) => ({ name, fileName: `${name}.3db`, fragment: { lods: [] } }));
  const rows = rotationRows([1, 0, 0], 0);
  const link = (parent: string, child: string) => ({
    kind: "fix" as const,
    parent,
    child,
    translation: [0.1, 0, 0],
    rotation: rows,
  });
  const constraints = names.slice(1).map((child, i) => link(names[i], child));
  // Closing the chain: Link1 hangs from the last link instead of Root (the record listed first wins).
  if (closed) constraints.unshift(link(names[length - 1], "Link1"));
  return encodeUtf(compoundTree({ parts, constraints }));
}

Deno.test("a part chain deeper than the bound is refused at the deepest part's record", async () => {
  const bytes = chainCompound(MAX_HIERARCHY_DEPTH + 1);
  const error = await resolve((await decode(bytes)).scene).then(() => undefined, (e) => e);
  assert.ok(error instanceof DecodeError, String(error));
  assert.match(error.expected, new RegExp(`at most ${MAX_HIERARCHY_DEPTH} levels deep`));
  assert.match(
    error.found,
    new RegExp(`^${MAX_HIERARCHY_DEPTH + 1} levels down to part 'Link${MAX_HIERARCHY_DEPTH}'`),
  );
  const at = (error.at as { offset: number }).offset;
  const record = new TextDecoder().decode(bytes.subarray(at, at + 128)).split("\0").filter(Boolean);
  assert.deepEqual(record.slice(0, 2), [`Link${MAX_HIERARCHY_DEPTH - 1}`, `Link${MAX_HIERARCHY_DEPTH}`]);
  // At the bound the tree resolves (20,000 links were 30 s in resolve and a stack overflow in rig.report).
  const { scene } = await resolve((await decode(chainCompound(MAX_HIERARCHY_DEPTH))).scene);
  assert.equal(scene.getRoot().listNodes().filter((n) => n.getName().startsWith("Link")).length, 511);
  const far = await resolve((await decode(chainCompound(3_000))).scene).then(() => undefined, (e) => e);
  assert.match(far.found, /^3000 levels/);
});

Deno.test("a cycle through thousands of parts is named by its first and last few", async () => {
  const error = await resolve((await decode(chainCompound(5_000, true))).scene).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof DecodeError, String(error));
  assert.equal(
    error.found,
    "the cycle Link1 → Link4999 → Link4998 → Link4997 → Link4996 → Link4995 → … 4988 more … → Link6 → Link5 → Link4 → Link3 → Link2 → Link1",
  );
});

/** `parts` parts, each drawing one 4,000-vertex mesh from its own start vertex (an overlapping copy). */
function overlappingRefs(parts: number): Uint8Array {
  return sharedMeshCompound({ parts, vertices: 4000, used: 4000 - parts, start: (p) => p, parent: () => 0 });
}

Deno.test("mesh references may not copy a mesh out of proportion to it (2,000 drawing from 97 start vertices made a 2 MB .cmp an 89 MB GLB)", async () => {
  const error = await decode(overlappingRefs(100)).then(() => undefined, (e) => e);
  assert.ok(error instanceof DecodeError, String(error));
  assert.match(error.expected, /mesh references selecting at most \d+ bytes of geometry in all/);
  assert.equal(error.file, "ship.cmp");
  const bytes = overlappingRefs(100);
  const at = (error.at as { offset: number }).offset;
  // The offset is a VMeshRef record: its first field is the mesh id.
  assert.equal(new DataView(bytes.buffer, at).getUint32(4, true), flCrc32("m.vms"));
  // Ten such parts are within the budget.
  const { scene } = await decode(overlappingRefs(10));
  assert.equal(scene.getRoot().listMeshes().length, 10);
});

Deno.test("decode-only output validates and is byte-identical across runs", async () => {
  const { bytes } = buildCompound();
  const first = await writeGlb((await decode(bytes)).scene, { generator: GENERATOR });
  const second = await writeGlb((await decode(bytes)).scene, { generator: GENERATOR });
  assert.deepEqual(first, second);
  const report = await validateGltf(first);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test(".3db: garbage hardpoint Orientation falls back to identity, a missing Position to zero, with warnings", async () => {
  const hp = (children: UtfNode[]) => utfDir("Hardpoints", [utfDir("Fixed", [utfDir("HpA", children)])]);
  const bytes = encodeUtf(utfDir("\\", [
    hp([utfLeaf("Orientation", encodeFloats([NaN, 0, 0, 0, 1, 0, 0, 0, 1]))]),
  ]));
  const { scene, warnings } = await decode(bytes, "part.3db");
  const node = byName(scene, "HpA");
  assert.deepEqual(node.getRotation(), [0, 0, 0, 1]);
  assert.deepEqual(node.getTranslation(), [0, 0, 0]);
  assert.equal(node.getParentNode()?.getName(), "Root");
  assert.equal(warnings.length, 2, warnings.join("\n"));
});

Deno.test("a decoded scene survives the GLB cache codec: resolving the re-read scene gives the same transforms", async () => {
  const { scene } = await decode(buildCompound().bytes);
  const reread = await readGltf(await writeGlb(scene, { generator: GENERATOR }));
  const { scene: resolved } = await resolve(reread, { Turret: 30 });
  for (const [name, matrix] of expectedWorld({ turret: 30 })) {
    assertMatrix(byName(resolved, name).getWorldMatrix(), matrix, name);
  }
});
