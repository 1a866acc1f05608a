/**
 * Code-built Freelancer fixtures: a multi-part compound exercising every joint kind, LODs, shared
 * meshes with non-zero ref starts, a wireframe, hardpoints, mixed-case names and a leaf without its
 * NUL; plus small DDS/Targa builders. Every number here is an input; tests compute expectations
 * from these inputs independently of the decoder.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import {
  compoundTree,
  type ConstraintSpec,
  encodeVMeshData,
  materialLibrary,
  packVertices,
  type PartSpec,
  textureLibrary,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { createHash } from "node:crypto";
import { rememberDerived, withDerivedStore } from "../../../../runtime/derived.ts";
import { forgetPngEncodings } from "../../../../runtime/scene/png.ts";
import { resolveTexture } from "../../../../nodes/decode/freelancer/codec/texture.ts";
import { readUtf } from "../../../../nodes/decode/freelancer/codec/utf.ts";

/** Rows of the rotation by `degrees` about `axis` (Rodrigues), column-vector convention. */
export function rotationRows(axis: readonly number[], degrees: number): number[] {
  const len = Math.hypot(axis[0], axis[1], axis[2]);
  const [x, y, z] = axis.map((a) => a / len);
  const t = degrees * Math.PI / 180, c = Math.cos(t), s = Math.sin(t), k = 1 - c;
  return [
    c + x * x * k,
    x * y * k - z * s,
    x * z * k + y * s,
    y * x * k + z * s,
    c + y * y * k,
    y * z * k - x * s,
    z * x * k - y * s,
    z * y * k + x * s,
    c + z * z * k,
  ];
}

/** A column-major 4×4 matrix, as glTF-Transform's nodes give them. */
export type Mat4 = number[];

/** Column-major T(t)·R, R given by its rows (Freelancer's `p_parent = R·p_child + t`). */
export function placement(t: readonly number[], rows: readonly number[]): Mat4 {
  const [a, b, c, d, e, f, g, h, i] = rows;
  return [a, d, g, 0, b, e, h, 0, c, f, i, 0, t[0], t[1], t[2], 1];
}

/** A·B of two column-major 4×4 matrices. */
export function mul(a: Mat4, b: Mat4): Mat4 {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  }
  return out;
}

/** Rows of A·B (both given by rows). */
export function mulRows(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array(9).fill(0);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) out[r * 3 + c] += a[r * 3 + k] * b[k * 3 + c];
  }
  return out;
}

/** The node of `doc` named `name` (asserted to exist). */
export function byName(doc: Document, name: string): Node {
  const node = doc.getRoot().listNodes().find((n) => n.getName() === name);
  assert.ok(node, `node ${name}`);
  return node;
}

/** A unit quad of four vertices at height `y` (two triangles), for a group. */
function quad(y: number, size: number): { positions: number[]; normals: number[]; uv: number[] } {
  return {
    positions: [-size, y, -size, size, y, -size, size, y, size, -size, y, size],
    normals: [0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0],
    uv: [0, 0, 1, 0, 1, 1, 0, 1],
  };
}

const QUAD_INDICES = [0, 1, 2, 0, 2, 3];

/** Material names used by the compound. */
export const MATERIALS = { hull: "Hull_Paint", glass: "glass", missing: "not_in_any_library" } as const;

/** A 4×4 DXT1 DDS whose every texel is the 565 colour `color`. */
export function dxt1Dds(color565: number, width = 4, height = 4): Uint8Array {
  const blocks = Math.ceil(width / 4) * Math.ceil(height / 4);
  const out = new Uint8Array(128 + 8 * blocks);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x20534444, true);
  view.setUint32(4, 124, true);
  view.setUint32(12, height, true);
  view.setUint32(16, width, true);
  view.setUint32(76, 32, true);
  view.setUint32(80, 0x4, true);
  out.set([0x44, 0x58, 0x54, 0x31], 84);
  for (let b = 0; b < blocks; b++) {
    view.setUint16(128 + 8 * b, color565, true);
    view.setUint16(130 + 8 * b, 0, true);
    view.setUint32(132 + 8 * b, 0, true); // every texel uses colour 0
  }
  return out;
}

/** The constraint records of {@link buildCompound}, in the order they are written per kind. */
export const CONSTRAINTS: readonly ConstraintSpec[] = [
  // Parent spelled in lower case on purpose: names match case-insensitively.
  {
    kind: "fix",
    parent: "root",
    child: "Wing",
    translation: [-3, 0, 0.5],
    rotation: rotationRows([0, 0, 1], 10),
  },
  // Names a part that does not exist (as one retail turret does): dropped with a warning.
  {
    kind: "fix",
    parent: "Root",
    child: "Barrel01\t",
    translation: [0, 0, 0],
    rotation: rotationRows([1, 0, 0], 0),
  },
  {
    kind: "rev",
    parent: "Root",
    child: "TURRET",
    translation: [0, 2, -1],
    rotation: rotationRows([0, 1, 0], 90),
    axis: [0, 1, 0],
    min: -Math.PI / 2,
    max: Math.PI / 2,
  },
  {
    kind: "pris",
    parent: "Turret",
    child: "Barrel",
    translation: [0, 0.5, -2],
    rotation: rotationRows([1, 0, 0], 30),
    axis: [0, 0, -1],
    min: 0,
    max: 1.5,
  },
  {
    kind: "cyl",
    parent: "Root",
    child: "Piston",
    translation: [1, 0, 0],
    rotation: rotationRows([0, 1, 0], 0),
    axis: [1, 0, 0],
    limits: [-Math.PI / 4, Math.PI / 4, 0, 2],
  },
  {
    kind: "sphere",
    parent: "Root",
    child: "Radar",
    translation: [0, 3, 0],
    rotation: rotationRows([0, 0, 1], 45),
    limits: [-0.5, 0.5, -1, 1, -0.25, 0.25],
  },
  {
    kind: "loose",
    parent: "Root",
    child: "Cargo",
    translation: [0, -1, 2],
    rotation: rotationRows([1, 1, 0], 60),
  },
];

/** Mesh library names (ids are their FLCRC32). */
export const MESHES = { hull0: "Hull.LOD0.vms", hull1: "hull.lod1.vms", shared: "Shared_Parts.vms" } as const;

/** Everything tests need to know about the built compound. */
export interface CompoundFixture {
  readonly bytes: Uint8Array;
  readonly parts: readonly PartSpec[];
  readonly constraints: readonly ConstraintSpec[];
  /** Shared mesh positions (12 vertices, 3 quads at y = 0, 1, 2). */
  readonly sharedPositions: readonly number[];
}

/**
 * Builds the multi-part compound: Root (2 LODs, wireframe, fixed and revolute hardpoints, camera),
 * Wing (fix), Turret (rev), Barrel (pris, child of Turret), Piston (cyl), Radar (sphere), Cargo
 * (loose). Turret, Barrel and Piston share one mesh through refs with non-zero vertex starts. `extra`
 * adds root entries (an `Animation` tree, say).
 */
export function buildCompound(
  options: { constraints?: readonly ConstraintSpec[]; extra?: readonly UtfNode[] } = {},
): CompoundFixture {
  const hull = quad(0, 2);
  const hullTop = quad(0.5, 1);
  const hull0 = encodeVMeshData({
    fvf: 0x212,
    groups: [
      { materialId: flCrc32(MATERIALS.hull), vertexStart: 0, vertexEnd: 3, indexCount: 6 },
      { materialId: flCrc32(MATERIALS.glass), vertexStart: 4, vertexEnd: 7, indexCount: 6 },
    ],
    indices: [...QUAD_INDICES, ...QUAD_INDICES],
    vertices: packVertices(0x212, 8, {
      positions: [...hull.positions, ...hullTop.positions],
      normals: [...hull.normals, ...hullTop.normals],
      uvs: [[...hull.uv, ...hullTop.uv], [...hullTop.uv, ...hull.uv]],
    }),
  });
  const hull1 = encodeVMeshData({
    fvf: 0x142,
    groups: [{ materialId: flCrc32(MATERIALS.missing), vertexStart: 0, vertexEnd: 3, indexCount: 6 }],
    indices: QUAD_INDICES,
    vertices: packVertices(0x142, 4, {
      positions: hull.positions,
      diffuse: [0xff0000ff, 0x8000ff00, 0xffff0000, 0xffffffff],
      uvs: [hull.uv],
    }),
  });
  const quads = [quad(0, 0.5), quad(1, 0.5), quad(2, 0.5)];
  const sharedPositions = quads.flatMap((q) => q.positions);
  const shared = encodeVMeshData({
    fvf: 0x112,
    groups: [
      { materialId: flCrc32(MATERIALS.hull), vertexStart: 0, vertexEnd: 3, indexCount: 6 },
      { materialId: flCrc32(MATERIALS.hull), vertexStart: 0, vertexEnd: 3, indexCount: 6 },
      { materialId: flCrc32(MATERIALS.glass), vertexStart: 4, vertexEnd: 7, indexCount: 6 },
    ],
    indices: [...QUAD_INDICES, ...QUAD_INDICES, ...QUAD_INDICES],
    vertices: packVertices(0x112, 12, {
      positions: sharedPositions,
      normals: quads.flatMap((q) => q.normals),
      uvs: [quads.flatMap((q) => q.uv)],
    }),
  });
  const sharedId = flCrc32(MESHES.shared);
  // Barrel: ref start 4 + group start 0; Piston: ref start 4 + group start 4 → vertices 8..11.
  const sharedRef = (vertexStart: number, group: number) => ({
    meshId: sharedId,
    vertexStart,
    vertexCount: 4,
    indexStart: 6 * group,
    indexCount: 6,
    groupStart: group,
    groupCount: 1,
  });
  const parts: PartSpec[] = [
    {
      name: "Root",
      fileName: "hull_lod1030109103849.3db",
      fragment: {
        lods: [
          {
            meshId: flCrc32(MESHES.hull0),
            vertexStart: 0,
            vertexCount: 8,
            indexStart: 0,
            indexCount: 12,
            groupStart: 0,
            groupCount: 2,
          },
          {
            meshId: flCrc32(MESHES.hull1),
            vertexStart: 0,
            vertexCount: 4,
            indexStart: 0,
            indexCount: 6,
            groupStart: 0,
            groupCount: 1,
          },
        ],
        switchDistances: [0, 250, 1000],
        wire: { meshId: flCrc32(MESHES.hull0), vertexStart: 1, indices: [0, 1, 1, 2, 2, 0] },
        hardpoints: [
          { name: "HpMount01", kind: "fix", position: [0, 1, 2], orientation: rotationRows([0, 1, 0], 180) },
          {
            name: "HpTurret01",
            kind: "rev",
            position: [1, 1, 0],
            orientation: rotationRows([1, 0, 0], -90),
            axis: [0, 1, 0],
            min: -Math.PI,
            max: Math.PI / 2,
          },
        ],
        camera: { fovx: 0.6, fovy: 0.45, znear: 0.5, zfar: 5000 },
      },
    },
    { name: "Wing", fileName: "wing.3db", fragment: { lods: [sharedRef(0, 0)] }, omitNul: true },
    { name: "Turret", fileName: "turret.3db", fragment: { lods: [sharedRef(0, 0)] } },
    { name: "Barrel", fileName: "barrel.3db", fragment: { lods: [sharedRef(4, 1)] } },
    { name: "Piston", fileName: "piston.3db", fragment: { lods: [sharedRef(4, 2)] } },
    {
      name: "Radar",
      fileName: "radar.3db",
      fragment: {
        lods: [],
        hardpoints: [{
          name: "HpRadar",
          kind: "fix",
          position: [0, 0.2, 0],
          orientation: rotationRows([0, 1, 0], 0),
        }],
      },
    },
    { name: "Cargo", fileName: "cargo.3db", fragment: { lods: [sharedRef(0, 0)] } },
  ];
  const constraints = options.constraints ?? CONSTRAINTS;
  const bytes = encodeUtf(compoundTree({
    meshes: [{ name: MESHES.hull0, data: hull0 }, { name: MESHES.hull1, data: hull1 }, {
      name: MESHES.shared,
      data: shared,
    }],
    parts,
    constraints,
    extra: [
      materialLibrary([
        { name: MATERIALS.hull, type: "DcDt", dc: [1, 0.5, 0.25], dtName: "Hull.DDS", dtFlags: 0x40 | 0x2 },
        { name: MATERIALS.glass, type: "DcDtOcOtTwo", dc: [0.2, 0.4, 0.6], oc: 0.5 },
      ]),
      textureLibrary([{ name: "hull.dds", dds: dxt1Dds(0xf800) }]),
      ...(options.extra ?? []),
    ],
  }));
  return { bytes, parts, constraints, sharedPositions };
}

/**
 * How a texture library entry holding `stored` (in a `MIPS` leaf for `"dds"`, `MIP0` for `"tga"`)
 * resolves against a disk cache that already holds a made-up PNG under each key: `stale` is the PNG
 * made when the key an earlier decoder used (`PNG of a stored <oldFormat> image, v1`, see png.ts)
 * holds one — it must not be that one —, `kept` whether the made-up PNG under this decoder's key
 * (`newFormat`) is reused, the control that shows the lookup runs at all. A decoder whose pixels
 * change must change its key, or a cache filled before serves the old pixels.
 */
export async function withPngKept(
  stored: Uint8Array,
  oldFormat: string,
  newFormat: string,
): Promise<{ stale: Uint8Array; kept: boolean }> {
  const leaf = oldFormat.startsWith("tga") ? "MIP0" : "MIPS";
  const dir = readUtf(encodeUtf(utfDir("\\", [utfDir("t.tex", [utfLeaf(leaf, stored)])]))).children![0];
  const digest = createHash("sha256").update(stored).digest("base64");
  const madeUp = new Uint8Array([1, 2, 3]);
  const entries = new Map<string, Uint8Array>();
  const store = {
    recall: (key: string) => entries.get(key),
    remember: (key: string, bytes: Uint8Array) => entries.set(key, bytes),
  };
  // decode.cmp v15 keeps PNGs whose opaque images are RGB under their own kind: the older decoder's
  // PNGs are planted under both kinds (neither may be reused), the current one's under the new.
  const resolveWith = (format: string, kinds = [", opaque as RGB"]) =>
    withDerivedStore(store, () => {
      entries.clear();
      forgetPngEncodings();
      for (const kind of kinds) rememberDerived(`PNG of a stored ${format} image, v1${kind}`, digest, madeUp);
      const outcome = resolveTexture(dir, "Texture library/t.tex", () => undefined);
      if (outcome.kind !== "png") throw new Error(`the texture did not resolve: ${JSON.stringify(outcome)}`);
      return outcome.png;
    });
  try {
    const stale = await resolveWith(oldFormat, ["", ", opaque as RGB"]);
    if (stale === madeUp || stale.length === madeUp.length) {
      throw new Error("the earlier decoder's PNG was reused");
    }
    const kept = (await resolveWith(newFormat)).length === madeUp.length;
    return { stale, kept };
  } finally {
    forgetPngEncodings();
  }
}
