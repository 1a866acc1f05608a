/**
 * Mod compounds whose `Cons` records carry a non-zero `offset` on every joint kind that has one (Rev,
 * Pris, Cyl, Sphere), as mods' tools and hand edits leave them: an exporter that copies the pivot's
 * origin into the offset too, one that writes the hinge point in the child's frame, values typed with
 * two decimals, a sign flipped, and many joints left at zero. Rotations are turned (so `R·offset` is
 * not `offset`) on most joints.
 *
 * `librelancerRest` says, from the stored floats, what Librelancer does with one record, from its
 * source (`src/LibreLancer/Utf/RevConstruct.cs`, `PrisConstruct.cs`, `SphereConstruct.cs`: every one
 * rests the part at `Origin + Offset`, a shift of +offset in the parent frame; `ConstructCollection.cs`
 * throws on any leaf but Fix, Loose, Rev, Pris and Sphere, so a Cyl record refuses the model).
 * `judgeOffsetWarnings` counts the records a warning states wrongly or does not name.
 *
 * @module
 */
import type { ConstraintSpec } from "../../../support/freelancer/encode_model.ts";
import { compoundTree } from "../../../support/freelancer/encode_model.ts";
import type { UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { prng } from "../../../support/prng.ts";
import { rotationRows } from "./fixtures.ts";
import { refTo, triangleMesh } from "./triangle_models.ts";

/** One generated mod: its UTF tree and the records it wrote (f32-rounded, as the file holds them). */
export interface OffsetMod {
  readonly tree: UtfNode;
  readonly records: readonly ConstraintSpec[];
}

const f32 = (values: readonly number[]) => Array.from(new Float32Array(values));

/** A compound of 4-14 parts on random joints, with offsets as mods write them, from `seed`. */
export function offsetMod(seed: number): OffsetMod {
  const next = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const typed = (lo: number, hi: number) => Math.round((lo + next() * (hi - lo)) * 100) / 100;
  const kinds: ConstraintSpec["kind"][] = ["rev", "pris", "cyl", "sphere", "fix", "loose"];
  const count = int(4, 14);
  const records: ConstraintSpec[] = [];
  const names: string[] = ["Root"];
  for (let i = 0; i < count; i++) {
    // Every kind with an offset at least once (the first four), the rest drawn.
    const kind = i < 4 ? kinds[i] : kinds[int(0, kinds.length - 1)];
    const child = `Part${String(i + 1).padStart(2, "0")}_${kind}`;
    const parent = names[int(0, names.length - 1)];
    names.push(child);
    const translation = [typed(-20, 20), typed(-5, 5), typed(-30, 30)];
    const rotation = next() < 0.25
      ? [1, 0, 0, 0, 1, 0, 0, 0, 1]
      : rotationRows([next() - 0.5, next() - 0.5, next() - 0.5], int(-170, 170));
    const axis = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, -1, 0]][int(0, 3)];
    const habit = int(0, 5);
    const offset = habit === 0 || habit === 1
      ? [0, 0, 0] // most records leave it at zero
      : habit === 2
      ? [...translation] // the pivot's origin copied into the offset as well
      : habit === 3
      ? [typed(-3, 3), typed(-1, 1), typed(-3, 3)] // the hinge point in the child's frame
      : habit === 4
      ? translation.map((v) => -v) // a sign flipped
      : [0, typed(0.1, 2), 0]; // one field typed by hand
    const base = { kind, parent, child, translation, rotation: f32(rotation) };
    if (kind === "fix" || kind === "loose") records.push(base);
    else if (kind === "sphere") {
      records.push({ ...base, offset: f32(offset), limits: [-0.5, 0.5, -0.3, 0.3, -1, 1] });
    } else if (kind === "cyl") {
      records.push({ ...base, offset: f32(offset), axis, limits: [-1, 1, 0, 2] });
    } else records.push({ ...base, offset: f32(offset), axis, min: 0, max: kind === "rev" ? 1.2 : 3 });
  }
  const tree = compoundTree({
    meshes: [{ name: "m.vms", data: triangleMesh(["hull"]) }],
    parts: names.map((name) => ({
      name,
      fileName: `${name.toLowerCase()}.3db`,
      fragment: { lods: [refTo("m.vms", 1)] },
    })),
    constraints: records,
  });
  return { tree, records };
}

/** What Librelancer does with one record: where it rests the part (parent frame), or that it refuses. */
export type LibrelancerRest = { refuses: true } | { refuses: false; at: number[] };

/** From the stored floats: Rev, Pris, Sphere at `t + offset`; a Cyl record refuses the model. */
export function librelancerRest(record: ConstraintSpec): LibrelancerRest {
  if (record.kind === "cyl") return { refuses: true };
  const offset = record.offset ?? [0, 0, 0];
  return { refuses: false, at: record.translation.map((v, i) => v + offset[i]) };
}

/** Whether a record has an offset any reader could act on. */
export function hasOffset(record: ConstraintSpec): boolean {
  return (record.offset ?? [0, 0, 0]).some((v) => v !== 0);
}

/** Records with an offset whose warning clause states Librelancer wrongly, or that no clause names. */
export interface OffsetJudgement {
  readonly offsets: number;
  readonly wrong: string[];
  readonly unnamed: string[];
}

/**
 * Reads the offset warning's clause for each record with an offset (`… of part 'Name' (byte N) …`,
 * up to the next `; ` clause) and checks what it says Librelancer does: `draws the part at (x, y, z)`
 * within 1e-3 of `t + offset`, or `refuses` for a Cyl record.
 */
export function judgeOffsetWarnings(
  records: readonly ConstraintSpec[],
  warnings: readonly string[],
): OffsetJudgement {
  const text = warnings.filter((w) => /non-zero offset/.test(w)).join("\n");
  const wrong: string[] = [], unnamed: string[] = [];
  let offsets = 0;
  for (const record of records.filter(hasOffset)) {
    offsets++;
    const start = text.indexOf(`of part '${record.child}' (byte `);
    if (start < 0) {
      unnamed.push(record.child);
      continue;
    }
    const end = text.indexOf("; ", start);
    const clause = text.slice(start, end < 0 ? undefined : end);
    const truth = librelancerRest(record);
    const at = /draws the part at \(([^)]*)\)/.exec(clause);
    const ok = truth.refuses
      ? /refuses/.test(clause) && !at
      : at !== null && at[1].split(",").map(Number).every((v, i) => Math.abs(v - truth.at[i]) < 1e-3);
    if (!ok) wrong.push(`${record.child}: ${clause}`);
  }
  return { offsets, wrong, unnamed };
}
