/// <reference lib="dom" />
/**
 * The 3D preview's view (`preview.ts`): its lit scene, framing the camera on a model, what is drawn
 * at a point of the page, a node's rectangle on the screen, and telling a click from an orbit drag.
 *
 * @module
 */
// @ts-types="@types/three"
import * as THREE from "three";
import { boxFinite, finiteBox } from "./finite.ts";

/** A rectangle of the view, canvas pixels. */
export type ScreenBox = { x0: number; y0: number; x1: number; y1: number };

/** An empty scene on the preview's background, lit from the sky and a sun. */
export function litScene(): THREE.Scene {
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x2b2b2b);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(3, 10, 6);
  scene.add(sun);
  return scene;
}

/**
 * Points `camera` at `model` from above and aside, far enough that all of it is in view, and moves
 * the orbit `target` to its centre; false (nothing moved) when it has nothing finite to frame.
 */
export function frameCamera(
  camera: THREE.PerspectiveCamera,
  target: THREE.Vector3,
  model: THREE.Object3D,
): boolean {
  let box = new THREE.Box3().setFromObject(model);
  // A NaN or ∞ vertex makes the box useless: frame what can be drawn.
  if (!boxFinite(box)) box = finiteBox(model);
  if (box.isEmpty()) return false;
  const centre = box.getCenter(new THREE.Vector3());
  const radius = box.getSize(new THREE.Vector3()).length() / 2 || 1;
  const distance = radius / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2));
  camera.position.copy(centre).add(
    new THREE.Vector3(0.6, 0.8, 1).normalize().multiplyScalar(distance),
  );
  camera.near = distance / 100;
  camera.far = distance * 100;
  camera.updateProjectionMatrix();
  target.copy(centre);
  return true;
}

/**
 * Draws both sides of every face of `model`, as Blender's viewport does: a single-sided face seen
 * from behind is not drawn at all, and a model seen only from behind as framed — a Daz geograft (the
 * inside of a mouth), a decal, a one-sided wing panel — showed as an empty view without a word.
 */
export function showBothSides(model: THREE.Object3D): void {
  model.traverse((object) => {
    const mesh = object as THREE.Mesh;
    if (!mesh.isMesh) return;
    for (const material of ([] as THREE.Material[]).concat(mesh.material)) material.side = THREE.DoubleSide;
  });
}

/**
 * The nearest mesh of `model` drawn at a point of the page (client pixels) of `canvas`; meshes a LOD
 * or a toggle hides (invisible, or under an invisible node) are not hit.
 */
export function shownMeshAt(
  x: number,
  y: number,
  canvas: HTMLCanvasElement,
  camera: THREE.Camera,
  model: THREE.Object3D,
): THREE.Object3D | undefined {
  const rect = canvas.getBoundingClientRect();
  const ndc = new THREE.Vector2(
    (x - rect.left) / rect.width * 2 - 1,
    -((y - rect.top) / rect.height) * 2 + 1,
  );
  const ray = new THREE.Raycaster();
  ray.setFromCamera(ndc, camera);
  const shown = (o: THREE.Object3D) => {
    for (let a: THREE.Object3D | null = o; a; a = a.parent) if (!a.visible) return false;
    return ([] as THREE.Material[]).concat((o as THREE.Mesh).material ?? []).some((m) => m.visible);
  };
  return ray.intersectObject(model, true).find((h) => shown(h.object))?.object;
}

/** The screen rectangle (pixels of `canvas`) of `object`'s meshes, seen by `camera`. */
export function screenBoxOf(
  object: THREE.Object3D,
  camera: THREE.Camera,
  canvas: HTMLCanvasElement,
): ScreenBox {
  const box = new THREE.Box3().setFromObject(object);
  const { width, height } = canvas;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < 8; i++) {
    const p = new THREE.Vector3(
      i & 1 ? box.max.x : box.min.x,
      i & 2 ? box.max.y : box.min.y,
      i & 4 ? box.max.z : box.min.z,
    )
      .project(camera);
    const [x, y] = [(p.x + 1) / 2 * width, (1 - p.y) / 2 * height];
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  return { x0, y0, x1, y1 };
}

/**
 * Calls `click` with the point of a left-button click on `canvas`: a press and release less than
 * 4 px apart, not an orbit drag.
 */
export function onClick(canvas: HTMLCanvasElement, click: (x: number, y: number) => void): void {
  let down: { x: number; y: number } | undefined;
  canvas.addEventListener(
    "pointerdown",
    (e) => down = e.button === 0 ? { x: e.clientX, y: e.clientY } : undefined,
  );
  canvas.addEventListener("pointerup", (e) => {
    if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 4) click(e.clientX, e.clientY);
    down = undefined;
  });
}
