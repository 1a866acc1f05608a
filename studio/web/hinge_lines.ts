/**
 * The preview's hinge lines and pivot axes: a line along each part's local X, as long as the part
 * with all it carries, and a small axes triad at its pivot (X red, Y green, Z blue), the line
 * orange-red when the rig's fit is weak. All parts' lines are one line set, one draw call whatever
 * their number (two objects per part made a 2,000-part model's every frame 4,000 draw calls more).
 *
 * @module
 */
// @ts-types="@types/three"
import * as THREE from "three";
import { type PreviewPart, subtreeBoxes } from "./parts.ts";

/** Vertices per part: the hinge's two ends, then the X, Y and Z axes from the pivot. */
const PER_PART = 8;

/** The hinge lines of a model's parts; {@link sync} puts them where the parts are. */
export class HingeLines {
  /** The line set to add to the scene (drawn over the model). */
  readonly lines: THREE.LineSegments;
  /** Each part's hinge length (model units), in part order. */
  private readonly lengths: number[];

  constructor(private readonly model: THREE.Object3D, private readonly parts: readonly PreviewPart[]) {
    // Each part's size with all it carries, measured in one pass: a box per part would measure a
    // chain of nested parts again at every link.
    const boxes = subtreeBoxes(model);
    const size = new THREE.Vector3();
    this.lengths = parts.map((part) => Math.max(0.2, boxes.get(part.object)?.getSize(size).length() ?? 0));
    const colours = new Float32Array(parts.length * PER_PART * 3);
    const weak = new THREE.Color(0xff5030), normal = new THREE.Color(0xffd040);
    parts.forEach((part, i) => {
      const hinge = part.weak ? weak : normal;
      const rgb = [hinge.r, hinge.g, hinge.b, hinge.r, hinge.g, hinge.b];
      colours.set([...rgb, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1], i * PER_PART * 3);
    });
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute(
      "position",
      new THREE.BufferAttribute(new Float32Array(parts.length * PER_PART * 3), 3),
    );
    geometry.setAttribute("color", new THREE.BufferAttribute(colours, 3));
    this.lines = new THREE.LineSegments(
      geometry,
      new THREE.LineBasicMaterial({ vertexColors: true, depthTest: false }),
    );
    this.lines.renderOrder = 10;
    this.lines.frustumCulled = false; // its vertices move with the parts; its bounds are not kept up
    this.sync();
  }

  /** Puts the lines and axes where the parts are now (their world pose, without scale). */
  sync(): void {
    this.model.updateMatrixWorld(true);
    const attribute = this.lines.geometry.getAttribute("position") as THREE.BufferAttribute;
    const out = attribute.array as Float32Array;
    const [origin, x, y, z] = [
      new THREE.Vector3(),
      new THREE.Vector3(),
      new THREE.Vector3(),
      new THREE.Vector3(),
    ];
    const put = (at: number, axis: THREE.Vector3, length: number) =>
      out.set([origin.x + axis.x * length, origin.y + axis.y * length, origin.z + axis.z * length], at);
    this.parts.forEach((part, i) => {
      const e = part.object.matrixWorld.elements;
      origin.set(e[12], e[13], e[14]);
      x.set(e[0], e[1], e[2]).normalize();
      y.set(e[4], e[5], e[6]).normalize();
      z.set(e[8], e[9], e[10]).normalize();
      const length = this.lengths[i], axis = length / 8, at = i * PER_PART * 3;
      put(at, x, -length / 2);
      put(at + 3, x, length / 2);
      [x, y, z].forEach((direction, k) => {
        put(at + 6 + k * 6, direction, 0);
        put(at + 9 + k * 6, direction, axis);
      });
    });
    attribute.needsUpdate = true;
  }
}
