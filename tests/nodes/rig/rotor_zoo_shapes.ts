/**
 * Meshes and layouts for `rotor_zoo.ts`: surfaces of revolution (spinners, hubs, duct rings), blurred
 * discs, and the ways exports lay rotors out — flat beside one another, or joined into one object.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { cross, normalize, type Vec3 } from "../../../nodes/rig/transform.ts";
import { meshNode } from "./propellers.ts";
import { type ClassMesh, joined } from "./surface_classes.ts";
import type { ZooPart } from "./rotor_zoo.ts";

const add = (a: Vec3, b: Vec3, s = 1): Vec3 => [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];

/** Orthonormal (u, w) across unit `a`. */
function across(a: Vec3): [Vec3, Vec3] {
  const u = normalize(cross(a, Math.abs(a[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0]));
  return [u, cross(a, u)];
}

/**
 * A surface of revolution about `axis` through `centre`: rings of (along, radius), `segments` round,
 * capped at either end where the radius is not zero and `caps` says so.
 */
export function revolved(
  centre: Vec3,
  axis: Vec3,
  rings: readonly [number, number][],
  segments: number,
  caps = true,
): ClassMesh {
  const [u, w] = across(axis);
  const positions: number[] = [], triangles: number[] = [];
  for (const [along, r] of rings) {
    for (let k = 0; k < segments; k++) {
      const t = (2 * Math.PI * k) / segments;
      positions.push(...add(add(add(centre, axis, along), u, Math.cos(t) * r), w, Math.sin(t) * r));
    }
  }
  for (let r = 0; r + 1 < rings.length; r++) {
    for (let k = 0; k < segments; k++) {
      const p = r * segments + k, q = r * segments + ((k + 1) % segments);
      triangles.push(p, q, q + segments, p, q + segments, p + segments);
    }
  }
  if (caps) {
    const last = (rings.length - 1) * segments;
    for (let k = 1; k + 1 < segments; k++) triangles.push(0, k, k + 1, last, last + k + 1, last + k);
  }
  return { positions, triangles };
}

/** A flat polygon of `sides` about `axis` (a blurred-prop disc), drawn double-sided when asked. */
export function disc(
  centre: Vec3,
  axis: Vec3,
  radius: number,
  sides: number,
  phase: number,
  twoSided: boolean,
): ClassMesh {
  const [u, w] = across(axis);
  const positions = [...centre], triangles: number[] = [];
  for (let k = 0; k < sides; k++) {
    const t = phase + (2 * Math.PI * k) / sides;
    positions.push(...add(add(centre, u, Math.cos(t) * radius), w, Math.sin(t) * radius));
    triangles.push(0, 1 + k, 1 + ((k + 1) % sides));
    if (twoSided) triangles.push(0, 1 + ((k + 1) % sides), 1 + k);
  }
  return { positions, triangles };
}

/**
 * The objects of a rotor group moved up beside it (as a flat export lays them out) and renamed by
 * `rename`, the group removed; the new names. The group sits at the scene root with no transform, so
 * nothing moves in the world.
 */
export function flatten(doc: Document, group: string, rename: (name: string) => string): string[] {
  const node = doc.getRoot().listNodes().find((n) => n.getName() === group)!;
  const scene = doc.getRoot().getDefaultScene()!;
  const names: string[] = [];
  for (const child of node.listChildren()) {
    node.removeChild(child);
    scene.addChild(child.setName(rename(child.getName())));
    names.push(child.getName());
  }
  scene.removeChild(node);
  node.dispose();
  return names;
}

/**
 * The rotors drawn into one object named `name` (their blades joined under it, as one mesh): `parts`
 * becomes the one part, on their common shaft, flagged {@link ZooPart.twoInOne}.
 */
export function joinRotors(doc: Document, parts: ZooPart[], name: string): void {
  const scene = doc.getRoot().getDefaultScene()!;
  const groups = parts.map((p) => doc.getRoot().listNodes().find((n) => n.getName() === p.name)!);
  const meshes: ClassMesh[] = [];
  for (const group of groups) {
    for (const child of group.listChildren()) {
      const p = child.getMesh()!.listPrimitives()[0];
      meshes.push({
        positions: [...p.getAttribute("POSITION")!.getArray()!],
        triangles: [...p.getIndices()!.getArray()!],
      });
      child.dispose();
    }
    scene.removeChild(group);
    group.dispose();
  }
  meshNode(doc, name, joined(meshes), undefined);
  const [first] = parts;
  const pairCentres: [Vec3, Vec3] = [parts[0].centre, parts[1].centre];
  parts.splice(0, parts.length, { ...first, name, twoInOne: true, pairCentres });
}
