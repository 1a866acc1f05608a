import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { buildFighterScene } from "../../../nodes/demo/fighter_run.ts";
import { demoPlugin } from "../../../nodes/demo/mod.ts";
import { fighterTruth } from "../../../nodes/demo/fighter_truth.ts";
import { getSourceInfo } from "../../../runtime/scene/source.ts";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { runNode } from "../../support/context.ts";
import { validateGltf } from "../../support/validator.ts";
import { nodeNamed } from "./scene_geometry.ts";

async function fighterGlb(params: Record<string, number> = {}): Promise<Uint8Array> {
  const { scene } = await runNode(demoFighter, {}, params);
  return await writeGlb(scene as Document, { generator: GENERATOR });
}

function vertexCount(doc: Document): number {
  let count = 0;
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) count += primitive.getAttribute("POSITION")!.getCount();
  }
  return count;
}

Deno.test("demo.fighter is registered by the demo plug-in", () => {
  assert.ok(demoPlugin.nodes?.includes(demoFighter));
  assert.equal(demoFighter.type, "demo.fighter");
  assert.deepEqual(Object.keys(demoFighter.inputs), []);
  assert.deepEqual(Object.keys(demoFighter.outputs), ["scene"]);
});

Deno.test("demo.fighter writes the same GLB bytes on every run", async () => {
  const first = await fighterGlb();
  const second = await fighterGlb();
  assert.ok(first.byteLength > 10_000);
  assert.deepEqual(first, second);
  // A different density is a different scene, not the same bytes by accident.
  assert.notDeepEqual(await fighterGlb({ detail: 3 }), first);
});

Deno.test("demo.fighter GLB passes the Khronos validator at low, default and high detail", async () => {
  for (const detail of [1, 2, 5]) {
    const report = await validateGltf(await fighterGlb({ detail }));
    assert.equal(report.errors, 0, `detail ${detail}: ${report.messages.join("\n")}`);
    assert.equal(report.warnings, 0, `detail ${detail}: warnings`);
  }
});

Deno.test("demo.fighter records its frame: demo format, −Z forward, +Y up, metres", async () => {
  const { scene } = await runNode(demoFighter, {});
  assert.deepEqual(getSourceInfo(scene), { format: "demo", forward: "-Z", up: "+Y", metresPerUnit: 1 });
  // And the record survives a GLB round trip.
  const reread = await readGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(getSourceInfo(reread)?.forward, "-Z");
});

Deno.test("demo.fighter keeps vertex counts modest and grows with detail", () => {
  const counts = [1, 2, 4].map((detail) => vertexCount(buildFighterScene(detail)));
  assert.ok(counts[1] >= 2_000 && counts[1] <= 20_000, `default has ${counts[1]} vertices`);
  assert.ok(counts[0] < counts[1] && counts[1] < counts[2], `counts ${counts}`);
  assert.throws(() => buildFighterScene(0), RangeError);
  assert.throws(() => buildFighterScene(2.5), RangeError);
});

Deno.test("demo.fighter node names are unique and the fighter faces −Z", () => {
  const doc = buildFighterScene();
  const names = doc.getRoot().listNodes().map((n) => n.getName());
  assert.equal(new Set(names).size, names.length);
  // The nose tip is the fuselage's most forward point and lies at −Z.
  const fuselage = nodeNamed(doc, "Fuselage").getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  let minZ = Infinity, maxZ = -Infinity;
  for (let i = 0; i < fuselage.getCount(); i++) {
    const z = fuselage.getElement(i, [0, 0, 0])[2];
    minZ = Math.min(minZ, z);
    maxZ = Math.max(maxZ, z);
  }
  assert.ok(minZ < -8 && maxZ > 6.5, `fuselage spans z ${minZ}..${maxZ}`);
  const canard = fighterTruth().panels.find((p) => p.kind === "canard")!;
  const stabilator = fighterTruth().panels.find((p) => p.kind === "stabilator")!;
  assert.ok(canard.hingeOrigin[2] < stabilator.hingeOrigin[2], "canards are forward of the tail");
});

Deno.test("every mesh of demo.fighter is closed, wound outward and has unit normals on its faces' side", () => {
  const doc = buildFighterScene();
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const index = primitive.getIndices()!.getArray()!;
      const position = primitive.getAttribute("POSITION")!.getArray()!;
      const normal = primitive.getAttribute("NORMAL")!.getArray()!;
      // Hard edges split vertices, so closure is checked on positions welded back together.
      const welded = new Map<string, number>();
      const weld = (v: number) => {
        const key = `${position[v * 3]},${position[v * 3 + 1]},${position[v * 3 + 2]}`;
        if (!welded.has(key)) welded.set(key, welded.size);
        return welded.get(key)!;
      };
      const directed = new Map<string, number>();
      let volume = 0;
      for (let t = 0; t < index.length; t += 3) {
        const [a, b, c] = [index[t], index[t + 1], index[t + 2]];
        const [wa, wb, wc] = [weld(a), weld(b), weld(c)];
        for (const [u, v] of [[wa, wb], [wb, wc], [wc, wa]]) {
          const key = `${u},${v}`;
          directed.set(key, (directed.get(key) ?? 0) + 1);
        }
        const [ax, ay, az] = [position[a * 3], position[a * 3 + 1], position[a * 3 + 2]];
        const [bx, by, bz] = [position[b * 3], position[b * 3 + 1], position[b * 3 + 2]];
        const [cx, cy, cz] = [position[c * 3], position[c * 3 + 1], position[c * 3 + 2]];
        volume += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
        const face = [
          (by - ay) * (cz - az) - (bz - az) * (cy - ay),
          (bz - az) * (cx - ax) - (bx - ax) * (cz - az),
          (bx - ax) * (cy - ay) - (by - ay) * (cx - ax),
        ];
        for (const v of [a, b, c]) {
          const n = [normal[v * 3], normal[v * 3 + 1], normal[v * 3 + 2]];
          assert.ok(Math.abs(Math.hypot(n[0], n[1], n[2]) - 1) < 1e-5, `${mesh.getName()} normal length`);
          const cosine = (n[0] * face[0] + n[1] * face[1] + n[2] * face[2]) /
            Math.hypot(face[0], face[1], face[2]);
          assert.ok(cosine > 0.5, `${mesh.getName()}: a vertex normal leans ${cosine} off its face`);
        }
      }
      for (const [key, count] of directed) {
        const [u, v] = key.split(",");
        assert.equal(count, 1, `${mesh.getName()}: edge ${key} used twice the same way`);
        assert.equal(directed.get(`${v},${u}`), 1, `${mesh.getName()}: edge ${key} is open`);
      }
      assert.ok(volume > 0, `${mesh.getName()} is wound inward`);
    }
  }
});

Deno.test("demo.fighter has the decoys and pre-rigged parts its truth lists", () => {
  const doc = buildFighterScene();
  const truth = fighterTruth();
  assert.deepEqual(
    [...truth.decoys].sort(),
    [
      "Aileron_Actuator_R",
      "CowlFlap_1",
      "Elevator_Trim_Wheel",
      "Flap_Lever",
      "Flap_Track_1",
      "Flap_Track_2",
      "MainGear_Bay_L",
      "RudderPedal_L",
    ],
  );
  for (const name of truth.decoys) {
    const node = nodeNamed(doc, name);
    assert.ok(node.getMesh(), `${name} has geometry`);
    assert.equal((node.getExtras() as Record<string, unknown>).ctrl_type, undefined);
  }
  assert.deepEqual([...truth.prerigged].sort(), ["Canopy", "GearDoor_Nose"]);
  const hingeDirections: Record<string, [number, number, number]> = {
    Canopy: [1, 0, 0], // lateral hinge at the canopy's aft edge
    GearDoor_Nose: [0, 0, 1], // fore-and-aft hinge along the door's edge
  };
  for (const name of truth.prerigged) {
    const node = nodeNamed(doc, name);
    const extras = node.getExtras() as Record<string, unknown>;
    assert.equal(extras.ctrl_type, "rotation");
    assert.equal(extras.axis, "X");
    assert.equal(extras.unit, "deg");
    assert.ok((extras.min as number) < (extras.max as number));
    // The part's local X, in world space, is the hinge direction.
    const m = node.getWorldMatrix();
    const x = [m[0], m[1], m[2]];
    const dot = Math.abs(
      x[0] * hingeDirections[name][0] + x[1] * hingeDirections[name][1] +
        x[2] * hingeDirections[name][2],
    );
    assert.ok(dot > 0.99, `${name} local X ${x}`);
    const hasGeometry = node.getMesh() !== null || node.listChildren().some((c) => c.getMesh() !== null);
    assert.ok(hasGeometry, `${name} has geometry`);
  }
  // No panel carries ctrl_type: panels must be found by name.
  for (const panel of truth.panels) {
    assert.equal((nodeNamed(doc, panel.name).getExtras() as Record<string, unknown>).ctrl_type, undefined);
  }
});
