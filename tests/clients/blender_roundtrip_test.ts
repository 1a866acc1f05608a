/**
 * partgraph's rigged output through Blender 3.4 (import, then export with the default settings, "+Y Up"
 * on) and rigged again: the demo fighter and the corpus airplane, exported with Include → Custom
 * Properties on (extras kept) and off (Blender's default: extras dropped). One Blender process for
 * all four; skipped with a message when Blender is absent.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { writeGlb } from "../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../runtime/version.ts";
import { demoFighter } from "../../nodes/demo/fighter.ts";
import { runNode } from "../support/context.ts";
import { corpusFile } from "../support/corpus.ts";
import { type BlenderResult, throughBlender } from "./blender.ts";
import { compareRigs, interopExtras, nestedPivots, type Rigged, rigGlb } from "./roundtrip.ts";

const AIRPLANE = "aircraft/sketchbook_airplane.glb";

/** Hinge agreement after the trip: float32 rounding of the written transforms, no more. */
const MAX_DEGREES = 1e-3;
const MAX_OFFSET = 1e-5;

/** Edits of the rigged fighter in Blender, each exported with custom properties on or off. */
const EDITS = [
  // The right flap dragged 10 cm along its local Z (Blender's axes): across its hinge.
  { label: "flap moved 10 cm", extras: true, edits: ["move=flap_rh:0:0:-0.1"] },
  // Ctrl+A → Rotation on the flap's pivot: its frame is the parent's, the flap turned under it.
  { label: "pivot's rotation applied", extras: false, edits: ["apply=HINGE_auto_flap_rh:rotation"] },
  { label: "pivot's rotation applied", extras: true, edits: ["apply=HINGE_auto_flap_rh:rotation"] },
  // Alt+P → Clear and Keep Transformation on the flap: its pivot left holding nothing.
  { label: "flap unparented", extras: true, edits: ["unparent=flap_rh"] },
  { label: "flap unparented", extras: false, edits: ["unparent=flap_rh"] },
  // Ctrl+P onto another object keeps the world pose through a parent inverse; Apply Parent Inverse.
  { label: "pivot re-parented", extras: true, edits: ["reparent=HINGE_auto_flap_rh:Fuselage"] },
  {
    label: "pivot re-parented, parent inverse applied",
    extras: false,
    edits: ["reparent=HINGE_auto_flap_rh:Fuselage", "applyinverse=HINGE_auto_flap_rh"],
  },
];

interface Model {
  readonly label: string;
  readonly first: Rigged;
  readonly inputs: Record<string, unknown>;
}

let trip: Promise<{ models: Model[]; blender: BlenderResult }> | undefined;

/** Rigs both models once and passes each through Blender twice (extras off, on), in one process. */
function roundTrip() {
  trip ??= (async () => {
    const fighter = await writeGlb((await runNode(demoFighter, {}, {})).scene, { generator: GENERATOR });
    const models: Model[] = [{ label: "demo fighter", first: await rigGlb(fighter), inputs: {} }];
    const plane = corpusFile(AIRPLANE);
    if (plane) {
      const inputs = { forward: "+Z" };
      models.push({
        label: "sketchbook airplane",
        first: await rigGlb(await Deno.readFile(plane), inputs),
        inputs,
      });
    } else console.warn(`skipped the Sketchbook airplane: corpus file ${AIRPLANE} absent`);
    const jobs = [
      ...models.flatMap((m) => [{ glb: m.first.glb, extras: false }, { glb: m.first.glb, extras: true }]),
      // A surface added in Blender: a copy of the fighter's right flap, one span outboard on its hinge.
      { glb: models[0].first.glb, extras: false, extend: "flap_rh" },
      // Exported Z up ("+Y Up" off), custom properties kept.
      ...models.map((m) => ({ glb: m.first.glb, extras: true, zUp: true })),
      // Edits a user makes before exporting (EDITS, in order).
      ...EDITS.map((e) => ({ glb: models[0].first.glb, extras: e.extras, edits: e.edits })),
    ];
    return { models, blender: await throughBlender(jobs) };
  })();
  return trip;
}

/** The Blender export of a model (index in the models list) with extras off or on; undefined = skip. */
async function exported(index: number, extras: boolean) {
  const { models, blender } = await roundTrip();
  if ("skip" in blender) {
    console.warn(`skipped: ${blender.skip}`);
    return undefined;
  }
  const model = models[index];
  if (!model) return undefined;
  const out = blender.outputs[index * 2 + (extras ? 1 : 0)];
  assert(!("error" in out), `Blender failed on the rigged ${model.label}: ${"error" in out && out.error}`);
  return { model, glb: out.glb, objects: out.objects };
}

for (const [index, label] of ["demo fighter", "sketchbook airplane"].entries()) {
  Deno.test(`Blender, Custom Properties on: the rigged ${label} rigs again to the same parts and hinges`, async () => {
    const trip = await exported(index, true);
    if (!trip) return;
    const { model, glb } = trip;
    // Every pivot's and declared part's interop extras come back as written.
    assertEquals(interopExtras(glb), interopExtras(model.first.glb));
    const second = await rigGlb(glb, model.inputs);
    const diff = compareRigs(model.first.parts, second.parts);
    assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
      lost: [],
      added: [],
      changed: [],
    });
    assert(diff.compared >= 5, `${diff.compared} parts compared`);
    assert(diff.worstAngle < MAX_DEGREES, `a hinge turned ${diff.worstAngle}°`);
    assert(diff.worstOffset < MAX_OFFSET, `a hinge moved ${diff.worstOffset}`);
    assertEquals(nestedPivots(second.glb), nestedPivots(model.first.glb));
    assert(!second.warnings.some((w) => /carry no extras|axes turned/.test(w)), second.warnings.join("\n"));
  });

  Deno.test(`Blender defaults (extras dropped): the rigged ${label}'s own pivots are recognised, no pivot under a pivot`, async () => {
    const trip = await exported(index, false);
    if (!trip) return;
    const { model, glb } = trip;
    // Blender 3.4 writes custom properties back only with Include → Custom Properties (off by default).
    assertEquals(interopExtras(glb).size, 0);
    const second = await rigGlb(glb, model.inputs);
    const diff = compareRigs(model.first.parts, second.parts);
    // Parts the model declared itself are lost with their extras; every pivot of partgraph's is kept.
    const declared = model.first.parts.filter((p) => p.found_by === "extras").map((p) => p.name);
    assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
      lost: declared,
      added: [],
      changed: [],
    });
    assert(diff.compared >= 5, `${diff.compared} parts compared`);
    assert(diff.worstAngle < MAX_DEGREES, `a hinge turned ${diff.worstAngle}°`);
    assert(diff.worstOffset < MAX_OFFSET, `a hinge moved ${diff.worstOffset}`);
    assertEquals(nestedPivots(second.glb), nestedPivots(model.first.glb));
    const warning = second.warnings.find((w) => w.includes("carry no extras"));
    assert(warning?.includes("Custom Properties"), second.warnings.join("\n"));
    assert(warning!.includes(`${diff.compared} pivot(s)`), warning);
  });
}

Deno.test("Blender, a flap added and exported with the defaults: rigged as one new part on the hinge it continues", async () => {
  const { models, blender } = await roundTrip();
  if ("skip" in blender) return console.warn(`skipped: ${blender.skip}`);
  const out = blender.outputs[models.length * 2];
  assert(!("error" in out), `Blender failed: ${"error" in out && out.error}`);
  assert(out.objects.includes("flap_rh_Outer"), out.objects.join());
  const first = models[0].first;
  const second = await rigGlb(out.glb, models[0].inputs);
  const declared = first.parts.filter((p) => p.found_by === "extras").map((p) => p.name);
  const diff = compareRigs(first.parts, second.parts);
  assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
    lost: declared,
    added: ["HINGE_auto_flap_rh_Outer"],
    changed: [],
  });
  assert(
    diff.worstAngle < MAX_DEGREES && diff.worstOffset < MAX_OFFSET,
    `${diff.worstAngle}°, ${diff.worstOffset}`,
  );
  assertEquals(nestedPivots(second.glb), []);
  // The new flap's hinge is the old flap's line: same kind, side and limits, collinear.
  const flap = first.parts.find((p) => p.panel === "flap_rh")!;
  const outer = second.parts.find((p) => p.panel === "flap_rh_Outer")!;
  const line = compareRigs([flap], [{ ...outer, name: flap.name, panel: flap.panel }]);
  assertEquals(line.changed, []);
  assert(line.worstAngle < 0.01, `the new hinge is ${line.worstAngle}° off the old line`);
  assert(line.worstOffset < 1e-4, `the new hinge is ${line.worstOffset} off the old line`);
});

for (const [index, label] of ["demo fighter", "sketchbook airplane"].entries()) {
  Deno.test(`Blender, +Y Up off, Custom Properties on: the rigged ${label}'s recorded frame is dropped, found again Z up`, async () => {
    const { models, blender } = await roundTrip();
    if ("skip" in blender) return console.warn(`skipped: ${blender.skip}`);
    const model = models[index];
    if (!model) return;
    const out = blender.outputs[models.length * 2 + 1 + index];
    assert(!("error" in out), `Blender failed: ${"error" in out && out.error}`);
    // The frame is given for the airplane's first run; here it is left to the rig, as on the fighter.
    const second = await rigGlb(out.glb);
    const warning = second.warnings.find((w) => w.includes("axes turned"));
    assert(warning?.includes("+Y Up"), second.warnings.join("\n"));
    // Blender's Z up is glTF's (x, y, z) at (x, -z, y): the first run's hinges, so turned, are the second's.
    const zUp = (v: number[]) => [v[0], -v[2], v[1]];
    const turned = model.first.parts.map((p) => ({
      ...p,
      hinge: p.hinge && { world: { origin: zUp(p.hinge.world.origin), axis: zUp(p.hinge.world.axis) } },
    }));
    const diff = compareRigs(turned, second.parts);
    assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
      lost: [],
      added: [],
      changed: [],
    });
    assert(
      diff.worstAngle < MAX_DEGREES && diff.worstOffset < MAX_OFFSET,
      `${diff.worstAngle}°, ${diff.worstOffset}`,
    );
    // The frame is the first run's, turned the same way (the recorded one would still say +Y up).
    const axis = (a: string) => zUp([..."XYZ"].map((c) => c === a[1] ? (a[0] === "-" ? -1 : 1) : 0));
    const name = (v: number[]) => `${v.some((x) => x < 0) ? "-" : "+"}${"XYZ"[v.findIndex((x) => x !== 0)]}`;
    const { forward, up } = model.first.frame;
    assertEquals(second.frame, { forward: name(axis(forward)), up: name(axis(up)) });
  });
}

for (const [i, edit] of EDITS.entries()) {
  Deno.test(`Blender, ${edit.label}, Custom Properties ${edit.extras ? "on" : "off"}: rigged again where the flap now is`, async () => {
    const { models, blender } = await roundTrip();
    if ("skip" in blender) return console.warn(`skipped: ${blender.skip}`);
    const out = blender.outputs[models.length * 3 + 1 + i];
    assert(!("error" in out), `Blender failed: ${"error" in out && out.error}`);
    const first = models[0].first;
    const second = await rigGlb(out.glb, models[0].inputs);
    const declared = first.parts.filter((p) => p.found_by === "extras").map((p) => p.name);
    const flap = (p: { panel: string | null }) => p.panel === "flap_rh";
    const diff = compareRigs(first.parts, second.parts);
    assertEquals({ lost: diff.lost, added: diff.added, changed: diff.changed }, {
      lost: edit.extras ? [] : declared,
      added: [],
      changed: [],
    });
    assertEquals(nestedPivots(second.glb), []);
    const others = compareRigs(first.parts.filter((p) => !flap(p)), second.parts.filter((p) => !flap(p)));
    assert(others.worstAngle < MAX_DEGREES && others.worstOffset < MAX_OFFSET, JSON.stringify(others));
    // The flap's hinge: 10 cm across the old line when moved, else where it was (fitted again or kept).
    const line = compareRigs(first.parts.filter(flap), second.parts.filter(flap));
    const moved = edit.edits[0].startsWith("move=");
    assert(line.worstAngle < 1e-3, `${line.worstAngle}°`);
    assert(Math.abs(line.worstOffset - (moved ? 0.1 : 0)) < 1e-4, `${line.worstOffset}`);
    const said = second.warnings.join("\n");
    if (moved || edit.edits[0].startsWith("apply=")) {
      assert(said.includes("flap_rh"), said);
      assert(edit.extras ? said.includes("moved under its pivot") : said.includes("Ctrl+A"), said);
    }
    if (edit.edits[0].startsWith("unparent=")) assert(said.includes("turn nothing"), said);
  });
}
