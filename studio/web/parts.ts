/// <reference lib="dom" />
/**
 * The movable parts of a loaded model: every node whose extras carry `ctrl_type` (rig pivots,
 * Freelancer joints, declared parts). A rotation turns the node about its own local X, a translation
 * slides it along its local X, from `min` to `max` in its `unit`, exactly as the part contract says.
 * Value 0 is the rest pose the file stores. When 0 lies outside `min`…`max` (say 5…30), the part also
 * travels between its rest and its limits: the slider can then start at the part's actual value and
 * move it from there, where a slider clamped to the limits would sit at 5 while the part is at 0 and
 * jump it there at the first touch.
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

/** One movable part, with its rest transform kept so every value is applied from rest. */
export interface PreviewPart {
  name: string;
  object: THREE.Object3D;
  kind: "rotation" | "translation";
  unit: string;
  /** Its limits, as declared; ±Infinity where none is declared. */
  min: number;
  max: number;
  /** True when `min` or `max` is not declared: the travel is then a turn, or the model's size. */
  unbounded: boolean;
  /**
   * How far it travels: its limits (made finite when unbounded), widened to take in the rest (0)
   * when that lies outside them.
   */
  low: number;
  high: number;
  /** True when the rest (0) lies outside `min`…`max`. */
  restOutside: boolean;
  /** Its value now (0: at rest, as loaded). */
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
 * Finds every `ctrl_type` node under `root`. `nameOf` gives a node's name as its file writes it
 * (three.js renames nodes, replacing spaces, slashes and dots); by default the three.js name.
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
    const given = [limit(extras.min), limit(extras.max)].filter((v) => v !== undefined);
    // Two limits given the wrong way round are still the two ends; one is a lower limit if it is `min`.
    const [lo, hi] = given.length === 2
      ? [Math.min(...given), Math.max(...given)]
      : [limit(extras.min) ?? -Infinity, limit(extras.max) ?? Infinity];
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
      object,
      kind,
      unit,
      min: lo,
      max: hi,
      unbounded: !Number.isFinite(lo) || !Number.isFinite(hi),
      low: Math.min(from, 0),
      high: Math.max(to, 0),
      restOutside: lo > 0 || hi < 0,
      value: 0,
      group: typeof extras.group === "string" ? extras.group : undefined,
      fit: fit ? `${fit.bins_filled}/${fit.bins} bins, ${fit.inliers} inliers` : undefined,
      weak: !!fit && fit.bins > 0 && fit.bins_filled / fit.bins < 0.5,
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
  return parts;
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

/** A declared limit: a finite number, or undefined (absent, null, or not a number: unbounded). */
function limit(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
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
}

/** The rig's fit record of a pivot (on the pivot or, for inserted pivots, on its panel child). */
function fitOf(object: THREE.Object3D): Fit | undefined {
  for (const o of [object, ...object.children]) {
    const fit = o.userData.partgraph?.part?.fit;
    if (fit && typeof fit.bins === "number") return fit as Fit;
  }
  return undefined;
}
