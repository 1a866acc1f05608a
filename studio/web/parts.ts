/// <reference lib="dom" />
/**
 * The movable parts of a loaded model: every node whose extras carry `ctrl_type` (rig pivots,
 * Freelancer joints, declared parts). A rotation turns the node about its own local X, a translation
 * slides it along its local X, from `min` to `max` in its `unit`, exactly as the part contract says.
 * Value 0 is the pose the file stores; the part's rest is its declared `rest` on top of that (a gear
 * door with `rest: 102` is open 102° from its authored pose), and the preview shows the model at
 * rest, its sliders starting there. When the rest lies outside `min`…`max` (say 0 and 5…30), the
 * part also travels between its rest and its limits: the slider can then start at the part's actual
 * value and move it from there, where a slider clamped to the limits would sit at 5 while the part
 * is at 0 and jump it there at the first touch. A part whose `min` equals its `max` is fixed: it
 * stays at rest and gets no travel. Limits the wrong way round, not numbers, or too large for a
 * slider are read as the part contract allows and noted for its caption, never silently.
 *
 * A side without a limit (no `min` or `max`: the interop default is ±∞, as spinning propellers and
 * rotors, Freelancer `Rev` joints without limits and many declared parts come) is kept as ±∞, and the
 * travel is made finite for a slider: a rotation gets one full turn (−180…180° with no limit at all,
 * or a turn from its one limit), a translation the model's size (its bounding box's diagonal).
 *
 * @module
 */
// @ts-types="@types/three"
import * as THREE from "three";

/** One movable part, with its found transform kept so every value is applied from it. */
export interface PreviewPart {
  /** Its node's name as the file writes it (several parts may share it). */
  name: string;
  /**
   * Its name made unique among the model's parts: a shared name is preceded by as many of its
   * ancestors' names as tell it apart (`Wing_L › Flap`), then by its place (`Flap #2`) if even its
   * whole path is shared. The part panel's caption and key.
   */
  label: string;
  object: THREE.Object3D;
  kind: "rotation" | "translation";
  unit: string;
  /** Its limits, as read (ordered); ±Infinity where none is declared or the declared one is unusable. */
  min: number;
  max: number;
  /** True when `min` or `max` is not declared: the travel is then a turn, or the model's size. */
  unbounded: boolean;
  /** True when `min` equals `max`: the part cannot move, and has no slider. */
  fixed: boolean;
  /**
   * Its value at rest: the declared `rest` (in its unit, from the pose the file stores, which is
   * value 0), else 0. The preview shows the model at rest.
   */
  rest: number;
  /**
   * How far it travels: its limits (made finite when unbounded), widened to take in the rest when
   * that lies outside them.
   */
  low: number;
  high: number;
  /** True when the rest lies outside `min`…`max`. */
  restOutside: boolean;
  /**
   * What was odd in its extras and how it was read, for its caption: limits the wrong way round, not
   * numbers, too large for a slider; a `rest` that is not a number.
   */
  notes: string[];
  /** Its value now (0: as the file stores it; {@link rest} once the preview has put it at rest). */
  value: number;
  group?: string;
  /** Fit summary (bins filled / bins, inliers), when the rig fitted this part. */
  fit?: string;
  /** True when under half the hinge's bins hold vertices: the hinge line may be off. */
  weak: boolean;
  /** Applies a value (clamped to low…high) and records it as {@link value}. */
  set(value: number): void;
}

/**
 * Finds every `ctrl_type` node under `root`, each at its value 0 (the pose the file stores; the
 * viewer then puts it at {@link PreviewPart.rest}). `nameOf` gives a node's name as its file writes
 * it (three.js renames nodes, replacing spaces, slashes and dots); by default the three.js name.
 */
export function partsOf(
  root: THREE.Object3D,
  nameOf: (object: THREE.Object3D) => string = (object) => object.name,
): PreviewPart[] {
  const parts: PreviewPart[] = [];
  let size: number | undefined; // the model's diagonal, measured once if a slide is unbounded
  const modelSize = () =>
    size ??= new THREE.Box3().setFromObject(root).getSize(new THREE.Vector3()).length() || 1;
  root.traverse((object) => {
    const extras = object.userData;
    if (extras.ctrl_type !== "rotation" && extras.ctrl_type !== "translation") return;
    const kind = extras.ctrl_type as PreviewPart["kind"];
    const unit = typeof extras.unit === "string" ? extras.unit : kind === "rotation" ? "deg" : "m";
    const degrees = degreesPer(unit, extras.deg_per_unit);
    const notes: string[] = [];
    // A limit past 100 turns, or 1,000 times the model's size, is a stand-in for none (FLT_MAX, 1e30):
    // a slider over it could not be moved by less than a turn.
    const usable = (v: number) =>
      kind === "rotation" ? Math.abs(v * degrees) <= 36000 : Math.abs(v) <= 1000 * modelSize();
    const read = (key: "min" | "max") => {
      const v = extras[key];
      if (v === undefined) return undefined;
      if (typeof v !== "number" || !Number.isFinite(v)) {
        notes.push(`${key} ${JSON.stringify(v) ?? String(v)} is not a number: no limit`);
        return undefined;
      }
      if (!usable(v)) {
        notes.push(`${key} ${shortNumber(v)} is too large for a slider: no limit`);
        return undefined;
      }
      return v;
    };
    const [given0, given1] = [read("min"), read("max")];
    let lo = given0 ?? -Infinity, hi = given1 ?? Infinity;
    // Two limits given the wrong way round are still the two ends; said so, as the file may be wrong.
    if (given0 !== undefined && given1 !== undefined && given0 > given1) {
      notes.push(
        `min ${shortNumber(given0)} > max ${shortNumber(given1)}: read as ${shortNumber(given1)}…${
          shortNumber(given0)
        }`,
      );
      [lo, hi] = [given1, given0];
    }
    let rest = 0;
    if (extras.rest !== undefined && extras.rest !== 0) {
      if (typeof extras.rest === "number" && Number.isFinite(extras.rest) && usable(extras.rest)) {
        rest = extras.rest;
      } else {notes.push(
          `rest ${JSON.stringify(extras.rest) ?? String(extras.rest)} is not a usable number: rest 0`,
        );}
    }
    const fixed = lo === hi;
    const span = kind === "rotation" ? 360 / degrees : 2 * modelSize();
    const [from, to] = lo === -Infinity && hi === Infinity
      ? [-span / 2, span / 2]
      : lo === -Infinity
      ? [hi - span, hi]
      : hi === Infinity
      ? [lo, lo + span]
      : [lo, hi];
    const restQuaternion = object.quaternion.clone();
    const restPosition = object.position.clone();
    const fit = fitOf(object);
    parts.push({
      name: nameOf(object),
      label: "",
      object,
      kind,
      unit,
      min: lo,
      max: hi,
      unbounded: !Number.isFinite(lo) || !Number.isFinite(hi),
      fixed,
      rest,
      // A fixed part stays where it is put at rest, even when that is not at its one value.
      low: fixed ? rest : Math.min(from, rest),
      high: fixed ? rest : Math.max(to, rest),
      restOutside: lo > rest || hi < rest,
      notes,
      value: 0,
      group: typeof extras.group === "string" ? extras.group : undefined,
      fit: fit ? fitCaption(fit) : undefined,
      weak: !!fit && isWeak(fit),
      set(value: number) {
        const v = Math.min(this.high, Math.max(this.low, value));
        this.value = v;
        if (kind === "rotation") {
          const angle = THREE.MathUtils.degToRad(v * degrees);
          object.quaternion.copy(restQuaternion).multiply(
            new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), angle),
          );
        } else {
          object.position.copy(restPosition).add(new THREE.Vector3(v, 0, 0).applyQuaternion(restQuaternion));
        }
      },
    });
  });
  labelParts(parts, root, nameOf);
  return parts;
}

/**
 * Gives each part its {@link PreviewPart.label}: its name, or, when another part has the same name,
 * the fewest of its ancestors' names (nearest first, joined with ` › `) that tell the parts with that
 * name apart, and its place among them (`#2`) when even whole paths are the same.
 */
export function labelParts(
  parts: PreviewPart[],
  root: THREE.Object3D,
  nameOf: (object: THREE.Object3D) => string,
): void {
  const byName = new Map<string, PreviewPart[]>();
  for (const part of parts) {
    const same = byName.get(part.name);
    if (same) same.push(part);
    else byName.set(part.name, [part]);
  }
  for (const [name, same] of byName) {
    if (same.length === 1) {
      same[0].label = name;
      continue;
    }
    // Each part's ancestors' names, nearest first (the model's root left out).
    const paths = same.map((part) => {
      const names: string[] = [];
      for (let o = part.object.parent; o && o !== root; o = o.parent) names.push(nameOf(o) || `(${o.type})`);
      return names;
    });
    const longest = Math.max(...paths.map((p) => p.length));
    // Its parent, then the fewest more ancestors that tell the most of them apart (all of them, unless
    // whole paths are shared).
    const upTo = (k: number) => paths.map((path) => [...path.slice(0, k).reverse(), name].join(" › "));
    let labels = upTo(1), distinct = new Set(labels).size;
    for (let k = 2; k <= longest && distinct < same.length; k++) {
      const more = upTo(k), count = new Set(more).size;
      if (count > distinct) [labels, distinct] = [more, count];
    }
    const seen = new Map<string, number>();
    const counts = new Map<string, number>();
    for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
    same.forEach((part, i) => {
      const label = labels[i];
      if (counts.get(label)! === 1) return void (part.label = label);
      const n = (seen.get(label) ?? 0) + 1;
      seen.set(label, n);
      part.label = `${label} #${n}`;
    });
  }
}

/** A number for a caption: at most 3 decimals, or exponent form when large. */
function shortNumber(value: number): string {
  return Math.abs(value) >= 1e6 ? value.toExponential(2) : String(Number(value.toFixed(3)));
}

/**
 * The world box of every node under `root` with all it holds, in one post-order pass: what
 * `Box3.setFromObject` gives each node (bounding boxes of its and its descendants' geometry, in world
 * space), without measuring a subtree again for each of its ancestors.
 */
export function subtreeBoxes(root: THREE.Object3D): Map<THREE.Object3D, THREE.Box3> {
  root.updateWorldMatrix(true, true);
  const boxes = new Map<THREE.Object3D, THREE.Box3>();
  const visit = (object: THREE.Object3D): THREE.Box3 => {
    const box = new THREE.Box3();
    // Skinned and instanced meshes keep a box of their own (their geometry's would be the bind pose).
    const own = object as THREE.Object3D & { boundingBox?: THREE.Box3 | null; computeBoundingBox?(): void };
    const geometry = (object as THREE.Mesh).geometry as THREE.BufferGeometry | undefined;
    if (own.boundingBox !== undefined) {
      if (own.boundingBox === null) own.computeBoundingBox?.();
      if (own.boundingBox) box.copy(own.boundingBox).applyMatrix4(object.matrixWorld);
    } else if (geometry?.isBufferGeometry) {
      if (geometry.boundingBox === null) geometry.computeBoundingBox();
      box.copy(geometry.boundingBox!).applyMatrix4(object.matrixWorld);
    }
    for (const child of object.children) box.union(visit(child));
    boxes.set(object, box);
    return box;
  };
  visit(root);
  return boxes;
}

/** Degrees per unit of a rotation: `rad`, `normalized` with its `deg_per_unit`, or degrees. */
function degreesPer(unit: string, degPerUnit: unknown): number {
  if (unit === "rad") return 180 / Math.PI;
  if (unit === "normalized" && typeof degPerUnit === "number" && degPerUnit > 0) return degPerUnit;
  return 1;
}

interface Fit {
  bins_filled: number;
  bins: number;
  inliers: number;
  /** The rig's own judgement (`good`, `weak`, `failed`); absent in files rigged before it was recorded. */
  confidence?: string;
  /** A spinning part's fit: no hinge bins, its blades' rotational symmetry instead. */
  spin?: { blades: number; symmetry: number };
}

/** What the caption says of a fit: a spinning part by its blades, a hinge by its bins, with the rig's verdict. */
function fitCaption(fit: Fit): string {
  const verdict = typeof fit.confidence === "string" ? `, ${fit.confidence}` : "";
  if (fit.spin && typeof fit.spin.blades === "number") {
    const blades = `${fit.spin.blades} blade${fit.spin.blades === 1 ? "" : "s"}`;
    const symmetry = Number.isFinite(fit.spin.symmetry)
      ? `, symmetric to ${(fit.spin.symmetry * 100).toFixed(2)} % of radius`
      : "";
    return `${blades}${symmetry}${verdict}`;
  }
  return `${fit.bins_filled}/${fit.bins} bins, ${fit.inliers} inliers${verdict}`;
}

/**
 * Whether to highlight a fit: the rig's own verdict when the file records it (it weighs far more than
 * bins — mirror partners, frame checks, symmetry), else under half the hinge's bins holding vertices.
 */
function isWeak(fit: Fit): boolean {
  if (typeof fit.confidence === "string") return fit.confidence !== "good";
  return fit.bins > 0 && fit.bins_filled / fit.bins < 0.5;
}

/** The rig's fit record of a pivot (on the pivot or, for inserted pivots, on its panel child). */
function fitOf(object: THREE.Object3D): Fit | undefined {
  for (const o of [object, ...object.children]) {
    const fit = o.userData.partgraph?.part?.fit;
    if (fit && typeof fit.bins === "number") return fit as Fit;
  }
  return undefined;
}
