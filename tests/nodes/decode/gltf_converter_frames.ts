/**
 * The converters `gltf_converters.ts` imitates that write another frame or pivots: Assimp (FBX
 * centimetres, `$AssimpFbx$` pivot chains, node matrices, split meshes, mirrors), COLLADA2GLTF (a Z-up
 * root matrix, KHR_techniques_webgl leftovers) and Blender 2.79 (a Z-up root rotation, spec-gloss).
 *
 * @module
 */
import { mat4, vec3 } from "gl-matrix";
import { type PartTruth, Writer } from "./gltf_exporter_parts.ts";
import { compacted, mapped, type ModelObject, type ModelPanel, pieceTruth } from "./gltf_converter_model.ts";
import { centreOf, pbr, primitive, shifted } from "./gltf_converter_writers.ts";
/**
 * Assimp from an FBX in centimetres: matrices only; `RootNode` scales by 0.01; pivots
 * `<name>_$AssimpFbx$_Translation` › `<name>_$AssimpFbx$_PreRotation` (−90° about X) › `<name>` (+90°
 * back); an object of two materials as two meshes, the second `<name>_1` on a child node.
 */
export function assimp(
  objects: ModelObject[],
  panels: readonly ModelPanel[],
  next: () => number,
): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  const cm = mat4.fromScaling(mat4.create(), [0.01, 0.01, 0.01]);
  const root = w.node({ name: "RootNode", matrix: [...cm] });
  const pre = mat4.fromXRotation(mat4.create(), -Math.PI / 2);
  const back = mat4.invert(mat4.create(), pre)!;
  const truth: PartTruth[] = [];
  const mirrored = next() < 0.5, pivots = next() < 0.5;
  for (const object of objects) {
    const centreCm = centreOf(object.positions).map((v) => 100 * v);
    const t = w.node(
      {
        name: `${object.name}_$AssimpFbx$_Translation`,
        matrix: [...mat4.fromTranslation(mat4.create(), centreCm)],
      },
      root,
    );
    let chain = w.node({ name: `${object.name}_$AssimpFbx$_PreRotation`, matrix: [...pre] }, t);
    // Max users put a surface's pivot on its hinge: RotationPivot there, RotationPivotInverse back.
    const hinge = panels.find((p) => p.name === object.name)?.truth;
    if (hinge && pivots) {
      const at = [-hinge.origin[2], hinge.origin[1], hinge.origin[0]].map((v, k) => 100 * v - centreCm[k]);
      // The pivot is in the pre-rotated frame: its offset turned back into it.
      const offset = vec3.transformMat4(vec3.create(), at as vec3, back);
      chain = w.node({
        name: `${object.name}_$AssimpFbx$_RotationPivot`,
        matrix: [...mat4.fromTranslation(mat4.create(), offset)],
      }, chain);
      chain = w.node({
        name: `${object.name}_$AssimpFbx$_RotationPivotInverse`,
        matrix: [...mat4.fromTranslation(mat4.create(), vec3.negate(vec3.create(), offset))],
      }, chain);
    }
    // The right-hand objects are the left ones mirrored (Max's Mirror tool: a scale of −1 along X).
    const mirror = mirrored && /_R$/.test(object.name);
    if (mirror) {
      chain = w.node({
        name: `${object.name}_$AssimpFbx$_Scaling`,
        matrix: [...mat4.fromScaling(mat4.create(), [-1, 1, 1])],
      }, chain);
    }
    const r = chain;
    // Local: centimetres about the centre (the pre-rotation and the node's turn back cancel out; a
    // mirror along X commutes with them).
    const toLocal = mat4.multiply(
      mat4.create(),
      mat4.fromScaling(mat4.create(), [mirror ? -1 : 1, 1, 1]),
      mat4.multiply(
        mat4.create(),
        mat4.fromTranslation(mat4.create(), centreCm.map((v) => -v) as [number, number, number]),
        mat4.fromScaling(mat4.create(), [100, 100, 100]),
      ),
    );
    const local = mapped(object.positions, toLocal);
    const split = next() < 0.5 && object.triangles.length >= 12;
    const cut = split ? 3 * Math.floor(object.triangles.length / 6) : object.triangles.length;
    const halves = split ? [object.triangles.slice(0, cut), object.triangles.slice(cut)] : [object.triangles];
    const meshes = halves.map((tris, k) => {
      const piece = compacted(local, tris);
      const world = compacted(object.positions, tris).positions;
      // The second material: the same texture, another colour (a decal's, a stripe's).
      const look: ModelObject = k === 0
        ? object
        : { ...object, factor: [object.factor[2], object.factor[0], object.factor[1], 1] };
      const material = pbr(w, look, k === 0 ? `${object.name}-material` : `${object.name}-material.001`);
      truth.push(pieceTruth(object.name, world, look));
      const name = k === 0 ? object.name : `${object.name}_1`;
      return w.json.meshes.push({
        name,
        primitives: [primitive(w, piece.positions, piece.triangles, material, { uvs: true })],
      }) - 1;
    });
    const node = w.node({ name: object.name, mesh: meshes[0], matrix: [...back] }, r);
    if (meshes[1] !== undefined) w.node({ name: `${object.name}_1`, mesh: meshes[1] }, node);
  }
  return { w, truth };
}

/** COLLADA's Z up to glTF's Y up, as COLLADA2GLTF's root matrix writes it. */
const Z_UP = mat4.fromXRotation(mat4.create(), -Math.PI / 2);

/**
 * COLLADA2GLTF from a Z-up `.dae`: a root `matrix` turning Z up, node matrices, meshes `<name>-mesh`,
 * every material's `KHR_techniques_webgl` values beside its metal-rough ones, the techniques at the top.
 */
export function collada2gltf(
  objects: ModelObject[],
  mode: "techniques" | "techniques-required" | "materials-common",
): { w: Writer; truth: PartTruth[] } {
  if (mode === "materials-common") return collada2gltfCommon(objects);
  const required = mode === "techniques-required";
  const w = new Writer();
  w.use("KHR_techniques_webgl");
  if (required) w.json.extensionsRequired = ["KHR_techniques_webgl"];
  w.json.extensions = {
    KHR_techniques_webgl: {
      programs: [{ fragmentShader: 1, vertexShader: 0 }],
      shaders: [{ type: 35633, uri: "data:text/plain;base64," + btoa("void main(){}") }, {
        type: 35632,
        uri: "data:text/plain;base64," + btoa("void main(){}"),
      }],
      techniques: [{
        program: 0,
        attributes: { a_position: { semantic: "POSITION" } },
        uniforms: { u_diffuse: { type: 35666 } },
      }],
    },
  };
  const root = w.node({ name: "Y_UP_Transform", matrix: [...Z_UP] });
  const toFile = mat4.invert(mat4.create(), Z_UP)!;
  const truth = objects.map((object, i) => {
    const file = mapped(object.positions, toFile);
    const centre = centreOf(file);
    // With --technique (`required`), every other material is the technique alone: its diffuse a colour
    // (as a shader reads it: sRGB) or the texture (then no colour).
    const alone = required && i % 2 === 1;
    const look: ModelObject = alone && object.texture ? { ...object, factor: [1, 1, 1, 1] } : object;
    const diffuse = alone && object.texture
      ? { index: w.texture(w.image(object.texture)) }
      : [...object.factor.slice(0, 3).map(srgb), object.factor[3]];
    const technique = {
      KHR_techniques_webgl: { technique: 0, values: { u_diffuse: diffuse, u_shininess: 20 } },
    };
    const material = alone
      ? w.material({ name: `${object.name}-material`, extensions: technique })
      : pbr(w, object, `${object.name}-material`, { extensions: technique });
    const prim = primitive(w, shifted(file, centre), object.triangles, material, { uvs: true });
    const mesh = w.json.meshes.push({ name: `${object.name}-mesh`, primitives: [prim] }) - 1;
    w.node({ name: object.name, mesh, matrix: [...mat4.fromTranslation(mat4.create(), centre)] }, root);
    return pieceTruth(object.name, object.positions, look);
  });
  return { w, truth };
}

/**
 * COLLADA2GLTF with `--materialsCommon`: every material KHR_materials_common (required) in 1.0's shape
 * (`technique` LAMBERT/PHONG/BLINN/CONSTANT, `values.diffuse` a colour or a texture reference), no
 * metal-rough values; the same Z-up root and matrices.
 */
function collada2gltfCommon(objects: ModelObject[]): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  w.use("KHR_materials_common");
  w.json.extensionsRequired = ["KHR_materials_common"];
  const root = w.node({ name: "Y_UP_Transform", matrix: [...Z_UP] });
  const toFile = mat4.invert(mat4.create(), Z_UP)!;
  const truth = objects.map((object, i) => {
    const file = mapped(object.positions, toFile);
    const centre = centreOf(file);
    const technique = ["LAMBERT", "PHONG", "BLINN", "CONSTANT"][i % 4];
    // The diffuse is a colour or the texture, not both.
    const look: ModelObject = object.texture ? { ...object, factor: [1, 1, 1, 1] } : object;
    const diffuse = object.texture ? { index: w.texture(w.image(object.texture)) } : object.factor;
    const material = w.material({
      name: `${object.name}-effect`,
      extensions: {
        KHR_materials_common: {
          technique,
          values: {
            diffuse,
            ...(technique === "LAMBERT" || technique === "CONSTANT" ? {} : { shininess: 20 }),
          },
        },
      },
    });
    const prim = primitive(w, shifted(file, centre), object.triangles, material, { uvs: true });
    const mesh = w.json.meshes.push({ name: `${object.name}-mesh`, primitives: [prim] }) - 1;
    w.node({ name: object.name, mesh, matrix: [...mat4.fromTranslation(mat4.create(), centre)] }, root);
    return pieceTruth(object.name, object.positions, look, { unlit: technique === "CONSTANT" });
  });
  return { w, truth };
}

/** Linear to sRGB: a colour as a GLSL technique's uniform holds it. */
function srgb(value: number): number {
  return value <= 0.0031308 ? value * 12.92 : 1.055 * Math.pow(value, 1 / 2.4) - 0.055;
}

/** Blender 2.79's Khronos exporter: Z-up data under a root rotated −90° about X, spec-gloss only, strides. */
export function blender279(objects: ModelObject[]): { w: Writer; truth: PartTruth[] } {
  const w = new Writer();
  w.use("KHR_materials_pbrSpecularGlossiness");
  const s = Math.SQRT1_2;
  const root = w.node({ name: "Root", rotation: [-s, 0, 0, s] });
  const toFile = mat4.invert(mat4.create(), Z_UP)!;
  const truth = objects.map((object) => {
    const file = mapped(object.positions, toFile);
    const centre = centreOf(file);
    const diffuse = object.texture ? { diffuseTexture: { index: w.texture(w.image(object.texture)) } } : {};
    const material = w.material({
      name: object.name,
      extensions: {
        KHR_materials_pbrSpecularGlossiness: {
          diffuseFactor: object.factor,
          specularFactor: [0.04, 0.04, 0.04],
          glossinessFactor: 0.3,
          ...diffuse,
        },
      },
    });
    const prim = primitive(w, shifted(file, centre), object.triangles, material, { uvs: true, stride: true });
    const mesh = w.json.meshes.push({ name: object.name, primitives: [prim] }) - 1;
    w.node({ name: object.name, mesh, translation: centre }, root);
    return pieceTruth(object.name, object.positions, object);
  });
  return { w, truth };
}
