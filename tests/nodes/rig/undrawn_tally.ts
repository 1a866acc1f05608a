/**
 * Tallies the rig's readers of a part's vertices on scenes given a modeller's or ripper's leftovers
 * (`undrawn_parts.ts`): spinners and rotors (`rotor_zoo.ts`, `rotor_wild.ts`), trim tabs modelled
 * beside their surfaces (riding on them), two surfaces drawn as one object (split into left and
 * right), control linkages (`linkage_habits.ts`) and hinge brackets in objects of their own
 * (`bracket_scenes.ts`). Each part is `right` (right and judged good), `weak` (right, not good: named
 * in its reasons), `named` (wrong, and not good or a warning names it) or `silent` (wrong, judged good
 * and nothing names it). `deno run -A tests/nodes/rig/undrawn_tally.ts 37 [family] [habit]` prints them.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { cross, dot, IDENTITY, normalize, sub, type Vec3 } from "../../../nodes/rig/transform.ts";
import { prng } from "../../support/prng.ts";
import { bracketRound, DEFAULTS, HARDWARE } from "./bracket_scenes.ts";
import { LINKAGE_HABITS, linkageSample } from "./linkage_habits.ts";
import { judgeModellerScene, type ModellerVerdict } from "./modeller_habits_tally.ts";
import { modellerSample, type ModellerTruth } from "./modeller_habits.ts";
import { nodeNamed, rig, type RigResult } from "./pipeline.ts";
import { AFT, DOWN, farEdge, UP } from "./cases.ts";
import { addPanel, newScene, type PanelSpec, turnAttached } from "./fixtures.ts";
import { judgeSample } from "./rough_tally.ts";
import { hingeError } from "./coarse_panels.ts";
import { kruegerAircraft } from "./krueger_flaps.ts";
import { judgeZoo, spinningNames, zooCase } from "./rotor_zoo.ts";
import { wildCase } from "./rotor_wild.ts";
import { giveUndrawn, UNDRAWN_HABITS, type UndrawnHabit, writtenAgain } from "./undrawn_parts.ts";

/** Parts by verdict, and what the wrong ones were. */
export interface UndrawnTally {
  right: number;
  weak: number;
  named: number;
  silent: number;
  readonly notes: string[];
}

/** The families tallied. */
export const UNDRAWN_FAMILIES = [
  "spinners",
  "tabs",
  "split",
  "linkages",
  "hardware",
  "body",
  "sides",
  "reruns",
] as const;

/** One family of {@link UNDRAWN_FAMILIES}. */
export type UndrawnFamily = (typeof UNDRAWN_FAMILIES)[number];

const empty = (): UndrawnTally => ({ right: 0, weak: 0, named: 0, silent: 0, notes: [] });

/** Adds a modeller verdict's panels to `t`. */
function addVerdict(t: UndrawnTally, v: ModellerVerdict): void {
  const wrong = v.wrong.length, silent = v.silent.length;
  t.right += v.panels - wrong - v.alarms.length, t.weak += v.alarms.length;
  t.named += wrong - silent, t.silent += silent;
  t.notes.push(...v.wrong.map((w) => `${v.description}: ${w}`), ...v.alarms.map((a) => `weak ${a}`));
}

/** Spinning parts of `count` zoo and `count` wild aircraft drawn from `seed`, given `habit`. */
export async function tallySpinners(seed: number, count: number, habit: UndrawnHabit): Promise<UndrawnTally> {
  const t = empty();
  for (const make of [zooCase, wildCase]) {
    const next = prng(seed);
    for (let i = 0; i < count; i++) {
      const sample = make(next, i);
      giveUndrawn(sample.doc, habit, seed * 1000 + i);
      const result = await rig(sample.doc, { forward: "-Z", up: "+Y" });
      for (const truth of sample.parts) {
        const j = judgeZoo(result, truth);
        const good = j.confidence === "good";
        if (!j.problems.length) good ? t.right++ : t.weak++;
        else {
          good ? t.silent++ : t.named++;
          t.notes.push(`${sample.description} ${truth.name} [${j.confidence}] ${j.problems.join(", ")}`);
        }
      }
      const spun = spinningNames(result);
      for (const still of sample.still.filter((s) => spun.includes(s))) {
        t.silent++, t.notes.push(`${sample.description}: ${still} spun`);
      }
    }
  }
  return t;
}

/** The world points of `node`'s mesh (a node at the scene's top, drawn where it stands). */
function worldPoints(node: Node): Vec3[] {
  const position = node.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!, out: Vec3[] = [];
  for (let i = 0; i < position.getCount(); i++) out.push(position.getElement(i, [0, 0, 0]) as Vec3);
  return out;
}

/**
 * A trim tab beside `truth`'s surface, at the scene's top as exporters leave objects: a thin plate a
 * third of its span at mid-span, a fifth of its chord, its hinge 0.85 of the chord behind the
 * surface's.
 */
function addTab(doc: Document, truth: ModellerTruth, host: Node): void {
  const { origin, axis, span, chord } = truth;
  const along = worldPoints(host).map((p) =>
    (p[0] - origin[0]) * axis[0] + (p[1] - origin[1]) * axis[1] + (p[2] - origin[2]) * axis[2]
  );
  const mid = (Math.min(...along) + Math.max(...along)) / 2;
  // Aft in the default world is +Z: square to the hinge.
  const lean = axis[2];
  const aft = normalize([-lean * axis[0], -lean * axis[1], 1 - lean * axis[2]]);
  const normal = normalize(cross(axis, aft));
  const at = (u: number, v: number, w: number) =>
    [0, 1, 2].map((k) =>
      origin[k] + axis[k] * (mid + u * span) + aft[k] * (0.85 + v) * chord + normal[k] * w * chord
    );
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) {
    positions.push(...at(i & 1 ? 0.17 : -0.17, i & 2 ? 0.2 : 0, i & 4 ? 0.01 : -0.01));
  }
  const triangles = [
    0,
    1,
    3,
    0,
    3,
    2,
    4,
    6,
    7,
    4,
    7,
    5,
    0,
    4,
    5,
    0,
    5,
    1,
    2,
    3,
    7,
    2,
    7,
    6,
    0,
    2,
    6,
    0,
    6,
    4,
    1,
    5,
    7,
    1,
    7,
    3,
  ];
  addTopMesh(doc, `${truth.name}_Trim_Tab`, positions, triangles);
}

/** Adds node `name` at the scene's top drawing `triangles` over `positions` (world, one mesh). */
function addTopMesh(doc: Document, name: string, positions: number[], triangles: number[]): void {
  const buffer = doc.getRoot().listBuffers()[0];
  const mesh = doc.createMesh(name).addPrimitive(
    doc.createPrimitive()
      .setAttribute(
        "POSITION",
        doc.createAccessor(`${name}.position`, buffer).setType("VEC3").setArray(new Float32Array(positions)),
      )
      .setIndices(
        doc.createAccessor(`${name}.indices`, buffer).setType("SCALAR").setArray(new Uint32Array(triangles)),
      ),
  );
  doc.getRoot().getDefaultScene()!.addChild(doc.createNode(name).setMesh(mesh));
}

/** Trim tabs beside every surface of `count` modeller aircraft from `seed` on: each must ride on its own surface. */
export async function tallyTabs(seed: number, count: number, habit: UndrawnHabit): Promise<UndrawnTally> {
  const t = empty();
  for (let s = seed; s < seed + count; s++) {
    const sample = modellerSample(s, "clean");
    const nodes = sample.doc.getRoot().listNodes();
    for (const truth of sample.truths) {
      addTab(
        sample.doc,
        truth,
        nodes.find((n) => n.getName() === truth.name)!,
      );
    }
    giveUndrawn(sample.doc, habit, s);
    const { scene, ctx } = await rig(sample.doc);
    for (const truth of sample.truths) {
      const tab = `${truth.name}_Trim_Tab`;
      const on = scene.getRoot().listNodes().find((n) => n.getName() === `HINGE_auto_${tab}`)?.getParentNode()
        ?.getName();
      if (on === `HINGE_auto_${truth.name}`) {
        t.right++;
        continue;
      }
      const warned = ctx.warnings.some((w) => w.message.includes(`'${tab}'`));
      warned ? t.named++ : t.silent++;
      t.notes.push(`${sample.description}: ${tab} rides on ${on ?? "nothing"}${warned ? ", warned" : ""}`);
    }
  }
  return t;
}

/**
 * Each left and right surface of `count` modeller aircraft from `seed` on drawn as one object
 * (`Ailerons`: both in one mesh, as a modeller joins them): split into `Ailerons_L` and `Ailerons_R`.
 */
export async function tallySplit(seed: number, count: number, habit: UndrawnHabit): Promise<UndrawnTally> {
  const t = empty();
  for (let s = seed; s < seed + count; s++) {
    const sample = modellerSample(s, "clean");
    const named = (name: string) => sample.doc.getRoot().listNodes().some((n) => n.getName() === name);
    // Pairs drawn as objects `<base>_L` and `<base>_R`, joined into one object `<base>s`.
    const bases = new Set(
      sample.truths.map((x) => x.name.replace(/_[LR]$/, "")).filter((b) =>
        named(`${b}_L`) && named(`${b}_R`)
      ),
    );
    const truths = sample.truths.map((truth) => {
      const base = truth.name.replace(/_[LR]$/, "");
      if (!bases.has(base)) return truth;
      // Its half once split; the joined object, where it is left whole (warned of by that name).
      return { ...truth, aliases: [`${base}s_${truth.side === "left" ? "L" : "R"}`, `${base}s`] };
    });
    for (const base of bases) joinPair(sample.doc, `${base}_L`, `${base}_R`, `${base}s`);
    giveUndrawn(sample.doc, habit, s);
    addVerdict(t, await judgeModellerScene({ ...sample, truths }));
  }
  return t;
}

/** Replaces nodes `a` and `b` (at the scene's top, world positions) by one node `name` drawing both. */
function joinPair(doc: Document, a: string, b: string, name: string): void {
  const nodes = [a, b].map((n) => doc.getRoot().listNodes().find((x) => x.getName() === n)!);
  const positions: number[] = [], triangles: number[] = [];
  for (const node of nodes) {
    const primitive = node.getMesh()!.listPrimitives()[0], base = positions.length / 3;
    positions.push(...primitive.getAttribute("POSITION")!.getArray()!);
    triangles.push(...Array.from(primitive.getIndices()!.getArray()!, (i) => i + base));
    node.dispose();
  }
  addTopMesh(doc, name, positions, triangles);
}

/** Surfaces of `count` linkage samples from `seed` on (every habit in turn). */
export async function tallyLinkages(seed: number, count: number, habit: UndrawnHabit): Promise<UndrawnTally> {
  const t = empty();
  for (let s = seed; s < seed + count; s++) {
    const sample = linkageSample(s, LINKAGE_HABITS[s % LINKAGE_HABITS.length]);
    giveUndrawn(sample.doc, habit, s);
    const v = await judgeSample(sample);
    const wrong = v.wrong.length, silent = v.silent.length, panels = v.panels + v.copies;
    t.right += panels - wrong - v.alarms.length, t.weak += v.alarms.length;
    t.named += wrong - silent, t.silent += silent;
    t.notes.push(...v.wrong.map((w) => `${v.description}: ${w}`), ...v.alarms.map((a) => `weak ${a}`));
  }
  return t;
}

/**
 * Flaps on a dropped hinge with their brackets in objects of their own (`bracket_scenes.ts`, both
 * namings, every placement): right is weak with a warning naming a bracket (the pivot is the
 * brackets'); good is silently wrong. `count` scenes per naming from `seed`.
 */
export async function tallyHardware(seed: number, count: number, habit: UndrawnHabit): Promise<UndrawnTally> {
  const t = empty();
  for (const naming of [HARDWARE, DEFAULTS]) {
    const next = prng(seed);
    for (let round = 0; round < count; round++) {
      const { placement, surface, doc, names } = bracketRound(next, round, naming);
      giveUndrawn(doc, habit, seed * 1000 + round);
      const result = await rig(doc);
      const part = result.report.parts.find((p) => p.panel === "Flap_L");
      const fit = part?.fit as { confidence?: string } | undefined;
      const warning = result.ctx.warnings.find((w) => w.message.includes("'Flap_L'"))?.message ?? "";
      const named = placement === "flap"
        ? warning.includes("hinge brackets")
        : warning.includes("hinge hardware beside it") && names.some((n) => warning.includes(`'${n}'`));
      const what = `${naming.label} round ${round} ${placement}, ${surface.description}`;
      if (fit?.confidence === "good") t.silent++, t.notes.push(`${what}: good on its nose`);
      else if (named) t.right++;
      else {t.named++,
          t.notes.push(`${what}: ${fit?.confidence ?? "unrigged"}, brackets not named: ${warning}`);}
    }
  }
  return t;
}

/**
 * The body a panel sits on (`opening.ts` BodySampler), read two ways: air brakes lying on a fuselage
 * slab, dorsal, ventral or on a side, named with no word for their side (`SpeedBrake_2`), must open
 * away from it (+10° moves their far edge out); and leading-edge flaps of airliners named only as
 * such (`krueger_flaps.ts` generic), a Krueger told by where it lies against the wing around it,
 * right within 2° and 5 % of its chord. `count` scenes of each from `seed`.
 */
export async function tallyBody(seed: number, count: number, habit: UndrawnHabit): Promise<UndrawnTally> {
  const t = empty();
  let next = prng(seed);
  for (let i = 0; i < count; i++) {
    const { doc, brakes } = brakeScene(next, i);
    giveUndrawn(doc, habit, seed * 1000 + i);
    const { scene, report, ctx } = await rig(doc);
    for (const { spec, out } of brakes) {
      const part = report.parts.find((p) => p.panel === spec.name);
      const good = (part?.fit as { confidence?: string } | undefined)?.confidence === "good";
      let along = -1;
      if (part?.hinge) {
        const edge = farEdge(spec, IDENTITY);
        const motion = sub(turnAttached(nodeNamed(scene, part.name), edge, 10), edge);
        along = dot(motion, out) / Math.hypot(...motion);
      }
      if (along > 0.5) good ? t.right++ : t.weak++;
      else {
        const warned = ctx.warnings.some((w) => w.message.includes(`'${spec.name}'`));
        good && !warned ? t.silent++ : t.named++;
        t.notes.push(
          `#${i} ${spec.name}: opens ${along.toFixed(2)} of the way out, ${good ? "good" : "not good"}`,
        );
      }
    }
  }
  next = prng(seed);
  for (let i = 0; i < count; i++) {
    const sample = kruegerAircraft(next, i, { generic: true });
    giveUndrawn(sample.scene, habit, seed * 1000 + i);
    const { report, ctx } = await rig(sample.scene);
    for (const panel of sample.panels) {
      const part = report.parts.find((p) => p.panel === panel.name);
      const warned = ctx.warnings.some((w) => w.message.includes(`'${panel.name}'`));
      const error = part?.hinge ? hingeError(panel.truth, part.hinge.aircraft) : undefined;
      const good = (part?.fit as { confidence?: string } | undefined)?.confidence === "good";
      if (error && error.degrees <= 2 && error.offset <= 0.05 * panel.truth.chord) {
        good ? t.right++ : t.weak++;
      } else {
        good && !warned ? t.silent++ : t.named++;
        t.notes.push(
          `#${i} ${panel.name}: ${error ? `${error.degrees.toFixed(1)}°` : "unrigged"}, ${
            good ? "good" : "not good"
          }`,
        );
      }
    }
  }
  return t;
}

/** A fuselage slab and one to three air brakes lying on it, each with the way out of the body where it lies. */
export function brakeScene(next: () => number, index: number) {
  const doc = newScene();
  const width = 0.8 + 0.8 * next(), height = 0.9 + next(), length = 6 + 6 * next();
  addPanel(doc, undefined, {
    name: "Fuselage",
    root: [-width / 2, 0, -length / 2],
    tip: [width / 2, 0, -length / 2],
    aft: AFT,
    normal: UP,
    chordRoot: length,
    chordTip: length,
    thickness: height,
  });
  const brakes: { spec: PanelSpec; out: Vec3 }[] = [];
  const n = 1 + (index % 3);
  for (let b = 0; b < n; b++) {
    const place = Math.floor(4 * next()), z = (next() - 0.3) * length * 0.4, chord = 0.5 + 0.5 * next();
    const half = Math.min(width, height) * (0.2 + 0.15 * next());
    // The brake's far edge is 0.1 of its chord thick (addPanel tapers it): it lies on the skin.
    const lying = 0.02;
    const [root, tip, normal, out]: [Vec3, Vec3, Vec3, Vec3] = place === 0
      ? [[-half, height / 2 + lying, z], [half, height / 2 + lying, z], UP, UP]
      : place === 1
      ? [[half, -height / 2 - lying, z], [-half, -height / 2 - lying, z], DOWN, DOWN]
      : place === 2
      ? [[width / 2 + lying, -half, z], [width / 2 + lying, half, z], [1, 0, 0], [1, 0, 0]]
      : [[-width / 2 - lying, half, z], [-width / 2 - lying, -half, z], [-1, 0, 0], [-1, 0, 0]];
    const spec = {
      name: `SpeedBrake_${b + 1}`,
      root,
      tip,
      aft: AFT,
      normal,
      chordRoot: chord,
      chordTip: chord,
      thickness: 0.03,
    };
    addPanel(doc, undefined, spec);
    brakes.push({ spec, out });
  }
  return { doc, brakes };
}

/**
 * How modellers leave a pair of surfaces without a word for their side, cycled by seed (a V-tail's
 * `Ruddervator`/`Ruddervator.001` comes with its aircraft, `surface_classes.ts`, in every naming):
 * `mirrored_copy`, Blender's mirrored duplicate (`Aileron`, `Aileron.001`, either side first);
 * `numbered`, a surface's pieces numbered as 3ds Max numbers them (`Elevator01`, `Elevator02`);
 * `object_n`, a rip's objects named by number only (`Object_7`).
 */
export const SIDE_NAMINGS = ["mirrored_copy", "numbered", "object_n"] as const;

/** The pairs of `truths` (`<base>_L`/`_R`, `_Left`/`_Right`, `<base>`/`<base>.001`) renamed by `naming`. */
export function sideless(
  doc: Document,
  truths: ModellerTruth[],
  naming: (typeof SIDE_NAMINGS)[number],
  next: () => number,
): ModellerTruth[] {
  const base = (name: string) => name.replace(/(_L|_R|_Left|_Right|\.001)$/, "");
  let object = 3 + Math.floor(20 * next());
  // Which side of each pair comes first (the original of a mirrored duplicate, piece 01).
  const firstSide = new Map<string, string>();
  return truths.map((truth) => {
    const pair = truths.filter((x) => base(x.name) === base(truth.name));
    if (pair.length !== 2 || /\.001$/.test(pair[0].name + pair[1].name)) return truth;
    if (!firstSide.has(base(truth.name))) firstSide.set(base(truth.name), next() < 0.5 ? "left" : "right");
    const own = truth.side === firstSide.get(base(truth.name)) ? 0 : 1;
    const name = naming === "mirrored_copy"
      ? `${base(truth.name)}${own ? ".001" : ""}`
      : naming === "numbered"
      ? `${base(truth.name).replace(/_/g, "")}0${own + 1}`
      : `Object_${object++}`;
    const node = doc.getRoot().listNodes().find((n) => n.getName() === truth.name)!;
    node.setName(name), node.getMesh()?.setName(name);
    // A rip's numbered object is a part only as its user declares it (custom properties).
    if (naming === "object_n") {
      node.setExtras({ ...node.getExtras(), ctrl_type: "rotation", min: -20, max: 20 });
    }
    return { ...truth, name };
  });
}

/** Adds one part's side verdict to `t`: right; wrong and named (a warning names it, or not good); wrong, silent. */
export function addSide(t: UndrawnTally, result: RigResult, truth: ModellerTruth, what: string): void {
  // A declared part is its own pivot: found by its name.
  const part = result.report.parts.find((p) => p.panel === truth.name) ??
    result.report.parts.find((p) => p.name === truth.name);
  if (part?.side === truth.side) {
    t.right++;
    return;
  }
  const warned = result.ctx.warnings.some((w) => w.message.includes(`'${truth.name}'`));
  const good = (part?.fit as { confidence?: string } | null | undefined)?.confidence === "good";
  (part && good && !warned) || (!part && !warned) ? t.silent++ : t.named++;
  t.notes.push(
    `${what}: ${truth.name} ${part ? part.side : "unrigged"} (${truth.side})${warned ? ", warned" : ""}`,
  );
}

/**
 * Left and right surfaces of `count` modeller aircraft from `seed` on named without a side word
 * ({@link SIDE_NAMINGS}, cycled by seed), given `habit`: each must be sided as it lies. Judged on
 * the side alone (the hinge has its own tallies).
 */
export async function tallySides(seed: number, count: number, habit: UndrawnHabit): Promise<UndrawnTally> {
  const t = empty();
  for (let s = seed; s < seed + count; s++) {
    const sample = modellerSample(s, "clean"), naming = SIDE_NAMINGS[s % SIDE_NAMINGS.length];
    const truths = sideless(sample.doc, sample.truths, naming, prng(s * 31 + 5));
    giveUndrawn(sample.doc, habit, s);
    const result = await rig(sample.doc);
    for (const truth of truths) addSide(t, result, truth, `${sample.description}, ${naming}`);
  }
  return t;
}

/**
 * `count` modeller aircraft from `seed` on given `habit`, rigged, written again by an exporter that
 * keeps only what faces use (`undrawn_parts.ts` writtenAgain) and rigged again: no panel was edited,
 * so each must keep its pivot (right); one taken for edited and fitted again is named (the re-run
 * warns it moved); one whose hinge moved with no warning naming it is silent.
 */
export async function tallyReruns(seed: number, count: number, habit: UndrawnHabit): Promise<UndrawnTally> {
  const t = empty();
  for (let s = seed; s < seed + count; s++) {
    const sample = modellerSample(s, "clean");
    giveUndrawn(sample.doc, habit, s);
    const first = await rig(sample.doc);
    writtenAgain(first.scene);
    const again = await rig(first.scene);
    for (const truth of sample.truths) {
      const before = first.report.parts.find((p) => p.panel === truth.name)?.hinge?.world;
      const after = again.report.parts.find((p) => p.panel === truth.name)?.hinge?.world;
      if (!before) continue;
      const refit = again.ctx.warnings.some((w) =>
        w.message.includes(`'${truth.name}'`) &&
        /moved under its pivot|no longer lies on the line/.test(w.message)
      );
      const moved = !after || Math.acos(Math.min(1, Math.abs(dot(before.axis, after.axis)))) > 1e-4 ||
        Math.hypot(...sub(before.origin, after.origin)) > 1e-4 * truth.chord;
      if (!refit && !moved) t.right++;
      else {
        refit ? t.named++ : t.silent++;
        t.notes.push(
          `${sample.description}: ${truth.name} ${refit ? "taken for edited" : "hinge moved, silently"}`,
        );
      }
    }
  }
  return t;
}

/** The tally of `family` from `seed` (its usual count of scenes), given `habit`. */
export function tallyUndrawn(family: UndrawnFamily, seed: number, habit: UndrawnHabit, count?: number) {
  switch (family) {
    case "spinners":
      return tallySpinners(seed, count ?? 27, habit);
    case "tabs":
      return tallyTabs(seed, count ?? 22, habit);
    case "split":
      return tallySplit(seed, count ?? 22, habit);
    case "linkages":
      return tallyLinkages(seed, count ?? 20, habit);
    case "hardware":
      return tallyHardware(seed, count ?? 20, habit);
    case "body":
      return tallyBody(seed, count ?? 24, habit);
    case "sides":
      return tallySides(seed, count ?? 24, habit);
    case "reruns":
      return tallyReruns(seed, count ?? 22, habit);
  }
}

if (import.meta.main) {
  const seed = Number(Deno.args[0] ?? 37);
  const families = Deno.args[1] ? [Deno.args[1] as UndrawnFamily] : UNDRAWN_FAMILIES;
  const habits: UndrawnHabit[] = Deno.args[2] ? [Deno.args[2] as UndrawnHabit] : ["clean", ...UNDRAWN_HABITS];
  const count = Deno.args[3] ? Number(Deno.args[3]) : undefined;
  for (const family of families) {
    for (const habit of habits) {
      const { notes, ...t } = await tallyUndrawn(family, seed, habit, count);
      console.log(`${family} seed ${seed} ${habit}: ${JSON.stringify(t)}`);
      if (Deno.env.get("NOTES")) { for (const note of notes) console.log(`   ${note}`); }
    }
  }
}
