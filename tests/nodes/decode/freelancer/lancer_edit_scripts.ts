/**
 * What LancerEdit's glTF importer reads back as each part's construct and as the animation scripts it
 * writes into the `.cmp`, written out from its source so tests can judge our output as it would:
 *
 * - `GetConstruct` (Librelancer `src/Editor/LibreLancer.ContentEdit/Model/ImportedModel.cs`): the
 *   `construct` extra `rev`, `pris` or `sphere` (any other, `cyl` and `loose` among them, is `Fix`:
 *   its `ConsBuilder` writes only Fix, Rev, Pris and Sphere records); Rev `axis_rotation` (default +Y),
 *   `min`/`max` in degrees (default ±90, swapped when reversed), Pris `axis_translation`, `min`/`max`
 *   (default 0…1), Sphere `min`/`max` vectors; `offset`;
 * - `ImportAnimation` (`Model/AnimationConversion.cs`): each glTF animation a script; a rotation channel
 *   becomes a map only on a Rev part, a translation channel only on a Pris part (others skipped). Keys
 *   are resampled (collinear middle keys dropped); a rotation key `K` is read as `K·R⁻¹` (`R` the
 *   node's rotation), turned to axis and angle as BepuUtilities does (w ≥ 0, so the angle is ≥ 0 and
 *   the axis flips with the turn's sign); the first key that turns fixes the axis, and every later key
 *   whose axis is the opposite one is read as a negative angle about it (any other axis: map dropped).
 *   The map's values are those angles: about the first turning key's axis, whatever axis the construct
 *   has. A translation key `p` is read as `R⁻¹(p − origin − offset)` (the construct's rest, where
 *   Librelancer's PrisConstruct puts it): the slide is its length, and it must lie on the ray from the
 *   first key to the last (else the map is dropped). When the node's extras give no axis or limits
 *   (`ConstructPropertiesSet` false), the first script's axis and range become the construct's; ours
 *   always give them.
 *
 * glTF extras reach it through SimpleMesh's `GLTFLoader` (numbers and arrays as `PropertyValue`s).
 * LancerEdit computes in float32; this model in float64 (the test for "no turn" rounds `w` to float32).
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";

type Vec3 = [number, number, number];
type Quat = [number, number, number, number];

/** A part's construct as LancerEdit builds it from the node's extras. */
export interface LancerConstruct {
  readonly kind: "fix" | "rev" | "pris" | "sphere";
  /** Rev, Pris: the axis; limits in radians (Rev) or units (Pris). */
  readonly axis?: Vec3;
  readonly min?: number;
  readonly max?: number;
  /** Sphere: the three minima and maxima (radians, as written: no conversion, no swap). */
  readonly min3?: Vec3;
  readonly max3?: Vec3;
  /** Rev, Pris, Sphere: `offset` (zero when absent). */
  readonly offset?: Vec3;
}

/** One joint map LancerEdit writes: the part it drives and its values (radians or units). */
export interface LancerMap {
  readonly script: string;
  readonly child: string;
  readonly values: readonly number[];
  /** The times of the keys it kept (seconds). */
  readonly times: readonly number[];
}

/** `GetConstruct` for one node's extras. */
export function lancerConstruct(extras: Record<string, unknown>): LancerConstruct {
  const kind = typeof extras.construct === "string" ? extras.construct.toLowerCase() : "fix";
  const vec = (v: unknown, fallback: Vec3): Vec3 =>
    Array.isArray(v) && v.length >= 3 && v.every((x) => typeof x === "number")
      ? [v[0], v[1], v[2]]
      : fallback;
  const num = (v: unknown, fallback: number) => typeof v === "number" ? v : fallback;
  const ordered = (a: number, b: number) => a > b ? [b, a] : [a, b];
  const offset = vec(extras.offset, [0, 0, 0]);
  if (kind === "rev") {
    const [min, max] = ordered(num(extras.min, -90), num(extras.max, 90));
    const rad = Math.PI / 180;
    return { kind, axis: vec(extras.axis_rotation, [0, 1, 0]), min: min * rad, max: max * rad, offset };
  }
  if (kind === "pris") {
    const [min, max] = ordered(num(extras.min, 0), num(extras.max, 1));
    return { kind, axis: vec(extras.axis_translation, [0, 1, 0]), min, max, offset };
  }
  if (kind === "sphere") {
    const full = Math.fround(Math.PI);
    return {
      kind,
      min3: vec(extras.min, [-full, -full, -full]),
      max3: vec(extras.max, [full, full, full]),
      offset,
    };
  }
  return { kind: "fix" };
}

/** `ImportAnimation` over every animation of `doc`: the maps it writes, and the channels it drops. */
export function lancerScripts(
  doc: Document,
): { maps: LancerMap[]; dropped: { script: string; child: string }[] } {
  const maps: LancerMap[] = [];
  const dropped: { script: string; child: string }[] = [];
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode()!;
      const path = channel.getTargetPath();
      const sampler = channel.getSampler()!;
      const times = [...sampler.getInput()!.getArray()!];
      const out = [...sampler.getOutput()!.getArray()!];
      const construct = lancerConstruct(node.getExtras() as Record<string, unknown>);
      const entry = { script: animation.getName(), child: node.getName() };
      let values: number[] | undefined;
      let kept: number[] = [];
      if (path === "rotation" && construct.kind === "rev") {
        const keys = times.map((_, i) => out.slice(4 * i, 4 * i + 4) as Quat);
        kept = resampleQuats(times, keys);
        values = revValues(kept.map((i) => keys[i]), node);
      } else if (path === "translation" && construct.kind === "pris") {
        const keys = times.map((_, i) => out.slice(3 * i, 3 * i + 3) as Vec3);
        kept = resampleVecs(times, keys);
        values = prisValues(kept.map((i) => keys[i]), node, construct.offset!);
      } else if (path !== "rotation" && path !== "translation") continue;
      if (values) maps.push({ ...entry, values, times: kept.map((i) => times[i]) });
      else dropped.push(entry);
    }
  }
  return { maps, dropped };
}

/** `QuatsToAngleChannel`: angles about the first turning key's axis, or undefined (no one axis). */
function revValues(keys: Quat[], node: Node): number[] | undefined {
  const inverse = conjugate(normalize(node.getRotation() as Quat));
  let axis: Vec3 | undefined;
  const values: number[] = [];
  for (const key of keys) {
    const [x, y, z, w] = multiply(key, inverse);
    const sign = w > 0 ? 1 : -1;
    const v: Vec3 = [sign * x, sign * y, sign * z];
    const length2 = v[0] ** 2 + v[1] ** 2 + v[2] ** 2;
    const angle = length2 > 1e-14 ? 2 * Math.acos(Math.min(1, Math.fround(sign * w))) : 0;
    if (angle === 0) {
      values.push(0);
      continue;
    }
    const a = v.map((c) => c / Math.sqrt(length2)) as Vec3;
    if (!axis) {
      axis = a;
      values.push(angle);
    } else if (distance(a, axis) <= 0.01) values.push(angle);
    else if (distance(a.map((c) => -c) as Vec3, axis) < 0.01) values.push(-angle);
    else return undefined;
  }
  return values;
}

/** `VectorsToAngleChannel`: slides along the ray from the first key to the last, or undefined. */
function prisValues(keys: Vec3[], node: Node, offset: Vec3): number[] | undefined {
  const inverse = conjugate(normalize(node.getRotation() as Quat));
  // The construct's LocalTransform at rest: Librelancer's PrisConstruct puts it at Origin + Offset.
  const t = node.getTranslation().map((c, i) => c + offset[i]);
  const local = keys.map((p) => rotate(inverse, [p[0] - t[0], p[1] - t[1], p[2] - t[2]]));
  const span = local.at(-1)!.map((c, i) => c - local[0][i]);
  const length = Math.hypot(...span);
  const axis = span.map((c) => c / length);
  const values: number[] = [];
  for (const p of local) {
    const d = Math.hypot(...p);
    // NaN (first key = last) fails the comparison, as in C#.
    if (!p.every((c, i) => Math.abs(axis[i] * d - c) < 1e-4)) return undefined;
    values.push(d);
  }
  return values;
}

/** `Resample` of a rotation channel (indices kept): a middle key slerp of its neighbours gives is dropped. */
function resampleQuats(times: number[], keys: Quat[]): number[] {
  if (keys.length < 3) return keys.map((_, i) => i);
  const kept = [0];
  for (let i = 1; i < keys.length - 1; i++) {
    const t = (times[i] - times[i - 1]) / (times[i + 1] - times[i - 1]);
    const sample = slerp(keys[i - 1], keys[i + 1], t);
    const angle = between(keys[i - 1], keys[i]) + between(keys[i], keys[i + 1]);
    const signs = (q: Quat) => (q[0] < 0 ? 1 : 0) | (q[1] < 0 ? 2 : 0) | (q[2] < 0 ? 4 : 0);
    const flips = signs(keys[i + 1]) === (~signs(keys[i]) & 7);
    if (!sample.every((c, k) => Math.abs(c - keys[i][k]) < 1e-4) || angle >= Math.PI || flips) {
      kept.push(i);
    }
  }
  kept.push(keys.length - 1);
  return kept;
}

/** `Resample` of a translation channel (indices kept): a key on its neighbours' line is dropped. */
function resampleVecs(times: number[], keys: Vec3[]): number[] {
  if (keys.length < 3) return keys.map((_, i) => i);
  const kept = [0];
  for (let i = 1; i < keys.length - 1; i++) {
    const t = (times[i] - times[i - 1]) / (times[i + 1] - times[i - 1]);
    const sample = keys[i - 1].map((c, k) => c + (keys[i + 1][k] - c) * t);
    if (!sample.every((c, k) => Math.abs(c - keys[i][k]) < 1e-4)) kept.push(i);
  }
  kept.push(keys.length - 1);
  return kept;
}

function multiply(a: Quat, b: Quat): Quat {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

function conjugate(q: Quat): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}

function normalize(q: Quat): Quat {
  const n = Math.hypot(...q);
  return q.map((c) => c / n) as Quat;
}

/** `q · p · q⁻¹` for a unit quaternion. */
export function rotate(q: Quat, p: Vec3): Vec3 {
  const r = multiply(multiply(q, [p[0], p[1], p[2], 0]), conjugate(q));
  return [r[0], r[1], r[2]];
}

function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** System.Numerics `Quaternion.Slerp` (takes the short way). */
function slerp(a: Quat, b: Quat, t: number): Quat {
  let cos = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const flip = cos < 0;
  if (flip) cos = -cos;
  let s1: number, s2: number;
  if (cos > 1 - 1e-6) {
    s1 = 1 - t;
    s2 = flip ? -t : t;
  } else {
    const omega = Math.acos(cos);
    const inv = 1 / Math.sin(omega);
    s1 = Math.sin((1 - t) * omega) * inv;
    s2 = flip ? -Math.sin(t * omega) * inv : Math.sin(t * omega) * inv;
  }
  return a.map((c, i) => s1 * c + s2 * b[i]) as Quat;
}

/** `GetAngle` in AnimationConversion.cs. */
function between(a: Quat, b: Quat): number {
  const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  return Math.acos(Math.min(1, Math.max(-1, 2 * dot * dot - 1)));
}
