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
import { ByteWriter } from "../byte_writer.ts";
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
  const w = new ByteWriter(out);
  for (let v = 0; v < count; v++) {
    const at = v * layout.stride;
    for (let c = 0; c < 3; c++) w.f32(attributes.positions[3 * v + c], at + 4 * c);
    if (layout.normal >= 0 && attributes.normals) {
      for (let c = 0; c < 3; c++) {
        w.f32(attributes.normals[3 * v + c], at + layout.normal + 4 * c);
      }
    }
    if (layout.diffuse >= 0 && attributes.diffuse) {
      w.u32(attributes.diffuse[v], at + layout.diffuse);
    }
    for (let u = 0; u < layout.uvCount; u++) {
      const uv = attributes.uvs?.[u];
      if (!uv) continue;
      w.f32(uv[2 * v], at + layout.uv + 8 * u);
      w.f32(uv[2 * v + 1], at + layout.uv + 8 * u + 4);
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
  const w = new ByteWriter(out);
  w.u32(1, 0);
  w.u32(4, 4);
  w.u16(spec.groups.length, 8);
  w.u16(spec.indices.length, 10);
  w.u16(spec.fvf, 12);
  w.u16(vertexCount, 14);
  spec.groups.forEach((g, i) => {
    const at = 16 + 12 * i;
    w.u32(g.materialId, at);
    w.u16(g.vertexStart, at + 4);
    w.u16(g.vertexEnd, at + 6);
    w.u16(g.indexCount, at + 8);
    w.u16(0xcc, at + 10);
  });
  for (let i = 0; i < spec.indices.length; i++) w.u16(spec.indices[i], indexAt + 2 * i);
  out.set(spec.vertices, vertexAt);
  return out;
}

/** What {@link encodeVMeshRef} writes: a {@link VMeshRef} without the decoder's source offset. */
export type VMeshRefSpec = Omit<VMeshRef, "offset">;

/** The reference of a mesh's first triangle, its first group: what small test parts draw. */
export function oneTriangleRef(meshId: number): VMeshRefSpec {
  return {
    meshId,
    vertexStart: 0,
    vertexCount: 3,
    indexStart: 0,
    indexCount: 3,
    groupStart: 0,
    groupCount: 1,
  };
}

/** A 60-byte `VMeshRef` payload; the bounding box and sphere are written as zero (readers ignore them). */
export function encodeVMeshRef(spec: VMeshRefSpec): Uint8Array {
  const out = new Uint8Array(60);
  const w = new ByteWriter(out);
  w.u32(60, 0);
  w.u32(spec.meshId, 4);
  w.u16(spec.vertexStart, 8);
  w.u16(spec.vertexCount, 10);
  w.u16(spec.indexStart, 12);
  w.u16(spec.indexCount, 14);
  w.u16(spec.groupStart, 16);
  w.u16(spec.groupCount, 18);
  return out;
}

/** A `VWireData` payload: line-list indices relative to `vertexStart`. */
export function encodeVWireData(meshId: number, vertexStart: number, indices: readonly number[]): Uint8Array {
  const out = new Uint8Array(16 + 2 * indices.length);
  const w = new ByteWriter(out);
  const max = indices.length ? Math.max(...indices) : 0;
  const min = indices.length ? Math.min(...indices) : 0;
  w.u32(16, 0);
  w.u32(meshId, 4);
  w.u16(vertexStart, 8);
  w.u16(new Set(indices).size, 10);
  w.u16(indices.length, 12);
  w.u16(max - min + 1, 14);
  indices.forEach((v, i) => w.u16(v, 16 + 2 * i));
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
  const w = new ByteWriter(out);
  records.forEach((r, i) => {
    const at = i * size;
    out.set(encodeString(r.parent.slice(0, 63)), at);
    out.set(encodeString(r.child.slice(0, 63)), at + 64);
    const floats = (offset: number, values: readonly number[]) =>
      values.forEach((v, k) => w.f32(v, at + offset + 4 * k));
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
  /** LancerEdit's extension properties (Librelancer `Material.cs`): normal, metallic, roughness. */
  readonly nmName?: string;
  readonly nmFlags?: number;
  readonly mtName?: string;
  readonly mtFlags?: number;
  readonly rtName?: string;
  readonly rtFlags?: number;
  readonly mFactor?: number;
  readonly rFactor?: number;
  /** Raw leaves written after the others (damaged ones, for tests). */
  readonly leaves?: readonly UtfNode[];
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
        ...([["Nm", m.nmName, m.nmFlags], ["Mt", m.mtName, m.mtFlags], ["Rt", m.rtName, m.rtFlags]] as const)
          .flatMap(([slot, name, flags]) =>
            name
              ? [
                utfLeaf(`${slot}_name`, encodeString(name)),
                utfLeaf(`${slot}_flags`, encodeU32(flags ?? 0x40)),
              ]
              : []
          ),
        ...(m.mFactor !== undefined ? [utfLeaf("M_factor", encodeFloats([m.mFactor]))] : []),
        ...(m.rFactor !== undefined ? [utfLeaf("R_factor", encodeFloats([m.rFactor]))] : []),
        ...(m.leaves ?? []),
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

/** One key of an animation channel: its time (written when the channel's interval is negative) and data. */
export interface AnimationKeySpec {
  readonly time?: number;
  readonly angle?: number;
  readonly position?: readonly number[];
  /** x, y, z, w (written W, X, Y, Z as the format stores it). */
  readonly rotation?: readonly number[];
  /** The three int16 of a compressed rotation (types 0x40, 0x80). */
  readonly packed?: readonly number[];
}

/** One map of a script: a joint map (`child` set) or an object map, and its channel. */
export interface AnimationMapSpec {
  readonly parent: string;
  readonly child?: string;
  readonly type: number;
  readonly interval: number;
  readonly keys: readonly AnimationKeySpec[];
  /** Header count when it should differ from the keys written (damaged files). */
  readonly count?: number;
}

/** `Animation/Script/<name>/{Joint,Object} map <i>/…` for each script. */
export function animationTree(scripts: Readonly<Record<string, readonly AnimationMapSpec[]>>): UtfNode {
  const frames = (map: AnimationMapSpec) => {
    const size = map.keys.reduce(
      (sum, k) =>
        sum + (map.interval < 0 ? 4 : 0) + (k.angle !== undefined ? 4 : 0) + (k.position ? 12 : 0) +
        (k.rotation ? 16 : 0) + (k.packed ? 6 : 0),
      0,
    );
    const out = new ByteWriter(size);
    for (const key of map.keys) {
      if (map.interval < 0) out.f32(key.time!);
      if (key.angle !== undefined) out.f32(key.angle);
      if (key.position) { for (const c of key.position) out.f32(c); }
      if (key.rotation) { for (const c of [3, 0, 1, 2]) out.f32(key.rotation[c]); }
      if (key.packed) { for (const c of key.packed) out.i16(c); }
    }
    return out.finish();
  };
  return utfDir("Animation", [
    utfDir(
      "Script",
      Object.entries(scripts).map(([name, maps]) =>
        utfDir(
          name,
          maps.map((map, i) =>
            utfDir(map.child === undefined ? `Object map ${i}` : `Joint map ${i}`, [
              utfLeaf("Parent name", encodeString(map.parent)),
              ...(map.child === undefined ? [] : [utfLeaf("Child name", encodeString(map.child))]),
              utfDir("Channel", [
                utfLeaf(
                  "Header",
                  new Uint8Array([
                    ...encodeU32(map.count ?? map.keys.length),
                    ...encodeFloats([map.interval]),
                    ...encodeU32(map.type),
                  ]),
                ),
                utfLeaf("Frames", frames(map)),
              ]),
            ])
          ),
        )
      ),
    ),
  ]);
}
