/**
 * Cameras of a written glTF (Freelancer compounds carry one per camera hardpoint): the type names
 * the one projection object present, and its values are in the ranges glTF 2.0 requires
 * (positive field of view, aspect ratio and near plane; far beyond near; non-zero magnifications).
 *
 * @module
 */
import { collection, type Json, keys, number, shaped } from "./json.ts";
import { outside } from "./verdict.ts";

const CAMERA_KEYS = keys("type", "perspective", "orthographic");
const PERSPECTIVE_KEYS = keys("aspectRatio", "yfov", "znear", "zfar");
const ORTHOGRAPHIC_KEYS = keys("xmag", "ymag", "znear", "zfar");

/** Checks every camera; returns how many there are. */
export function readCameras(root: Json): number {
  return collection(root, "cameras").map((value, i) => {
    const pointer = `/cameras/${i}`;
    const camera = shaped(value, pointer, CAMERA_KEYS);
    const type = camera.type;
    if ((type !== "perspective" && type !== "orthographic") || camera[type] === undefined) {
      outside("camera type without its projection", pointer);
    }
    if (camera[type === "perspective" ? "orthographic" : "perspective"] !== undefined) {
      outside("camera with both projections", pointer);
    }
    const at = `${pointer}/${type}`;
    if (type === "perspective") {
      const p = shaped(camera.perspective, at, PERSPECTIVE_KEYS);
      if (p.aspectRatio !== undefined) positive(p.aspectRatio, `${at}/aspectRatio`);
      positive(p.yfov, `${at}/yfov`);
      const near = positive(p.znear, `${at}/znear`);
      if (p.zfar !== undefined && positive(p.zfar, `${at}/zfar`) <= near) outside("zfar ≤ znear", at);
    } else {
      const o = shaped(camera.orthographic, at, ORTHOGRAPHIC_KEYS);
      if (number(o.xmag, `${at}/xmag`) === 0 || number(o.ymag, `${at}/ymag`) === 0) {
        outside("zero magnification", at);
      }
      const near = number(o.znear, `${at}/znear`, 0);
      if (positive(o.zfar, `${at}/zfar`) <= near) outside("zfar ≤ znear", at);
    }
  }).length;
}

/** A finite number > 0. */
function positive(value: unknown, pointer: string): number {
  const v = number(value, pointer, 0);
  if (v === 0) outside("not greater than 0", pointer);
  return v;
}
