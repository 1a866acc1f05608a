/**
 * Writers for the model-level payloads — `VMeshData`, `VMeshRef`, `VWireData`, `Cons` records,
 * fragments, compounds and material libraries — producing {@link UtfNode} trees for
 * {@link encodeUtf}. They write exactly the layouts the decoder reads, so fixtures can be built
 * from code (no retail files needed) and users can author simple models.
 *
 * @example
 * ```ts
 * const mesh = encodeVMeshData({ fvf: 0x112, groups, indices, vertices: packVertices(0x112, 3, attrs) });
 * const bytes = encodeUtf(compoundTree({ meshes: [{ name: "a.vms", data: mesh }], parts, constraints: [] }));
 * ```
 *
 * @module
 */
import {
  CONSTRAINT_RECORD_SIZE,
  type JointKind,
} from "../../../nodes/decode/freelancer/codec/constraints.ts";
import {
  encodeFloats,
  encodeI32,
  encodeString,
  encodeU32,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "./encode_utf.ts";
import { vertexLayout, type VMeshRef } from "../../../nodes/decode/freelancer/codec/vmesh.ts";

/** Vertex attributes to pack; arrays are per vertex, flattened. */
export interface VertexAttributes {
  readonly positions: ArrayLike<number>;
  readonly normals?: ArrayLike<number>;
  /** D3DCOLOR words `0xAARRGGBB` (stored as bytes B, G, R, A). */
  readonly diffuse?: ArrayLike<number>;
  /** One flattened (u, v) array per UV set. */
  readonly uvs?: readonly ArrayLike<number>[];
}

/** Packs attributes into the interleaved vertex buffer an FVF describes. */
export function packVertices(fvf: number, count: number, attributes: VertexAttributes): Uint8Array {
  const layout = vertexLayout(fvf);
  if (typeof layout === "string") throw new Error(layout);
  const out = new Uint8Array(layout.stride * count);
  const view = new DataView(out.buffer);
  for (let v = 0; v < count; v++) {
    const at = v * layout.stride;
    for (let c = 0; c < 3; c++) view.setFloat32(at + 4 * c, attributes.positions[3 * v + c], true);
    if (layout.normal >= 0 && attributes.normals) {
      for (let c = 0; c < 3; c++) {
        view.setFloat32(at + layout.normal + 4 * c, attributes.normals[3 * v + c], true);
      }
    }
    if (layout.diffuse >= 0 && attributes.diffuse) {
      view.setUint32(at + layout.diffuse, attributes.diffuse[v], true);
    }
    for (let u = 0; u < layout.uvCount; u++) {
      const uv = attributes.uvs?.[u];
      if (!uv) continue;
      view.setFloat32(at + layout.uv + 8 * u, uv[2 * v], true);
      view.setFloat32(at + layout.uv + 8 * u + 4, uv[2 * v + 1], true);
    }
  }
  return out;
}

/** One material group of a mesh (`vertexEnd` inclusive). */
export interface GroupSpec {
  readonly materialId: number;
  readonly vertexStart: number;
  readonly vertexEnd: number;
  readonly indexCount: number;
}

/** What {@link encodeVMeshData} writes. */
export interface VMeshDataSpec {
  readonly fvf: number;
  readonly groups: readonly GroupSpec[];
  /** Relative indices, all groups' lists concatenated in group order. */
  readonly indices: ArrayLike<number>;
  /** Interleaved vertex bytes (see {@link packVertices}). */
  readonly vertices: Uint8Array;
}

/** A `VMeshData` payload (triangle list, mesh type 1). */
export function encodeVMeshData(spec: VMeshDataSpec): Uint8Array {
  const layout = vertexLayout(spec.fvf);
  if (typeof layout === "string") throw new Error(layout);
  const vertexCount = spec.vertices.length / layout.stride;
  const indexAt = 16 + 12 * spec.groups.length;
  const vertexAt = indexAt + 2 * spec.indices.length;
  const out = new Uint8Array(vertexAt + spec.vertices.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 1, true);
  view.setUint32(4, 4, true);
  view.setUint16(8, spec.groups.length, true);
  view.setUint16(10, spec.indices.length, true);
  view.setUint16(12, spec.fvf, true);
  view.setUint16(14, vertexCount, true);
  spec.groups.forEach((g, i) => {
    const at = 16 + 12 * i;
    view.setUint32(at, g.materialId, true);
    view.setUint16(at + 4, g.vertexStart, true);
    view.setUint16(at + 6, g.vertexEnd, true);
    view.setUint16(at + 8, g.indexCount, true);
    view.setUint16(at + 10, 0xcc, true);
  });
  for (let i = 0; i < spec.indices.length; i++) view.setUint16(indexAt + 2 * i, spec.indices[i], true);
  out.set(spec.vertices, vertexAt);
  return out;
}

/** What {@link encodeVMeshRef} writes: a {@link VMeshRef} without the decoder's source offset. */
export type VMeshRefSpec = Omit<VMeshRef, "offset">;

/** A 60-byte `VMeshRef` payload; the bounding box and sphere are written as zero (readers ignore them). */
export function encodeVMeshRef(spec: VMeshRefSpec): Uint8Array {
  const out = new Uint8Array(60);
  const view = new DataView(out.buffer);
  view.setUint32(0, 60, true);
  view.setUint32(4, spec.meshId, true);
  view.setUint16(8, spec.vertexStart, true);
  view.setUint16(10, spec.vertexCount, true);
  view.setUint16(12, spec.indexStart, true);
  view.setUint16(14, spec.indexCount, true);
  view.setUint16(16, spec.groupStart, true);
  view.setUint16(18, spec.groupCount, true);
  return out;
}

/** A `VWireData` payload: line-list indices relative to `vertexStart`. */
export function encodeVWireData(meshId: number, vertexStart: number, indices: readonly number[]): Uint8Array {
  const out = new Uint8Array(16 + 2 * indices.length);
  const view = new DataView(out.buffer);
  const max = indices.length ? Math.max(...indices) : 0;
  const min = indices.length ? Math.min(...indices) : 0;
  view.setUint32(0, 16, true);
  view.setUint32(4, meshId, true);
  view.setUint16(8, vertexStart, true);
  view.setUint16(10, new Set(indices).size, true);
  view.setUint16(12, indices.length, true);
  view.setUint16(14, max - min + 1, true);
  indices.forEach((v, i) => view.setUint16(16 + 2 * i, v, true));
  return out;
}

/** One constraint record to write (radians for angular limits). */
export interface ConstraintSpec {
  readonly kind: JointKind;
  readonly parent: string;
  readonly child: string;
  readonly translation: readonly number[];
  /** Nine floats, rows of R. */
  readonly rotation: readonly number[];
  readonly offset?: readonly number[];
  readonly axis?: readonly number[];
  readonly min?: number;
  readonly max?: number;
  /** Cyl: four limits; Sphere: min1, max1, min2, max2, min3, max3. */
  readonly limits?: readonly number[];
}

/** The `Cons` leaf payload for records of one kind (all of `records` must have that kind). */
export function encodeConstraints(kind: JointKind, records: readonly ConstraintSpec[]): Uint8Array {
  const size = CONSTRAINT_RECORD_SIZE[kind];
  const out = new Uint8Array(size * records.length);
  const view = new DataView(out.buffer);
  records.forEach((r, i) => {
    const at = i * size;
    out.set(encodeString(r.parent.slice(0, 63)), at);
    out.set(encodeString(r.child.slice(0, 63)), at + 64);
    const floats = (offset: number, values: readonly number[]) =>
      values.forEach((v, k) => view.setFloat32(at + offset + 4 * k, v, true));
    floats(128, r.translation);
    if (kind === "fix" || kind === "loose") {
      floats(140, r.rotation);
      return;
    }
    floats(140, r.offset ?? [0, 0, 0]);
    floats(152, r.rotation);
    if (kind === "sphere") return floats(188, r.limits ?? [0, 0, 0, 0, 0, 0]);
    floats(188, r.axis ?? [0, 1, 0]);
    if (kind === "cyl") return floats(200, r.limits ?? [0, 0, 0, 0]);
    floats(200, [r.min ?? 0, r.max ?? 0]);
  });
  return out;
}

/** A hardpoint to write. */
export interface HardpointSpec {
  readonly name: string;
  readonly kind: "fix" | "rev";
  readonly position: readonly number[];
  readonly orientation: readonly number[];
  readonly axis?: readonly number[];
  readonly min?: number;
  readonly max?: number;
}

/** What a fragment holds. */
export interface FragmentSpec {
  /** One ref per LOD; a single ref is written as `VMeshPart`, several as `MultiLevel`. */
  readonly lods: readonly VMeshRefSpec[];
  readonly switchDistances?: readonly number[];
  readonly wire?: {
    readonly meshId: number;
    readonly vertexStart: number;
    readonly indices: readonly number[];
  };
  readonly hardpoints?: readonly HardpointSpec[];
  readonly camera?: { fovx: number; fovy: number; znear: number; zfar: number };
}

/** The children of a fragment directory. */
export function fragmentChildren(spec: FragmentSpec): UtfNode[] {
  const out: UtfNode[] = [];
  const part = (ref: VMeshRefSpec) => utfDir("VMeshPart", [utfLeaf("VMeshRef", encodeVMeshRef(ref))]);
  if (spec.lods.length === 1) {
    out.push(part(spec.lods[0]));
  } else if (spec.lods.length > 1) {
    const levels = spec.lods.map((ref, i) => utfDir(`Level${i}`, [part(ref)]));
    const distances = spec.switchDistances ?? spec.lods.map((_, i) => i * 100).concat([1e6]);
    out.push(utfDir("MultiLevel", [...levels, utfLeaf("Switch2", encodeFloats(distances))]));
  }
  if (spec.wire) {
    out.push(utfDir("VMeshWire", [
      utfLeaf("VWireData", encodeVWireData(spec.wire.meshId, spec.wire.vertexStart, spec.wire.indices)),
    ]));
  }
  if (spec.hardpoints?.length) {
    const dir = (kind: "fix" | "rev") =>
      spec.hardpoints!.filter((h) => h.kind === kind).map((h) =>
        utfDir(h.name, [
          utfLeaf("Orientation", encodeFloats(h.orientation)),
          utfLeaf("Position", encodeFloats(h.position)),
          ...(kind === "rev"
            ? [
              utfLeaf("Axis", encodeFloats(h.axis ?? [0, 1, 0])),
              utfLeaf("Min", encodeFloats([h.min ?? 0])),
              utfLeaf("Max", encodeFloats([h.max ?? 0])),
            ]
            : []),
        ])
      );
    out.push(utfDir("Hardpoints", [utfDir("Fixed", dir("fix")), utfDir("Revolute", dir("rev"))]));
  }
  if (spec.camera) {
    const c = spec.camera;
    out.push(utfDir("Camera", [
      utfLeaf("Fovx", encodeFloats([c.fovx])),
      utfLeaf("Fovy", encodeFloats([c.fovy])),
      utfLeaf("Znear", encodeFloats([c.znear])),
      utfLeaf("Zfar", encodeFloats([c.zfar])),
    ]));
  }
  return out;
}

/** A material to write. */
export interface MaterialSpec {
  readonly name: string;
  readonly type?: string;
  readonly dc?: readonly number[];
  readonly ec?: readonly number[];
  readonly oc?: number;
  readonly dtName?: string;
  readonly dtFlags?: number;
  readonly etName?: string;
}

/** A `Material library` directory. */
export function materialLibrary(materials: readonly MaterialSpec[]): UtfNode {
  return utfDir("Material library", [
    utfLeaf("Material count", encodeI32(materials.length)),
    ...materials.map((m) =>
      utfDir(m.name, [
        utfLeaf("Type", encodeString(m.type ?? "DcDt")),
        ...(m.dc ? [utfLeaf("Dc", encodeFloats(m.dc))] : []),
        ...(m.ec ? [utfLeaf("Ec", encodeFloats(m.ec))] : []),
        ...(m.oc !== undefined ? [utfLeaf("Oc", encodeFloats([m.oc]))] : []),
        ...(m.dtName
          ? [utfLeaf("Dt_name", encodeString(m.dtName)), utfLeaf("Dt_flags", encodeU32(m.dtFlags ?? 0x40))]
          : []),
        ...(m.etName
          ? [utfLeaf("Et_name", encodeString(m.etName)), utfLeaf("Et_flags", encodeU32(0x40))]
          : []),
      ])
    ),
  ]);
}

/** A `Texture library` directory; each texture is a complete DDS (`MIPS`) or Targa (`MIP0`) file. */
export function textureLibrary(
  textures: readonly { name: string; dds?: Uint8Array; tga?: Uint8Array }[],
): UtfNode {
  return utfDir(
    "Texture library",
    textures.map((t) => utfDir(t.name, t.dds ? [utfLeaf("MIPS", t.dds)] : [utfLeaf("MIP0", t.tga!)])),
  );
}

/** A `VMeshLibrary` directory from named `VMeshData` payloads. */
export function meshLibrary(meshes: readonly { name: string; data: Uint8Array }[]): UtfNode {
  return utfDir("VMeshLibrary", meshes.map((m) => utfDir(m.name, [utfLeaf("VMeshData", m.data)])));
}

/** A part of a compound. */
export interface PartSpec {
  /** Object name (constraints refer to it); the part named `Root` goes under `Cmpnd/Root`. */
  readonly name: string;
  /** Fragment directory name, e.g. `hull.3db`. */
  readonly fileName: string;
  readonly index?: number;
  readonly fragment: FragmentSpec;
  /** Write `Object name` without its trailing NUL (some exporters do; the game accepts it). */
  readonly omitNul?: boolean;
}

/** What {@link compoundTree} writes. */
export interface CompoundSpec {
  readonly meshes?: readonly { name: string; data: Uint8Array }[];
  readonly parts: readonly PartSpec[];
  readonly constraints: readonly ConstraintSpec[];
  /** Extra root children (material/texture libraries, …). */
  readonly extra?: readonly UtfNode[];
}

/** The root of a `.cmp`: libraries, `Cmpnd` (Root/Part_* entries and `Cons`) and fragment directories. */
export function compoundTree(spec: CompoundSpec): UtfNode {
  const kinds: JointKind[] = ["fix", "rev", "pris", "cyl", "sphere", "loose"];
  const leafName: Record<JointKind, string> = {
    fix: "Fix",
    rev: "Rev",
    pris: "Pris",
    cyl: "Cyl",
    sphere: "Sphere",
    loose: "Loose",
  };
  const cons = kinds
    .map((kind) => [kind, spec.constraints.filter((c) => c.kind === kind)] as const)
    .filter(([, records]) => records.length)
    .map(([kind, records]) => utfLeaf(leafName[kind], encodeConstraints(kind, records)));
  const entries = spec.parts.map((p, i) =>
    utfDir(p.name === "Root" ? "Root" : `Part_${p.name}`, [
      utfLeaf("Object name", encodeString(p.name, !p.omitNul)),
      utfLeaf("Index", encodeI32(p.index ?? i)),
      utfLeaf("File name", encodeString(p.fileName)),
    ])
  );
  return utfDir("\\", [
    ...(spec.meshes?.length ? [meshLibrary(spec.meshes)] : []),
    ...(spec.extra ?? []),
    utfDir("Cmpnd", [...entries, ...(cons.length ? [utfDir("Cons", cons)] : [])]),
    ...spec.parts.map((p) => utfDir(p.fileName, fragmentChildren(p.fragment))),
  ]);
}
