/**
 * The structure sweep, short: a fixed sample (every 20th case of the Carnivores and Freelancer seeds,
 * every 30th of the glTF and DSON seeds — every other one of those in the suite where that leaves 50
 * or more or the seed is over 100 KB, all under `deno task heldout` — and every case of the fields that once decoded silently
 * wrong, in the suite each value once per seed) of the cases `scripts/structure_sweep.ts` runs in
 * full — each structural field of each seed set to a boundary value — through `decode.auto` and the
 * full pipeline to a validated export. Every case must end in a typed error, a warning or a success;
 * never a crash, an invalid output, an export refusal or an allocation the file's size does not
 * justify. Hangs are the full script's to catch (it runs each case in a child with a time limit).
 */
import assert from "node:assert/strict";
import { applyCase, type Case } from "./cases.ts";
import { faultNaming } from "./named.ts";
import { HELD_OUT } from "../../../support/heldout.ts";
import { allocationBudget, runSweepCase, type SweepOutcome, sweepSeeds, trackAllocations } from "./run.ts";

/** Every how many cases the sample takes, by format: glTF and DSON seeds have more, quicker cases. */
const STRIDE: Record<string, number> = { gltf: 30, dson: 30 };
/** Fields whose boundary values once decoded without a word (now warnings): all their cases run. */
const ONCE_SILENT =
  /'VMeshData' @\d+ (FVF|mesh type)$|'VMeshRef' @\d+ (index start|index count|vertex count)$/;
/** Emptied (first child 0), these directories once cost a part its mesh or LODs without a word. */
const ONCE_SILENT_EMPTIED = /^entry '(Level\d+|VMeshPart)' @\d+ first child$/;
/** A PNG or JPEG header no decoder accepts: once passed through to a validated output no viewer could draw. */
const ONCE_SILENT_IMAGE =
  /PNG (IHDR CRC|IHDR length)$|PNG (width|height) = (0|4294967295)$|PNG colour type = (1|5|7|255)$|JPEG (width|height|components) = 0$/;
/**
 * A 1024² PNG's header a row or more off its data, 16384 wide or interlaced by mistake: once passed
 * unnamed (telling takes inflating it whole), now named by decode.gltf.
 */
const ONCE_SILENT_ROWS = /PNG (height = (1023|1025|2048|16384)|width = 16384|interlace = 1)$/;
const mustWarn = (c: Case) =>
  ONCE_SILENT_ROWS.test(`${c.field} = ${c.value}`) ||
  ONCE_SILENT.test(c.field) || (ONCE_SILENT_EMPTIED.test(c.field) && c.value === "0") ||
  ONCE_SILENT_IMAGE.test(`${c.field} = ${c.value}`) || ONCE_SILENT_IMAGE.test(c.field);
/**
 * Values once read silently wrong, now refused: a Draco attribute id past 32 bits (wrapped round to
 * another attribute's), a KTX2 level at byte 2³² − 1 (the transcoder read its own memory) and a DSON
 * seam override's vertex past 32 bits (wrapped round to another vertex).
 */
const ONCE_WRAPPED =
  /KHR_draco_mesh_compression\/attributes\/\w+ = 4294967296$|KTX2 level 0 (offset|length) = 4294967295$|polygon_vertex_indices\/\d+\/1 = 4294967296$/;
const mustRefuse = (c: Case) => ONCE_WRAPPED.test(`${c.field} = ${c.value}`);
/**
 * Whether `c` is the first case of its field and value in `seen`, entries (`@offset`) and images
 * (`image 1`) aside: the suite runs each once-silent value on the first entry or image that has it
 * (fuzz.cmp repeats the same FVF, mesh type and VMeshRef values over its many meshes: 147 cases, 46
 * kinds), `deno task heldout` on every one.
 */
function firstOfKind(c: Case, seen: Set<string>): boolean {
  const kind = `${c.field.replace(/@\d+/g, "@").replace(/image \w+/g, "image")} = ${c.value}`;
  if (seen.has(kind)) return false;
  seen.add(kind);
  return true;
}

const seeds = await sweepSeeds();

for (const seed of seeds) {
  Deno.test(`structure sweep (sample): ${seed.name} — no crash, invalid output or unjustified allocation`, async () => {
    const tally: Partial<Record<SweepOutcome, number>> = {};
    const failures: string[] = [];
    // The suite takes every other case of that sample where it holds 100 cases or more (a smaller one
    // would no longer reach every kind of ending), or where the seed is over 100 KB (a C2 area, the
    // fighter, the corpus airplane and geograft: each case runs the whole pipeline on a real-sized
    // file); `deno task heldout` the whole sample.
    const base = STRIDE[seed.format] ?? 20;
    const large = seed.cases.length >= 100 * base || seed.bytes.byteLength > 100_000;
    const stride = HELD_OUT || !large ? base : 2 * base;
    const seen = new Set<string>();
    const sample = seed.cases.filter((c, i) =>
      i % stride === 0 || ((mustWarn(c) || mustRefuse(c)) && (HELD_OUT || firstOfKind(c, seen)))
    );
    for (const c of sample) {
      const bytes = applyCase(seed.bytes, c);
      const result = await runSweepCase(bytes, seed.name);
      tally[result.outcome] = (tally[result.outcome] ?? 0) + 1;
      if (!["typed", "warning", "success"].includes(result.outcome)) {
        failures.push(`${c.field} = ${c.value}: ${result.outcome} — ${result.detail}`);
      }
      if (mustWarn(c) && result.outcome === "success") {
        failures.push(`${c.field} = ${c.value}: decoded without a warning`);
      }
      // A warning must name the field or entry at fault: any warning would not do, as the seeds warn
      // of other things (fuzz.cmp's parts have no constraints), so the undone fix would pass unseen.
      // A value the field already holds changes nothing (fuzz.cmp's LOD1 mesh has FVF 0x12, a value
      // every mesh's FVF is set to).
      const naming = faultNaming(c);
      const unchanged = () => bytes.every((b, i) => b === seed.bytes[i]);
      if (
        naming && result.outcome === "warning" && !(result.detail ?? "").split("\n").some(naming.names) &&
        !unchanged()
      ) {
        failures.push(`${c.field} = ${c.value}: no warning names ${naming.expected} (${result.detail})`);
      }
      if (mustRefuse(c) && result.outcome !== "typed") {
        failures.push(`${c.field} = ${c.value}: ${result.outcome}, not refused`);
      }
    }
    assert.deepEqual(failures, []);
    // The sample reaches every kind of ending the sweep is for (a seed whose every case decoded, or
    // none did, would mean the cases no longer touch what the decoder reads); the seed itself must
    // decode, so a sample of refusals still shows its cases are what changed.
    const whole = await runSweepCase(seed.bytes, seed.name);
    assert.ok(["warning", "success"].includes(whole.outcome), `the seed itself: ${whole.detail}`);
    tally[whole.outcome] = (tally[whole.outcome] ?? 0) + 1;
    assert.ok(
      (tally.typed ?? 0) > 0 && (tally.warning ?? 0) + (tally.success ?? 0) > 0,
      JSON.stringify(tally),
    );
  });
}

Deno.test("structure sweep: the allocation tracker sees the decode's buffers, and a 2³¹−1 vertex count allocates nothing near it", async () => {
  // A 3DF whose header claims 2^31−1 vertices must be refused before anything that size is allocated.
  const seed = seeds.find((s) => s.format === "3df")!;
  const huge = seed.cases.find((c) => c.field === "vertex count" && c.value === "2147483647")!;
  const result = await runSweepCase(applyCase(seed.bytes, huge), seed.name);
  assert.equal(result.outcome, "typed");
  assert.ok(result.largest < allocationBudget(seed.bytes.byteLength), String(result.largest));
  // The tracker sees allocations at all: the valid file's decode allocates its texture and tables.
  const valid = await runSweepCase(seed.bytes, seed.name);
  assert.ok(valid.largest >= 256 * 2, `largest allocation ${valid.largest}`);
});

Deno.test("structure sweep: the allocation tracker sees a WebAssembly memory grow, from JavaScript or inside the module", async () => {
  // (module (memory (export "m") 1) (func (export "g") (param i32) (result i32) local.get 0 memory.grow)):
  // how the meshopt decoder's sbrk grows its heap, unseen by JavaScript.
  const wasm = new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...[0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f],
    ...[0x03, 0x02, 0x01, 0x00],
    ...[0x05, 0x03, 0x01, 0x00, 0x01],
    ...[0x07, 0x09, 0x02, 0x01, 0x6d, 0x02, 0x00, 0x01, 0x67, 0x00, 0x00],
    ...[0x0a, 0x08, 0x01, 0x06, 0x00, 0x20, 0x00, 0x40, 0x00, 0x0b],
  ]);
  const { instance } = await WebAssembly.instantiate(wasm);
  const { m, g } = instance.exports as { m: WebAssembly.Memory; g: (pages: number) => number };
  const inside = await trackAllocations(() => Promise.resolve(g(40)));
  assert.equal(inside.largest, 40 * 65536);
  const outside = await trackAllocations(() => Promise.resolve(m.grow(8)));
  assert.equal(outside.largest, 8 * 65536);
  // Arrays made while tracking are still what their constructors' names say.
  const made = await trackAllocations(() =>
    Promise.resolve(new Float32Array(3).constructor === Float32Array)
  );
  assert.equal(made.value, true);
  assert.equal(made.largest, 12);
});
