/**
 * `rig.parts` v5-v6 / `rig.insert_pivot` v4 (`edited_panels.ts`): a rigged file whose panel the user
 * edited under its pivot, extras kept, has that panel fitted again — the new hinge where the edit put
 * the old one, a warning naming the panel and how far the hinge moved — while unedited panels, float
 * noise and a scale applied to the whole model keep every pivot exactly. Blender itself:
 * `tests/clients/blender_roundtrip_test.ts`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document, type Node } from "@gltf-transform/core";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import {
  EDITED_FRACTION,
  fittedGeometry,
  geometrySize,
  panelDrift,
} from "../../../nodes/rig/fitted_geometry.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { runNode } from "../../support/context.ts";
import { compareRigs, type ReportPart, type Rigged, rigGlb } from "../../clients/roundtrip.ts";
import {
  invertAffine,
  type Mat4,
  multiply,
  normalize,
  type Quat,
  quatMultiply,
  transformDirection,
  transformPoint,
} from "../../../nodes/rig/transform.ts";

const PANEL = "flap_rh";
const PIVOT = `HINGE_auto_${PANEL}`;

let rigged: Promise<Rigged> | undefined;
/** The demo fighter rigged once. */
function first(): Promise<Rigged> {
  rigged ??=
    (async () =>
      rigGlb(await writeGlb((await runNode(demoFighter, {}, {})).scene, { generator: GENERATOR })))();
  return rigged;
}

const named = (doc: Document, name: string): Node =>
  doc.getRoot().listNodes().find((n) => n.getName() === name)!;

/** The first rig's GLB edited by `edit`, written again (extras kept). */
async function edited(edit: (doc: Document) => void): Promise<Uint8Array> {
  const doc = await readGltf((await first()).glb);
  edit(doc);
  return writeGlb(doc, { generator: GENERATOR });
}

/** Moves the panel by `d` in its pivot's frame (its node's parent space), as a user drags it. */
const move = (d: number[]) => (doc: Document) => {
  const panel = named(doc, PANEL);
  const t = panel.getTranslation();
  panel.setTranslation([t[0] + d[0], t[1] + d[1], t[2] + d[2]]);
};

/** The panel turned by `degrees` about its pivot's Z through the pivot's origin (a swept hinge). */
const turn = (degrees: number) => (doc: Document) => {
  const panel = named(doc, PANEL);
  const h = degrees * Math.PI / 360;
  const q: Quat = [0, 0, Math.sin(h), Math.cos(h)];
  const t = panel.getTranslation();
  const m = [1 - 2 * q[2] ** 2, 2 * q[2] * q[3], 0, -2 * q[2] * q[3], 1 - 2 * q[2] ** 2, 0];
  panel.setTranslation([m[0] * t[0] + m[3] * t[1], m[1] * t[0] + m[4] * t[1], t[2]]);
  panel.setRotation(quatMultiply(q, panel.getRotation() as Quat));
};

/** A world edit: the pivot-frame edit the panel got, seen from the world. */
function worldEdit(pivotWorld: Mat4, local: Mat4): number[] {
  return multiply(pivotWorld, multiply(local, invertAffine(pivotWorld)));
}

/** Angle (degrees, sign ignored) and offset of part `b`'s hinge from the line `a` moved by `edit`. */
function fromMovedLine(a: ReportPart, b: ReportPart, edit: Mat4) {
  const origin = transformPoint(edit, a.hinge!.world.origin);
  const axis = normalize(transformDirection(edit, a.hinge!.world.axis));
  const v = b.hinge!.world.axis;
  const cos = Math.abs(axis[0] * v[0] + axis[1] * v[1] + axis[2] * v[2]);
  const d = b.hinge!.world.origin.map((x, i) => x - origin[i]);
  const along = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
  return {
    degrees: Math.acos(Math.min(1, cos)) * 180 / Math.PI,
    offset: Math.sqrt(Math.max(0, d[0] ** 2 + d[1] ** 2 + d[2] ** 2 - along ** 2)),
  };
}

/** Rigs the edited file; checks every other part kept exactly and returns the panel's part and warning. */
async function rigEdited(edit: (doc: Document) => void, changed: string[] = []) {
  const before = await first();
  const second = await rigGlb(await edited(edit));
  const others = (parts: ReportPart[]) => parts.filter((p) => p.panel !== PANEL);
  const diff = compareRigs(before.parts, second.parts);
  assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
    lost: [],
    added: [],
    changed,
  });
  const rest = compareRigs(others(before.parts), others(second.parts));
  assert(rest.compared >= 20 && rest.worstAngle < 1e-5 && rest.worstOffset < 1e-9, JSON.stringify(rest));
  return {
    before: before.parts.find((p) => p.panel === PANEL)!,
    after: second.parts.find((p) => p.panel === PANEL)!,
    warning: second.warnings.find((w) => w.includes("moved under its pivot")),
    warnings: second.warnings,
    glb: second.glb,
  };
}

async function pivotWorld(): Promise<Mat4> {
  return named(await readGltf((await first()).glb), PIVOT).getWorldMatrix();
}

const translation = (d: number[]): Mat4 => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, d[0], d[1], d[2], 1];

Deno.test("an unedited panel, or one nudged within float noise (0.05 mm of a 2.4 m flap), keeps its pivot exactly", async () => {
  for (const edit of [() => {}, move([0, -0.00005, 0])]) {
    const { before, after, warning } = await rigEdited(edit);
    assertEquals(warning, undefined);
    assertEquals(after.hinge, before.hinge);
  }
});

for (const [label, d] of [["1 mm", [0, -0.001, 0]], ["10 cm", [0, -0.1, 0.02]]] as const) {
  Deno.test(`a panel moved ${label} under its pivot is fitted again, on the hinge the move put it, warned`, async () => {
    const { before, after, warning } = await rigEdited(move([...d]));
    const far = Math.hypot(...d);
    const moved = fromMovedLine(before, after, worldEdit(await pivotWorld(), translation([...d])));
    assert(moved.degrees < 1e-4 && moved.offset < 1e-5, JSON.stringify(moved));
    // The old line is as far as the move took it.
    const stale = fromMovedLine(before, after, translation([0, 0, 0]));
    assert(Math.abs(stale.offset - far) < 1e-5, `${stale.offset} vs ${far}`);
    assert(warning?.includes(`panel '${PANEL}'`), warning);
    assert(
      warning!.includes(` ${Number(far.toPrecision(3))} from the line of '${PIVOT}' as it was`),
      warning,
    );
    assertEquals([after.min, after.max, after.kind, after.side], [
      before.min,
      before.max,
      before.kind,
      before.side,
    ]);
  });
}

Deno.test("a panel turned 5° under its pivot is fitted again, its hinge turned 5°", async () => {
  const { before, after, warning } = await rigEdited(turn(5));
  const h = 5 * Math.PI / 180;
  const rotation: Mat4 = [
    Math.cos(h),
    Math.sin(h),
    0,
    0,
    -Math.sin(h),
    Math.cos(h),
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    0,
    1,
  ];
  const moved = fromMovedLine(before, after, worldEdit(await pivotWorld(), rotation));
  assert(moved.degrees < 0.01 && moved.offset < 1e-3, JSON.stringify(moved));
  assert(Math.abs(fromMovedLine(before, after, translation([0, 0, 0])).degrees - 5) < 0.01);
  assert(warning?.includes(`panel '${PANEL}'`) && warning.includes("5° and"), warning);
});

Deno.test("limits the user set on the edited panel's pivot are kept through the refit", async () => {
  const { after } = await rigEdited((doc) => {
    named(doc, PIVOT).setExtras({ ...named(doc, PIVOT).getExtras(), min: -5, max: 33 });
    move([0, -0.1, 0])(doc);
  }, [`${PIVOT}.min: 0 → -5`, `${PIVOT}.max: 40 → 33`]);
  assertEquals([after.min, after.max], [-5, 33]);
});

Deno.test("a scale applied to the whole model (vertices and offsets × 2) is no edit: every pivot kept, scaled", async () => {
  const before = await first();
  const glb = await edited((doc) => {
    for (const node of doc.getRoot().listNodes()) {
      node.setTranslation(node.getTranslation().map((v) => 2 * v) as [number, number, number]);
    }
    for (
      const accessor of new Set(
        doc.getRoot().listMeshes().flatMap((m) => m.listPrimitives()).flatMap((
          p,
        ) => [p.getAttribute("POSITION"), ...p.listTargets().map((t) => t.getAttribute("POSITION"))]),
      )
    ) {
      if (!accessor) continue;
      accessor.setArray(Float32Array.from(accessor.getArray()!, (v) => 2 * v));
    }
  });
  const second = await rigGlb(glb);
  assertEquals(second.warnings.filter((w) => w.includes("moved under its pivot")), []);
  const diff = compareRigs(before.parts, second.parts);
  assertEquals(diff.changed, []);
  const doubled = (p: ReportPart) => ({
    ...p,
    hinge: p.hinge && { world: { origin: p.hinge.world.origin.map((v) => 2 * v), axis: p.hinge.world.axis } },
  });
  const scaled = compareRigs(before.parts.map(doubled), second.parts);
  assert(scaled.worstAngle < 1e-4 && scaled.worstOffset < 1e-5, JSON.stringify(scaled));
});

Deno.test("a panel turned 20° about its pivot's own X (deflected in Blender) is no edit: its hinge line stands", async () => {
  const { before, after, warning } = await rigEdited((doc) => {
    const panel = named(doc, PANEL);
    const h = 20 * Math.PI / 360;
    const q: Quat = [Math.sin(h), 0, 0, Math.cos(h)];
    const [x, y, z] = panel.getTranslation();
    const [c, s] = [Math.cos(2 * h), Math.sin(2 * h)];
    panel.setTranslation([x, c * y - s * z, s * y + c * z]);
    panel.setRotation(quatMultiply(q, panel.getRotation() as Quat));
  });
  assertEquals(warning, undefined);
  assertEquals(after.hinge, before.hinge);
});

Deno.test("a thin plate moved 1 mm across is edited, though a 0.25° turn about its hinge nearly explains it", () => {
  const doc = new Document();
  const buffer = doc.createBuffer();
  // A 2.4 m × 0.46 m plate 1 mm thick hinged along X at z = 0, under its pivot.
  const corners: number[] = [];
  for (const y of [0, -0.001]) {
    for (const [x, z] of [[-1.2, 0], [1.2, 0], [1.2, 0.46], [-1.2, 0.46]]) corners.push(x, y, z);
  }
  const indices = [0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6];
  const primitive = doc.createPrimitive()
    .setAttribute(
      "POSITION",
      doc.createAccessor().setType("VEC3").setBuffer(buffer).setArray(new Float32Array(corners)),
    )
    .setIndices(doc.createAccessor().setType("SCALAR").setBuffer(buffer).setArray(new Uint16Array(indices)));
  const panel = doc.createNode("Aileron_L").setMesh(doc.createMesh().addPrimitive(primitive));
  const pivot = doc.createNode("HINGE_auto_Aileron_L").setTranslation([3, 1, 2]).setRotation([
    0,
    0.38268343,
    0,
    0.92387953,
  ])
    .addChild(panel);
  doc.createScene().addChild(pivot);
  const record = fittedGeometry(pivot, panel)!;
  const size = geometrySize(record);
  panel.setTranslation([0, -0.001, 0]);
  const moved = panelDrift(record, pivot, panel)!;
  assertEquals(moved.turn, 0);
  assert(moved.drift > EDITED_FRACTION * size && Math.abs(moved.drift - 0.001) < 1e-6, `${moved.drift}`);
  // Turned about the hinge instead (Blender's Z-up export turns 90°, a deflection any angle): no edit.
  for (const degrees of [0.25, 20, 90]) {
    const h = degrees * Math.PI / 360;
    panel.setTranslation([0, 0, 0]).setRotation([Math.sin(h), 0, 0, Math.cos(h)]);
    const turned = panelDrift(record, pivot, panel)!;
    assert(turned.drift <= EDITED_FRACTION * size, `${degrees}°: ${turned.drift}`);
  }
});
