/**
 * `MaterialAnim` (the game's texture scrolling: exhausts, shields, screens) is not silent: each
 * animated material the model draws keeps its animation in `extras.partgraph.freelancer.uv_animation`
 * and is named in a warning with its scroll speeds; materials the model does not draw and models
 * without animations are unchanged.
 */
import assert from "node:assert/strict";
import {
  encodeFloats,
  encodeI32,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import {
  assertValid,
  decodeTree,
  freelancerExtras,
  materialNamed,
  triangleModel,
} from "./triangle_models.ts";

/** A `MaterialAnim/<name>` entry with `MACount`, `MAFlags` and `MADeltas`. */
const anim = (name: string, count: number, deltas: readonly number[]): UtfNode =>
  utfDir(name, [
    utfLeaf("MACount", encodeI32(count)),
    utfLeaf("MAFlags", encodeI32(0)),
    utfLeaf("MADeltas", encodeFloats(deltas)),
  ]);

/** The triangle model of `names`, with a root `MaterialAnim` directory of `entries`. */
function animatedModel(names: readonly string[], entries: readonly UtfNode[]): UtfNode {
  const model = triangleModel(names.map((name) => ({ name, dc: [1, 1, 1] })));
  return utfDir("\\", [
    ...(model as { readonly children: readonly UtfNode[] }).children,
    utfDir("MaterialAnim", entries),
  ]);
}

Deno.test("MaterialAnim: an animated material keeps its scroll in extras and is named in a warning", async () => {
  const { scene, warnings } = await decodeTree(
    animatedModel(["exhaust", "hull"], [
      // Names match case-insensitively, as Librelancer's dictionary does.
      anim("Exhaust", 1, [2, 0.5, -0.25, 0, 0]),
      anim("not_drawn", 1, [1, 1, 1, 0, 0]),
    ]),
    "engine.3db",
  );
  assert.deepEqual(freelancerExtras(materialNamed(scene, "exhaust")).uv_animation, {
    count: 1,
    flags: 0,
    deltas: [2, 0.5, -0.25, 0, 0],
  });
  assert.equal(freelancerExtras(materialNamed(scene, "hull")).uv_animation, undefined);
  const named = warnings.filter((w) => w.includes("MaterialAnim"));
  assert.equal(named.length, 1, named.join("\n"));
  assert.match(named[0], /material 'exhaust'.*scrolls U 0\.5\/s, V -0\.25\/s, repeating every 2 s/);
  await assertValid(scene);
});

Deno.test("MaterialAnim: several frames are named by count; a short MADeltas keeps what reads", async () => {
  const { scene, warnings } = await decodeTree(
    animatedModel(["shield", "screen"], [
      anim("shield", 2, [1, 0.1, 0, 0, 0, 1, 0.2, 0, 0, 0]),
      utfDir("screen", [utfLeaf("MACount", new Uint8Array([1, 0]))]),
    ]),
    "frames.3db",
  );
  assert.ok(warnings.some((w) => /material 'shield'.*2 frames \(10 deltas\)/.test(w)), warnings.join("\n"));
  assert.ok(
    warnings.some((w) => w.includes("MaterialAnim/screen") && w.includes("MACount")),
    warnings.join("\n"),
  );
  assert.deepEqual(freelancerExtras(materialNamed(scene, "screen")).uv_animation, {
    count: 0,
    flags: 0,
    deltas: [],
  });
});
