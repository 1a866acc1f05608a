/**
 * `pivots: false` output fitted to what LancerEdit's glTF importer reads back (Librelancer
 * `ContentEdit/Model/ImportedModel.cs` and `AnimationConversion.cs`), and what it cannot read named:
 *
 * - it builds Fix, Rev, Pris and Sphere constructs only (any other `construct`, `cyl` and `loose` among
 *   them, is Fix): a Cyl part is written as the Rev of its turn (or, turning not at all, the Pris of its
 *   slide), what is dropped said; Loose parts are named (they come back Fix, where they were);
 * - it refuses a root part without a mesh ("Model root must be a mesh"): such a root carries a
 *   placeholder, one zero-area triangle at its origin, which draws nothing;
 * - it reads a Rev script's angles about the way the script's first turn goes, whatever axis the part
 *   has (so a door opening to −θ came back opening to +θ): a Rev part whose scripts start turning
 *   backwards has its axis and limits written reversed, the same joint; scripts that start both ways
 *   on one part are named;
 * - it reads a Pris script back only sliding out along one line, from the first key to the last, and no
 *   script of any other part: those are named.
 *
 * @module
 */
import type { Document, Node, Scene } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../runtime/node.ts";
import type { ConstraintRecord } from "./codec/constraints.ts";
import { readCylLimits } from "./codec/cyl_limits.ts";
import { unitAxis } from "./lancer_edit.ts";
import { hasDirection } from "./joint_checks.ts";
import { conjugate, degrees, multiply, rotate, unit } from "./codec/transform.ts";
import { extrasObject } from "../../../runtime/scene/extras.ts";
import { sortedMerge } from "./codec/sorted_keys.ts";

/** Fits the resolved parts and their animations to LancerEdit's importer, warning about the rest. */
export function fitForLancerEdit(
  doc: Document,
  scene: Scene,
  records: readonly ConstraintRecord[],
  parts: ReadonlyMap<string, Node>,
  warn: WarningSink,
): void {
  const partOf = (record: ConstraintRecord) => parts.get(record.child.toLowerCase())!;
  fitCyls(records.filter((r) => r.kind === "cyl").map((r) => [r, partOf(r)]), warn);
  const loose = records.filter((r) => r.kind === "loose").map((r) => `'${partOf(r).getName()}'`);
  if (loose.length) {
    warn(
      `LancerEdit reads Loose joints as Fix (its importer writes no Loose record; the parts stay where ` +
        `they are): ${loose.join(", ")}`,
    );
  }
  const partNodes = new Set(parts.values());
  for (const root of scene.listChildren()) {
    if (partNodes.has(root) && !root.getMesh()) placeholder(doc, root, warn);
  }
  fitScripts(doc, records, partOf, warn);
}

/** Each Cyl part as the Rev of its turn, or the Pris of its slide when it does not turn. */
function fitCyls(cyls: [ConstraintRecord, Node][], warn: WarningSink): void {
  const said: string[] = [];
  const range = (r: readonly number[]) => `${round(r[0])}…${round(r[1])}`;
  for (const [record, node] of cyls) {
    const { turn, slide } = readCylLimits(record.limits!, record.limit_order);
    const turns = turn[0] !== turn[1] || slide[0] === slide[1];
    const { limits: _l, limit_order: _o, axis: _a, ...kept } = extrasObject(node);
    // Unit length, as lancerConstructExtras writes Rev and Pris axes (a slide's limits times the length).
    const offset = record.offset!, { axis, length } = unitAxis(record.axis!);
    // Keys in the written file's sorted order, as the resolver merged the Cyl's (the export keeps them).
    node.setExtras(sortedMerge(
      kept,
      turns
        ? { construct: "rev", min: degrees(turn[0]), max: degrees(turn[1]), offset, axis_rotation: axis }
        : {
          construct: "pris",
          min: slide[0] * length || 0,
          max: slide[1] * length || 0,
          offset,
          axis_translation: axis,
        },
    ));
    const lost = turns
      ? slide[0] !== slide[1] ? `, its slide ${range(slide)} dropped` : ""
      : `, its turn ${range(turn.map(degrees))}° dropped`;
    said.push(`'${node.getName()}' written as ${turns ? "Rev" : "Pris"}${lost}`);
  }
  if (said.length) warn(`LancerEdit has no Cyl joint (its importer reads one as Fix): ${said.join("; ")}`);
}

/** A zero-area triangle at the root's origin, the mesh LancerEdit's importer needs a root to have. */
function placeholder(doc: Document, root: Node, warn: WarningSink): void {
  const name = `${root.getName()}.placeholder`;
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const material = doc.getRoot().listMaterials()[0] ?? doc.createMaterial("placeholder");
  const accessor = (type: "VEC3" | "SCALAR", array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const primitive = doc.createPrimitive()
    .setAttribute("POSITION", accessor("VEC3", new Float32Array(9)))
    .setAttribute("NORMAL", accessor("VEC3", new Float32Array([0, 1, 0, 0, 1, 0, 0, 1, 0])))
    .setIndices(accessor("SCALAR", new Uint16Array([0, 1, 2])))
    .setMaterial(material);
  root.setMesh(doc.createMesh(name).addPrimitive(primitive));
  warn(
    `LancerEdit refuses a root part without a mesh ("Model root must be a mesh"): '${root.getName()}' ` +
      `carries a placeholder (${name}), one zero-area triangle at its origin, which draws nothing`,
  );
}

/** Rev axes turned the way their scripts start; scripts LancerEdit will not read back named. */
function fitScripts(
  doc: Document,
  records: readonly ConstraintRecord[],
  partOf: (record: ConstraintRecord) => Node,
  warn: WarningSink,
): void {
  const clips = new Map<Node, { clip: string; path: string; keys: number[] }[]>();
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode(), keys = channel.getSampler()?.getOutput()?.getArray();
      if (!node || !keys) continue;
      const list = clips.get(node) ?? [];
      list.push({ clip: animation.getName(), path: channel.getTargetPath() ?? "", keys: [...keys] });
      clips.set(node, list);
    }
  }
  const reversed: string[] = [], outward: string[] = [], unread: string[] = [], ownFrame: string[] = [];
  const named = (node: Node, names: string[]) =>
    `'${node.getName()}' in ${names.map((n) => `'${n}'`).join(", ")}`;
  for (const record of records) {
    const node = partOf(record), list = clips.get(node) ?? [];
    const construct = extrasObject(node).construct;
    if (!list.length) continue;
    if (turnsOtherAxis(record, node)) ownFrame.push(`'${node.getName()}'`);
    if (record.kind === "rev") {
      const starts = list.filter((c) => c.path === "rotation").map((c) => ({
        ...c,
        sign: firstTurn(c.keys, node, record),
      }))
        .filter((c) => c.sign !== 0);
      const back = starts.filter((c) => c.sign < 0), ahead = starts.filter((c) => c.sign > 0);
      if (back.length > ahead.length) reverseRev(node);
      const against = back.length > ahead.length ? ahead : back;
      if (against.length) reversed.push(named(node, against.map((c) => c.clip)));
    } else if (record.kind === "pris" && construct === "pris") {
      const offset = record.offset ?? [0, 0, 0];
      const lost = list.filter((c) => c.path === "translation" && !slidesOut(c.keys, node, offset));
      if (lost.length) outward.push(named(node, lost.map((c) => c.clip)));
    } else unread.push(named(node, [...new Set(list.map((c) => c.clip))]));
  }
  if (reversed.length) {
    warn(
      `LancerEdit reads a Rev script's angles about the way the script first turns; these start turning ` +
        `the other way from the part's other scripts and come back reversed: ${reversed.join("; ")}`,
    );
  }
  if (outward.length) {
    warn(
      `LancerEdit reads a Pris script back only sliding out along one line from the part's rest (at its ` +
        `offset, where Librelancer rests it); not read back: ${outward.join("; ")}`,
    );
  }
  if (unread.length) {
    warn(`LancerEdit reads scripts back on Rev and Pris parts only; not read back: ${unread.join("; ")}`);
  }
  if (ownFrame.length) {
    warn(
      `Librelancer turns a Rev or Sphere part in the part's own frame (its RevConstruct: Rotation · ` +
        `CreateFromAxisAngle), the game in the parent's (Q(axis, θ)·R, as these keys turn it and as ` +
        `LancerEdit reads them back): where the rest rotation moves the axis, Librelancer plays these ` +
        `parts' scripts about another axis: ${ownFrame.join(", ")}`,
    );
  }
}

/**
 * Whether Librelancer's own-frame turn (`R·Q`) differs from the game's (`Q·R`) for this part: a Rev
 * axis its rest rotation moves, or a Sphere part not at rest unrotated.
 */
function turnsOtherAxis(record: ConstraintRecord, node: Node): boolean {
  const r = unit(node.getRotation());
  if (record.kind === "sphere") return Math.hypot(r[0], r[1], r[2]) > 1e-4;
  if (record.kind !== "rev" || !hasDirection(record.axis)) return false;
  const a = record.axis!, length = Math.hypot(a[0], a[1], a[2]);
  const moved = rotate(r, a);
  return moved.some((c, i) => Math.abs(c - a[i]) / length > 1e-4);
}

/** The sign of a script's first turn about the record's axis: keys are `Q(axis, θ)·R`. */
function firstTurn(keys: readonly number[], node: Node, record: ConstraintRecord): number {
  const inverse = conjugate(unit(node.getRotation()));
  const axis = record.axis!;
  for (let i = 0; i + 4 <= keys.length; i += 4) {
    const q = multiply(keys.slice(i, i + 4), inverse);
    const turn = 2 * Math.atan2(q[0] * axis[0] + q[1] * axis[1] + q[2] * axis[2], Math.abs(q[3])) *
      Math.sign(q[3] || 1);
    // Below float32's noise on a key at rest (LancerEdit reads those as no turn).
    if (Math.abs(turn) > 1e-5) return Math.sign(turn);
  }
  return 0;
}

/** The same Rev joint about the opposite axis: axis −a, limits [−max, −min]. */
function reverseRev(node: Node): void {
  const extras = extrasObject(node);
  const axis = extras.axis_rotation as number[];
  node.setExtras({
    ...extras,
    axis_rotation: axis.map((v) => -v || 0),
    min: -(extras.max as number) || 0,
    max: -(extras.min as number) || 0,
  } as Record<string, JsonValue>);
}

/**
 * Whether LancerEdit reads a slide's keys back: `R⁻¹(p − t − offset)` (from the construct's rest, which
 * Librelancer puts at origin + offset) all on the ray from the first to the last.
 */
function slidesOut(keys: readonly number[], node: Node, offset: readonly number[]): boolean {
  const inverse = conjugate(unit(node.getRotation()));
  const t = node.getTranslation().map((c, i) => c + offset[i]);
  const local: number[][] = [];
  for (let i = 0; i + 3 <= keys.length; i += 3) {
    local.push(rotate(inverse, [keys[i] - t[0], keys[i + 1] - t[1], keys[i + 2] - t[2]]));
  }
  const span = local.at(-1)!.map((c, i) => c - local[0][i]);
  const length = Math.hypot(...span);
  if (!(length > 1e-6)) return false;
  // Stricter than LancerEdit's 1e-4, so that a slide it drops is always named.
  return local.every((p) => {
    const d = Math.hypot(...p);
    return p.every((c, i) => Math.abs((span[i] / length) * d - c) < 5e-5);
  });
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
