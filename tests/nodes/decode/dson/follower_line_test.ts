/**
 * Rigid followers and rigidity groups whose reference vertices do not fix a turn: a decode names where
 * in the DSON file a follower's missing frame node is referenced; followers and groups on a line (a
 * strap, a chain, an earring on two vertices) or one vertex take the least turn and say so
 * (`follower_line_habits.ts`).
 */
import assert from "node:assert/strict";
import { fitChange } from "../../../../nodes/decode/dson/codec/follower_fit.ts";
import { applyRigidity } from "../../../../nodes/decode/dson/codec/rigidity_apply.ts";
import { dsonBakeMorph } from "../../../../nodes/decode/dson/bake_morph.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { decodeJson } from "./dson_runs.ts";
import { posedRigidityCase } from "./posed_rigidity_habits.ts";
import { followerShapeCase, shapedVertices } from "./follower_shape_habits.ts";
import { lineCase, thinStrapCase, transformPoint } from "./follower_line_habits.ts";
import { type LineCodec, lineTally } from "./follower_line_judge.ts";
import { posedFollowerCase } from "./posed_follower_habits.ts";

Deno.test("dson followers: the decode names the DSON path of a follower's missing frame node", async () => {
  for (const [seed, field] of [[4, "transform_nodes"], [7, "reference"]] as const) {
    const c = posedFollowerCase(seed, { frames: true });
    const nodes =
      (c.json.scene as { nodes: { id?: string; extra?: { rigidity_group?: Record<string, unknown> }[] }[] })
        .nodes;
    const index = nodes.findIndex((n) => n.extra?.[0]?.rigidity_group);
    const group = nodes[index].extra![0].rigidity_group!;
    delete group.reference;
    delete group.transform_nodes;
    if (field === "reference") group.reference = "#lPinkyNowhere";
    else group.transform_nodes = ["#lPinkyNowhere"];
    group.rotation_mode = "primary";
    const decoded = await decodeJson(c.json, "scene.duf");
    const path = `scene.duf at /scene/nodes/${index}/extra/0/rigidity_group/` +
      (field === "reference" ? "reference" : "transform_nodes/0");
    const named = decoded.warnings.filter((w) =>
      w.startsWith("dson: 1 rigid follower(s) name a transform or reference node") &&
      w.includes(`'${nodes[index].id}' ('#lPinkyNowhere') at ${path}`)
    );
    assert.equal(named.length, 1, `seed ${seed} (${field}):\n${decoded.warnings.join("\n")}`);
  }
});

// Seeds 1-200 were developed against, 1001-1400 held out for decode.dson v64 (before it: 245 of 400 parts
// off by over 1 mm, all silently; after, 191, none silently). Judged against Daz's fit (decode.dson v65:
// a line that only slides, or one vertex, fits a slide, so only a turning line leaves a twist to guess),
// v65 was developed on 1001-1400 and held out on 9001-9400: v64 warned all 235 parts there on a line that
// stays put or on one vertex (each right); v65 warns none of them and every one of the 165 on a turning
// line (85 off by over 1 mm), none off silently. v66 names a slide when the mesh around it turns.
Deno.test("dson followers and rigidity groups on a line: a slide named only when the surface turns, never off silently (held-out seeds)", () => {
  const codec = { fitChange, applyRigidity } as unknown as LineCodec;
  const tally = lineTally(codec, 9001, 9400, lineCase, "daz");
  const table = [...tally].map(([k, v]) => `${k}: ${v.join(" ")}`).join("\n");
  const [cases, wrong, silent] = tally.get("all")!;
  assert.equal(cases, 400);
  assert.equal(silent, 0, table);
  // A line that stays put, or one vertex: Daz's slide. Nothing is said of a plain shift; a twist about
  // the line (a turn about the vertex) the mesh around them makes, and they do not record, is named
  // (decode.dson v66: every one of them here, the slide kept).
  const [fixed, fixedWrong, , fixedWarned] = tally.get("line fixed")!;
  const [shifted, , , shiftWarned] = tally.get("shift")!;
  assert.ok(fixed > 100, table);
  assert.equal(fixedWrong, 0, table);
  assert.equal(shiftWarned, 0, table);
  assert.equal(fixedWarned, fixed - shifted, table);
  // A turning line: every part named, right or not (its twist is not in the file).
  const [turns, turnsWrong, , turnsWarned] = tally.get("line turns")!;
  assert.equal(turnsWrong + turnsWarned, turns, table);
  // A swing of the line is in the data: none is off.
  assert.equal(tally.get("swing")![1], 0, table);
  assert.ok(wrong < cases * 0.5, `${wrong} of ${cases} wrong`);
});

Deno.test("dson followers on two vertices: the default modes swing the line as a full turn with scale_modes does", () => {
  for (let seed = 1001; seed <= 1400; seed++) {
    const c = lineCase(seed);
    if (c.habits[0] !== "earring-2" || c.fitter === "group") continue;
    const at = (scale: "none" | "primary") => {
      const flags: { uncertain: boolean; untwisted?: boolean } = { uncertain: false };
      const m = fitChange(
        c.before,
        c.before,
        c.after,
        {
          rotationMode: "full",
          scaleModes: [scale, "none", "none"],
        },
        undefined,
        flags,
      );
      // Named exactly when the line turns (a slide fits no turn: decode.dson v65).
      assert.equal(
        !!flags.untwisted,
        !c.slide,
        `seed ${seed}: named ${!!flags.untwisted}, ${c.habits.join(" ")}`,
      );
      return transformPoint(m, c.part);
    };
    const plain = at("none"), scaled = at("primary");
    // The scaled one stretches along the line too: compare across it only, where both only turn.
    const d = Math.hypot(plain[0] - scaled[0], plain[1] - scaled[1], plain[2] - scaled[2]);
    assert.ok(d < 2e-4, `seed ${seed}: default and scaled modes ${d} m apart`);
  }
});

/** The angle (rad) between the line through `a` and `b` and the line through `c` and `d`. */
function lineAngle(
  a: readonly number[],
  b: readonly number[],
  c: readonly number[],
  d: readonly number[],
): number {
  const u = [0, 1, 2].map((k) => b[k] - a[k]), v = [0, 1, 2].map((k) => d[k] - c[k]);
  const x = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  return Math.atan2(Math.hypot(...x), Math.abs(u[0] * v[0] + u[1] * v[1] + u[2] * v[2]));
}

// follower_shape_habits.ts held-out seeds 18001-18040: every follower on two reference vertices whose
// line the file's shape turns by over 0.01 rad is named by the decode as taking the least turn, and no
// follower on one vertex (Daz slides it: one vertex fixes no turn) — before v64 none was named and those
// on two vertices slid unturned (6 of 40 scenes off by 0.2 to 0.7 mm silently); v64 named every one
// the shape moved, one vertex too (v65: not those).
Deno.test("dson followers on one or two vertices: the decode names those whose line turns, not one vertex", async () => {
  let named = 0, single = 0;
  for (let seed = 18001; seed <= 18040; seed++) {
    const c = followerShapeCase(seed);
    const shaped = shapedVertices(c, c.dials);
    const full = c.followers.filter((f) => f.refs.length < 3 && f.rotation === "full");
    const turning = full.filter((f) =>
      f.refs.length === 2 &&
      lineAngle(c.base[f.refs[0]], c.base[f.refs[1]], shaped[f.refs[0]], shaped[f.refs[1]]) > 0.01
    );
    const { warnings } = await decodeJson(c.json, "scene.duf");
    const said = warnings.find((w) => w.startsWith("dson: ") && w.includes("fix no turn about that line"));
    for (const f of turning) {
      assert.ok(
        new RegExp(`'${f.name}(-\\d+)?'`).test(said ?? "") || /and \d+ more/.test(said ?? ""),
        `seed ${seed}: ${f.name} unnamed\n${warnings.join("\n")}`,
      );
      named++;
    }
    for (const f of full.filter((f) => f.refs.length === 1)) {
      assert.ok(
        !new RegExp(`'${f.name}(-\\d+)?'`).test(said ?? ""),
        `seed ${seed}: ${f.name} named\n${said}`,
      );
      single++;
    }
    if (!turning.length) assert.equal(said, undefined, `seed ${seed}: ${said}`);
  }
  assert.ok(named > 3, `${named} followers named`);
  assert.ok(single > 3, `${single} followers on one vertex`);
});

Deno.test("dson rigidity: a bake names a full group whose reference vertices lie on a line, at its rotation_mode", async () => {
  let named = 0;
  for (let seed = 22301; seed <= 22310; seed++) {
    const c = posedRigidityCase(seed);
    const geometry = (c.json.geometry_library as { rigidity?: { groups: Record<string, unknown>[] } }[])
      .find((g) => g.rigidity)!;
    const group = geometry.rigidity!.groups[0];
    const refs = (group.reference_vertices as { values: number[] }).values.slice(0, 2);
    group.reference_vertices = { count: 2, values: refs };
    group.rotation_mode = "full";
    const decoded = await decodeJson(c.json, "scene.duf");
    const ctx = testContext();
    await runNode(dsonBakeMorph, { scene: decoded.scene }, { morph: "FBMHeavy", weight: 0.7 }, ctx);
    const said = ctx.warnings.map((w) => w.message).filter((w) =>
      new RegExp(
        `^rigidity group '${group.id}' of '[^']+' \\(/meshes/\\d+/extras/partgraph/dson/rigidity/groups/\\d+/rotation_mode\\): its full turn is not fixed`,
      ).test(w)
    );
    assert.equal(said.length, 1, `seed ${seed}:\n${ctx.warnings.map((w) => w.message).join("\n")}`);
    named++;
  }
  assert.equal(named, 10);
});

// Seeds 1-400 developed against; 1001-1400 held out (before decode.dson v64 / dson.bake_morph v9: 85 of
// 400 parts off by over 1 mm, all silently; after, the same 85, none silently).
Deno.test("dson followers and rigidity groups on a narrow strap: a twist resting on its width is named (held-out seeds)", () => {
  const codec = { fitChange, applyRigidity } as unknown as LineCodec;
  const tally = lineTally(codec, 1001, 1400, thinStrapCase);
  const table = [...tally].map(([k, v]) => `${k}: ${v.join(" ")}`).join("\n");
  const [cases, wrong, silent] = tally.get("all")!;
  assert.equal(cases, 400);
  assert.ok(wrong > 0, table);
  assert.equal(silent, 0, table);
  // A strap 3 % as wide as it is long holds its twist: no case of it is warned.
  assert.equal(tally.get("ratio 0.03")![3], 0, table);
});

// One reference vertex (an earring on one, a group on a welded point) fixes a place and no turn: Daz's
// rigid fit of it is its shift. Every mode, with the reference vertex's frame or a named node's, gives
// that slide here, so nothing is a guess and nothing is named (decode.dson v65; before, a `full` turn
// on one vertex was named whenever it moved: 112 of 112 held-out earring-1 parts, all right).
Deno.test("dson followers and rigidity groups on one vertex: every mode slides it, unnamed (held-out seeds)", () => {
  const rotations = ["none", "full", "primary", "secondary"] as const;
  const scales = [["none", "none", "none"], ["primary", "primary", "primary"], [
    "tertiary",
    "secondary",
    "none",
  ]] as const;
  const frames = [undefined, { ordered: [[0, 1, 0], [0, 0, 1], [1, 0, 0]] as [number, number, number][] }];
  let checked = 0;
  for (let seed = 1001; seed <= 1400; seed++) {
    const c = lineCase(seed);
    if (c.habits[0] !== "earring-1") continue;
    const shift = [0, 1, 2].map((a) => c.after[a] - c.before[a]);
    for (const rotationMode of rotations) {
      for (const scaleModes of scales) {
        for (const frame of frames) {
          const what = `seed ${seed} ${rotationMode} ${scaleModes.join("/")} ${
            frame ? "framed" : "unframed"
          }`;
          const flags: { uncertain: boolean; untwisted?: boolean } = { uncertain: false };
          const m = fitChange(
            c.before,
            c.before,
            c.after,
            { rotationMode, scaleModes },
            frame as never,
            flags,
          );
          const at = transformPoint(m, c.part);
          for (let a = 0; a < 3; a++) assert.ok(Math.abs(at[a] - c.part[a] - shift[a]) < 1e-12, what);
          assert.ok(!flags.uncertain && !flags.untwisted, `${what}: named`);
          let said = false;
          const group = {
            id: "point",
            rotationMode,
            scaleModes,
            referenceVertices: Int32Array.of(0),
            maskVertices: Int32Array.of(1),
            transformNodes: [],
          };
          const out = applyRigidity(
            Float64Array.from([...c.before, ...c.part]),
            Float64Array.from([...c.after, ...c.part.map((v) => v + 0.004)]),
            undefined,
            [group],
            () => frame as never,
            undefined,
            () => said = true,
          );
          for (let a = 0; a < 3; a++) assert.ok(Math.abs(out[3 + a] - c.part[a] - shift[a]) < 1e-12, what);
          assert.ok(!said, `${what}: group named`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 2000, `${checked} fits`);
});
