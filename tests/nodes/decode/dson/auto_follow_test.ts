/**
 * Daz's auto-follow by name: a fitted item's morph whose channel says `auto_follow: true`, with no
 * formula, takes the value of the body's same-named morph. Body, dress, coat and belt are code-made,
 * each in its own content file; every expected vertex position is worked out here from the dials,
 * the body's controller formula and the morphs' deltas the files write.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import {
  dsonBytes,
  gridPosition,
  halfController,
  type Json,
  libraryFigure,
  shapePreset,
} from "./generate.ts";
import { applyPreset, decodeJson, type Run, withContentFiles } from "./dson_runs.ts";

const BODY_FILE = "/data/DAZ 3D/Genesis 8/Female/Genesis8Female.dsf";
const MORPH = "FBMHeavy";
const CTRL = "CTRLBodyShape";
const METRES_PER_CM = 0.01;
/** The body's FBMHeavy: its own dial plus half the body-shape controller (the body's formula). */
const bodyHeavy = (own: number, ctrl: number) => own + 0.5 * ctrl;
/** Each figure's FBMHeavy delta (cm) and the vertex it moves. */
const DELTAS: Record<string, { vertex: number; delta: number[] }> = {
  Genesis8Female: { vertex: 5, delta: [0, 1, 0] },
  Dress: { vertex: 6, delta: [0, 0.5, 0.25] },
  Coat: { vertex: 9, delta: [0.3, 0, 0.6] },
  Belt: { vertex: 2, delta: [0, -0.4, 0.8] },
};
const fileOf = (figure: string) => (figure === "Genesis8Female" ? BODY_FILE : `/data/Items/${figure}.dsf`);

/** A morph modifier of `figure`: its FBMHeavy delta, the channel's flags and formulas as given. */
function morphModifier(figure: string, id: string, channel: Json = {}, formulas?: Json[]): Json {
  const { vertex, delta } = DELTAS[figure];
  return {
    id,
    name: id,
    parent: `#${figure}_geo`,
    channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true, ...channel },
    ...(formulas ? { formulas } : {}),
    morph: { vertex_count: 16, deltas: { count: 1, values: [[vertex, ...delta]] }, parent: `#${figure}_geo` },
  };
}

/** A figure file (no scene) with `modifiers`. */
const figureFile = (figure: string, modifiers: Json[]) => libraryFigure(figure, fileOf(figure), modifiers);

/** The body: FBMHeavy, and the controller adding half its value to it. */
function body(): Json {
  return figureFile("Genesis8Female", [
    morphModifier("Genesis8Female", MORPH),
    halfController("Genesis8Female", BODY_FILE, CTRL, MORPH),
  ]);
}

/** An item whose FBMHeavy is auto_follow with no formula, and `extra` modifiers. */
function item(figure: string, extra: Json[] = []): Json {
  return figureFile(figure, [morphModifier(figure, MORPH, { auto_follow: true }), ...extra]);
}

/** A scene node instancing `figure`, fitted to `target` (none: the body itself). */
function instance(figure: string, target?: string): Json {
  const url = encodeURI(fileOf(figure));
  return {
    id: `${figure}-1`,
    url: `${url}#${figure}`,
    ...(target ? { parent: "#Genesis8Female-1", conform_target: `#${target}-1` } : {}),
    geometries: [{ id: `${figure}_geo-1`, url: `${url}#${figure}_geo` }],
  };
}

/** A scene modifier dialling `figure`'s modifier `id` to `value`. */
function dial(figure: string, id: string, value: number): Json {
  return {
    id: `${figure}-${id}-1`,
    url: `${encodeURI(fileOf(figure))}#${id}`,
    parent: `#${figure}_geo-1`,
    channel: { id: "value", current_value: value },
  };
}

function sceneFile(nodes: Json[], modifiers: Json[]): Json {
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/dressed.duf", type: "scene" },
    scene: { nodes, modifiers },
  };
}

/** Decodes `scene` with the body and `items` (figure → file json) installed in a content root. */
function decode(scene: Json, items: Record<string, Json>): Promise<Run> {
  const files = [
    [BODY_FILE, body()] as const,
    ...Object.entries(items).map(([f, j]) => [fileOf(f), j] as const),
  ];
  return withContentFiles(files, (root) => decodeJson(scene, "dressed.duf", [root]));
}

/**
 * Where the viewer draws `figure`'s vertices (mesh space, metres): POSITION plus each morph
 * target's POSITION times its weight, all primitives.
 */
function morphedPositions(scene: Document, figure: string): number[][] {
  const mesh = scene.getRoot().listMeshes().find((m) => m.getName().startsWith(figure));
  assert.ok(mesh, `a mesh of ${figure}`);
  const weights = mesh.getWeights();
  return mesh.listPrimitives().flatMap((primitive) => {
    const base = primitive.getAttribute("POSITION")!;
    return Array.from({ length: base.getCount() }, (_, i) => {
      const p = base.getElement(i, [] as number[]);
      primitive.listTargets().forEach((target, t) => {
        const d = target.getAttribute("POSITION")!.getElement(i, [] as number[]);
        for (let c = 0; c < 3; c++) p[c] += weights[t] * d[c];
      });
      return p;
    });
  });
}

/**
 * Asserts `figure`'s vertices are the grid, its FBMHeavy vertex moved by `weight` · its delta (`moves`:
 * another vertex and delta, a morph projected from the body's).
 */
function assertHeavy(
  scene: Document,
  figure: string,
  weight: number,
  what: string,
  moves = DELTAS[figure],
): void {
  const { vertex, delta } = moves;
  const moved = gridPosition(vertex % 4, Math.floor(vertex / 4)).map((v, c) =>
    (v + weight * delta[c]) * METRES_PER_CM
  );
  const got = morphedPositions(scene, figure);
  const expected = Array.from(
    { length: 16 },
    (_, v) => v === vertex ? moved : gridPosition(v % 4, Math.floor(v / 4)).map((c) => c * METRES_PER_CM),
  );
  // Every expected vertex is drawn where worked out (a primitive may list them in its own order).
  for (const e of expected) {
    const near = got.some((g) => g.every((c, k) => Math.abs(c - e[k]) < 1e-7));
    assert.ok(
      near,
      `${what}: ${figure} has no vertex at ${e} (weight ${weight}); drawn: ${JSON.stringify(got)}`,
    );
  }
  assert.equal(got.length, 16, `${what}: ${figure} draws 16 vertices`);
}

Deno.test("dson auto_follow: a dress's auto_follow morph with no formula takes the body's same-named value", async () => {
  // The body at 0.4 + 0.5 · 0.6 = 0.7. The dress's FBMBodybuilder follows nothing the body has.
  const dress = item("Dress", [morphModifier("Dress", "FBMBodybuilder", { auto_follow: true })]);
  const scene = sceneFile(
    [instance("Genesis8Female"), instance("Dress", "Genesis8Female")],
    [dial("Genesis8Female", MORPH, 0.4), dial("Genesis8Female", CTRL, 0.6)],
  );
  const { scene: decoded, warnings } = await decode(scene, { Dress: dress });
  assertHeavy(decoded, "Genesis8Female", bodyHeavy(0.4, 0.6), "body");
  assertHeavy(decoded, "Dress", bodyHeavy(0.4, 0.6), "dress");
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0], /Dress\.dsf at \/modifier_library\/\d+\/channel\/auto_follow: 1 auto_follow/);
  assert.match(warnings[0], /'Genesis8Female-1'.*FBMBodybuilder$/);
  // Daz saves the follower's dial as it showed it (the body's 0.7): inherited, not added (not 1.4).
  const saved = sceneFile(
    [instance("Genesis8Female"), instance("Dress", "Genesis8Female")],
    [dial("Genesis8Female", MORPH, 0.4), dial("Genesis8Female", CTRL, 0.6), dial("Dress", MORPH, 0.7)],
  );
  const { scene: again, warnings: said } = await decode(saved, { Dress: item("Dress") });
  assert.deepEqual(said, []);
  assertHeavy(again, "Dress", bodyHeavy(0.4, 0.6), "dress with its own dial saved");
});

Deno.test("dson auto_follow: a preset dialling the body's controller or morph moves the follower", async () => {
  const scene = sceneFile(
    [instance("Genesis8Female"), instance("Dress", "Genesis8Female")],
    [dial("Genesis8Female", MORPH, 0.4)],
  );
  const { scene: decoded } = await decode(scene, { Dress: item("Dress") });
  assertHeavy(decoded, "Dress", 0.4, "decoded");
  const { scene: shaped, warnings } = await applyPreset(decoded, shapePreset([[CTRL, 1]]));
  assert.deepEqual(warnings, []);
  assertHeavy(shaped, "Genesis8Female", bodyHeavy(0.4, 1), "body after the controller");
  assertHeavy(shaped, "Dress", bodyHeavy(0.4, 1), "dress after the controller");
  const { scene: dialled, warnings: again } = await applyPreset(shaped, shapePreset([[MORPH, 0.2]]));
  assert.deepEqual(again, []);
  assertHeavy(dialled, "Genesis8Female", bodyHeavy(0.2, 1), "body dialled");
  assertHeavy(dialled, "Dress", bodyHeavy(0.2, 1), "dress dialled (not 0.2 + 0.7)");
});

Deno.test("dson auto_follow: a written formula wins over the flag; with no body the item keeps its own value", async () => {
  // The dress follows half the body's FBMHeavy through its own formula: 0.5 · 0.7, not 0.7 + 0.35.
  const half = figureFile("Dress", [
    morphModifier("Dress", MORPH, { auto_follow: true }, [{
      output: `Dress:${fileOf("Dress")}#${MORPH}?value`,
      operations: [
        { op: "push", url: `Genesis8Female:${encodeURI(BODY_FILE)}#${MORPH}?value` },
        { op: "push", val: 0.5 },
        { op: "mult" },
      ],
    }]),
  ]);
  const fitted = sceneFile(
    [instance("Genesis8Female"), instance("Dress", "Genesis8Female")],
    [dial("Genesis8Female", MORPH, 0.4), dial("Genesis8Female", CTRL, 0.6)],
  );
  const { scene, warnings } = await decode(fitted, { Dress: half });
  assert.deepEqual(warnings, []);
  assertHeavy(scene, "Dress", 0.5 * bodyHeavy(0.4, 0.6), "formula-driven follower");
  // The dress alone, its own dial 0.3: nothing to follow, nothing to say.
  const alone = sceneFile([instance("Dress")], [dial("Dress", MORPH, 0.3)]);
  const { scene: single, warnings: said } = await decode(alone, { Dress: item("Dress") });
  assert.deepEqual(said, []);
  assertHeavy(single, "Dress", 0.3, "dress alone");
});

Deno.test("dson auto_follow: a belt fitted to a coat fitted to the body follows through both, decoded and preset", async () => {
  // The belt comes first in the scene, so its mesh is listed before the coat's it reads.
  const scene = sceneFile(
    [instance("Genesis8Female"), instance("Belt", "Coat"), instance("Coat", "Genesis8Female")],
    [dial("Genesis8Female", MORPH, 0.4), dial("Genesis8Female", CTRL, 0.6)],
  );
  const { scene: decoded, warnings } = await decode(scene, { Coat: item("Coat"), Belt: item("Belt") });
  assert.deepEqual(warnings, []);
  for (const figure of ["Genesis8Female", "Coat", "Belt"]) {
    assertHeavy(decoded, figure, bodyHeavy(0.4, 0.6), `decoded ${figure}`);
  }
  const { scene: shaped, warnings: said } = await applyPreset(decoded, shapePreset([[CTRL, 1]]));
  assert.deepEqual(said, []);
  for (const figure of ["Genesis8Female", "Coat", "Belt"]) {
    assertHeavy(shaped, figure, bodyHeavy(0.4, 1), `preset ${figure}`);
  }
});

Deno.test("dson auto_follow: a body's dialled auto_follow morph the item has no morph of is projected onto it and named", async () => {
  // The body's FBMHeavy is auto_follow and dialled to 0.7; the dress has only its own DressLength.
  const flagged = body();
  const heavy = (flagged.modifier_library as Json[]).find((m) => m.id === MORPH)!;
  (heavy.channel as Json).auto_follow = true;
  const dress = figureFile("Dress", [morphModifier("Dress", "DressLength")]);
  const scene = sceneFile(
    [instance("Genesis8Female"), instance("Dress", "Genesis8Female")],
    [dial("Genesis8Female", MORPH, 0.4), dial("Genesis8Female", CTRL, 0.6)],
  );
  const { scene: decoded, warnings } = await withContentFiles(
    [[BODY_FILE, flagged], [fileOf("Dress"), dress]],
    (root) => decodeJson(scene, "dressed.duf", [root]),
  );
  assertHeavy(decoded, "Genesis8Female", bodyHeavy(0.4, 0.6), "body");
  // The dress's grid lies on the body's: its vertex 5 is the body's vertex 5, which FBMHeavy moves.
  const projected = DELTAS.Genesis8Female;
  assertHeavy(decoded, "Dress", bodyHeavy(0.4, 0.6), "dress, projected", projected);
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(
    warnings[0],
    /Dress\.dsf at \/geometry_library\/0: 1 dialled auto_follow morph\(s\) of the body this item is fitted to \('Genesis8Female-1'\)/,
  );
  assert.match(
    warnings[0],
    /projected from the body, as Daz's auto-follow does.*: FBMHeavy 0\.7 \(1 vertices\)$/,
  );
  // A preset re-drives the projected morph with the body's new value (0.2 + 0.5 · 0.6).
  const { scene: shaped } = await applyPreset(decoded, shapePreset([[MORPH, 0.2]]));
  assertHeavy(shaped, "Genesis8Female", bodyHeavy(0.2, 0.6), "body after a preset");
  assertHeavy(shaped, "Dress", bodyHeavy(0.2, 0.6), "dress after a preset", projected);
  // Not dialled (0): nothing to project, nothing said.
  const still = sceneFile([instance("Genesis8Female"), instance("Dress", "Genesis8Female")], []);
  const quiet = await withContentFiles(
    [[BODY_FILE, flagged], [fileOf("Dress"), dress]],
    (root) => decodeJson(still, "dressed.duf", [root]),
  );
  assert.deepEqual(quiet.warnings, []);
});

Deno.test("dson auto_follow: a preset's auto_follow morph value is applied to followers; an item with the morph takes it, none projected", async () => {
  const preset = {
    name: "heavy.duf",
    bytes: dsonBytes({
      file_version: "0.6.1.0",
      asset_info: { id: "/code/heavy.duf", type: "preset_shape" },
      scene: {
        animations: [{ url: `name://@selection#${MORPH}:?value/value`, keys: [[0, 0.3]], auto_follow: true }],
      },
    }),
  };
  const dressed = sceneFile([instance("Genesis8Female"), instance("Dress", "Genesis8Female")], []);
  const { scene } = await decode(dressed, { Dress: item("Dress") });
  const { scene: shaped, warnings } = await applyPreset(scene, preset);
  assertHeavy(shaped, "Genesis8Female", 0.3, "body");
  assertHeavy(shaped, "Dress", 0.3, "dress");
  // The dress has a morph of the name: it follows, nothing is projected (before, apply_preset v23:
  // a warning that a preset projects none).
  assert.deepEqual(warnings, []);
  assert.equal(
    shaped.getRoot().listMeshes().find((m) => m.getName().startsWith("Dress"))!.getWeights().length,
    1,
  );
  // The body alone: no fitted item to project onto, nothing said.
  const { scene: alone } = await decode(sceneFile([instance("Genesis8Female")], []), {});
  const { scene: single, warnings: said } = await applyPreset(alone, preset);
  assertHeavy(single, "Genesis8Female", 0.3, "body alone");
  assert.deepEqual(said, []);
});
