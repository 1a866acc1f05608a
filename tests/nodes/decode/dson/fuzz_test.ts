import assert from "node:assert/strict";
import { buildDsonDocument } from "../../../../nodes/decode/dson/codec/build_scene.ts";
import { loadDsonJson } from "../../../../nodes/decode/dson/codec/load.ts";
import { parseDsonBytes } from "../../../../nodes/decode/dson/codec/text.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { corpusFile, withoutCorpus } from "../../../support/corpus.ts";
import { testContext } from "../../../support/context.ts";
import { type Json, readJsonFile } from "./generate.ts";
import { prng as random } from "../../../support/prng.ts";
import { heldOutCount } from "../../../support/heldout.ts";

/** Replacement values: wrong types, out-of-range numbers, odd references, malformed containers. */
const REPLACEMENTS: unknown[] = [
  null,
  -1,
  0,
  1e12,
  0.5,
  Number.MAX_SAFE_INTEGER,
  "",
  "x",
  "#missing",
  "/data/../../etc/passwd#x",
  "/data/missing.dsf#y",
  "XZZ",
  [],
  {},
  [[1]],
  [[0, 0, 0, 0, 0, 0, 0]],
  true,
  { count: 5, values: "x" },
  { count: 1e9, values: [[0, 1]] },
  [{ id: "x" }],
];

/** Characters that break JSON in interesting ways when written over a byte. */
const TEXT_NOISE = '{}[],:"0-9e.x \n';

/** Every (container, key) pair of a JSON tree, in a stable order. */
function slots(
  value: unknown,
  out: [Json | unknown[], string | number][] = [],
): [Json | unknown[], string | number][] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([value, i]);
      slots(item, out);
    });
  } else if (value && typeof value === "object") {
    for (const key of Object.keys(value)) {
      out.push([value as Json, key]);
      slots((value as Json)[key], out);
    }
  }
  return out;
}

/** Decodes and builds; only success or a DecodeError is acceptable. */
async function mustDecodeOrFail(json: unknown, label: string): Promise<"ok" | "error"> {
  try {
    buildDsonDocument(await loadDsonJson(json, "fuzz.duf", { contentRoots: [], ctx: testContext() }));
    return "ok";
  } catch (error) {
    if (error instanceof DecodeError) return "error";
    throw new Error(`${label}: ${error instanceof Error ? error.stack : error}`);
  }
}

/**
 * Mutates one value in place, decodes, and puts it back — no copy of the (large) tree per case.
 */
async function fuzzStructure(json: Json, cases: number, seed: number): Promise<Record<string, number>> {
  const next = random(seed);
  const all = slots(json);
  const counts = { ok: 0, error: 0 };
  for (let c = 0; c < cases; c++) {
    const [container, key] = all[Math.floor(next() * all.length)];
    const record = container as Record<string | number, unknown>;
    const old = record[key];
    const remove = next() < 0.15 && !Array.isArray(container);
    if (remove) delete record[key];
    else record[key] = structuredClone(REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)]);
    try {
      counts[await mustDecodeOrFail(json, `seed ${seed} case ${c} at key ${String(key)}`)]++;
    } finally {
      record[key] = old;
    }
  }
  return counts;
}

Deno.test({
  name:
    "dson fuzz: structural mutations (600; 2,000 under deno task heldout) of the corpus geograft decode or fail with DecodeError",
  ignore: withoutCorpus("dson/game_engine_mouth_geograft.duf"),
  async fn() {
    const json = await readJsonFile(corpusFile("dson/game_engine_mouth_geograft.duf")!);
    // The material and node display channels are most of the file and are not decoded: leave them
    // out so mutations land on what the decoder reads.
    for (const node of json.node_library as Json[]) delete node.extra;
    delete json.material_library;
    const counts = await fuzzStructure(json, heldOutCount(2000, 600), 1);
    assert.ok(counts.ok > 100 && counts.error > 100, JSON.stringify(counts));
  },
});

Deno.test({
  name:
    "dson fuzz: structural and text mutations of the rigidity corpus file (400 each; 3,000 under deno task heldout)",
  ignore: withoutCorpus("dson/synthetic_rigidity.dsf"),
  async fn() {
    const path = corpusFile("dson/synthetic_rigidity.dsf")!;
    const counts = await fuzzStructure(await readJsonFile(path), heldOutCount(3000, 400), 2);
    assert.ok(counts.ok > 100 && counts.error > 100, JSON.stringify(counts));
    const bytes = await Deno.readFile(path);
    const next = random(3);
    for (let c = 0; c < heldOutCount(3000, 400); c++) {
      const mutated = bytes.slice(0, next() < 0.1 ? Math.floor(next() * bytes.length) : bytes.length);
      for (let k = 0; k < 1 + Math.floor(next() * 4); k++) {
        mutated[Math.floor(next() * mutated.length)] = TEXT_NOISE.charCodeAt(
          Math.floor(next() * TEXT_NOISE.length),
        );
      }
      let json: unknown;
      try {
        json = await parseDsonBytes(mutated, "fuzz.dsf");
      } catch (error) {
        if (error instanceof DecodeError) continue;
        throw new Error(`text case ${c}: ${error}`);
      }
      await mustDecodeOrFail(json, `text case ${c}`);
    }
  },
});

Deno.test({
  name: "dson fuzz: truncated and bit-flipped gzip of the corpus file fail with DecodeError",
  ignore: withoutCorpus("dson/game_engine_mouth_geograft.duf"),
  async fn() {
    const bytes = await Deno.readFile(corpusFile("dson/game_engine_mouth_geograft.duf")!);
    const next = random(4);
    for (let c = 0; c < 200; c++) {
      const mutated = bytes.slice(0, c % 2 ? Math.floor(next() * bytes.length) : bytes.length);
      if (c % 2 === 0) {
        mutated[10 + Math.floor(next() * (mutated.length - 10))] ^= 1 << Math.floor(next() * 8);
      }
      try {
        await mustDecodeOrFail(await parseDsonBytes(mutated, "fuzz.duf"), `gzip case ${c}`);
      } catch (error) {
        if (!(error instanceof DecodeError)) throw error;
      }
    }
  },
});
