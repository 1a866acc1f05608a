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
  /** Its limits, as declared. */
  min: number;
  max: number;
  /** How far it travels: its limits, widened to take in the rest (0) when that lies outside them. */
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

/** Finds every `ctrl_type` node under `root`. */
export function partsOf(root: THREE.Object3D): PreviewPart[] {
  const parts: PreviewPart[] = [];
  root.traverse((object) => {
    const extras = object.userData;
    if (extras.ctrl_type !== "rotation" && extras.ctrl_type !== "translation") return;
    const kind = extras.ctrl_type as PreviewPart["kind"];
    const min = Number.isFinite(extras.min) ? extras.min : kind === "rotation" ? -30 : -1;
    const max = Number.isFinite(extras.max) ? extras.max : kind === "rotation" ? 30 : 1;
    const unit = typeof extras.unit === "string" ? extras.unit : kind === "rotation" ? "deg" : "m";
    const restQuaternion = object.quaternion.clone();
    const restPosition = object.position.clone();
    const fit = fitOf(object);
    const [lo, hi] = [Math.min(min, max), Math.max(min, max)];
    parts.push({
      name: object.name,
      object,
      kind,
      unit,
      min: lo,
      max: hi,
      low: Math.min(lo, 0),
      high: Math.max(hi, 0),
      restOutside: lo > 0 || hi < 0,
      value: 0,
      group: typeof extras.group === "string" ? extras.group : undefined,
      fit: fit ? `${fit.bins_filled}/${fit.bins} bins, ${fit.inliers} inliers` : undefined,
      weak: !!fit && fit.bins > 0 && fit.bins_filled / fit.bins < 0.5,
      set(value: number) {
        const v = Math.min(this.high, Math.max(this.low, value));
        this.value = v;
        if (kind === "rotation") {
          const angle = unit === "rad" ? v : THREE.MathUtils.degToRad(v);
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
