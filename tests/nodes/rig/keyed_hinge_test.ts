/**
 * `keyedHinge`: the line a panel's own animation turns it about, read from its keys — a turn about
 * the node's origin, a turn about a line elsewhere (rotation and translation keyed together), under a
 * moved and scaled parent, in cubic-spline and normalized-integer keys, and the clips that state no
 * hinge (a Fowler flap's track, axes that wander, a scale, part of the panel).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Document, type Node } from "@gltf-transform/core";
import { keyedHinge } from "../../../nodes/rig/keyed_hinge.ts";
import {
  cross,
  dot,
  length,
  normalize,
  quatMultiply,
  quatRotate,
  sub,
  type Vec3,
} from "../../../nodes/rig/transform.ts";
import { axisAngle, newScene } from "./fixtures.ts";
import { prng } from "../../support/prng.ts";
import { airfoilSurface } from "./airfoil_panels.ts";
import { addAircraftMesh, hingeError } from "./coarse_panels.ts";
import { rig } from "./pipeline.ts";

/** A panel node (with a mesh child) at `translation`, under a parent at `parent`'s transform. */
function scene(translation: Vec3, parent?: { translation: Vec3; rotation: number[]; scale: number }) {
  const doc = new Document();
  doc.createBuffer();
  const panel = doc.createNode("Aileron_L").setTranslation(translation);
  panel.addChild(doc.createNode("Aileron_L_mesh").setMesh(doc.createMesh("m")));
  const holder = doc.createNode("wing").addChild(panel);
  if (parent) {
    holder.setTranslation(parent.translation).setRotation(parent.rotation as [number, number, number, number])
      .setScale([parent.scale, parent.scale, parent.scale]);
  }
  doc.createScene().addChild(holder);
  return { doc, panel };
}

type Interpolation = "LINEAR" | "STEP" | "CUBICSPLINE";

/** Keys `node`'s `path` through `values` at times 0, 1, 2…, in clip `clip`. */
function key(
  doc: Document,
  node: Node,
  path: "rotation" | "translation" | "scale",
  values: number[][],
  options: { interpolation?: Interpolation; clip?: string; normalizedShorts?: boolean } = {},
) {
  const name = options.clip ?? "deflect";
  const clip = doc.getRoot().listAnimations().find((a) => a.getName() === name) ?? doc.createAnimation(name);
  const buffer = doc.getRoot().listBuffers()[0];
  const cubic = options.interpolation === "CUBICSPLINE";
  const flat = (cubic ? values.flatMap((v) => [v.map(() => 0.3), v, v.map(() => -0.2)]) : values).flat();
  const output = options.normalizedShorts
    ? doc.createAccessor("", buffer).setArray(new Int16Array(flat.map((v) => Math.round(v * 32767))))
      .setNormalized(true)
    : doc.createAccessor("", buffer).setArray(new Float32Array(flat));
  const sampler = doc.createAnimationSampler()
    .setInterpolation(options.interpolation ?? "LINEAR")
    .setInput(
      doc.createAccessor("", buffer).setType("SCALAR").setArray(new Float32Array(values.map((_, i) => i))),
    )
    .setOutput(output.setType(path === "rotation" ? "VEC4" : "VEC3"));
  clip.addSampler(sampler).addChannel(
    doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler),
  );
}

/** Rotation and translation keys turning `node` about the line through `point` (its parent's space) along `axis`. */
function turnsAbout(node: Node, point: Vec3, axis: Vec3, degrees: number[]) {
  const rest = node.getRotation();
  const origin = node.getTranslation() as Vec3;
  const rotations = degrees.map((d) => quatMultiply(axisAngle(axis, d), rest));
  const translations = degrees.map((d) => {
    const moved = quatRotate(axisAngle(axis, d), sub(origin, point));
    return [point[0] + moved[0], point[1] + moved[1], point[2] + moved[2]];
  });
  return { rotations, translations };
}

/** Distance from `p` to the line through `origin` along unit `axis`. */
const offLine = (p: Vec3, origin: Vec3, axis: Vec3) => length(cross(sub(p, origin), axis));

Deno.test("keyed hinge: a turn about the node's own origin is a hinge through it, with the keyed range", () => {
  const { doc, panel } = scene([2, 0.5, -1]);
  const { rotations } = turnsAbout(panel, [2, 0.5, -1], [1, 0, 0.2], [0, 15, -20, 5]);
  key(doc, panel, "rotation", rotations);
  const result = keyedHinge(panel);
  assert(result && "hinge" in result, JSON.stringify(result));
  const { hinge } = result;
  assert(offLine([2, 0.5, -1], hinge.origin, hinge.axis) < 1e-6);
  assert(Math.abs(Math.abs(dot(hinge.axis, normalize([1, 0, 0.2]))) - 1) < 1e-9);
  const sign = Math.sign(dot(hinge.axis, [1, 0, 0.2]));
  assertEquals(hinge.degrees.map((d) => Math.round(d * sign * 1e3) / 1e3).sort((a, b) => a - b), [-20, 15]);
  assertEquals([hinge.keys, hinge.clips], [3, ["deflect"]]);
  assert(hinge.residual < 1e-6);
});

Deno.test("keyed hinge: rotation and translation keyed together give the line they turn about, under a moved and scaled parent", () => {
  const parent = { translation: [5, 1, 3] as Vec3, rotation: axisAngle([0, 1, 0], 30), scale: 2 };
  for (const interpolation of ["LINEAR", "STEP", "CUBICSPLINE"] as const) {
    const { doc, panel } = scene([1, 0.2, 0.4], parent);
    const point: Vec3 = [0.7, 0.25, 0.4], axis = normalize([0.9, 0.05, -0.3]);
    const { rotations, translations } = turnsAbout(panel, point, axis, [0, 10, 25, -15]);
    key(doc, panel, "rotation", rotations, { interpolation });
    key(doc, panel, "translation", translations, { interpolation });
    const result = keyedHinge(panel);
    assert(result && "hinge" in result, `${interpolation}: ${JSON.stringify(result)}`);
    const world = doc.getRoot().listNodes().find((n) => n.getName() === "wing")!.getWorldMatrix();
    const at = (p: Vec3) =>
      [0, 1, 2].map((r) =>
        world[r] * p[0] + world[4 + r] * p[1] + world[8 + r] * p[2] + world[12 + r]
      ) as Vec3;
    const direction = normalize(
      [0, 1, 2].map((r) => world[r] * axis[0] + world[4 + r] * axis[1] + world[8 + r] * axis[2]),
    );
    assert(offLine(at(point), result.hinge.origin, result.hinge.axis) < 1e-5, interpolation);
    assert(Math.abs(Math.abs(dot(result.hinge.axis, direction)) - 1) < 1e-9, interpolation);
    assert(result.hinge.residual < 1e-5, `${interpolation}: ${result.hinge.residual}`);
  }
});

Deno.test("keyed hinge: normalized-short quaternions are read as the rotations they stand for", () => {
  const { doc, panel } = scene([0, 0, 0]);
  key(doc, panel, "rotation", turnsAbout(panel, [0, 0, 0], [0, 0, 1], [0, 30, -30]).rotations, {
    normalizedShorts: true,
  });
  const result = keyedHinge(panel);
  assert(result && "hinge" in result);
  assert(Math.abs(Math.abs(result.hinge.axis[2]) - 1) < 1e-4);
  assert(Math.abs(result.hinge.degrees[1] - 30) < 0.01 || Math.abs(-result.hinge.degrees[0] - 30) < 0.01);
});

Deno.test("keyed hinge: a Fowler flap's track is a motion with a large residual; wandering axes and scales key no hinge", () => {
  // Out along its track first, barely turning, then turning near the end of it: no fixed line.
  const fowler = scene([0, 0, 0]);
  const { rotations } = turnsAbout(fowler.panel, [0, 0, 0], [1, 0, 0], [0, 3, 6, 30]);
  key(fowler.doc, fowler.panel, "rotation", rotations);
  key(fowler.doc, fowler.panel, "translation", [[0, 0, 0], [0, 0, 0.3], [0, 0, 0.6], [0, -0.05, 0.7]]);
  const track = keyedHinge(fowler.panel);
  assert(track && "hinge" in track && track.hinge.residual > 0.1, JSON.stringify(track));

  const wobble = scene([0, 0, 0]);
  key(wobble.doc, wobble.panel, "rotation", [
    [0, 0, 0, 1],
    axisAngle([1, 0, 0], 10),
    axisAngle([0.9, 0.3, 0], 10),
  ]);
  const wandering = keyedHinge(wobble.panel);
  assert(
    wandering && "notHinge" in wandering && /axes up to 9\.2° off their mean/.test(wandering.notHinge),
    JSON.stringify(wandering),
  );

  const scaled = scene([0, 0, 0]);
  key(scaled.doc, scaled.panel, "rotation", [[0, 0, 0, 1], axisAngle([1, 0, 0], 10)]);
  key(scaled.doc, scaled.panel, "scale", [[1, 1, 1], [1, 1.2, 1]]);
  const scaling = keyedHinge(scaled.panel);
  assert(scaling && "notHinge" in scaling && /scales or morphs/.test(scaling.notHinge));
});

Deno.test("keyed hinge: an animated child holding all the panel's meshes keys it; one holding part does not; none, or keys that stay put, say nothing", () => {
  const { doc, panel } = scene([0, 0, 0]);
  const mesh = panel.listChildren()[0];
  key(doc, mesh, "rotation", [[0, 0, 0, 1], axisAngle([0, 1, 0], 12)]);
  const child = keyedHinge(panel);
  assert(child && "hinge" in child && Math.abs(Math.abs(child.hinge.axis[1]) - 1) < 1e-9);
  panel.addChild(doc.createNode("Aileron_L_trim").setMesh(doc.createMesh("t")));
  const part = keyedHinge(panel);
  assert(part && "notHinge" in part && /only part of it/.test(part.notHinge), JSON.stringify(part));

  const still = scene([0, 0, 0]);
  assertEquals(keyedHinge(still.panel), undefined);
  key(still.doc, still.panel, "rotation", [[0, 0, 0, 1], [0, 0, 0, 1]]);
  assertEquals(keyedHinge(still.panel), undefined);
});

Deno.test("through the rig: a surface its geometry leaves weak (a long horn) is good on the line its own clip keys; keyed about another line it stays weak, named", async () => {
  for (const keyedAbout of ["its hinge", "its centre"] as const) {
    const doc = newScene();
    const surface = airfoilSurface(prng(204), { horn: { span: 0.58, reach: 0.5, shape: "ramp" } });
    addAircraftMesh(doc, "Wing_L", surface.wing.positions, surface.wing.triangles);
    const aileron = addAircraftMesh(doc, "Aileron_L", surface.positions, surface.triangles);
    // Aircraft (aft, up, left) to the scene's frame (−Z forward, +Y up).
    const toScene = (v: ArrayLike<number>): Vec3 => [-v[2], v[1], v[0]];
    const centre: Vec3 = [0, 1, 2].map((k) => {
      let sum = 0;
      for (let i = k; i < surface.positions.length; i += 3) sum += surface.positions[i];
      return sum / (surface.positions.length / 3);
    }) as Vec3;
    const point = toScene(keyedAbout === "its hinge" ? surface.origin : centre);
    const { rotations, translations } = turnsAbout(aileron, point, toScene(surface.axis), [0, 20, -15, 25]);
    key(doc, aileron, "rotation", rotations, { clip: "AILERON_L_key" });
    key(doc, aileron, "translation", translations, { clip: "AILERON_L_key" });
    const { report, ctx } = await rig(doc);
    const part = report.parts.find((p) => p.panel === "Aileron_L")!;
    const fit = part.fit as unknown as { confidence: string; reasons: string[]; rule: string };
    const { degrees, offset } = hingeError(surface, part.hinge!.aircraft);
    if (keyedAbout === "its hinge") {
      assertEquals([fit.confidence, fit.rule], ["good", "animation"]);
      assert(degrees < 1e-3 && offset < 1e-5 * surface.chord, `${degrees}°, ${offset / surface.chord}`);
    } else {
      assertEquals(fit.confidence, "weak");
      assert(fit.rule !== "animation");
      const warning = ctx.warnings.map((w) => w.message).find((m) => m.includes("'Aileron_L'"))!;
      assert(
        /its animation \('AILERON_L_key'\) turns it about a line .* from this fit/.test(warning),
        warning,
      );
    }
  }
});

/** The part range a clip turning `surface` by `keyed` degrees about its hinge gives, worked out by hand. */
function expectedRange(surface: ReturnType<typeof airfoilSurface>, keyed: number[]): number[] {
  // The trailing edge: the surface's vertex furthest aft; which way each keyed turn moves it.
  let tail: Vec3 = [-Infinity, 0, 0];
  for (let i = 0; i < surface.positions.length; i += 3) {
    if (surface.positions[i] > tail[0]) tail = [0, 1, 2].map((k) => surface.positions[i + k]) as Vec3;
  }
  const arm = sub(tail, surface.origin), axis = normalize(surface.axis);
  const drop = (d: number) => arm[1] - quatRotate(axisAngle(axis, d), arm)[1]; // > 0: trailing edge down
  const down = keyed.filter((d) => drop(d) > 0).map(Math.abs),
    up = keyed.filter((d) => drop(d) < 0).map(Math.abs);
  return [-Math.max(0, ...up), Math.max(0, ...down)].map((d) => Math.round(d * 100) / 100 + 0);
}

Deno.test("through the rig: 200 keyed surfaces, half under a mirroring parent, take their clip's range", async () => {
  // Before rig.fit_hinge v23 every one kept its kind's ±25°, whatever its clip keyed.
  const next = prng(313);
  const tally: Record<string, number> = {};
  for (let i = 0; i < 200; i++) {
    const surface = airfoilSurface(next);
    const keyed = [
      0,
      ...Array.from({ length: 2 + Math.floor(next() * 4) }, () => Math.round(-30 + 65 * next())),
    ];
    const mirrored = i % 2 === 1;
    const doc = newScene();
    const holder = mirrored ? doc.createNode("Mirror").setScale([-1, 1, 1]) : undefined;
    if (holder) doc.getRoot().getDefaultScene()!.addChild(holder);
    addAircraftMesh(doc, "Wing_L", surface.wing.positions, surface.wing.triangles, holder);
    const aileron = addAircraftMesh(doc, "Aileron_L", surface.positions, surface.triangles, holder);
    const toScene = (v: ArrayLike<number>): Vec3 => [-v[2], v[1], v[0]];
    const { rotations, translations } = turnsAbout(
      aileron,
      toScene(surface.origin),
      toScene(surface.axis),
      keyed,
    );
    key(doc, aileron, "rotation", rotations);
    key(doc, aileron, "translation", translations);
    const part = (await rig(doc)).report.parts.find((p) => p.panel === "Aileron_L")!;
    const fit = part.fit as unknown as { rule: string; confidence: string };
    const taken = fit.rule === "animation";
    const expected = expectedRange(surface, keyed);
    const right = taken
      ? part.min === expected[0] && part.max === expected[1]
      : part.min === -25 && part.max === 25;
    assert(right, `#${i} ${keyed}: ${part.min}…${part.max}, expected ${taken ? expected : "±25"}`);
    const key_ = `${taken ? "keyed line and range" : "geometry's line, default range"} ${fit.confidence}`;
    tally[key_] = (tally[key_] ?? 0) + 1;
  }
  assertEquals(tally, { "keyed line and range good": 200 });
});

Deno.test("through the rig: the keyed line's clip gives the part its range, signed as the part's positive angle, under a mirroring parent too", async () => {
  const surface = airfoilSurface(prng(311));
  // Aircraft (aft, up, left) to the scene's frame (−Z forward, +Y up).
  const toScene = (v: ArrayLike<number>): Vec3 => [-v[2], v[1], v[0]];
  const keyed = [0, 18, -12, 25, 6];
  const expected = expectedRange(surface, keyed);
  assert(expected[0] < 0 && expected[1] > 0, `${expected}`);
  for (const mirrored of [false, true]) {
    const doc = newScene();
    // Under a parent mirroring the scene's X, the left surface drawn is the right one in the world.
    const holder = mirrored ? doc.createNode("Mirror").setScale([-1, 1, 1]) : undefined;
    if (holder) doc.getRoot().getDefaultScene()!.addChild(holder);
    const name = mirrored ? "Aileron_R" : "Aileron_L";
    addAircraftMesh(
      doc,
      mirrored ? "Wing_R" : "Wing_L",
      surface.wing.positions,
      surface.wing.triangles,
      holder,
    );
    const aileron = addAircraftMesh(doc, name, surface.positions, surface.triangles, holder);
    const { rotations, translations } = turnsAbout(
      aileron,
      toScene(surface.origin),
      toScene(surface.axis),
      keyed,
    );
    key(doc, aileron, "rotation", rotations, { clip: `${name}_key` });
    key(doc, aileron, "translation", translations, { clip: `${name}_key` });
    const { report } = await rig(doc);
    const part = report.parts.find((p) => p.panel === name)!;
    const fit = part.fit as unknown as { confidence: string; rule: string; keyed_range: unknown };
    assertEquals([fit.confidence, fit.rule, part.side], ["good", "animation", mirrored ? "right" : "left"]);
    assertEquals([part.min, part.max], expected, name);
    assertEquals(fit.keyed_range, { clips: [`${name}_key`], min: expected[0], max: expected[1] });
  }
});

Deno.test("through the rig: a fit the clip does not confirm keeps its kind's default range", async () => {
  const surface = airfoilSurface(prng(312));
  const doc = newScene();
  addAircraftMesh(doc, "Wing_L", surface.wing.positions, surface.wing.triangles);
  const aileron = addAircraftMesh(doc, "Aileron_L", surface.positions, surface.triangles);
  const toScene = (v: ArrayLike<number>): Vec3 => [-v[2], v[1], v[0]];
  let centre: Vec3 = [0, 0, 0];
  for (let i = 0; i < surface.positions.length; i += 3) {
    centre = [0, 1, 2].map((k) =>
      centre[k] + surface.positions[i + k] * 3 / surface.positions.length
    ) as Vec3;
  }
  // Keyed about its centre: a line off the fitted hinge, so the geometry's fit stands (weak).
  const { rotations, translations } = turnsAbout(aileron, toScene(centre), toScene(surface.axis), [
    0,
    40,
    -40,
  ]);
  key(doc, aileron, "rotation", rotations);
  key(doc, aileron, "translation", translations);
  const part = (await rig(doc)).report.parts.find((p) => p.panel === "Aileron_L")!;
  const fit = part.fit as unknown as { rule: string; keyed_range?: unknown };
  assert(fit.rule !== "animation" && fit.keyed_range === undefined);
  assertEquals([part.min, part.max], [-25, 25]);
});
