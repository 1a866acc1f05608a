/**
 * DSON text from tools other than Daz Studio and from hand edits (`text_habits.ts`): each case must
 * draw what the same figure written plainly draws (every node's world matrix, every mesh's
 * positions), and a habit outside JSON must be named in a warning.
 */
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { decodeJson, sweepSeeds, type Verdict } from "./dson_runs.ts";
import { type TextCase, textCase } from "./text_habits.ts";
import { repairJsonText } from "../../../../nodes/decode/dson/codec/lenient_json.ts";
import assert from "node:assert/strict";

/** Each node's name, world matrix and mesh positions, rounded, one line per node. */
function drawing(scene: Document): string[] {
  const round = (v: number) => (Math.abs(v) < 5e-7 ? 0 : Number(v.toFixed(5)));
  return scene.getRoot().listNodes().map((node) => {
    const positions = node.getMesh()?.listPrimitives().flatMap((p) =>
      Array.from(p.getAttribute("POSITION")?.getArray() ?? [])
    ) ?? [];
    const m = Array.from(node.getWorldMatrix());
    return `${node.getName()} ${m.map(round).join(",")} ${positions.map(round).join(",")}`;
  }).sort();
}

async function judge(c: TextCase): Promise<Verdict> {
  const want = drawing((await decodeJson(c.clean, "figure.duf")).scene);
  const ctx = testContext();
  let scene: Document;
  try {
    scene = (await runNode(decodeDson, { bytes: { bytes: await c.bytes, name: "figure.duf" } }, {}, ctx))
      .scene as Document;
  } catch (error) {
    return { wrong: `refused: ${(error as Error).message.slice(0, 200)}`, warned: true };
  }
  const warnings = ctx.warnings.map((w) => w.message);
  const got = drawing(scene);
  const differ = got.findIndex((line, i) => line !== want[i]);
  if (got.length !== want.length || differ >= 0) {
    return {
      wrong: `draws otherwise than the plain file: ${got[differ]?.slice(0, 120)} vs ${
        want[differ]?.slice(0, 120)
      }`,
      warned: warnings.length > 0,
    };
  }
  for (const repair of c.repairs) {
    const word = {
      "trailing commas": /trailing comma/,
      "line comments": /comment/,
      "block comments": /comment/,
      "NaN/Infinity": /NaN|Infinity/,
      "gzip twice": /gzip/,
      "Windows-1252 text": /Windows-1252/,
    }[repair];
    if (word && !warnings.some((w) => word.test(w))) {
      return { wrong: `${repair} repaired unsaid`, warned: false };
    }
  }
  return undefined;
}

const habits = (c: TextCase) => c.habits.join(", ");

Deno.test("dson text habits, seeds 1-40: draws what the plain file draws; repairs named", async () => {
  await sweepSeeds(1, 40, "dson text habits, seeds 1-40", textCase, judge, habits);
});

Deno.test("dson text habits, held-out seeds 11001-11040: the same", async () => {
  await sweepSeeds(11001, 11040, "dson text habits, held-out seeds 11001-11040", textCase, judge, habits);
});

Deno.test("dson text habits: strings keep their '//', '/*', 'NaN' and ','; only what lies outside them is repaired", () => {
  const text =
    '{"url": "name://@selection/a:?x", "n": "NaN", "c": "/* no */,]", // note\n"v": [-Infinity, NaN,], /* x */ "w": 1,}';
  const r = repairJsonText(text);
  assert.deepEqual(JSON.parse(r.text), {
    url: "name://@selection/a:?x",
    n: "NaN",
    c: "/* no */,]",
    v: [null, null],
    w: 1,
  });
  assert.deepEqual([r.comments, r.commas, r.nonFinite], [2, 2, 2]);
  // An unterminated block comment leaves text JSON still refuses: the decode reports the original error.
  assert.throws(() => JSON.parse(repairJsonText('{"a": 1 /* open').text));
});
