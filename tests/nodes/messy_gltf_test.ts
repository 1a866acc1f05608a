/**
 * Messy glTF as real exporters write it — valid files glTF-Transform writes invalid (an empty scene),
 * and invalid content viewers accept anyway (a misspelt attribute, a PNG declared JPEG, a rotation
 * rounded off unit length, a factor past 1, an unknown sampler enum, a texture without an image,
 * an index view's stride, signed indices, enums in another case or unknown, a clip starting before 0,
 * children listed as scene roots, nulls for unset fields,
 * cameras and lights out of range, a skeleton that is not its joints' root, joints without a common
 * root, stray morph weights) —
 * goes through `decode.gltf` and `export.gltf` to a valid file, each repair named in a warning;
 * what is damage rather than mess (a rotation of length 0.001) is still refused.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import type {
  Clearcoat,
  EmissiveStrength,
  IOR,
  Light,
  MappingList,
  PBRSpecularGlossiness,
  Transform,
  Volume,
} from "@gltf-transform/extensions";
import { decodeGltf } from "../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { DecodeError } from "../../runtime/errors.ts";
import { readGltf } from "../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../support/context.ts";
import {
  editAccessor,
  embeddedView,
  type MessyEdit,
  messyGlb,
  type MessyJson,
  renameWingAttribute,
  wingAttribute,
  wingPrimitive,
} from "../support/messy_gltf.ts";
import { validateGltf } from "../support/validator.ts";
import { glbOf } from "../support/shapes.ts";

/** Index of the node called `name`. */
const nodeIndex = (json: MessyJson, name: string): number =>
  json.nodes.findIndex((node: { name?: string }) => node.name === name);

/** One messy file: the edit, whether the input itself is valid glTF, the warning it must give, and what the output holds. */
interface MessyCase {
  readonly name: string;
  readonly edit: MessyEdit;
  readonly inputValid: boolean;
  /** What the warnings must include (each pattern matched by one of them). */
  readonly warning?: RegExp | RegExp[];
  readonly check: (out: Document) => void;
}

const wing = (out: Document) => out.getRoot().listMeshes().find((mesh) => mesh.getName() === "wing")!;
const node = (out: Document, name: string) => out.getRoot().listNodes().find((n) => n.getName() === name)!;

/** Gives the flap two UV sets (read from its positions' data) and the wing's material, which samples set 1 somewhere. */
function flapWithTwoUvSets(json: MessyJson): void {
  const flap = json.meshes.find((m: MessyJson) => m.name === "flap").primitives[0];
  const uv = { ...json.accessors[flap.attributes.POSITION], type: "VEC2", min: undefined, max: undefined };
  flap.attributes.TEXCOORD_0 = json.accessors.push(uv) - 1;
  flap.attributes.TEXCOORD_1 = json.accessors.push(uv) - 1;
  flap.material = 0;
}

const CASES: MessyCase[] = [
  {
    name: "a second scene without nodes (Blender writes one per empty scene)",
    edit: (json) => json.scenes.push({ name: "Empty" }),
    inputValid: true,
    check: (out) => assertEquals(out.getRoot().listScenes().map((s) => s.listChildren().length), [3, 0]),
  },
  {
    name: "TEXCOORD0 for TEXCOORD_0",
    edit: (json) => renameWingAttribute(json, "TEXCOORD_0", "TEXCOORD0"),
    inputValid: false,
    warning: /attribute names of mesh 'wing'.*'TEXCOORD0' → 'TEXCOORD_0'/,
    check: (out) => {
      const primitive = wing(out).listPrimitives()[0];
      assertEquals([...primitive.getAttribute("TEXCOORD_0")!.getArray()!], [0, 0, 1, 0, 0, 1, 1, 1]);
      assert(primitive.getMaterial()!.getBaseColorTexture());
    },
  },
  {
    name: "an attribute name glTF does not define (BATCHID)",
    edit: (json) => renameWingAttribute(json, "NORMAL", "BATCHID"),
    inputValid: false,
    warning: /'BATCHID' → '_BATCHID'/,
    check: (out) => assertEquals(wing(out).listPrimitives()[0].getAttribute("_BATCHID")!.getCount(), 4),
  },
  {
    name: "position bounds one number short, and a buffer view target of 0",
    edit: (json) => {
      const position = json.accessors[wingAttribute(json, "POSITION")];
      position.min = [0, 0];
      json.bufferViews[position.bufferView].target = 0;
    },
    inputValid: false,
    warning: [
      /\/accessors\/\d+\/min: an array of 2 is not 3 numbers; left out \(written from the data\)/,
      /\/bufferViews\/\d+\/target: 0 is not a buffer view target; left out/,
    ],
    check: (out) => {
      const position = wing(out).listPrimitives()[0].getAttribute("POSITION")!;
      assertEquals([position.getMin([]), position.getMax([])], [[0, 0, 0], [1, 1, 0]]);
    },
  },
  {
    name: "a mesh without UVs drawn with a textured material",
    edit: (json) => delete wingPrimitive(json).attributes.TEXCOORD_0,
    inputValid: false,
    warning:
      /mesh 'wing' has no UV set for the textures of material 'painted'; written with UVs of \(0,0\), so every client draws each texture's corner colour/,
    check: (out) => {
      // The texture kept, sampled at (0,0) as viewers sample it without UVs.
      const primitive = wing(out).listPrimitives()[0];
      const material = primitive.getMaterial()!;
      assertEquals([material.getName(), material.getBaseColorTexture() !== null], ["painted", true]);
      assert(Array.from(primitive.getAttribute("TEXCOORD_0")!.getArray()!).every((v) => v === 0));
    },
  },
  {
    name: "a PNG cut short before its image data",
    edit: (json) => json.bufferViews[json.images[0].bufferView].byteLength = 40,
    inputValid: false,
    warning:
      /image 'paint' cannot be read \(PNG ends before its image data\); materials are drawn without it/,
    check: (out) => {
      assertEquals(out.getRoot().listTextures(), []);
      assertEquals(out.getRoot().listMaterials()[0].getBaseColorTexture(), null);
    },
  },
  {
    name: "an image view pointing at bytes that are no image",
    edit: (json) => {
      // 48 bytes of the position floats where the PNG should be.
      const positions = json.bufferViews[json.accessors[wingAttribute(json, "POSITION")].bufferView];
      json.images[0].bufferView =
        json.bufferViews.push({ buffer: 0, byteOffset: positions.byteOffset, byteLength: 48 }) - 1;
    },
    inputValid: true, // the validator only warns (IMAGE_UNRECOGNIZED_FORMAT); no viewer can draw it
    warning:
      /image 'paint' cannot be read \(its bytes are no image format glTF carries, though declared 'image\/png'\); materials are drawn without it/,
    check: (out) => {
      assertEquals(out.getRoot().listTextures(), []);
      assertEquals(out.getRoot().listMaterials()[0].getBaseColorTexture(), null);
    },
  },
  {
    name: "a PNG declared image/jpeg",
    edit: (json) => json.images[0].mimeType = "image/jpeg",
    inputValid: false,
    warning: /image 'paint' is declared 'image\/jpeg' but holds image\/png/,
    check: (out) => assertEquals(out.getRoot().listTextures()[0].getMimeType(), "image/png"),
  },
  {
    // The Khronos validator accepts it; decode.gltf refused it (more than 0.0005 off) before.
    name: "a rotation rounded to length 1.007",
    edit: (json) => json.nodes[nodeIndex(json, "Wing")].rotation = [0, 0, 0.71, 0.7141],
    inputValid: true,
    warning: /at \/nodes\/\d+\/rotation: rotation of length 1\.00[67]\d* made unit length/,
    check: (out) => {
      const [x, y, z, w] = node(out, "Wing").getRotation();
      assert(Math.abs(Math.hypot(x, y, z, w) - 1) < 1e-6);
      assert(Math.abs(z / w - 0.71 / 0.7141) < 1e-6, "the direction is kept");
    },
  },
  {
    name: "colour and metal factors past 1",
    edit: (json) => {
      json.materials[0].pbrMetallicRoughness.baseColorFactor = [1.2, 1, 0.5, 1];
      json.materials[0].pbrMetallicRoughness.metallicFactor = 1.00001;
    },
    inputValid: false,
    warning: /baseColorFactor: \[1\.2,1,0\.5,1\] clamped to 0\.\.1/,
    check: (out) => {
      const material = out.getRoot().listMaterials()[0];
      assertEquals(material.getBaseColorFactor(), [1, 1, 0.5, 1]);
      assertEquals(material.getMetallicFactor(), 1);
    },
  },
  {
    // Clamped before, the glow was a quarter as bright; the other material has a strength of its own.
    name: "emissive factors past 1 (a glow written in the factor)",
    edit: (json) => {
      json.materials[0].emissiveFactor = [4, 2, 1];
      json.materials.push({
        name: "beacon",
        emissiveFactor: [3, 0, -0.5],
        extensions: { KHR_materials_emissive_strength: { emissiveStrength: 2 } },
      });
      json.meshes.find((m: MessyJson) => m.name === "flap").primitives[0].material = 1;
    },
    inputValid: false,
    warning: [
      /\/materials\/0\/emissiveFactor: \[4,2,1\] past 1 scaled by 1\/4 into 0\.\.1, its emissive strength by as much \(KHR_materials_emissive_strength: 4\), so the light emitted stays/,
      /\/materials\/1\/emissiveFactor: \[3,0,-0\.5\] past 1 scaled by 1\/3 .*KHR_materials_emissive_strength: 6/,
    ],
    check: (out) => {
      const emission = (name: string) => {
        const material = out.getRoot().listMaterials().find((m) => m.getName() === name)!;
        const strength = material.getExtension<EmissiveStrength>("KHR_materials_emissive_strength")!;
        return [material.getEmissiveFactor(), strength.getEmissiveStrength()];
      };
      assertEquals(emission("painted"), [[1, 0.5, 0.25], 4]);
      assertEquals(emission("beacon"), [[1, 0, 0], 6]);
    },
  },
  {
    name: "a sampler wrap of 0",
    edit: (json) => {
      json.samplers = [{ wrapS: 0, wrapT: 33071 }];
      json.textures[0].sampler = 0;
    },
    inputValid: true, // a warning to the validator; decode.gltf refused it before

    warning: /\/samplers\/0\/wrapS: 0 is not a glTF wrapS; left to the default/,
    check: (out) => {
      const info = out.getRoot().listMaterials()[0].getBaseColorTextureInfo()!;
      assertEquals([info.getWrapS(), info.getWrapT()], [10497, 33071]);
    },
  },
  {
    name: "a texture without an image",
    edit: (json) => delete json.textures[0].source,
    inputValid: true,
    warning: /baseColorTexture: texture 0 has no image; the material is kept without it/,
    check: (out) => assertEquals(out.getRoot().listMaterials()[0].getBaseColorTexture(), null),
  },
  {
    name: "cameras out of range",
    edit: (json) => {
      json.cameras = [
        { name: "wide", type: "perspective", perspective: { yfov: 1, znear: 1, zfar: 0.5, aspectRatio: 0 } },
        { name: "plan", type: "orthographic", orthographic: { xmag: 0, ymag: 2, znear: 0, zfar: 10 } },
      ];
      json.nodes[nodeIndex(json, "Wing")].camera = 0;
      json.nodes[nodeIndex(json, "Flap_R")].camera = 1;
    },
    inputValid: false,
    warning:
      /camera 'wide': aspect ratio 0 left out; far plane 0\.5 not beyond the near plane 1: made infinite/,
    check: (out) => {
      const [wide, plan] = out.getRoot().listCameras();
      assertEquals([wide.getAspectRatio(), wide.getZFar()], [null, 100]);
      assertEquals([plan.getXMag(), plan.getYMag()], [2, 2]);
    },
  },
  {
    // Older Sketchfab downloads: specular-glossiness materials, shared by a part modelled without UVs.
    name: "a specular-glossiness texture on a mesh without UVs",
    edit: (json) => {
      json.extensionsUsed = ["KHR_materials_pbrSpecularGlossiness"];
      json.materials[0] = {
        name: "painted",
        extensions: {
          KHR_materials_pbrSpecularGlossiness: {
            diffuseFactor: [1, 0.5, 0.5, 1],
            diffuseTexture: { index: 0 },
          },
        },
      };
      json.meshes.find((m: MessyJson) => m.name === "flap").primitives[0].material = 0;
    },
    inputValid: false,
    warning: /mesh 'flap' has no UV set for the textures of material 'painted'; written with UVs of \(0,0\)/,
    check: (out) => {
      const diffuse = (mesh: string) => {
        const material = out.getRoot().listMeshes().find((m) => m.getName() === mesh)!.listPrimitives()[0]
          .getMaterial()!;
        const extension = material.getExtension<PBRSpecularGlossiness>(
          "KHR_materials_pbrSpecularGlossiness",
        )!;
        return [extension.getDiffuseFactor(), extension.getDiffuseTexture() !== null];
      };
      // Both keep the diffuse texture: the flap samples it at (0,0).
      assertEquals(diffuse("flap"), [[1, 0.5, 0.5, 1], true]);
      assertEquals(diffuse("wing"), [[1, 0.5, 0.5, 1], true]);
    },
  },
  {
    // The same without the flap: the material gets the metal-rough fallback three.js draws.
    name: "a specular-glossiness material without a metal-rough fallback",
    edit: (json) => {
      json.extensionsUsed = json.extensionsRequired = ["KHR_materials_pbrSpecularGlossiness"];
      json.materials[0] = {
        name: "painted",
        extensions: {
          KHR_materials_pbrSpecularGlossiness: {
            diffuseTexture: { index: 0, texCoord: 0 },
            glossinessFactor: 0.25,
          },
        },
      };
    },
    inputValid: true,
    warning:
      /material 'painted' is specular-glossiness alone, .* metallic 0, roughness 0\.75 from its glossiness/,
    check: (out) => {
      const material = out.getRoot().listMaterials()[0];
      assertEquals(
        [
          material.getMetallicFactor(),
          material.getRoughnessFactor(),
          material.getBaseColorTexture()?.getName(),
        ],
        [0, 0.75, "paint"],
      );
      const extension = out.getRoot().listExtensionsUsed().find((e) =>
        e.extensionName === "KHR_materials_pbrSpecularGlossiness"
      );
      assertEquals(extension?.isRequired(), false);
    },
  },
  {
    // The flap, sharing the material, has the second UV set and keeps sampling it.
    name: "a clearcoat texture sampling a UV set one mesh lacks",
    edit: (json) => {
      json.extensionsUsed = ["KHR_materials_clearcoat"];
      json.materials[0].extensions = {
        KHR_materials_clearcoat: { clearcoatFactor: 1, clearcoatTexture: { index: 0, texCoord: 1 } },
      };
      flapWithTwoUvSets(json);
    },
    inputValid: false,
    warning: /textures of mesh 'wing' sampled missing UV sets; they use TEXCOORD_0/,
    check: (out) => {
      const uvSet = (mesh: string) => {
        const material = out.getRoot().listMeshes().find((m) => m.getName() === mesh)!.listPrimitives()[0]
          .getMaterial()!;
        const clearcoat = material.getExtension<Clearcoat>("KHR_materials_clearcoat")!;
        return [clearcoat.getClearcoatTexture() !== null, clearcoat.getClearcoatTextureInfo()!.getTexCoord()];
      };
      assertEquals([uvSet("wing"), uvSet("flap")], [[true, 0], [true, 1]]);
    },
  },
  {
    // Decoded before and refused by the export's check, at the output's path, as the validator refuses the input.
    name: "material extension factors out of range",
    edit: (json) => {
      json.extensionsUsed = [
        "KHR_materials_clearcoat",
        "KHR_materials_ior",
        "KHR_materials_volume",
        "KHR_materials_transmission",
        "KHR_materials_emissive_strength",
      ];
      json.materials[0].extensions = {
        KHR_materials_clearcoat: { clearcoatFactor: 2, clearcoatRoughnessFactor: 0.3 },
        KHR_materials_ior: { ior: 0.5 },
        KHR_materials_volume: {
          thicknessFactor: 0.2,
          attenuationDistance: 0,
          attenuationColor: [1.5, 1, 0.5],
        },
        KHR_materials_transmission: { transmissionFactor: 1 },
        KHR_materials_emissive_strength: { emissiveStrength: -3 },
      };
    },
    inputValid: false,
    warning: [
      /KHR_materials_clearcoat\/clearcoatFactor: 2 clamped to 0\.\.1/,
      /KHR_materials_ior\/ior: 0\.5 clamped to ≥ 1/,
      /KHR_materials_volume\/attenuationDistance: 0 is not above 0; left to the default/,
      /KHR_materials_volume\/attenuationColor: \[1\.5,1,0\.5\] clamped to 0\.\.1/,
      /KHR_materials_emissive_strength\/emissiveStrength: -3 clamped to ≥ 0/,
    ],
    check: (out) => {
      const material = out.getRoot().listMaterials()[0];
      const clearcoat = material.getExtension<Clearcoat>("KHR_materials_clearcoat")!;
      const volume = material.getExtension<Volume>("KHR_materials_volume")!;
      assertEquals(
        [clearcoat.getClearcoatFactor(), clearcoat.getClearcoatRoughnessFactor()],
        [1, 0.3],
      );
      assertEquals(material.getExtension<IOR>("KHR_materials_ior")!.getIOR(), 1);
      assertEquals(
        [volume.getThicknessFactor(), volume.getAttenuationDistance(), volume.getAttenuationColor()],
        [0.2, Infinity, [1, 1, 0.5]],
      );
      assertEquals(
        material.getExtension<EmissiveStrength>("KHR_materials_emissive_strength")!.getEmissiveStrength(),
        0,
      );
    },
  },
  {
    // three.js and Blender read a material's extensions whether listed or not; glTF-Transform dropped them.
    name: "material extensions used but not listed",
    edit: (json) => {
      json.materials[0].extensions = { KHR_materials_ior: { ior: 1.33 }, KHR_materials_unlit: {} };
      json.materials[0].pbrMetallicRoughness.baseColorTexture.extensions = {
        KHR_texture_transform: { scale: [2, 2] },
      };
    },
    inputValid: false,
    warning: [
      /\/extensionsUsed: 'KHR_materials_ior' added: \/materials\/0\/extensions\/KHR_materials_ior uses it/,
      /'KHR_materials_unlit' added/,
      /'KHR_texture_transform' added/,
    ],
    check: (out) => {
      const material = out.getRoot().listMaterials()[0];
      assertEquals(material.getExtension<IOR>("KHR_materials_ior")!.getIOR(), 1.33);
      assert(material.getExtension("KHR_materials_unlit"));
      const transform = material.getBaseColorTextureInfo()!.getExtension<Transform>("KHR_texture_transform")!;
      assertEquals(transform.getScale(), [2, 2]);
    },
  },
  {
    // The flap, sharing the material, has the second UV set and keeps sampling it through the transform.
    name: "a texture transform naming a UV set one mesh lacks",
    edit: (json) => {
      json.extensionsUsed = ["KHR_texture_transform"];
      json.materials[0].pbrMetallicRoughness.baseColorTexture.extensions = {
        KHR_texture_transform: { texCoord: 1, rotation: 0.5 },
      };
      flapWithTwoUvSets(json);
    },
    inputValid: false,
    warning: /textures of mesh 'wing' sampled missing UV sets; they use TEXCOORD_0/,
    check: (out) => {
      const sampled = (mesh: string) => {
        const info = out.getRoot().listMeshes().find((m) => m.getName() === mesh)!.listPrimitives()[0]
          .getMaterial()!.getBaseColorTextureInfo()!;
        const transform = info.getExtension<Transform>("KHR_texture_transform")!;
        return [transform.getTexCoord() ?? info.getTexCoord(), transform.getRotation()];
      };
      assertEquals([sampled("wing"), sampled("flap")], [[0, 0.5], [1, 0.5]]);
    },
  },
  {
    name: "camera planes out of range: an orthographic far plane of 0, a perspective near plane of 0",
    edit: (json) => {
      json.cameras = [
        { name: "plan", type: "orthographic", orthographic: { xmag: 2, ymag: 2, znear: 0, zfar: 0 } },
        { name: "cockpit", type: "perspective", perspective: { yfov: 1, znear: 0, zfar: 500 } },
      ];
      json.nodes[nodeIndex(json, "Wing")].camera = 0;
      json.nodes[nodeIndex(json, "Flap_R")].camera = 1;
    },
    inputValid: false,
    warning: [
      /camera 'plan': far plane 0 not beyond the near plane 0: made 100/,
      /camera 'cockpit': near plane 0 made 0\.5/,
    ],
    check: (out) => {
      const [plan, cockpit] = out.getRoot().listCameras();
      assertEquals([plan.getZNear(), plan.getZFar()], [0, 100]);
      assertEquals([cockpit.getZNear(), cockpit.getZFar()], [0.5, 500]);
    },
  },
  {
    // Refused at decode before ("a non-empty array"), and at the export's check for the empty primitive.
    name: "a mesh without primitives and a primitive without attributes",
    edit: (json) => {
      json.meshes.push({ name: "placeholder", primitives: [] });
      json.nodes.push({ name: "Pylon", mesh: json.meshes.length - 1 });
      json.scenes[0].nodes.push(json.nodes.length - 1);
      json.meshes.find((m: MessyJson) => m.name === "flap").primitives.push({ attributes: {} });
    },
    inputValid: false,
    warning: [
      /mesh 'placeholder' has no primitive to draw; left out; 'Pylon' drawn without it/,
      /1 primitive\(s\) of mesh 'flap' without attributes left out/,
    ],
    check: (out) => {
      const root = out.getRoot();
      const meshes = root.listMeshes().map((mesh) => [mesh.getName(), mesh.listPrimitives().length]);
      assertEquals(meshes.sort(), [["flap", 1], ["wing", 1]]);
      assertEquals(node(out, "Pylon").getMesh(), null);
    },
  },
  {
    // glTF-Transform dropped it without a word (with the extension listed, only the extension was named).
    name: "a channel animating through KHR_animation_pointer, the extension not listed",
    edit: (json) => {
      json.animations[0].channels.push({
        sampler: 0,
        target: { path: "pointer", extensions: { KHR_animation_pointer: { pointer: "/nodes/0/rotation" } } },
      });
    },
    inputValid: false,
    warning:
      /\/animations\/0\/channels\/1\/target\/path: animates through KHR_animation_pointer, which partgraph does not read; the channel is left out/,
    check: (out) => assertEquals(out.getRoot().listAnimations()[0].listChannels().length, 1),
  },
  {
    // glTF-Transform threw a TypeError reading it ("reading 'znear'").
    name: "a camera without a type, holding one projection",
    edit: (json) => {
      json.cameras = [{ orthographic: { xmag: 2, ymag: 1, znear: 0, zfar: 10 } }];
      json.nodes[nodeIndex(json, "Wing")].camera = 0;
    },
    inputValid: false,
    warning: /\/cameras\/0\/type: absent; read as 'orthographic', the projection it holds/,
    check: (out) => {
      const camera = out.getRoot().listCameras()[0];
      assertEquals([camera.getType(), camera.getXMag(), camera.getZFar()], ["orthographic", 2, 10]);
    },
  },
  {
    name: "an image in a buffer view without its MIME type",
    edit: (json) => delete json.images[0].mimeType,
    inputValid: false,
    warning: /image 'paint' has no MIME type and holds image\/png; read as image\/png/,
    check: (out) => assertEquals(out.getRoot().listTextures()[0].getMimeType(), "image/png"),
  },
  {
    name: "an image in a buffer view without its MIME type, of bytes that are no image",
    edit: (json) => {
      const positions = json.bufferViews[json.accessors[wingAttribute(json, "POSITION")].bufferView];
      json.images[0].bufferView =
        json.bufferViews.push({ buffer: 0, byteOffset: positions.byteOffset, byteLength: 48 }) - 1;
      delete json.images[0].mimeType;
    },
    inputValid: false,
    warning:
      /image 'paint' cannot be read \(its bytes are no image format glTF carries, and no type is declared\)/,
    check: (out) => assertEquals(out.getRoot().listTextures(), []),
  },
  {
    name: "a skin without joints on a mesh without joint data",
    edit: (json) => {
      json.skins.push({ name: "empty", joints: [] });
      json.nodes[nodeIndex(json, "Flap_R")].skin = json.skins.length - 1;
    },
    inputValid: false,
    warning: /skin 'empty' has no joints; left out, its meshes drawn unskinned/,
    check: (out) => {
      assertEquals(out.getRoot().listSkins().map((skin) => skin.getName()), ["wing_skin"]);
      assertEquals(node(out, "Flap_R").getSkin(), null);
    },
  },
  {
    name: "morph targets offsetting an attribute their primitive does not have",
    edit: (json) => {
      const primitive = wingPrimitive(json);
      const position = primitive.attributes.POSITION;
      // Offsets of a COLOR_0 the wing lacks: one target offsets its positions too, the other nothing else.
      primitive.targets = [{ POSITION: position, COLOR_0: position }, { COLOR_0: position }];
    },
    inputValid: false,
    warning: /mesh 'wing': morph target offsets of COLOR_0, which their primitives do not have, left out/,
    check: (out) => {
      const [moving, still] = wing(out).listPrimitives()[0].listTargets();
      assertEquals([moving.listSemantics(), still.listSemantics()], [["POSITION"], ["POSITION"]]);
      assert(Array.from(still.getAttribute("POSITION")!.getArray()!).every((v) => v === 0));
      assert(Array.from(moving.getAttribute("POSITION")!.getArray()!).some((v) => v !== 0));
    },
  },
  {
    // Blender 3.4's importer fails with an IndexError on a primitive with fewer targets than the first.
    name: "primitives of one mesh with unequal morph target counts",
    edit: (json) => {
      const primitive = wingPrimitive(json);
      const position = primitive.attributes.POSITION;
      primitive.targets = [{ POSITION: position }, { POSITION: position }];
      const mesh = json.meshes.find((m: MessyJson) => m.name === "wing");
      mesh.primitives.push({ ...primitive, targets: [{ POSITION: position }] });
    },
    inputValid: false,
    // Repaired by decode.gltf (v49) before export.gltf sees it.
    warning:
      /mesh 'wing''s primitives have 2, 1 morph targets; the ones with fewer are given targets moving nothing/,
    check: (out) => {
      const [first, second] = wing(out).listPrimitives();
      assertEquals([first.listTargets().length, second.listTargets().length], [2, 2]);
      const written = second.listTargets()[0].getAttribute("POSITION")!.getArray()!;
      assertEquals(Array.from(written), Array.from(first.getAttribute("POSITION")!.getArray()!));
      const added = second.listTargets()[1].getAttribute("POSITION")!;
      assertEquals([added.getCount(), Array.from(added.getArray()!).every((v) => v === 0)], [4, true]);
    },
  },
  {
    name: "a spot light out of range",
    edit: (json) => {
      json.extensionsUsed = ["KHR_lights_punctual"];
      json.extensions = {
        KHR_lights_punctual: {
          lights: [{ name: "nav", type: "spot", intensity: -1, range: 0, spot: { outerConeAngle: 2 } }],
        },
      };
      json.nodes[nodeIndex(json, "Wing")].extensions = { KHR_lights_punctual: { light: 0 } };
    },
    inputValid: false,
    warning: /light 'nav': intensity -1 made 0; range 0 left out; cone angles 0, 2 made 0, 1\.57/,
    check: (out) => {
      const light = node(out, "Wing").getExtension<Light>("KHR_lights_punctual")!;
      assertEquals([light.getIntensity(), light.getRange(), light.getOuterConeAngle()], [
        0,
        null,
        Math.PI / 2,
      ]);
    },
  },
  {
    name: "a skeleton that is not its joints' root",
    edit: (json) => json.skins[0].skeleton = nodeIndex(json, "Flap_R"),
    inputValid: false,
    warning: /skin 'wing_skin': skeleton 'Flap_R' is not the common root of its joints; left out/,
    check: (out) => assertEquals(out.getRoot().listSkins()[0].getSkeleton(), null),
  },
  {
    // Blender 3.4 imports it as one armature and three.js binds the skeleton as it is; export refused
    // it (the validator's SKIN_NO_COMMON_ROOT).
    name: "skin joints in two separate trees",
    edit: (json) => {
      const flap = nodeIndex(json, "Flap_R");
      json.nodes[flap].translation = [0, 0, 2];
      json.skins[0].joints = [nodeIndex(json, "Aileron_L"), flap];
    },
    inputValid: false,
    warning:
      /skin 'wing_skin': its joints have no common root \(they lie in the trees of 'root_bone', 'Flap_R'\); those trees put under a new node 'wing_skin_root'/,
    check: (out) => {
      const root = node(out, "wing_skin_root");
      assertEquals(root.listChildren().map((n) => n.getName()), ["root_bone", "Flap_R"]);
      assertEquals([root.getTranslation(), root.getRotation(), root.getScale()], [[0, 0, 0], [0, 0, 0, 1], [
        1,
        1,
        1,
      ]]);
      assertEquals(out.getRoot().listScenes()[0].listChildren().map((n) => n.getName()), [
        "Wing",
        "wing_skin_root",
      ]);
      assertEquals(
        [node(out, "Aileron_L").getWorldTranslation(), node(out, "Flap_R").getWorldTranslation()],
        [
          [1, 0, 0],
          [0, 0, 2],
        ],
      );
      assertEquals(out.getRoot().listSkins()[0].listJoints().map((n) => n.getName()), [
        "Aileron_L",
        "Flap_R",
      ]);
    },
  },
  {
    name: "weights summing to 0.9 (an exporter's rounding)",
    edit: (json, bin) =>
      editAccessor(json, bin, wingAttribute(json, "WEIGHTS_0"), (weights) => weights[0] = 0.4),
    inputValid: false,
    warning: /1 vertex weight set\(s\) of mesh 'wing' made to sum to 1/,
    check: (out) => {
      const weights = wing(out).listPrimitives()[0].getAttribute("WEIGHTS_0")!.getElement(0, [] as number[]);
      assertEquals(weights.map((w) => Number(w.toFixed(6))), [0.444444, 0.555556, 0, 0]);
    },
  },
  {
    name: "a key time written twice (a baker's cut)",
    edit: (json, bin) =>
      editAccessor(json, bin, json.animations[0].samplers[0].input, (times) => times[2] = 1),
    inputValid: false,
    warning: /1 key\(s\) of animation 'deflect' sampler 0 dropped: their times did not increase/,
    check: (out) => {
      const sampler = out.getRoot().listAnimations()[0].listSamplers()[0];
      assertEquals([...sampler.getInput()!.getArray()!], [0, 1]);
      assertEquals(sampler.getOutput()!.getCount(), 2);
    },
  },
  {
    // Blender's exporter wrote keys at frames before 0 this way until its "negative frames" option.
    name: "a clip starting at -1 s",
    edit: (json, bin) =>
      editAccessor(json, bin, json.animations[0].samplers[0].input, (times) => times[0] = -1),
    inputValid: false,
    warning: /animation 'deflect' starts at -1 s \(keys before 0.*slid to start at 0, its timing kept/,
    check: (out) => {
      const sampler = out.getRoot().listAnimations()[0].listSamplers()[0];
      assertEquals([...sampler.getInput()!.getArray()!], [0, 2, 3]);
    },
  },
  {
    name: "an index view with a byteStride of 2 (three.js's exporter before r89)",
    edit: (json) => json.bufferViews[json.accessors[wingPrimitive(json).indices].bufferView].byteStride = 2,
    inputValid: false,
    warning:
      /\/bufferViews\/\d+\/byteStride: 2 is the element size of the data it holds, tightly packed: left out/,
    check: (out) =>
      assertEquals([...wing(out).listPrimitives()[0].getIndices()!.getArray()!], [0, 1, 2, 2, 1, 3]),
  },
  {
    name: "indices as signed shorts (early UnityGLTF)",
    edit: (json) => json.accessors[wingPrimitive(json).indices].componentType = 5122,
    inputValid: false,
    warning: /\/meshes\/\d+\/primitives\/0\/indices: accessor \d+ holds indices as SHORT: read as unsigned/,
    check: (out) => {
      const indices = wing(out).listPrimitives()[0].getIndices()!;
      assertEquals([indices.getComponentType(), [...indices.getArray()!]], [5123, [0, 1, 2, 2, 1, 3]]);
    },
  },
  {
    name: "enums spelt in another case",
    edit: (json) => {
      json.animations[0].samplers[0].interpolation = "step";
      json.materials[0].alphaMode = "Blend";
      json.cameras = [{ type: "Perspective", perspective: { yfov: 1, znear: 0.1 } }];
      json.nodes[nodeIndex(json, "Wing")].camera = 0;
    },
    inputValid: true, // open enums: the validator warns; decode.gltf refused each before
    warning: [
      /\/animations\/0\/samplers\/0\/interpolation: "step" read as 'STEP'/,
      /\/materials\/0\/alphaMode: "Blend" read as 'BLEND'/,
      /\/cameras\/0\/type: "Perspective" read as 'perspective'/,
    ],
    check: (out) => {
      assertEquals(out.getRoot().listAnimations()[0].listSamplers()[0].getInterpolation(), "STEP");
      assertEquals(out.getRoot().listMaterials()[0].getAlphaMode(), "BLEND");
      assertEquals(out.getRoot().listCameras()[0].getType(), "perspective");
    },
  },
  {
    name: "enum values glTF does not define",
    edit: (json) => {
      json.animations[0].samplers[0].interpolation = "SMOOTH";
      json.materials[0].alphaMode = "ADDITIVE";
      json.cameras = [{ type: "ortho", orthographic: { xmag: 1, ymag: 1, znear: 0, zfar: 10 } }];
      json.nodes[nodeIndex(json, "Wing")].camera = 0;
    },
    inputValid: true,
    warning: [
      /interpolation: "SMOOTH" is not a glTF interpolation; left to the default, LINEAR/,
      /alphaMode: "ADDITIVE" is not a glTF alpha mode; left to the default, OPAQUE/,
      /type: "ortho" is not a glTF camera type; read as 'orthographic', the projection it holds/,
    ],
    check: (out) => {
      assertEquals(out.getRoot().listAnimations()[0].listSamplers()[0].getInterpolation(), "LINEAR");
      assertEquals(out.getRoot().listMaterials()[0].getAlphaMode(), "OPAQUE");
      assertEquals(out.getRoot().listCameras()[0].getType(), "orthographic");
    },
  },
  {
    name: "a channel animating a property glTF does not define",
    edit: (json) => json.animations[0].channels[0].target.path = "rotate",
    inputValid: true,
    warning: [
      /\/channels\/0\/target\/path: "rotate" is not a property glTF animates; the channel is left out/,
      /animation 'deflect' has no channel to play; left out/,
    ],
    check: (out) => assertEquals(out.getRoot().listAnimations(), []),
  },
  {
    // Found by the fuzzer (gltf1, seed 20261207, case 1451): the check read the keys' rule of no path.
    name: "a channel naming no path",
    edit: (json) => delete json.animations[0].channels[0].target.path,
    inputValid: false,
    warning: [
      /\/channels\/0\/target: names no path \(glTF requires one\); the channel is left out/,
      /animation 'deflect' has no channel to play; left out/,
    ],
    check: (out) => assertEquals(out.getRoot().listAnimations(), []),
  },
  {
    // VS Code's glTF conversion wrote `"byteOffset": null`, gltf-rs `"sparse": null`, Compressonator
    // `"animations": null`, tinygltf an empty material as `null`; web engines read each as unset.
    name: "null for unset fields and an empty material",
    edit: (json) => {
      json.bufferViews[0].byteOffset = null;
      json.accessors[0].sparse = null;
      json.textures[0].sampler = null;
      json.cameras = null;
      json.scene = null;
      json.materials.push(null);
      json.nodes[nodeIndex(json, "Wing")].extras = null;
    },
    inputValid: false,
    warning: [
      /\/bufferViews\/0\/byteOffset: null read as absent/,
      /\/accessors\/0\/sparse: null read as absent/,
      /\/cameras: null read as absent/,
      /\/materials\/1: null read as an empty object/,
    ],
    check: (out) => {
      // The empty material is kept, written with a name (export.gltf v26: unnamed ones are named).
      assertEquals(out.getRoot().listMaterials().map((m) => m.getName()), ["painted", "material_1"]);
      const positions = wing(out).listPrimitives()[0].getAttribute("POSITION")!;
      assertEquals([...positions.getArray()!], [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]);
      assertEquals(out.getRoot().listAnimations().length, 1);
    },
  },
  {
    name: "every node listed in the scene, children too",
    edit: (json) => json.scenes[0].nodes = json.nodes.map((_: unknown, i: number) => i),
    inputValid: false,
    warning:
      /\/scenes\/0\/nodes: 1 node\(s\) listed that are children of other nodes \(nodes \d+\); left under their parents/,
    check: (out) => {
      assertEquals(node(out, "Aileron_L").getParentNode()?.getName(), "root_bone");
      assertEquals(out.getRoot().listScenes()[0].listChildren().map((n) => n.getName()).sort(), [
        "Flap_R",
        "Wing",
        "root_bone",
      ]);
    },
  },
  {
    name: "morph weights on a node without a mesh",
    edit: (json) => json.nodes[nodeIndex(json, "root_bone")].weights = [0.5],
    inputValid: false,
    warning:
      /node 'root_bone' \(it has no mesh\) has 1 morph weights and no morph targets; the weights .* are left out/,
    check: (out) => assertEquals(node(out, "root_bone").getWeights(), []),
  },
  {
    // Exporters gathering every action of an object (blendergltf's "All Eligible") wrote such pairs.
    name: "two channels on one target",
    edit: (json) => {
      const animation = json.animations[0];
      animation.samplers.push({ ...animation.samplers[0], interpolation: "STEP" });
      animation.channels.push({ ...animation.channels[0], sampler: 1 });
    },
    inputValid: false,
    warning:
      /animation 'deflect': 1 channel\(s\) targeting what a later channel of it animates left out \(the later one plays\)/,
    check: (out) => {
      const [animation] = out.getRoot().listAnimations();
      assertEquals(animation.listChannels().map((c) => c.getSampler()!.getInterpolation()), ["STEP"]);
      assertEquals(animation.listSamplers().length, 1, "the sampler no channel uses is left out too");
    },
  },
  {
    name: "a channel animating morph weights of a node without morph targets",
    edit: (json) => json.animations[0].channels[0].target.path = "weights",
    inputValid: false,
    warning: [
      /animation 'deflect': 1 channel\(s\) animating morph weights of a node without morph targets left out/,
      /animation 'deflect' has no channel to play; left out/,
    ],
    check: (out) => assertEquals(out.getRoot().listAnimations(), []),
  },
  {
    name: "a buffer length past the binary chunk, its views inside it",
    edit: (json, bin) => json.buffers[0].byteLength = bin.byteLength + 4,
    inputValid: false,
    warning:
      /\/buffers\/0\/byteLength: \d+ is past the \d+ bytes present, which hold all its views: read as \d+/,
    check: (out) => {
      const positions = wing(out).listPrimitives()[0].getAttribute("POSITION")!;
      assertEquals([...positions.getArray()!], [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]);
    },
  },
  {
    name: "a skin on a node whose mesh has no joints",
    edit: (json) => json.nodes[nodeIndex(json, "Flap_R")].skin = 0,
    inputValid: false,
    warning:
      /at \/nodes\/\d+\/skin: node 'Flap_R' has skin 'wing_skin' but its mesh 'flap' has no JOINTS_0 and WEIGHTS_0 pair .*: read unskinned/,
    check: (out) => {
      assertEquals(node(out, "Flap_R").getSkin(), null);
      assert(node(out, "Wing").getSkin(), "the skinned wing keeps its skin");
    },
  },
  {
    name: "morph weights on a mesh without targets",
    edit: (json) => json.meshes.find((mesh: { name?: string }) => mesh.name === "wing").weights = [0.5],
    inputValid: false,
    warning: /mesh 'wing' has 1 morph weights and no morph targets; the weights .* are left out/,
    check: (out) => assertEquals(wing(out).getWeights(), []),
  },
  {
    // Exporters leave unused influence slots at whatever index; their weight of 0 moves nothing.
    name: "joint slots past the skin's joints, weighted 0",
    edit: (json, bin) =>
      editAccessor(json, bin, wingAttribute(json, "JOINTS_0"), (values) => values.splice(2, 2, 9, 7)),
    inputValid: false,
    warning:
      /messy\.glb at \/meshes\/\d+\/primitives\/0\/attributes\/JOINTS_0: 2 joint index\(es\) past the 2 joints of skin 0, each with a weight of 0 \(unset slots\); set to joint 0/,
    check: (out) =>
      assertEquals(
        [...wing(out).listPrimitives()[0].getAttribute("JOINTS_0")!.getArray()!].slice(0, 4),
        [0, 1, 0, 0],
      ),
  },
  {
    // A mesh whose first UV map was deleted keeps its second's number; viewers read sets by name.
    name: "a textured mesh with TEXCOORD_1 and no TEXCOORD_0",
    edit: (json) => {
      renameWingAttribute(json, "TEXCOORD_0", "TEXCOORD_1");
      json.materials[0].pbrMetallicRoughness.baseColorTexture.texCoord = 1;
    },
    inputValid: false,
    warning:
      /mesh 'wing': attribute sets renumbered from 0 without gaps, as glTF numbers them: TEXCOORD_1 → TEXCOORD_0 \(textures sampling a renumbered UV set follow it\)/,
    check: (out) => {
      const primitive = wing(out).listPrimitives()[0];
      assertEquals(primitive.listSemantics().filter((s) => s.startsWith("TEXCOORD")), ["TEXCOORD_0"]);
      const info = primitive.getMaterial()!.getBaseColorTextureInfo()!;
      assertEquals([info.getTexCoord(), !!primitive.getMaterial()!.getBaseColorTexture()], [0, true]);
    },
  },
  {
    name: "joints without weights",
    edit: (json) => delete wingPrimitive(json).attributes.WEIGHTS_0,
    inputValid: false,
    warning:
      /at \/nodes\/\d+\/skin: node 'Wing' has skin 'wing_skin' but its mesh 'wing' has no JOINTS_0 and WEIGHTS_0 pair .*: read unskinned.*; the leftover JOINTS_0 left out/,
    check: (out) => {
      assertEquals(wing(out).listPrimitives()[0].getAttribute("JOINTS_0"), null);
      assertEquals(node(out, "Wing").getSkin(), null);
    },
  },
  {
    // GPUs with primitive restart end a strip at the type's largest index.
    name: "8-bit indices holding 255 (the restart value) over 256 vertices",
    edit: (json) => {
      const positions = new Float32Array(256 * 3).map((_, i) =>
        i % 3 === 0 ? Math.floor(i / 3) : i % 3 === 1 ? (i % 7) : 0
      );
      const position = json.accessors.push({
        bufferView: embeddedView(json, positions),
        componentType: 5126,
        count: 256,
        type: "VEC3",
        min: [0, 0, 0],
        max: [255, 6, 0],
      }) - 1;
      const indices = json.accessors.push({
        bufferView: embeddedView(json, new Uint8Array([0, 1, 255, 0])),
        componentType: 5121,
        count: 3,
        type: "SCALAR",
      }) - 1;
      json.meshes.push({ name: "strip", primitives: [{ attributes: { POSITION: position }, indices }] });
      json.scenes[0].nodes.push(json.nodes.push({ name: "Strip", mesh: json.meshes.length - 1 }) - 1);
    },
    inputValid: false,
    warning:
      /indices of mesh 'strip' hold the largest value of their type, which GPUs read as a strip restart; written as 32-bit/,
    check: (out) => {
      const indices = out.getRoot().listMeshes().find((m) => m.getName() === "strip")!.listPrimitives()[0]
        .getIndices()!;
      assertEquals([indices.getComponentType(), [...indices.getArray()!]], [5125, [0, 1, 255]]);
    },
  },
  {
    name: "a material variant mapped twice on one primitive",
    edit: (json) => {
      json.extensionsUsed = [...(json.extensionsUsed ?? []), "KHR_materials_variants"];
      json.extensions = { KHR_materials_variants: { variants: [{ name: "clean" }, { name: "worn" }] } };
      json.materials.push({ name: "worn_paint" });
      wingPrimitive(json).extensions = {
        KHR_materials_variants: {
          mappings: [{ material: 1, variants: [1] }, { material: 0, variants: [0, 1] }],
        },
      };
    },
    inputValid: false,
    warning:
      /mesh 'wing': variant\(s\) 'worn' mapped to two materials of one primitive; the first mapping is kept/,
    check: (out) => {
      const list = wing(out).listPrimitives()[0].getExtension<MappingList>("KHR_materials_variants")!;
      assertEquals(
        list.listMappings().map((
          m,
        ) => [m.getMaterial()!.getName(), m.listVariants().map((v) => v.getName())]),
        [["worn_paint", ["worn"]], ["painted", ["clean"]]],
      );
    },
  },
  {
    // Assimp writes an OBJ's three-component UVs so (assimp#2615); Blender's importer fails on them.
    name: "texture coordinates as VEC3 (UVW)",
    edit: (json) => {
      const position = json.accessors[wingAttribute(json, "POSITION")];
      wingPrimitive(json).attributes.TEXCOORD_0 =
        json.accessors.push({ ...position, min: undefined, max: undefined }) - 1;
    },
    inputValid: false,
    warning:
      /attributes\/TEXCOORD_0: accessor \d+ holds UVW \(VEC3\): read as UV, the third component dropped/,
    check: (out) => {
      const uv = wing(out).listPrimitives()[0].getAttribute("TEXCOORD_0")!;
      assertEquals([uv.getType(), [...uv.getArray()!]], ["VEC2", [0, 0, 1, 0, 0, 1, 1, 1]]);
    },
  },
  {
    name: "normalized: true on float normals",
    edit: (json) => json.accessors[wingAttribute(json, "NORMAL")].normalized = true,
    inputValid: false,
    warning: /at \/accessors\/\d+\/normalized: true on float data, which only integers can be; read as false/,
    check: (out) => {
      const normal = wing(out).listPrimitives()[0].getAttribute("NORMAL")!;
      assertEquals([normal.getNormalized(), [...normal.getArray()!].slice(0, 3)], [false, [0, 0, 1]]);
    },
  },
];

for (const messy of CASES) {
  Deno.test(`messy glTF, ${messy.name}: a valid output, the repair named`, async () => {
    const bytes = await messyGlb(messy.edit);
    assertEquals(
      (await validateGltf(bytes)).errors === 0,
      messy.inputValid,
      "the input is as messy as meant",
    );
    const ctx = testContext();
    const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "messy.glb" } }, {}, ctx);
    const out = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
    const report = await validateGltf(out);
    assertEquals(report.errors, 0, report.messages.join("\n"));
    const warnings = ctx.warnings.map((w) => w.message);
    if (!messy.warning) assertEquals(warnings, []);
    for (const pattern of [messy.warning ?? []].flat()) {
      assert(warnings.some((w) => pattern.test(w)), `${pattern} in\n${warnings.join("\n")}`);
    }
    messy.check(await readGltf(out));
  });
}

Deno.test("messy glTF: a clean file gets no warning, and the repairs leave the decoded scene as it was", async () => {
  const clean = testContext();
  const { scene } = await runNode(
    decodeGltf,
    { bytes: { bytes: await messyGlb(() => {}), name: "a.glb" } },
    {},
    clean,
  );
  await runNode(exportGltf, { scene }, {}, clean);
  assertEquals(clean.warnings, []);
  // Weights on a mesh without targets, which export.gltf drops from its output: set on the decoded scene, as
  // decode.gltf (v49) drops them from a file's.
  const decoded = (await runNode(decodeGltf, { bytes: { bytes: await messyGlb(() => {}), name: "m.glb" } }))
    .scene as Document;
  decoded.getRoot().listMeshes()[0].setWeights([0.5]);
  await runNode(exportGltf, { scene: decoded });
  assertEquals(decoded.getRoot().listMeshes()[0].getWeights(), [0.5]);
});

Deno.test("messy glTF: vertex data packed without padding is read unaligned, and written aligned", async () => {
  // A triangle whose positions start 2 bytes into their view, as old exporters pack them.
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const bin = new Uint8Array(40);
  bin.set(new Uint8Array(positions.buffer), 2);
  const json = {
    asset: { version: "2.0" },
    buffers: [{ byteLength: 40 }],
    bufferViews: [{ buffer: 0, byteLength: 38 }],
    accessors: [{
      bufferView: 0,
      byteOffset: 2,
      componentType: 5126,
      count: 3,
      type: "VEC3",
      min: [0, 0, 0],
      max: [1, 1, 0],
    }],
    meshes: [{ name: "packed", primitives: [{ attributes: { POSITION: 0 } }] }],
    nodes: [{ name: "packed", mesh: 0 }],
    scenes: [{ nodes: [0] }],
  };
  const bytes = glbOf(json, bin);
  assert(
    (await validateGltf(bytes)).codes.includes("ACCESSOR_TOTAL_OFFSET_ALIGNMENT"),
    "the input is misaligned",
  );
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "packed.glb" } }, {}, ctx);
  const out = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  assertEquals((await validateGltf(out)).errors, 0);
  const read = (await readGltf(out)).getRoot().listMeshes()[0].listPrimitives()[0].getAttribute("POSITION")!;
  assertEquals([...read.getArray()!], [...positions]);
  assert(
    ctx.warnings.some((w) => /\/accessors\/0\/byteOffset: data at byte 2 .* read unaligned/.test(w.message)),
  );
});

Deno.test("messy glTF: a thousand rotations rounded the same way are three warnings and a count", async () => {
  const bytes = await messyGlb((json) => {
    for (let i = 0; i < 1000; i++) {
      json.nodes.push({ name: `rivet${i}`, rotation: [0, 0, 0.71, 0.7141] });
      json.scenes[0].nodes.push(json.nodes.length - 1);
    }
  });
  const ctx = testContext();
  await runNode(decodeGltf, { bytes: { bytes, name: "rivets.glb" } }, {}, ctx);
  const warnings = ctx.warnings.map((w) => w.message);
  assertEquals(warnings.length, 4, warnings.join("\n"));
  assert(
    warnings.slice(0, 3).every((w) => /^rivets\.glb at \/nodes\/\d+\/rotation: rotation of length/.test(w)),
  );
  // The count names the next eight by their paths, so each can still be found.
  const shown = warnings.slice(0, 3).map((w) => Number(/\/nodes\/(\d+)\//.exec(w)![1]));
  const next = Array.from({ length: 8 }, (_, i) => `/nodes/${shown[2] + 1 + i}/rotation`);
  assertEquals(warnings[3], `… and 997 more like the last: ${next.join(", ")}, …`);
});

Deno.test("messy glTF: a sampler with fewer values than keys is damage, refused at its output's path", async () => {
  const bytes = await messyGlb((json) => json.accessors[json.animations[0].samplers[0].output].count = 2);
  await rejects(runNode(decodeGltf, { bytes: { bytes, name: "short.glb" } }), (error) => {
    assert(error instanceof DecodeError);
    assertEquals(error.at, { jsonPath: "/animations/0/samplers/0/output" });
    assertEquals(error.expected, "3 values for 3 key(s)");
    return true;
  });
});

Deno.test("messy glTF: a rotation of length 0.001 is damage, refused at its JSON path", async () => {
  const bytes = await messyGlb((json) => json.nodes[0].rotation = [0, 0, 0, 0.001]);
  await rejects(
    runNode(decodeGltf, { bytes: { bytes, name: "damaged.glb" } }),
    (error) => error instanceof DecodeError && /\/nodes\/0\/rotation/.test(error.message),
  );
});

Deno.test("messy glTF: a normal of length 0.5 is made unit length on export", async () => {
  const bytes = await messyGlb((json, bin) =>
    editAccessor(json, bin, wingAttribute(json, "NORMAL"), (normals) => normals[2] = 0.5)
  );
  assert((await validateGltf(bytes)).errors > 0, "the input is invalid");
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "n.glb" } }, {}, ctx);
  const out = await readGltf((await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes);
  assertEquals([...wing(out).listPrimitives()[0].getAttribute("NORMAL")!.getArray()!].slice(0, 3), [0, 0, 1]);
  assert(ctx.warnings.some((w) => /1 normal\(s\) of accessor .* made unit length/.test(w.message)));
});

Deno.test("messy glTF: a 2.0 file labelled 1.0 (its JSON, or its GLB header) is a typed error, not a half-read 1.0 file", async () => {
  // glTF 1.0 itself is upgraded as it is read (tests/nodes/decode/gltf1_test.ts); a 2.0 file saying it
  // is 1.0 is read as 1.0 and refused at its first collection shaped as 2.0 has it.
  const json = await messyGlb((json) => json.asset.version = "1.0");
  await rejects(runNode(decodeGltf, { bytes: { bytes: json, name: "old.glb" } }), (error) => {
    assert(error instanceof DecodeError);
    assertEquals([error.at, error.found], [{ jsonPath: "/buffers" }, "an array of 1"]);
    assert(/keyed by id \(glTF 1\.0\)/.test(error.expected), error.expected);
    return true;
  });
  // A GLB version 1 has a content format of 0 where version 2 has its first chunk's type.
  const binary = await messyGlb(() => {});
  new DataView(binary.buffer, binary.byteOffset).setUint32(4, 1, true);
  await rejects(runNode(decodeGltf, { bytes: { bytes: binary, name: "old.glb" } }), (error) => {
    assert(error instanceof DecodeError);
    assertEquals([error.at, error.found, error.expected], [
      { offset: 16 },
      String(0x4e4f534a),
      "content format 0 (JSON)",
    ]);
    return true;
  });
});

Deno.test("messy glTF: an empty node written as null (tinygltf) is read as an empty node", async () => {
  // The Khronos validator itself stops on this file (NoSuchMethodError), so it is not asked about the input.
  const bytes = await messyGlb((json) => {
    json.nodes.push(null);
    json.scenes[0].nodes.push(json.nodes.length - 1);
  });
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "tiny.glb" } }, {}, ctx);
  const out = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  assertEquals((await validateGltf(out)).errors, 0);
  assert(ctx.warnings.some((w) => /\/nodes\/4: null read as an empty object/.test(w.message)));
  assertEquals((await readGltf(out)).getRoot().listScenes()[0].listChildren().length, 4);
});

Deno.test("messy glTF: a buffer length past its data is damage when a view lies past the data too", async () => {
  const bytes = await messyGlb((json, bin) => {
    json.buffers[0].byteLength = bin.byteLength + 64;
    json.bufferViews[0].byteOffset = bin.byteLength; // a view wholly past the data
  });
  await rejects(runNode(decodeGltf, { bytes: { bytes, name: "cut.glb" } }), (error) => {
    assert(error instanceof DecodeError);
    assertEquals(error.at, { jsonPath: "/buffers/0/byteLength" });
    assert(/at most the \d+ bytes present/.test(error.expected), error.expected);
    return true;
  });
});

Deno.test("messy glTF: joints in trees of different scenes get no common root, and the export refuses them", async () => {
  const bytes = await messyGlb((json) => {
    const flap = nodeIndex(json, "Flap_R");
    json.skins[0].joints = [nodeIndex(json, "Aileron_L"), flap];
    json.scenes[0].nodes = json.scenes[0].nodes.filter((n: number) => n !== flap);
    json.scenes.push({ name: "other", nodes: [flap] });
  });
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "split.glb" } });
  await rejects(runNode(exportGltf, { scene }), (error) => {
    assert(error instanceof DecodeError, String(error));
    assertEquals(error.at, { jsonPath: "/skins/0/joints" });
    assert(/SKIN_NO_COMMON_ROOT/.test(error.found), error.found);
    return true;
  });
});

/** `glb` with its JSON chunk's space padding replaced by NUL bytes (four more than alignment needs). */
function nulPadded(glb: Uint8Array): Uint8Array {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const length = view.getUint32(12, true);
  let end = 20 + length;
  while (glb[end - 1] === 0x20) end--;
  const json = glb.subarray(20, end);
  const padded = new Uint8Array(json.length + 4 + (4 - json.length % 4) % 4);
  padded.set(json);
  const rest = glb.subarray(20 + length);
  const out = new Uint8Array(20 + padded.length + rest.length);
  out.set(glb.subarray(0, 20));
  out.set(padded, 20);
  out.set(rest, 20 + padded.length);
  const outView = new DataView(out.buffer);
  outView.setUint32(8, out.length, true);
  outView.setUint32(12, padded.length, true);
  return out;
}

Deno.test("messy glTF: a JSON chunk padded with NUL bytes is read without them, with a warning", async () => {
  const clean = await messyGlb(() => {});
  const padded = nulPadded(clean);
  assert((await validateGltf(padded)).errors > 0, "the input is as messy as meant");
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: padded, name: "nul.glb" } }, {}, ctx);
  const warnings = ctx.warnings.map((w) => w.message);
  assertEquals(warnings.length, 1, warnings.join("\n"));
  assert(
    /^nul\.glb at byte offset \d+: the JSON chunk is padded with [4-7] NUL byte/.test(warnings[0]),
    warnings[0],
  );
  const fromClean = await runNode(decodeGltf, { bytes: { bytes: clean, name: "nul.glb" } });
  assertEquals(
    (await runNode(exportGltf, { scene })).bytes.bytes,
    (await runNode(exportGltf, { scene: fromClean.scene })).bytes.bytes,
  );
});

Deno.test("messy glTF: sparse indices that repeat keep the last value given, with a warning naming the first", async () => {
  // Vertex 1 is moved twice, to (1, 1, 1) and then (2, 2, 2); vertex 3 once.
  const moves = new Float32Array([1, 1, 1, 2, 2, 2, 3, 3, 3]);
  let position = -1;
  const bytes = await messyGlb((json) => {
    position = wingAttribute(json, "POSITION");
    json.accessors[position].sparse = {
      count: 3,
      indices: { bufferView: embeddedView(json, new Uint16Array([1, 1, 3])), componentType: 5123 },
      values: { bufferView: embeddedView(json, moves) },
    };
    delete json.accessors[position].min;
    delete json.accessors[position].max;
  });
  assert((await validateGltf(bytes)).codes.includes("ACCESSOR_SPARSE_INDICES_NON_INCREASING"));
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "sparse.glb" } }, {}, ctx);
  assertEquals(ctx.warnings.map((w) => w.message), [
    `sparse.glb at /accessors/${position}/sparse/indices: sparse index 1 given more than once (1 repeat(s) of 3); ` +
    "the last value given for each is kept, as three.js and Blender keep it",
  ]);
  const positions = [...wing(scene as Document).listPrimitives()[0].getAttribute("POSITION")!.getArray()!];
  assertEquals(positions.slice(3, 6), [2, 2, 2]);
  assertEquals(positions.slice(9, 12), [3, 3, 3]);
});

/** Text as UTF-16 code units, little- or big-endian, after an optional byte order mark. */
function utf16(text: string, littleEndian: boolean, mark: boolean): Uint8Array {
  const units = (mark ? "\uFEFF" : "") + text;
  const out = new DataView(new ArrayBuffer(2 * units.length));
  for (let i = 0; i < units.length; i++) out.setUint16(2 * i, units.charCodeAt(i), littleEndian);
  return new Uint8Array(out.buffer);
}

Deno.test("messy glTF: .gltf JSON saved as UTF-16 (as Windows PowerShell writes text) is read, with a warning", async () => {
  let text = "";
  await messyGlb((json, bin) => {
    json.buffers[0].uri = `data:application/octet-stream;base64,${bin.toBase64()}`;
    json.nodes[0].name = "Gouverne_é_左"; // past ASCII, and past one byte
    text = JSON.stringify(json, null, 2);
  });
  const utf8 = new TextEncoder().encode(text);
  const expected = (await runNode(exportGltf, {
    scene: (await runNode(decodeGltf, { bytes: { bytes: utf8, name: "plane.gltf" } })).scene,
  })).bytes.bytes;
  for (const [littleEndian, mark] of [[true, true], [false, true], [true, false], [false, false]]) {
    const ctx = testContext();
    const bytes = utf16(text, littleEndian, mark);
    const { scene } = await runNode(decodeGltf, { bytes: { bytes, name: "plane.gltf" } }, {}, ctx);
    const order = littleEndian ? "LE" : "BE";
    assertEquals(ctx.warnings.map((w) => w.message), [
      `plane.gltf at byte offset 0: the JSON is UTF-16${order} text, not the UTF-8 glTF requires; read as ` +
      `UTF-16${order} (byte offsets in later messages count the text as UTF-8)`,
    ]);
    assertEquals((await runNode(exportGltf, { scene })).bytes.bytes, expected);
  }
  // Cut mid-character: refused at the odd byte.
  const cut = utf16(text, true, true).subarray(0, 2 * 40 + 1);
  await rejects(runNode(decodeGltf, { bytes: { bytes: cut, name: "cut.gltf" } }), (error) => {
    assert(error instanceof DecodeError, String(error));
    assertEquals([error.at, error.found], [{ offset: 2 * 40 }, "an odd byte at the end"]);
    return true;
  });
});
