/**
 * Planets and suns (`.sph`): a UTF file whose root holds a `Sphere` directory — `Radius` (f32),
 * `Sides` (i32) and the side materials `M0`, `M1`, … (strings) — beside the usual material and
 * texture libraries; there is no mesh. The sphere is drawn as Librelancer draws it
 * (`SphFile.CreateRigidModel`): a generated quad sphere ({@link quadSphere}) of the file's radius,
 * its cube faces `+Z, +X, −Z, −X, +Y, −Y` drawn with `M0`–`M5`, and a seventh material `M6`, the
 * atmosphere, drawn on the same sphere scaled by that material's `Scale`
 * (`AtmosphereMaterial.Use`: `CreateScale(Scale) × World`), alpha-blended.
 *
 * treewyrm's reader lists the sides as top, bottom, front, right, back, left and describes 1–5
 * side layouts it has not checked; Librelancer, which draws retail's planets, needs six and is
 * followed here.
 *
 * @module
 */
import { ByteWindow } from "../../../../runtime/binary.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { WarningSink } from "../../../../runtime/node.ts";
import { isAtmosphere } from "./atmosphere_material.ts";
import { flCrc32 } from "./crc.ts";
import type { MaterialDef } from "./material.ts";
import { type CubeFace, quadSphere, SPHERE_SLICES } from "./quad_sphere.ts";
import { leafString, requireLeaf, type UtfEntry } from "./utf.ts";
import { readVMeshData, type VMeshData, type VMeshRef } from "./vmesh.ts";

/** What a `Sphere` directory says. */
export interface SphereSpec {
  readonly radius: number;
  /** `M0`, `M1`, … in index order (at least six). */
  readonly sides: readonly string[];
  /** Byte offset of the `Sphere` entry. */
  readonly offset: number;
}

/** The cube face each side material `M0`–`M5` covers (Librelancer's `SphFile.faces`). */
export const SIDE_FACES: readonly CubeFace[] = ["+Z", "+X", "-Z", "-X", "+Y", "-Y"];

/** Name of the generated mesh (its FLCRC32 is the id the part's reference uses). */
export const SPHERE_MESH = "Sphere";

/** A `.sph` file's errors: format, entry offset, expected and found. */
function fail(entry: UtfEntry, expected: string, found: string): never {
  throw new DecodeError({ format: "sph", at: { offset: entry.offset }, expected, found, file: entry.file });
}

/**
 * Reads a `Sphere` directory. A radius that is missing, not finite or not positive, or fewer than
 * six side materials (Librelancer draws nothing then), is a {@link DecodeError}; a `Sides` count that
 * disagrees with the `M` leaves, more than seven sides and unknown leaves are warned about.
 *
 * @example
 * ```ts
 * const spec = readSphere(findChild(root, "Sphere")!, warn); // { radius: 3000, sides: [...] }
 * ```
 */
export function readSphere(dir: UtfEntry, warn: WarningSink): SphereSpec {
  let radiusLeaf: UtfEntry | undefined;
  let sidesLeaf: UtfEntry | undefined;
  const named = new Map<number, UtfEntry>();
  for (const child of dir.children ?? []) {
    const lower = child.name.toLowerCase();
    const side = /^m(\d+)$/.exec(lower);
    if (lower === "radius") radiusLeaf ??= child;
    else if (lower === "sides") sidesLeaf ??= child;
    else if (side && !named.has(Number(side[1]))) named.set(Number(side[1]), child);
    else warn(`Sphere/${child.name}: not a Sphere leaf (Radius, Sides, M0, M1, …); ignored`);
  }
  if (!radiusLeaf) {
    fail(
      dir,
      "a Radius leaf in Sphere",
      JSON.stringify((dir.children ?? []).map((c) => c.name)),
    );
  }
  const radius = requireLeaf(radiusLeaf, "a Radius leaf").floats(0, 1, "sphere radius")[0];
  if (!(Number.isFinite(radius) && radius > 0)) fail(radiusLeaf, "a finite radius above 0", String(radius));
  const sides: string[] = [];
  while (named.has(sides.length)) sides.push(leafString(named.get(sides.length)!));
  if (sides.length < 6) {
    fail(
      dir,
      "side materials M0–M5 (Librelancer draws a sphere with fewer than six sides as nothing)",
      sides.length ? `M0–M${sides.length - 1}` : "none",
    );
  }
  const stray = [...named.keys()].filter((i) => i >= sides.length);
  if (stray.length) warn(`Sphere: M${stray.join(", M")} after a gap in the side list; ignored`);
  if (sidesLeaf) {
    const count = requireLeaf(sidesLeaf, "a Sides leaf").i32(0, "side count");
    if (count !== sides.length) {
      warn(
        `Sphere/Sides says ${count} sides but M0–M${sides.length - 1} are present; the M leaves are ` +
          "drawn (Librelancer refuses such a file)",
      );
    }
  }
  if (sides.length > 7) {
    warn(
      `Sphere: ${sides.length} side materials; only M0–M5 (the faces) and M6 (the atmosphere) are drawn, ` +
        `M7–M${sides.length - 1} are ignored, as in Librelancer`,
    );
  }
  return { radius, sides, offset: dir.offset };
}

/** The generated mesh and the part reference that draws all of it. */
export interface SphereModel {
  readonly mesh: VMeshData;
  readonly ref: VMeshRef;
  /** What the part's extras record: radius, side names and the atmosphere's scale when drawn. */
  readonly info: { radius: number; sides: string[]; atmosphere_scale?: number };
}

/**
 * The sphere's mesh: six groups (faces `+Z, +X, −Z, −X, +Y, −Y` with `M0`–`M5`) at the file's
 * radius, then, when `M6` names an `AtmosphereMaterial` with a positive `Scale`, one group for the
 * whole atmosphere shell at `radius × Scale`. An `M6` that is missing from every library, has no
 * usable `Scale` (Librelancer scales the shell by 0 then: nothing is drawn) or is not an atmosphere
 * is left out, or drawn at the planet's radius, with a warning that says which.
 */
export function sphereModel(
  spec: SphereSpec,
  materials: ReadonlyMap<number, MaterialDef>,
  warn: WarningSink,
  file: string,
): SphereModel {
  const faces = quadSphere(SIDE_FACES);
  const shells: { scale: number; materials: number[] }[] = [{
    scale: 1,
    materials: spec.sides.slice(0, 6).map(flCrc32),
  }];
  const info: SphereModel["info"] = { radius: spec.radius, sides: [...spec.sides] };
  const atmosphere = spec.sides[6];
  if (atmosphere !== undefined) {
    const def = materials.get(flCrc32(atmosphere));
    const where = `${file}: atmosphere M6 '${atmosphere}'`;
    if (!def) {
      warn(`${where} is in no loaded material library, so its Scale is unknown; the atmosphere is left out`);
    } else if (!isAtmosphere(def)) {
      // Librelancer draws any other type on the planet's own sphere.
      warn(`${where} is a ${def.type}, not an AtmosphereMaterial; drawn on the planet's sphere (scale 1)`);
      shells.push({ scale: 1, materials: [flCrc32(atmosphere)] });
    } else if (!(def.scale !== undefined && Number.isFinite(def.scale) && def.scale > 0)) {
      warn(
        `${where} has ${def.scale === undefined ? "no Scale" : `Scale ${def.scale}`}; Librelancer ` +
          "scales the shell by it, so it draws nothing, and the atmosphere is left out",
      );
    } else if (!Number.isFinite(Math.fround(spec.radius * def.scale))) {
      // Positions are 32-bit floats: a shell past their range would be an invalid accessor.
      warn(
        `${where} has Scale ${def.scale}: a shell of radius ${spec.radius} × that is past a 32-bit float; left out`,
      );
    } else {
      shells.push({ scale: def.scale, materials: [flCrc32(atmosphere)] });
      info.atmosphere_scale = def.scale;
    }
  }
  warn(
    `${file}: a planet or sun has no mesh of its own; its sphere (radius ${spec.radius}) is generated ` +
      `as Librelancer draws it: a cube of six faces of ${SPHERE_SLICES}×${SPHERE_SLICES} quads pushed onto ` +
      "the sphere, faces +Z, +X, −Z, −X, +Y, −Y drawn with M0–M5" +
      (info.atmosphere_scale !== undefined
        ? `, the atmosphere M6 a blended shell ${info.atmosphere_scale} × larger`
        : ""),
  );
  const mesh = readVMeshData(encodeSphere(faces, spec.radius, shells), SPHERE_MESH);
  const ref: VMeshRef = {
    meshId: flCrc32(SPHERE_MESH),
    vertexStart: 0,
    vertexCount: mesh.vertexCount,
    indexStart: 0,
    indexCount: mesh.indices.length,
    groupStart: 0,
    groupCount: mesh.groups.length,
    offset: spec.offset,
  };
  return { mesh, ref, info };
}

/** Position, normal, one UV set (`D3DFVF_XYZ | NORMAL | TEX1`). */
const FVF_POSITION_NORMAL_UV = 0x112;
const STRIDE = 32;

/**
 * A `VMeshData` payload holding each shell's faces: a shell with one material per face gets a
 * group per face, a shell with one material a single group over all its faces.
 */
function encodeSphere(
  faces: ReturnType<typeof quadSphere>,
  radius: number,
  shells: readonly { scale: number; materials: readonly number[] }[],
): ByteWindow {
  const faceVertices = faces[0].positions.length / 3;
  const faceIndices = faces[0].indices.length;
  const groups: { material: number; vertexStart: number; vertexEnd: number; indexCount: number }[] = [];
  for (const [s, shell] of shells.entries()) {
    const base = s * faces.length * faceVertices;
    if (shell.materials.length === faces.length) {
      shell.materials.forEach((material, f) => {
        const start = base + f * faceVertices;
        groups.push({
          material,
          vertexStart: start,
          vertexEnd: start + faceVertices - 1,
          indexCount: faceIndices,
        });
      });
    } else {
      groups.push({
        material: shell.materials[0],
        vertexStart: base,
        vertexEnd: base + faces.length * faceVertices - 1,
        indexCount: faces.length * faceIndices,
      });
    }
  }
  const vertexCount = shells.length * faces.length * faceVertices;
  const indexCount = shells.length * faces.length * faceIndices;
  const indexAt = 16 + 12 * groups.length;
  const vertexAt = indexAt + 2 * indexCount;
  const bytes = new Uint8Array(vertexAt + STRIDE * vertexCount);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 1, true);
  view.setUint32(4, 4, true); // triangle list
  view.setUint16(8, groups.length, true);
  view.setUint16(10, indexCount, true);
  view.setUint16(12, FVF_POSITION_NORMAL_UV, true);
  view.setUint16(14, vertexCount, true);
  groups.forEach((g, i) => {
    view.setUint32(16 + 12 * i, g.material, true);
    view.setUint16(20 + 12 * i, g.vertexStart, true);
    view.setUint16(22 + 12 * i, g.vertexEnd, true);
    view.setUint16(24 + 12 * i, g.indexCount, true);
  });
  // Indices are relative to their group's first vertex; a single-group shell counts across faces.
  let at = indexAt;
  for (const shell of shells) {
    const perFace = shell.materials.length === faces.length;
    faces.forEach((face, f) => {
      const offset = perFace ? 0 : f * faceVertices;
      for (const index of face.indices) {
        view.setUint16(at, index + offset, true);
        at += 2;
      }
    });
  }
  at = vertexAt;
  for (const shell of shells) {
    const r = radius * shell.scale;
    for (const face of faces) {
      for (let v = 0; v < faceVertices; v++) {
        const [x, y, z] = face.positions.subarray(3 * v, 3 * v + 3);
        for (const value of [r * x, r * y, r * z, x, y, z, face.uvs[2 * v], face.uvs[2 * v + 1]]) {
          view.setFloat32(at, value, true);
          at += 4;
        }
      }
    }
  }
  return ByteWindow.of(bytes, "sph");
}
