/// <reference lib="dom" />
/**
 * What the 3D preview (`preview.ts`) makes a model with and reads off one it loaded: the glTF loader
 * with every decoder the studio serves, the info line under the view, and the hardpoint markers.
 *
 * @module
 */
// @ts-types="@types/three"
import * as THREE from "three";
// @ts-types="@types/three/examples/jsm/loaders/GLTFLoader.d.ts"
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
// @ts-types="@types/three/examples/jsm/loaders/DRACOLoader.d.ts"
import { DRACOLoader } from "three/examples/jsm/loaders/DRACOLoader.js";
// @ts-types="@types/three/examples/jsm/loaders/KTX2Loader.d.ts"
import { KTX2Loader } from "three/examples/jsm/loaders/KTX2Loader.js";
// @ts-types="@types/three/examples/jsm/libs/meshopt_decoder.module.d.ts"
import { MeshoptDecoder } from "three/examples/jsm/libs/meshopt_decoder.module.js";
import { deepNodesFirst } from "./deep_nodes.ts";
import { shownName } from "./shown_name.ts";
import { nonFiniteVertices } from "./finite.ts";
import { sizelessMeshes, sizelessNote } from "./extent.ts";

/**
 * A glTF loader for `renderer`: Draco and KTX2 decoders from the studio's `/decoders/<digest>/` (the
 * path index.html names, under which the browser keeps them), meshopt's bundled, and deep node
 * chains asked for deepest first (`deep_nodes.ts`).
 */
export function glbLoader(renderer: THREE.WebGLRenderer): GLTFLoader {
  const decoders = document.querySelector<HTMLMetaElement>('meta[name="decoders"]')?.content || "/decoders/";
  return new GLTFLoader()
    .setDRACOLoader(new DRACOLoader().setDecoderPath(decoders))
    // The transcoder picks the GPU format this renderer can sample (ASTC, BC7, ETC, S3TC, or RGBA).
    .setKTX2Loader(new KTX2Loader().setTranscoderPath(decoders).detectSupport(renderer))
    .setMeshoptDecoder(MeshoptDecoder)
    .register(deepNodesFirst);
}

/**
 * The line under the view: the model's label, its counts of parts and clips, and what cannot be
 * drawn (vertices at NaN or ∞, meshes with no size), names shown as text.
 */
export function infoLine(
  label: string,
  scene: THREE.Object3D,
  parts: number,
  clips: number,
  nameOf: (object: THREE.Object3D) => string,
): string {
  const broken = nonFiniteVertices(scene);
  const sizeless = sizelessNote(sizelessMeshes(scene, nameOf));
  return `${shownName(label)}: ${parts} parts, ${clips} clips${
    broken.count
      ? `; ${broken.count} vertices not at a finite position (NaN or ∞), not drawn, in ${
        shownName(broken.meshes.join(", "))
      }`
      : ""
  }${sizeless ? `; ${shownName(sizeless)}` : ""}`;
}

/**
 * An axes marker for each node of `model` its file marks a hardpoint, placed where the node is now,
 * with the node (the marker follows it as its part moves).
 */
export function hardpointMarkers(model: THREE.Object3D): [THREE.AxesHelper, THREE.Object3D][] {
  const markers: [THREE.AxesHelper, THREE.Object3D][] = [];
  model.updateMatrixWorld(true);
  model.traverse((o) => {
    if (!o.userData.hardpoint) return;
    const axes = new THREE.AxesHelper(0.5);
    o.matrixWorld.decompose(axes.position, axes.quaternion, new THREE.Vector3());
    axes.name = `hardpoint:${o.name}`;
    markers.push([axes, o]);
  });
  return markers;
}
