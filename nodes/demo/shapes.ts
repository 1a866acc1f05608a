/**
 * Simple closed solids for the demo's structure, canopy and decoys: boxes, cylinders, ellipsoids.
 *
 * @module
 */
import { MeshBuilder, type MeshData, type Vec3 } from "./mesh_builder.ts";

/** An axis-aligned box from `min` to `max` (design frame). */
export function buildBox(min: Vec3, max: Vec3): MeshData {
  const ring = (y: number) => [min[0], y, min[2], max[0], y, min[2], max[0], y, max[2], min[0], y, max[2]];
  const builder = new MeshBuilder();
  builder.addLoft([ring(min[1]), ring(max[1])]);
  return builder.finish();
}

/** A cylinder of `radius` from `a` to `b`, with `segments` sides. */
export function buildCylinder(a: Vec3, b: Vec3, radius: number, segments: number): MeshData {
  const axis = normalize([b[0] - a[0], b[1] - a[1], b[2] - a[2]]);
  const [u, v] = perpendicularBasis(axis);
  const ring = (centre: Vec3) => {
    const out: number[] = [];
    for (let i = 0; i < segments; i++) {
      const angle = (2 * Math.PI * i) / segments;
      const c = Math.cos(angle) * radius, s = Math.sin(angle) * radius;
      for (let k = 0; k < 3; k++) out.push(centre[k] + c * u[k] + s * v[k]);
    }
    return out;
  };
  const builder = new MeshBuilder();
  builder.addLoft([ring(a), ring(b)]);
  return builder.finish();
}

/** An axis-aligned ellipsoid, lofted pole to pole along Z with `rings` latitudes of `segments` points. */
export function buildEllipsoid(centre: Vec3, radii: Vec3, rings: number, segments: number): MeshData {
  const loops: number[][] = [];
  for (let r = 1; r < rings + 1; r++) {
    const polar = (Math.PI * r) / (rings + 1);
    const z = -Math.cos(polar), rho = Math.sin(polar);
    const loop: number[] = [];
    for (let i = 0; i < segments; i++) {
      const angle = (2 * Math.PI * i) / segments;
      loop.push(
        centre[0] + radii[0] * rho * Math.cos(angle),
        centre[1] + radii[1] * rho * Math.sin(angle),
        centre[2] + radii[2] * z,
      );
    }
    loops.push(loop);
  }
  const builder = new MeshBuilder();
  builder.addLoft(loops, {
    startApex: [centre[0], centre[1], centre[2] - radii[2]],
    endApex: [centre[0], centre[1], centre[2] + radii[2]],
  });
  return builder.finish();
}

function normalize(v: Vec3): Vec3 {
  const length = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / length, v[1] / length, v[2] / length];
}

/** Two unit vectors perpendicular to `axis` and to each other. */
function perpendicularBasis(axis: Vec3): [Vec3, Vec3] {
  const helper: Vec3 = Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u = normalize([
    axis[1] * helper[2] - axis[2] * helper[1],
    axis[2] * helper[0] - axis[0] * helper[2],
    axis[0] * helper[1] - axis[1] * helper[0],
  ]);
  const v: Vec3 = [
    axis[1] * u[2] - axis[2] * u[1],
    axis[2] * u[0] - axis[0] * u[2],
    axis[0] * u[1] - axis[1] * u[0],
  ];
  return [u, v];
}
