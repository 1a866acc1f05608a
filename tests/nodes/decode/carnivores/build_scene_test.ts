/**
 * The decoded scene: glTF axes `s·(x, y, −z)` with winding reversed (faces keep pointing outwards,
 * the model faces +Z), primitives per alpha class × sidedness with matching materials, the texture
 * and its colour key, UVs, flags in extras, and a valid GLB.
 */
import assert from "node:assert/strict";
import { decode as decodePng } from "fast-png";
import * as THREE from "three";
import { load } from "../../../support/threejs_client.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { encode3df } from "../../../support/carnivores/encode.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { getSourceInfo } from "../../../../runtime/scene/source.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import type { Model3df } from "../../../../nodes/decode/carnivores/codec/model.ts";
import { addBox, type FaceSpec, faceTable, limbModel, pointTable, texture } from "./fixtures.ts";
import { faceCorners, modelNode, near, summaryOf } from "./probe.ts";

async function decode(model: Model3df, params: Record<string, number> = {}) {
  const ctx = testContext();
  const { scene } = await runNode(
    decode3df,
    { bytes: { bytes: encode3df(model), name: "m.3df" } },
    params,
    ctx,
  );
  return { scene, warnings: ctx.warnings, mesh: modelNode(scene).getMesh()! };
}

function sub(a: number[], b: number[]): number[] {
  return a.map((v, i) => v - b[i]);
}

function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function dot(a: number[], b: number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** A model of four boxes, one per flag combination of interest. */
function flaggedBoxes(): Model3df {
  const points: number[][] = [];
  const owners: number[] = [];
  const faces: FaceSpec[] = [];
  addBox(points, owners, faces, [0, 0, -20], 2, 0, 0x0010); // mortal, opaque single-sided, at file −z
  addBox(points, owners, faces, [10, 0, 0], 2, 0, 0x0001 | 0x8000); // double-sided, dark
  addBox(points, owners, faces, [20, 0, 0], 2, 0, 0x0004 | 0x0001); // foliage: mask, double-sided
  addBox(points, owners, faces, [30, 0, 0], 2, 0, 0x0004 | 0x0008); // binoculars: blend
  return {
    faces: faceTable(faces),
    points: pointTable(points, owners),
    bones: [],
    texture: texture(2, (x) => (x === 0 ? 0 : 0x7fff)),
  };
}

Deno.test("positions are scale·(x, y, −z), and every face still points away from its box", async () => {
  const model = flaggedBoxes();
  const scale = 0.25;
  const { mesh } = await decode(model, { scale });
  for (let f = 0; f < model.faces.count; f++) {
    const corners = faceCorners(mesh, f);
    corners.forEach((corner, k) => {
      const p = model.faces.indices[f * 3 + k];
      const [x, y, z] = model.points.positions.subarray(p * 3, p * 3 + 3);
      near(corner.position, [scale * x, scale * y, -scale * z], 1e-6, `face ${f} corner ${k}`);
    });
    // The box centre in scene space, from the fixture's centres (file z mirrored).
    const box = Math.floor(f / 12);
    const centre = [box * 10 * scale, 0, box === 0 ? 20 * scale : 0];
    // glTF front faces are counter-clockwise: read the corners in glTF order (v1, v3, v2).
    const [a, c, b] = corners.map((corner) => corner.position);
    const normal = cross(sub(b, a), sub(c, a));
    const outward = sub(
      [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3],
      centre,
    );
    assert.ok(dot(normal, outward) > 0, `face ${f} faces inwards`);
  }
  // The box at file z = −20 (where models keep their heads) ends up at +Z: the model faces +Z.
  const front = faceCorners(mesh, 0)[0].position;
  assert.ok(front[2] > 0);
});

Deno.test("primitives per (opaque | mask | blend) × double-sided, materials to match, flags in extras", async () => {
  const { mesh, scene } = await decode(flaggedBoxes());
  const primitives = mesh.listPrimitives();
  const described = primitives.map((p) => {
    const m = p.getMaterial()!;
    // deno-lint-ignore no-explicit-any
    const extras = getPartgraphExtras(p).carnivores as any;
    return {
      alpha: m.getAlphaMode(),
      doubleSided: m.getDoubleSided(),
      cutoff: m.getAlphaMode() === "MASK" ? m.getAlphaCutoff() : undefined,
      opacity: m.getBaseColorFactor()[3],
      faces: extras.faces,
      flags: [...new Set(extras.flags)],
    };
  });
  const range = (from: number) => Array.from({ length: 12 }, (_, i) => from + i);
  assert.deepEqual(described, [
    { alpha: "OPAQUE", doubleSided: false, cutoff: undefined, opacity: 1, faces: range(0), flags: [0x10] },
    { alpha: "OPAQUE", doubleSided: true, cutoff: undefined, opacity: 1, faces: range(12), flags: [0x8001] },
    { alpha: "MASK", doubleSided: true, cutoff: 0.5, opacity: 1, faces: range(24), flags: [0x5] },
    {
      alpha: "BLEND",
      doubleSided: false,
      cutoff: undefined,
      opacity: 0x70 / 255,
      faces: range(36),
      flags: [0xc],
    },
  ]);
  for (const p of primitives) {
    assert.equal(p.getMaterial()!.getBaseColorTexture(), scene.getRoot().listTextures()[0]);
  }
  const glb = await writeGlb(scene, { generator: GENERATOR });
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("colour-keyed and translucent faces are point-sampled like the game's, over a texture keyed only at its black texels", async () => {
  // d3dFlushBuffer draws sfOpacity and sfTransparent faces with D3DFILTER_NEAREST; filtered, a leaf's
  // edge would blend with the keyed black around it into a dark fringe past the 0.5 cutoff.
  const { scene } = await decode(flaggedBoxes());
  const glb = await writeGlb(scene, { generator: GENERATOR });
  const length = new DataView(glb.buffer, glb.byteOffset + 12, 4).getUint32(0, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  const NEAREST = 9728;
  const filters = Object.fromEntries(
    json.materials.map(
      (m: { name: string; pbrMetallicRoughness: { baseColorTexture: { index: number } } }) => {
        const texture = json.textures[m.pbrMetallicRoughness.baseColorTexture.index];
        const sampler = texture.sampler === undefined ? {} : json.samplers[texture.sampler];
        return [m.name, [sampler.magFilter ?? null, sampler.minFilter ?? null]];
      },
    ),
  );
  assert.deepEqual(filters, {
    opaque: [null, null],
    opaque_double_sided: [null, null],
    mask_double_sided: [NEAREST, NEAREST],
    blend: [NEAREST, NEAREST],
  });
  assert.equal(json.images.length, 1, "one image shared by every material");
  // The 256×2 texture has one black texel per row: those two, and only those, are transparent.
  const { data } = decodePng(scene.getRoot().listTextures()[0].getImage()!);
  let clear = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] === 0) clear++;
  assert.equal(clear, 2);
  assert.deepEqual([data[3], data[7], data[256 * 4 + 3]], [0, 255, 0]);
  const report = await validateGltf(glb);
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("sfDarkBack or a stored sfNeedVC keeps an sfDoubleSide face single-sided, as the game culls it", async () => {
  // Every renderer culls a back face when Flags & (sfDarkBack | sfNeedVC); the loader adds sfNeedVC
  // only to faces without sfDoubleSide and never clears a stored one.
  const points: number[][] = [];
  const owners: number[] = [];
  const faces: FaceSpec[] = [];
  addBox(points, owners, faces, [0, 0, 0], 2, 0, 0x0001); // drawn from both sides
  addBox(points, owners, faces, [10, 0, 0], 2, 0, 0x0003); // sfDarkBack: culled
  addBox(points, owners, faces, [20, 0, 0], 2, 0, 0x0081); // a stored sfNeedVC: culled
  addBox(points, owners, faces, [30, 0, 0], 2, 0, 0x000d); // translucent and double-sided
  addBox(points, owners, faces, [40, 0, 0], 2, 0, 0x000b); // translucent, sfDarkBack: culled
  const { mesh, scene } = await decode({
    faces: faceTable(faces),
    points: pointTable(points, owners),
    bones: [],
    texture: texture(2, () => 0x7fff),
  });
  const range = (...boxes: number[]) =>
    boxes.flatMap((b) => Array.from({ length: 12 }, (_, i) => b * 12 + i));
  const described = mesh.listPrimitives().map((p) => ({
    material: p.getMaterial()!.getName(),
    doubleSided: p.getMaterial()!.getDoubleSided(),
    // deno-lint-ignore no-explicit-any
    faces: (getPartgraphExtras(p).carnivores as any).faces,
  }));
  assert.deepEqual(described, [
    { material: "opaque", doubleSided: false, faces: range(1, 2) },
    { material: "opaque_double_sided", doubleSided: true, faces: range(0) },
    { material: "blend", doubleSided: false, faces: range(4) },
    { material: "blend_double_sided", doubleSided: true, faces: range(3) },
  ]);
  // three.js draws what the material says: FrontSide culls, DoubleSide does not.
  const glb = await writeGlb(scene, { generator: GENERATOR });
  const gltf = await load(glb);
  const sides: Record<string, number> = {};
  gltf.scene.traverse((o: THREE.Object3D) => {
    const material = (o as THREE.Mesh).material as THREE.Material | undefined;
    if (material) sides[material.name] = material.side;
  });
  assert.deepEqual(sides, {
    opaque: THREE.FrontSide,
    opaque_double_sided: THREE.DoubleSide,
    blend: THREE.FrontSide,
    blend_double_sided: THREE.DoubleSide,
  });
});

Deno.test("NORMAL per point as the game lights it: unit face normals summed over plain faces, smooth across the model", async () => {
  // CalcLights: a point's normal is the normalised sum of the unit normals of its faces without
  // sfOpacity. File points: an edge P0–P1 along z, shared by face A (plane y = 0) and face B (x = 0).
  const model: Model3df = {
    faces: faceTable([
      { v: [0, 1, 2] }, // A: +Y in scene space
      { v: [0, 3, 1], flags: 0x1 }, // B: +X, double-sided (another primitive, same point normals)
      { v: [0, 1, 4], flags: 0x4 }, // C: −Y, sfOpacity: left out of P0's and P1's sums
      { v: [0, 0, 2] }, // degenerate: no direction, left out
      { v: [5, 5, 5] }, // P5 on a degenerate face only
    ]),
    points: pointTable([[0, 0, 0], [0, 0, 4], [4, 0, 0], [0, 4, 0], [-4, 0, 0], [9, 9, 9]]),
    bones: [],
    texture: texture(2, () => 0x7fff),
  };
  const { mesh, scene, warnings } = await decode(model);
  assert.deepEqual(warnings, []);
  const normalAt = (face: number) =>
    faceCorners(mesh, face).map((c) =>
      c.primitive.getAttribute("NORMAL")!.getElement(c.vertex, [] as number[])
    );
  const r = Math.SQRT1_2;
  const expected: Record<number, number[][]> = {
    0: [[r, r, 0], [r, r, 0], [0, 1, 0]], // P0, P1 smooth between A and B; P2 only on A
    1: [[r, r, 0], [1, 0, 0], [r, r, 0]], // P3 only on B
    2: [[r, r, 0], [r, r, 0], [0, -1, 0]], // P4 only on the sfOpacity face: that face's normal
    3: [[r, r, 0], [r, r, 0], [0, 1, 0]],
    4: [[0, 1, 0], [0, 1, 0], [0, 1, 0]], // no face of any area: +Y, still a unit vector
  };
  for (const [face, corners] of Object.entries(expected)) {
    normalAt(Number(face)).forEach((n, k) => near(n, corners[k], 1e-6, `face ${face} corner ${k}`));
  }
  // The validator checks NORMAL is unit length.
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("black texels are transparent only when some face has sfOpacity; colours expand 5→8 bits", async () => {
  const words = [0x0000, 0x7c00, 0x03e0, 0x001f, 0x7fff, 0x8000, 0x4210, 0x801f];
  const tex = texture(1, (x) => words[x] ?? 0x1234);
  const opaque = { ...limbModel(), texture: tex };
  const keyed = {
    ...opaque,
    faces: { ...opaque.faces, flags: opaque.faces.flags.map((f, i) => (i === 3 ? 4 : f)) },
  };
  const pixels = async (model: Model3df) => {
    const { scene } = await decode(model);
    return decodePng(scene.getRoot().listTextures()[0].getImage()!).data;
  };
  const plain = await pixels(opaque);
  const withKey = await pixels(keyed);
  const rgba = (data: ArrayLike<number>, i: number) => Array.from({ length: 4 }, (_, k) => data[i * 4 + k]);
  assert.deepEqual(rgba(plain, 0), [0, 0, 0, 255]);
  assert.deepEqual(rgba(withKey, 0), [0, 0, 0, 0]);
  assert.deepEqual(rgba(withKey, 1), [255, 0, 0, 255]);
  assert.deepEqual(rgba(withKey, 2), [0, 255, 0, 255]);
  assert.deepEqual(rgba(withKey, 3), [0, 0, 255, 255]);
  assert.deepEqual(rgba(withKey, 4), [255, 255, 255, 255]);
  // Bit 15 is no part of the colour nor of the key: C2/Ice Age's BrightenTexture rebuilds every
  // word without it before GenerateAlphaFlags keys the zero words, and C3Dit keys on RGB = 0. So
  // 0x8000 is keyed like 0x0000, and 0x801F is plain opaque blue.
  assert.deepEqual(rgba(withKey, 5), [0, 0, 0, 0]);
  assert.deepEqual(rgba(plain, 5), [0, 0, 0, 255]);
  assert.deepEqual(rgba(withKey, 7), [0, 0, 255, 255]);
  // 16 (0b10000) → 0b10000100 = 132.
  assert.deepEqual(rgba(withKey, 6), [132, 132, 132, 255]);
});

Deno.test("UVs are texel/256 across and texel/H down; out-of-range texels are clamped with a warning", async () => {
  const model = limbModel();
  const texels = model.faces.texels.slice();
  texels[1] = -9; // face 0, corner 0, v
  texels[2] = -4; // face 0, corner 1, u
  const { mesh, warnings } = await decode({ ...model, faces: { ...model.faces, texels } });
  const corners = faceCorners(mesh, 0);
  near(corners[0].uv!, [texels[0] / 256, 0], 1e-7, "clamped v (to the top edge)");
  near(corners[1].uv!, [0, texels[3] / 2], 1e-7, "clamped u");
  near(corners[2].uv!, [texels[4] / 256, texels[5] / 2], 1e-7, "in range");
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0].message,
    /2 face corner\(s\) have texel coordinates outside \[0, 256\]×\[0, 2\]; clamped/,
  );
});

Deno.test("texel rows past a short texture sample the game's zeroed rows: the image grows, black", async () => {
  // LoadModel / LoadCharacterInfo read a texture of H rows into a zeroed 256-row buffer in the
  // Direct3D and Glide renderers (TextureHeight = 256), and the D3D path maps v = texel/256: a face
  // whose texel row is past H samples texel 0x0000 there. Converters that crop a texture leave such
  // faces (the UVs were made on a taller image).
  const model = limbModel(); // 2 rows, texel (x, y) = (x + 7y) & 0x7fff
  const texels = model.faces.texels.slice();
  texels[1] = 40; // face 0, corner 1, v (the v of corner 1 is at byte 16 + 24)
  texels[6 + 5] = 100; // face 1, corner 3, v
  const { scene, mesh, warnings } = await decode({ ...model, faces: { ...model.faces, texels } });
  assert.deepEqual(summaryOf(scene).texture, { width: 256, height: 2, image_height: 100, colour_key: false });
  const image = decodePng(scene.getRoot().listTextures()[0].getImage()!);
  assert.deepEqual([image.width, image.height], [256, 100]);
  const at = (x: number, y: number) =>
    Array.from(image.data.subarray((y * 256 + x) * 4, (y * 256 + x) * 4 + 4));
  // Stored rows as before: texel (3, 1) = 3 + 7 = 10 → r 0, g 0, b 10 → 82.
  assert.deepEqual(at(3, 1), [0, 0, 82, 255]);
  // Rows 2–99 are texel 0x0000: black, opaque (no face colour-keys).
  for (const [x, y] of [[0, 2], [255, 50], [9, 99]]) assert.deepEqual(at(x, y), [0, 0, 0, 255]);
  // v = texel / 100 now, on every face.
  const corners = faceCorners(mesh, 0);
  near(corners[0].uv!, [texels[0] / 256, 40 / 100], 1e-7, "face 0 corner 1");
  near(corners[1].uv!, [texels[2] / 256, texels[3] / 100], 1e-7, "face 0 corner 2");
  near(faceCorners(mesh, 1)[2].uv!, [texels[10] / 256, 1], 1e-7, "face 1 corner 3");
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].detail?.offset, 16 + 24);
  assert.match(
    warnings[0].message,
    /^2 face corner\(s\) sample texture rows past the texture's 2 \(v up to 100; the first is face 0 corner 1 at byte 40\): the game's hardware renderers hold every texture in a zeroed 256-row buffer, so rows 2–99 are added as texel 0x0000/,
  );
  // Past 256 rows the buffer ends too: padded to 256, then clamped to its edge with a warning.
  texels[1] = 300;
  const far = await decode({ ...model, faces: { ...model.faces, texels } });
  assert.equal(summaryOf(far.scene).texture.image_height, 256);
  near(faceCorners(far.mesh, 0)[0].uv!, [texels[0] / 256, 1], 1e-7, "clamped to row 256");
  assert.match(far.warnings[0].message, /rows 2–255 are added/);
  assert.match(
    far.warnings[1].message,
    /1 face corner\(s\) have texel coordinates outside \[0, 256\]×\[0, 256\]/,
  );
  // A texture of 256 rows or more is the buffer itself: nothing is added.
  const tall = { ...model, texture: texture(256, () => 1), faces: { ...model.faces, texels } };
  assert.equal(summaryOf((await decode(tall)).scene).texture.image_height, undefined);
});

Deno.test("no texture: no image, no UVs, one vertex per point; no faces: no mesh, a warning", async () => {
  const model = { ...limbModel(), texture: undefined };
  const { scene, mesh } = await decode(model);
  assert.equal(scene.getRoot().listTextures().length, 0);
  const primitive = mesh.listPrimitives()[0];
  assert.equal(primitive.getAttribute("TEXCOORD_0"), null);
  assert.equal(primitive.getAttribute("POSITION")!.getCount(), model.points.count);
  assert.equal(summaryOf(scene).texture, null);
  // The game's hardware renderers sample a zeroed 256-row buffer: texel 0x0000, black (v7; white before).
  assert.deepEqual(primitive.getMaterial()!.getBaseColorFactor(), [0, 0, 0, 1]);

  const ctx = testContext();
  const empty = { ...model, faces: faceTable([]) };
  const out = await runNode(decode3df, { bytes: { bytes: encode3df(empty), name: "e.3df" } }, {}, ctx);
  assert.equal(modelNode(out.scene).getMesh(), null);
  assert.deepEqual(ctx.warnings.map((w) => w.message.slice(0, 46)), [
    "texture size 0 at byte 12 holds no whole row: ",
    "the model has no faces; the scene has no mesh",
  ]);
  const report = await validateGltf(await writeGlb(out.scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, report.messages.join("\n"));
});

Deno.test("the source frame is recorded; metres per unit and the scale note follow the parameter", async () => {
  const { scene } = await decode(limbModel(), {});
  const info = getSourceInfo(scene)!;
  assert.equal(info.format, "3df");
  assert.equal(info.forward, "+Z");
  assert.equal(info.up, "+Y");
  assert.equal(info.metresPerUnit, 1, "life size by default: scene units are metres");
  assert.equal(info.notes?.scale, 0.0145);
  assert.equal(info.notes?.metres_per_file_unit, 0.0145);
  const fileUnits = getSourceInfo((await decode(limbModel(), { scale: 1 })).scene)!;
  assert.equal(fileUnits.metresPerUnit, 0.0145);
  assert.equal(fileUnits.notes?.scale, 1);
});

Deno.test("a coordinate that overflows once scaled is a DecodeError at its bytes", async () => {
  const model = limbModel();
  const positions = model.points.positions.slice();
  positions[4] = 3e29; // point 1, y
  const bytes = encode3df({ ...model, points: { ...model.points, positions } });
  await assert.rejects(
    () => runNode(decode3df, { bytes: { bytes, name: "big.3df" } }, { scale: 10 }),
    (e: Error & { at?: { offset: number } }) => {
      assert.equal(e.name, "DecodeError");
      assert.deepEqual(e.at, { offset: 16 + 64 * model.faces.count + 16 + 4 });
      return true;
    },
  );
});

Deno.test("a primitive of exactly 65,536 vertices gets 32-bit indices (65535 is glTF's restart value)", async () => {
  // 21,845 triangles with three points of their own (65,535 vertices without a texture)…
  const faceCount = 21845;
  const points: number[][] = [];
  const faces: FaceSpec[] = [];
  for (let f = 0; f < faceCount; f++) {
    const x = f % 1000, y = Math.floor(f / 1000);
    points.push([x, y, 0], [x + 1, y, 0], [x, y + 1, 0]);
    faces.push({ v: [3 * f, 3 * f + 1, 3 * f + 2] });
  }
  // …and one more reusing points 0 and 1 with a new third point: 65,536 vertices in all.
  points.push([0, 0, 5]);
  faces.push({ v: [0, 1, points.length - 1] });
  const model: Model3df = {
    faces: faceTable(faces),
    points: pointTable(points),
    bones: [],
    texture: undefined,
  };
  const { mesh } = await decode(model);
  const [primitive] = mesh.listPrimitives();
  assert.equal(primitive.getAttribute("POSITION")!.getCount(), 65536);
  const indices = primitive.getIndices()!.getArray()!;
  assert.ok(indices instanceof Uint32Array, "u16 would have to hold index 65535");
  assert.equal(Math.max(...indices), 65535);
});
