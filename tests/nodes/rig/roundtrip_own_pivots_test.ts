/**
 * `rig.parts` v3 (`own_pivots.ts`): partgraph's own pivots in a file a tool wrote back without extras
 * (Blender's default export) — and renamed as Blender renames a clash (`.001`) — are its pivots again,
 * not panels to pivot a second time. Blender itself: `tests/clients/blender_roundtrip_test.ts`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readGltf, writeGlb } from "../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../runtime/version.ts";
import { demoFighter } from "../../../nodes/demo/fighter.ts";
import { runNode } from "../../support/context.ts";
import { compareRigs, glbJson, nestedPivots, type Rigged, rigGlb } from "../../clients/roundtrip.ts";
import type { Node } from "@gltf-transform/core";
import { newScene } from "./fixtures.ts";
import { addTwinRuddersWithTab } from "./cases.ts";
import { rig } from "./pipeline.ts";
import { canardAircraft, classScene } from "./surface_classes.ts";
import { prng } from "../../support/prng.ts";
import { invertAffine, multiply, type Quat, quatMultiply, quatRotate } from "../../../nodes/rig/transform.ts";

/** The demo fighter rigged (optionally with zero_rest), as a GLB. */
async function rigged(inputs: Record<string, unknown> = {}): Promise<Rigged> {
  const fighter = await writeGlb((await runNode(demoFighter, {}, {})).scene, { generator: GENERATOR });
  return rigGlb(fighter, inputs);
}

/** The GLB as a tool that drops extras writes it, each node passed through `edit` too. */
async function withoutExtras(glb: Uint8Array, edit: (node: Node) => void = () => {}): Promise<Uint8Array> {
  const doc = await readGltf(glb);
  for (const node of doc.getRoot().listNodes()) {
    node.setExtras({});
    edit(node);
  }
  for (const scene of doc.getRoot().listScenes()) scene.setExtras({});
  return writeGlb(doc, { generator: "Khronos glTF Blender I/O v3.4.50" });
}

function assertSameRig(
  first: Rigged,
  second: Rigged,
  rename: (name: string) => string = (n) => n,
  edited: readonly string[] = [],
) {
  const declared = first.parts.filter((p) => p.found_by === "extras").map((p) => p.name);
  const diff = compareRigs(
    first.parts.filter((p) => p.found_by !== "extras").map((p) => ({
      ...p,
      panel: p.panel && rename(p.panel),
    })),
    second.parts,
  );
  assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
    lost: [],
    added: [],
    changed: [],
  });
  assertEquals(second.parts.length, first.parts.length - declared.length);
  assert(diff.compared >= 20, `${diff.compared} parts compared`);
  const kept = compareRigs(
    first.parts.filter((p) => p.found_by !== "extras" && !edited.includes(p.name)),
    second.parts.filter((p) => !edited.includes(p.name)),
  );
  assert(kept.worstAngle < 1e-3 && kept.worstOffset < 1e-5, `${kept.worstAngle}°, ${kept.worstOffset}`);
  assertEquals(nestedPivots(second.glb), []);
  const warning = second.warnings.find((w) => w.includes("carry no extras"));
  assert(warning?.includes("Include → Custom Properties"), second.warnings.join("\n"));
  assert(warning!.includes(`${diff.compared} pivot(s)`), warning);
}

Deno.test("pivots without extras: re-rigged to the same parts and hinges, none pivoted twice", async () => {
  const first = await rigged();
  assertSameRig(first, await rigGlb(await withoutExtras(first.glb)));
});

Deno.test("pivots without extras, panels renamed Blender's way (Aileron.001): still the earlier pivots", async () => {
  const first = await rigged();
  const renamed = (name: string) => /^(Flight_Aileron_R|Rudder|flap_rh)$/.test(name) ? `${name}.001` : name;
  const second = await rigGlb(
    await withoutExtras(first.glb, (node) => node.setName(renamed(node.getName()))),
  );
  assertSameRig(first, second, renamed);
});

Deno.test("zero_rest pivots without extras: the _rest mounts stay fixed, the pivots turn", async () => {
  const first = await rigged({ zero_rest: true });
  const second = await rigGlb(await withoutExtras(first.glb), { zero_rest: true });
  assertSameRig(first, second);
  assert(!second.parts.some((p) => p.name.endsWith("_rest")), second.parts.map((p) => p.name).join());
});

Deno.test("a node merely named HINGE_auto_ over another panel is no pivot of ours: that panel is rigged", async () => {
  const first = await rigged();
  // The earlier pivot now holds a panel of another name: not the shape rig.insert_pivot writes.
  const moved = await withoutExtras(first.glb, (node) => {
    if (node.getName() === "Flight_Aileron_R") node.setName("Aileron_Outer_R");
  });
  const second = await rigGlb(moved);
  assert(second.parts.some((p) => p.panel === "Aileron_Outer_R"), second.parts.map((p) => p.name).join());
  assert(!second.parts.some((p) => p.name === "HINGE_auto_Flight_Aileron_R"));
});

Deno.test("a stale pivot over a panel no name tells is taken out, the panel keeping its world pose", async () => {
  const first = await rigged();
  // As if a shape-found part (a propeller) had been rigged: its pivot and panel, names of no kind.
  const named = (node: Node) => {
    if (node.getName() === "HINGE_auto_SpeedBrake") node.setName("HINGE_auto_Widget");
    if (node.getName() === "SpeedBrake") node.setName("Widget");
  };
  const stale = await withoutExtras(first.glb, named);
  const worldOf = async (glb: Uint8Array) =>
    (await readGltf(glb)).getRoot().listNodes().find((n) => n.getName() === "Widget")!.getWorldMatrix();
  const second = await rigGlb(stale);
  const json = glbJson(second.glb);
  // deno-lint-ignore no-explicit-any
  assert(!json.nodes.some((n: any) => n.name.startsWith("HINGE_auto_Widget")), "the stale pivot is gone");
  assert(!second.parts.some((p) => p.panel === "Widget"), "a Widget is no panel");
  const [before, after] = [await worldOf(stale), await worldOf(second.glb)];
  assert(before.every((v, i) => Math.abs(v - after[i]) < 1e-6), `${before} → ${after}`);
  const warning = second.warnings.find((w) => w.includes("carry no extras"));
  const ours = first.parts.filter((p) => p.panel !== null).length;
  assert(warning?.includes(`${ours} pivot(s)`), second.warnings.join("\n"));
});

Deno.test("pivots without extras: a rudder's trim tab turns its trailing edge right, measured, not its kind's default down", async () => {
  const doc = newScene();
  addTwinRuddersWithTab(doc);
  const first = await rig(doc);
  const positives = (parts: { panel: string | null; positive: string | null }[]) =>
    Object.fromEntries(parts.map((p) => [p.panel, p.positive]));
  assertEquals(positives(first.report.parts), {
    Rudder_L: "trailing_edge_right",
    Rudder_L_Trim_Tab: "trailing_edge_right",
    Rudder_R: "trailing_edge_right",
  });
  // The tab's pivot also holds a marker the user parented to it, so it is declared again as written
  // (not taken out and fitted again): its positive must come from its axis and geometry.
  const stripped = await readGltf(await withoutExtras(await writeGlb(first.scene, { generator: GENERATOR })));
  stripped.getRoot().listNodes().find((n) => n.getName() === "HINGE_auto_Rudder_L_Trim_Tab")!
    .addChild(stripped.createNode("TabMarker"));
  const second = await rig(stripped);
  // Before rig.assign_side v11 the tab came back trailing_edge_down, its kind's default, silently.
  assertEquals(positives(second.report.parts), positives(first.report.parts));
  const tab = second.scene.getRoot().listNodes().find((n) => n.getName() === "HINGE_auto_Rudder_L_Trim_Tab")!;
  assertEquals((tab.getExtras() as Record<string, unknown>).positive, "trailing_edge_right");
  const said = second.ctx.warnings.map((w) => w.message).filter((m) => m.includes("(measured from its axis"));
  assertEquals(said.length, 1, said.join("\n"));
  assert(
    said[0].includes("'HINGE_auto_Rudder_L_Trim_Tab' (trim_tab)") && said[0].includes("trailing_edge_down"),
  );
  // Turned end for end (a half turn about its own Z, the panel put back where it was): the pivot
  // turns the rudder's trailing edge left. Taken out, it is fitted again the right way round, warned;
  // held with a marker (declared again as written), its positive says left.
  const flip = (marker: boolean) => async (glb: Uint8Array) => {
    const doc = await readGltf(await withoutExtras(glb));
    const pivot = doc.getRoot().listNodes().find((n) => n.getName() === "HINGE_auto_Rudder_L")!;
    const [x, y, z, w] = pivot.getRotation();
    pivot.setRotation([y, -x, w, -z]); // q · (0, 0, 1, 0)
    const panel = pivot.listChildren().find((c) => c.getName() === "Rudder_L")!;
    const [a, b, c, d] = panel.getRotation();
    panel.setRotation([-b, a, d, -c]); // (0, 0, 1, 0)⁻¹ · p
    const [tx, ty, tz] = panel.getTranslation();
    panel.setTranslation([-tx, -ty, tz]);
    if (marker) pivot.addChild(doc.createNode("RudderMarker"));
    return doc;
  };
  const glb = await writeGlb(first.scene, { generator: GENERATOR });
  const refitted = await rig(await flip(false)(glb));
  // The pipeline's report parts, as the client comparison reads them (it needs fewer fields).
  const rudderL = (r: typeof first) =>
    r.report.parts.filter((p) => p.panel === "Rudder_L") as unknown as Parameters<typeof compareRigs>[0];
  const line = compareRigs(rudderL(first), rudderL(refitted));
  assert(
    line.changed.length === 0 && line.worstAngle < 1e-3 && line.worstOffset < 1e-5,
    JSON.stringify(line),
  );
  assert(refitted.ctx.warnings.some((w) => w.message.includes("panel 'Rudder_L' no longer lies")));
  const declared = await rig(await flip(true)(glb));
  assertEquals(positives(declared.report.parts).Rudder_L, "trailing_edge_left");
});

/** Blender's Ctrl+A → Rotation on a pivot: its rotation moved into its children, their world poses kept. */
function applyRotation(pivot: Node): void {
  const q = pivot.getRotation() as Quat;
  for (const child of pivot.listChildren()) {
    child.setTranslation(quatRotate(q, child.getTranslation()));
    child.setRotation(quatMultiply(q, child.getRotation() as Quat));
  }
  pivot.setRotation([0, 0, 0, 1]);
}

Deno.test("pivots without extras whose rotation was applied (Ctrl+A) are no hinge: taken out, their panels fitted again", async () => {
  const first = await rigged();
  const applied = ["HINGE_auto_flap_rh", "HINGE_auto_Rudder"];
  const glb = await withoutExtras(first.glb, (node) => {
    if (applied.includes(node.getName())) applyRotation(node);
  });
  const second = await rigGlb(glb);
  // Before: the recovered pivots turned about their parents' X (the flap's 16° off its hinge, in Blender).
  assertSameRig(first, second);
  for (const name of applied) {
    assert(second.warnings.some((w) => w.includes(`'${name}' as it was`) && w.includes("Ctrl+A")), name);
  }
});

Deno.test("a panel moved out from under its pivot (Alt+P): the empty pivot is removed, the panel rigged afresh", async () => {
  const first = await rigged();
  for (const extras of [true, false]) {
    const doc = await readGltf(first.glb);
    const pivot = doc.getRoot().listNodes().find((n) => n.getName() === "HINGE_auto_flap_rh")!;
    const panel = pivot.listChildren()[0];
    const world = panel.getWorldMatrix();
    pivot.getParentNode()!.addChild(panel);
    panel.setMatrix(
      multiply(invertAffine(pivot.getParentNode()!.getWorldMatrix()), world) as Parameters<
        Node["setMatrix"]
      >[0],
    );
    const glb = await writeGlb(doc, { generator: GENERATOR });
    const second = await rigGlb(extras ? glb : await withoutExtras(glb));
    const expected = extras ? first.parts : first.parts.filter((p) => p.found_by !== "extras");
    const diff = compareRigs(expected, second.parts);
    // Before: a second pivot HINGE_auto_flap_rh_1 beside the empty first one, still listed as a part.
    assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
      lost: [],
      added: [],
      changed: [],
    });
    assert(diff.worstAngle < 1e-3 && diff.worstOffset < 1e-5, `${diff.worstAngle}°, ${diff.worstOffset}`);
    const warning = second.warnings.find((w) => w.includes("turn nothing"));
    assert(warning?.includes("'HINGE_auto_flap_rh' (panel 'flap_rh')"), second.warnings.join("\n"));
  }
});

Deno.test("a foreplane carrying elevators stays fixed when the rigged file is rigged again, extras kept or dropped", async () => {
  // Even samples: elevators on a fixed foreplane named Canard_L/_R or ForeWing_L/_R.
  const sample = canardAircraft(prng(4242), 0);
  const first = await rigGlb(await writeGlb(classScene(sample), { generator: GENERATOR }));
  assert(first.parts.some((p) => p.kind === "elevator"), first.parts.map((p) => p.name).join());
  assert(!first.parts.some((p) => p.kind === "canard"), first.parts.map((p) => p.name).join());
  for (const glb of [first.glb, await withoutExtras(first.glb)]) {
    const second = await rigGlb(glb);
    // Before rig.detect_panels v13 the second run rigged the foreplane as an all-moving canard.
    const diff = compareRigs(first.parts, second.parts);
    assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
      lost: [],
      added: [],
      changed: [],
    });
  }
});

Deno.test("pivots without extras: unedited panels keep their pivots exactly; a flap moved 10 cm is fitted where it is, warned", async () => {
  const first = await rigged();
  const frames = async (glb: Uint8Array) =>
    new Map(
      (await readGltf(glb)).getRoot().listNodes().filter((n) => n.getName().startsWith("HINGE_auto_"))
        .map((n) => [n.getName(), [...n.getTranslation(), ...n.getRotation()]]),
    );
  const second = await rigGlb(await withoutExtras(first.glb));
  // Fitted again, every pivot found its own line and was put back as written: bit for bit.
  assertEquals(await frames(second.glb), await frames(first.glb));
  assert(!second.warnings.some((w) => w.includes("no longer lies")), second.warnings.join("\n"));
  const moved = await rigGlb(
    await withoutExtras(first.glb, (node) => {
      if (node.getName() !== "flap_rh") return;
      const [x, y, z] = node.getTranslation();
      node.setTranslation([x, y - 0.1, z]); // across its hinge, in its pivot's frame
    }),
  );
  assertSameRig(first, moved, (name) => name, ["HINGE_auto_flap_rh"]);
  const before = first.parts.find((p) => p.panel === "flap_rh")!;
  const after = moved.parts.find((p) => p.panel === "flap_rh")!;
  const line = compareRigs([before], [after]);
  assert(Math.abs(line.worstOffset - 0.1) < 1e-5 && line.worstAngle < 1e-4, JSON.stringify(line));
  const warning = moved.warnings.find((w) => w.includes("panel 'flap_rh' no longer lies"));
  assert(
    warning?.includes(" 0.1 from the line of 'HINGE_auto_flap_rh' as it was"),
    moved.warnings.join("\n"),
  );
});
