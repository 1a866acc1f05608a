/**
 * The export check reads a sparse accessor over zeros (a morph weights track: frames × targets values,
 * few not zero) as stored, without expanding it (`nodes/export/check/data.ts`). Its verdict and message
 * must be those of the same elements written out densely: seeded accessors, messy as writers leave them
 * (NaN, infinities, `-0`, every element substituted, bounds stated right or wrong, integer types read
 * by a later rule), each checked both ways.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { checkData } from "../../../nodes/export/check/data.ts";
import type { AccessorLayout } from "../../../nodes/export/check/layout.ts";
import { emptyPlan } from "../../../nodes/export/check/plan.ts";
import { CheckStop } from "../../../nodes/export/check/verdict.ts";
import { COMPONENT_ARRAYS } from "../../../runtime/scene/gltf_codes.ts";
import { prng } from "../../support/prng.ts";

const TYPES = [[5126, 4], [5121, 1], [5123, 2], [5125, 4]] as const;

/** One seeded case: the sparse accessor with its BIN chunk, and the same elements dense. */
function sparseCase(seed: number) {
  const random = prng(seed);
  const int = (a: number, b: number) => a + Math.floor(random() * (b - a + 1));
  const [componentType, size] = random() < 0.7 ? TYPES[0] : TYPES[int(1, 3)];
  const components = [1, 1, 3, 4][int(0, 3)];
  const count = int(1, 400);
  const all = random() < 0.15;
  const picked = [...Array(count).keys()].filter(() => all || random() < 0.1);
  if (!picked.length) picked.push(int(0, count - 1));
  const Typed = COMPONENT_ARRAYS[componentType];
  const values = new Typed(picked.length * components);
  for (let i = 0; i < values.length; i++) {
    values[i] = componentType === 5126
      ? [1, -1, 0.5, -0, 2.5, -3][int(0, 5)] * (random() < 0.5 ? random() : 1)
      : int(0, 200);
  }
  if (componentType === 5126 && random() < 0.2) {
    values[int(0, values.length - 1)] = [NaN, Infinity, -Infinity][int(0, 2)];
  }
  const full = new Typed(count * components);
  picked.forEach((e, k) => {
    for (let c = 0; c < components; c++) full[e * components + c] = values[k * components + c];
  });
  // Bounds as the data has them, or one component's off (a writer's stale min/max), or none.
  const bound = (pick: (a: number, b: number) => number) =>
    [...Array(components).keys()].map((c) => {
      let v = full[c];
      for (let i = 1; i < count; i++) v = pick(v, full[i * components + c]);
      return v + (random() < 0.2 ? 0.25 : 0);
    });
  const stated = random() < 0.8 ? { min: bound(Math.min), max: bound(Math.max) } : {};
  const indexType = count > 255 ? 5123 : 5121;
  const indexBytes = indexType === 5123 ? 2 : 1;
  const indices = indexType === 5123 ? Uint16Array.from(picked) : Uint8Array.from(picked);
  const valuesStart = Math.ceil(indices.length * indexBytes / 4) * 4;
  const bin = new Uint8Array(valuesStart + values.byteLength + full.byteLength + 8);
  bin.set(new Uint8Array(indices.buffer), 0);
  bin.set(new Uint8Array(values.buffer), valuesStart);
  const denseStart = Math.ceil((valuesStart + values.byteLength) / 4) * 4;
  bin.set(new Uint8Array(full.buffer), denseStart);
  const common = {
    pointer: "/accessors/0",
    type: components === 1 ? "SCALAR" : `VEC${components}`,
    componentType,
    normalized: false,
    count,
    components,
    offsetInView: 0,
    stride: size * components,
    elementBytes: size * components,
    ...stated,
  };
  const sparse: AccessorLayout = {
    ...common,
    start: 0,
    sparse: { count: picked.length, indexType, indicesStart: 0, valuesStart, views: [0, 1] },
  };
  const dense: AccessorLayout = { ...common, view: 0, start: denseStart };
  return { bin, sparse, dense, clamped: componentType !== 5126 };
}

function verdict(bin: Uint8Array, accessor: AccessorLayout, clamped: boolean): unknown {
  const plan = emptyPlan();
  // Integer accessors are read again by a rule (as normalized colours are): the expanded elements.
  if (clamped) plan.clamped.push({ accessor, pointer: "/meshes/0" });
  try {
    checkData(bin, [accessor], plan);
    return "valid";
  } catch (e) {
    if (e instanceof CheckStop) return e.verdict;
    throw e;
  }
}

Deno.test("a sparse accessor over zeros is checked as its dense twin: same verdict, same message", () => {
  const tally = new Map<string, number>();
  for (let seed = 700; seed < 1300; seed++) {
    const { bin, sparse, dense, clamped } = sparseCase(seed);
    const got = verdict(bin, sparse, clamped);
    assertEquals(got, verdict(bin, dense, clamped), `seed ${seed}`);
    const key = typeof got === "string" ? got : (got as { code?: string }).code ?? "outside";
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  // The cases reach each verdict the rule can give.
  for (
    const code of [
      "valid",
      "ACCESSOR_INVALID_FLOAT",
      "ACCESSOR_MIN_MISMATCH",
      "ACCESSOR_MAX_MISMATCH",
      "ACCESSOR_NON_CLAMPED",
    ]
  ) {
    assertEquals(tally.has(code), true, `no case gave ${code}: ${JSON.stringify([...tally])}`);
  }
});
