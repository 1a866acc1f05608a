/**
 * Scenes named the way converters and game rippers name them (FBX2glTF, Assimp, Ninja Ripper style
 * dumps): many properties with no name at all, some with an empty or whitespace-only one, the same
 * stock names over and over (`Cube`, `Material`, `lambert1`, `Object`), names that differ only by case
 * (`Wing`/`wing`) or by Blender's trailing `.001` (`Cube`/`Cube.001`), textures named only by their
 * file's URI, meshes shared by several nodes, one skin and unnamed clips. Seeded: a seed is a
 * reproducible file.
 *
 * @module
 */
import { Document, type Mesh, type Node, type Texture } from "@gltf-transform/core";
import { encodeRgbaPng, loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";

const STOCK = [
  "Cube",
  "Object",
  "Mesh",
  "default",
  "Material",
  "lambert1",
  "Wing",
  "Body",
  "Texture",
  "Box01",
];
const BLANKS = [" ", "  ", "\t", " \u00a0"];

/** A picker of names for one kind: unnamed, blank, stock repeats, case and `.001` twins, fresh. */
function namer(next: () => number, prefix: string): () => string {
  const given: string[] = [];
  return () => {
    const roll = next();
    const earlier = given.length > 0 ? given[Math.floor(next() * given.length)] : "Cube";
    let name: string;
    if (roll < 0.35) name = "";
    else if (roll < 0.45) name = BLANKS[Math.floor(next() * BLANKS.length)];
    else if (roll < 0.6) name = STOCK[Math.floor(next() * STOCK.length)];
    else if (roll < 0.7) name = next() < 0.5 ? earlier.toUpperCase() : earlier.toLowerCase();
    else if (roll < 0.8) name = `${earlier.replace(/\.\d{3}$/, "")}.00${1 + Math.floor(next() * 3)}`;
    else name = `${prefix}${Math.floor(next() * 40)}`;
    if (name.trim() !== "") given.push(name);
    return name;
  };
}

/** A 2×2 PNG of one colour. */
function swatch(next: () => number): Uint8Array {
  const c = [0, 1, 2].map(() => Math.floor(next() * 256));
  const data = new Uint8Array(16);
  for (let i = 0; i < 16; i += 4) data.set([c[0], c[1], c[2], 255], i);
  return encodeRgbaPng(2, 2, data);
}

/**
 * A converted scene of seed `seed`: 8–19 nodes in a random hierarchy, 3–6 materials (half textured,
 * a texture often named only by its URI), meshes shared by a third of the nodes, one skin and one or
 * two clips, every name drawn by {@link namer}. Deterministic.
 */
export async function convertedNamesScene(seed: number): Promise<Document> {
  await loadPngEncoder();
  const next = prng(seed);
  const names = {
    node: namer(next, "node"),
    mesh: namer(next, "polySurface"),
    material: namer(next, "phong"),
    image: namer(next, "tex"),
    clip: namer(next, "Take"),
    skin: namer(next, "Armature"),
  };
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene();
  const accessor = (
    type: "VEC2" | "VEC3" | "SCALAR",
    array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>,
  ) => doc.createAccessor().setBuffer(buffer).setType(type).setArray(array);
  const textures: Texture[] = [];
  const materials = Array.from({ length: 3 + Math.floor(next() * 4) }, () => {
    const material = doc.createMaterial(names.material()).setBaseColorFactor([next(), next(), next(), 1]);
    if (next() < 0.5) {
      const name = names.image();
      const texture = doc.createTexture(name).setImage(swatch(next)).setMimeType("image/png");
      // Converters often name a texture by its file alone.
      if (name === "" && next() < 0.5) {
        texture.setURI(`textures/${STOCK[textures.length % STOCK.length]}.png`);
      }
      textures.push(texture);
      material.setBaseColorTexture(texture);
    }
    return material;
  });
  const nodes: Node[] = [];
  const meshes: Mesh[] = [];
  const count = 8 + Math.floor(next() * 12);
  for (let i = 0; i < count; i++) {
    const node = doc.createNode(names.node()).setTranslation([i, next(), 0]);
    if (next() < 0.8) {
      let mesh: Mesh | undefined = meshes.length > 0 && next() < 0.3
        ? meshes[Math.floor(next() * meshes.length)]
        : undefined;
      if (!mesh) {
        const x = next() + 0.5;
        const primitive = doc.createPrimitive()
          .setAttribute("POSITION", accessor("VEC3", new Float32Array([0, 0, 0, x, 0, 0, 0, 0, x, x, 0, x])))
          .setAttribute("TEXCOORD_0", accessor("VEC2", new Float32Array([0, 0, 1, 0, 0, 1, 1, 1])))
          .setIndices(accessor("SCALAR", new Uint16Array([0, 2, 1, 1, 2, 3])))
          .setMaterial(materials[Math.floor(next() * materials.length)]);
        mesh = doc.createMesh(names.mesh()).addPrimitive(primitive);
        meshes.push(mesh);
      }
      node.setMesh(mesh);
    }
    const parent = nodes.length > 0 && next() < 0.6 ? nodes[Math.floor(next() * nodes.length)] : undefined;
    if (parent) parent.addChild(node);
    else scene.addChild(node);
    nodes.push(node);
  }
  // One skin of two bones under an unnamed or stock-named root, skinning a mesh of its own.
  const root = doc.createNode(names.node());
  const bones = [doc.createNode(names.node()), doc.createNode(names.node()).setTranslation([0, 1, 0])];
  root.addChild(bones[0]);
  bones[0].addChild(bones[1]);
  const ibm = new Float32Array(32);
  for (const k of [0, 5, 10, 15]) ibm[k] = ibm[16 + k] = 1;
  ibm[29] = -1;
  const skin = doc.createSkin(names.skin()).addJoint(bones[0]).addJoint(bones[1])
    .setInverseBindMatrices(doc.createAccessor().setBuffer(buffer).setType("MAT4").setArray(ibm));
  const skinned = doc.createPrimitive()
    .setAttribute("POSITION", accessor("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])))
    .setAttribute(
      "JOINTS_0",
      doc.createAccessor().setBuffer(buffer).setType("VEC4").setArray(new Uint16Array(12)),
    )
    .setAttribute(
      "WEIGHTS_0",
      doc.createAccessor().setBuffer(buffer).setType("VEC4").setArray(
        new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]),
      ),
    )
    .setMaterial(materials[0]);
  root.addChild(
    doc.createNode(names.node()).setMesh(doc.createMesh(names.mesh()).addPrimitive(skinned)).setSkin(skin),
  );
  scene.addChild(root);
  for (let c = 0; c < 1 + Math.floor(next() * 2); c++) {
    const sampler = doc.createAnimationSampler()
      .setInput(accessor("SCALAR", new Float32Array([0, 1])))
      .setOutput(accessor("VEC3", new Float32Array([0, 0, 0, 0, next(), 0])))
      .setInterpolation("LINEAR");
    doc.createAnimation(names.clip()).addSampler(sampler).addChannel(
      doc.createAnimationChannel().setTargetNode(nodes[c]).setTargetPath("translation").setSampler(sampler),
    );
  }
  doc.getRoot().setDefaultScene(scene);
  return doc;
}
