/**
 * The preview names meshes that draw nothing because they have no size — every vertex exported at
 * one point, or none at all — as exporters and broken decoders leave them, and says when a model has
 * nothing to draw; a flat plane (no depth) and a mesh with one stray NaN vertex still have a size.
 */
import { deepEqual, equal } from "node:assert/strict";
import * as THREE from "three";
import { sizelessMeshes, sizelessNote } from "../../studio/web/extent.ts";
import { prng } from "../support/prng.ts";

/** A mesh named `name` with `points` as its vertices (triangles of them, as a file lists them). */
function mesh(name: string, points: number[][]): THREE.Mesh {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.Float32BufferAttribute(points.flat(), 3));
  return Object.assign(new THREE.Mesh(geometry), { name });
}

Deno.test("extent: collapsed and empty meshes are named, flat and partly broken ones are not", () => {
  const random = prng(5);
  const at = [random() * 100, random() * 100, random() * 100];
  const scene = new THREE.Group();
  scene.add(
    mesh("Collapsed_wing", Array.from({ length: 3 * (1 + Math.floor(random() * 50)) }, () => at)),
    mesh("Empty_gear", []),
    mesh("Flat_panel", [[0, 0, 0], [1, 0, 0], [0, 0, 1]]),
    mesh("Stray_nan", [[0, 0, 0], [1, 1, 1], [NaN, 0, 0]]),
    Object.assign(new THREE.Mesh(), { name: "No_position" }),
  );
  const found = sizelessMeshes(scene, (o) => o.name);
  deepEqual(found, { meshes: ["Collapsed_wing", "Empty_gear", "No_position"], total: 5 });
  equal(
    sizelessNote(found),
    "3 of 5 meshes have no size (no vertices, or all at one point), shown as nothing: " +
      "Collapsed_wing, Empty_gear, No_position",
  );
});

Deno.test("extent: a model with no mesh, or only collapsed ones, says there is nothing to draw", () => {
  equal(sizelessNote(sizelessMeshes(new THREE.Group(), (o) => o.name)), "no meshes: nothing to draw");
  const scene = new THREE.Group().add(mesh("", [[2, 2, 2], [2, 2, 2], [2, 2, 2]]));
  equal(
    sizelessNote(sizelessMeshes(scene, (o) => o.name)),
    "nothing to draw: 1 of 1 meshes have no size (no vertices, or all at one point), shown as nothing: (unnamed)",
  );
  equal(
    sizelessNote(sizelessMeshes(new THREE.Group().add(mesh("ok", [[0, 0, 0], [1, 2, 3]])), (o) => o.name)),
    "",
  );
});
