/// <reference lib="dom" />
/**
 * The 3D preview (three.js): orbit/pan/zoom, frame all, wireframe, the node tree, the part panel
 * (`part_panel.ts`: a slider per `ctrl_type` part, turning it about local X or sliding it along it,
 * and per `group`), hinge lines and pivot axes (`hinge_lines.ts`), fit confidence, Freelancer LODs
 * and hardpoints, animation clips. The loader, info line and hardpoint markers are made in
 * `preview_load.ts`; framing, picking and screen boxes are worked out in `preview_view.ts`.
 *
 * The model is shown at rest: each part at its declared `rest`, its slider starting there. A click on
 * a node in the tree, or on a part's caption, selects it: a box is drawn round it (with all it
 * carries) and its tree row and part slider are marked, so parts that share a name are told apart.
 *
 * The view is drawn only when something changed (an orbit, a zoom, a resize, a slider, a load) and
 * at each frame while a clip plays; left alone, it asks the browser for no frames at all.
 *
 * Models with thousands of parts stay responsive: a slider move updates only the sliders that show
 * a moved part, and the scene is drawn once per frame whatever the number of moves; the node tree
 * (`node_tree.ts`) puts only the rows in view in the page, whatever the tree's size or depth. Names
 * are shown as the file writes them (three.js renames nodes), as text.
 *
 * @module
 */
// @ts-types="@types/three"
import * as THREE from "three";
// @ts-types="@types/three/examples/jsm/loaders/GLTFLoader.d.ts"
import type { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
// @ts-types="@types/three/examples/jsm/controls/OrbitControls.d.ts"
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { HingeLines } from "./hinge_lines.ts";
import { lodMeshesOf, showLodLevel } from "./lods.ts";
import { NodeTree } from "./node_tree.ts";
import { PartPanel } from "./part_panel.ts";
import { partsOf, type PreviewPart } from "./parts.ts";
import { shownName } from "./shown_name.ts";
import { glbLoader, hardpointMarkers, infoLine } from "./preview_load.ts";
import {
  frameCamera,
  litScene,
  onClick,
  type ScreenBox,
  screenBoxOf,
  showBothSides,
  shownMeshAt,
} from "./preview_view.ts";

/** The preview's elements. */
export interface PreviewElements {
  canvas: HTMLCanvasElement;
  parts: HTMLElement;
  tree: HTMLElement;
  lod: HTMLSelectElement;
  clips: HTMLSelectElement;
  info: HTMLElement;
}

/** A three.js viewer of one GLB at a time. */
export class Preview {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = litScene();
  readonly camera = new THREE.PerspectiveCamera(45, 1, 0.01, 5000);
  private readonly controls: OrbitControls;
  private model?: THREE.Object3D;
  private helpers = new THREE.Group();
  /** The hinge lines and pivot axes of every part. */
  private hingeLines?: HingeLines;
  private drawQueued = false;
  /** Whether meshes are drawn as wireframe (the view's check box), for every model loaded. */
  private wireframe = false;
  /** True while a clip plays: a frame is asked for, and the next one at each. */
  private ticking = false;
  private hardpoints = new THREE.Group();
  /** Each hardpoint marker and the node it marks (it follows the node as its part moves). */
  private hardpointOf: [THREE.Object3D, THREE.Object3D][] = [];
  /** The box round the selected node. */
  private selection?: THREE.BoxHelper;
  private mixer?: THREE.AnimationMixer;
  private clipList: THREE.AnimationClip[] = [];
  private lodMeshes: [THREE.Mesh, number][] = [];
  private readonly timer = new THREE.Timer();
  private readonly loader: GLTFLoader;
  /** The parts of the loaded model, by node name. */
  parts: PreviewPart[] = [];
  /** The part panel: a slider per part and per group. */
  private readonly panel: PartPanel;
  /** The node tree. */
  private readonly tree: NodeTree;
  /** Each node's name as the file writes it (three.js's own replaces spaces, slashes and dots). */
  private fileNames = new Map<THREE.Object3D, string>();

  constructor(private readonly ui: PreviewElements) {
    this.panel = new PartPanel(
      ui.parts,
      (parts, value) => this.setPart(parts, value),
      (part) => this.select(part.object),
    );
    this.tree = new NodeTree(ui.tree, (object) => this.select(object));
    this.renderer = new THREE.WebGLRenderer({
      canvas: ui.canvas,
      antialias: true,
      preserveDrawingBuffer: true,
    });
    this.renderer.setPixelRatio(1);
    this.loader = glbLoader(this.renderer);
    this.scene.add(this.helpers, this.hardpoints);
    this.controls = new OrbitControls(this.camera, ui.canvas);
    this.controls.addEventListener("change", () => this.draw());
    new ResizeObserver(() => this.resize()).observe(ui.canvas);
    // A click (not an orbit drag) in the view selects what is under the cursor.
    onClick(ui.canvas, (x, y) => this.pickAt(x, y));
    ui.lod.onchange = () => this.showLod(Number(ui.lod.value));
    ui.clips.onchange = () => this.playClip(ui.clips.value);
  }

  /**
   * Loads a GLB and lists its parts, tree, LODs and clips; false, with the view left as it is, when
   * `current` says another model was asked for while this one was parsed.
   */
  async load(glb: ArrayBuffer, label: string, current: () => boolean = () => true): Promise<boolean> {
    const gltf = await this.loader.parseAsync(glb, "");
    if (!current()) return false;
    this.clear();
    this.model = gltf.scene;
    showBothSides(gltf.scene);
    if (this.wireframe) showWireframe(gltf.scene, true);
    this.scene.add(gltf.scene);
    const nodes = (gltf.parser.json.nodes ?? []) as { name?: unknown }[];
    gltf.scene.traverse((object) => {
      const index = gltf.parser.associations.get(object)?.nodes;
      const name = index === undefined ? undefined : nodes[index]?.name;
      if (typeof name === "string") this.fileNames.set(object, name);
    });
    const nameOf = (object: THREE.Object3D) => this.fileName(object);
    this.parts = partsOf(gltf.scene, nameOf);
    // At rest: each part at its declared rest, before anything is measured or drawn.
    for (const part of this.parts) part.set(part.rest);
    this.hingeLines = new HingeLines(this.model, this.parts);
    this.helpers.add(this.hingeLines.lines);
    this.hardpointOf = hardpointMarkers(this.model);
    for (const [axes] of this.hardpointOf) this.hardpoints.add(axes);
    const partObjects = new Set(this.parts.map((p) => p.object));
    this.tree.show(this.model, nameOf, (object) => partObjects.has(object));
    this.panel.build(this.parts, label);
    this.listLods();
    this.mixer = new THREE.AnimationMixer(gltf.scene);
    this.clipList = gltf.animations;
    this.ui.clips.replaceChildren(
      new Option("(no clip)", ""),
      ...gltf.animations.map((c) => new Option(shownName(c.name), c.name)),
    );
    this.ui.clips.disabled = !gltf.animations.length;
    this.ui.info.textContent = infoLine(label, gltf.scene, this.parts.length, gltf.animations.length, nameOf);
    this.frameAll();
    return true;
  }

  /**
   * Takes the model shown away (its parts, tree, LODs and clips too): after a file that failed to
   * load, the view must not go on showing the last one as if it were that file.
   */
  clear(): void {
    if (this.model) this.scene.remove(this.model);
    this.model = undefined;
    this.helpers.clear();
    this.hingeLines = undefined;
    this.hardpoints.clear();
    this.hardpointOf = [];
    this.select(undefined);
    this.fileNames = new Map();
    this.parts = [];
    this.panel.clear();
    this.mixer?.stopAllAction();
    this.mixer = undefined;
    this.clipList = [];
    this.lodMeshes = [];
    this.tree.show(undefined, (o) => o.name, () => false);
    this.ui.lod.replaceChildren();
    this.ui.lod.disabled = true;
    this.ui.clips.replaceChildren();
    this.ui.clips.disabled = true;
    this.ui.info.textContent = "";
    this.draw();
  }

  /** Points the camera so the whole model is in view. */
  frameAll(): void {
    if (!this.model || !frameCamera(this.camera, this.controls.target, this.model)) return;
    this.controls.update();
    this.draw();
  }

  /**
   * Shows every mesh as wireframe, or not: this model and every one loaded after it (it was set on
   * the model shown only, so the next file or run output came solid under a ticked box).
   */
  setWireframe(on: boolean): void {
    this.wireframe = on;
    if (this.model) showWireframe(this.model, on);
    this.draw();
  }

  /** Shows or hides hinge lines and pivot axes. */
  setHinges(on: boolean): void {
    this.helpers.visible = on;
    this.draw();
  }

  /** Shows or hides hardpoint markers. */
  setHardpoints(on: boolean): void {
    this.hardpoints.visible = on;
    this.draw();
  }

  /**
   * Sets parts' value (in their units), each clamped to its travel; the sliders showing them follow
   * at once, the view at the next frame.
   */
  setPart(part: PreviewPart | PreviewPart[], value: number): void {
    const parts = ([] as PreviewPart[]).concat(part);
    for (const p of parts) p.set(value);
    this.panel.showValues(parts);
    this.requestDraw();
  }

  /**
   * Selects a node (none: nothing): a box round it and all it carries in the view, its row in the tree
   * and, for a part, its slider's row marked.
   */
  select(object: THREE.Object3D | undefined): void {
    if (this.selection) {
      this.scene.remove(this.selection);
      this.selection.dispose();
      this.selection = undefined;
    }
    if (object) {
      this.selection = new THREE.BoxHelper(object, 0x40c0ff);
      this.selection.userData.selects = object;
      (this.selection.material as THREE.LineBasicMaterial).depthTest = false;
      this.selection.renderOrder = 11;
      this.scene.add(this.selection);
    }
    this.tree.select(object);
    this.panel.select(this.parts.find((p) => p.object === object));
    this.requestDraw();
  }

  /**
   * Selects what is drawn at a point of the page (client pixels): the part that moves the nearest
   * mesh there (its nearest `ctrl_type` ancestor), else that mesh's node; nothing there clears the
   * selection. Meshes a LOD or a toggle hides are not hit.
   */
  pickAt(x: number, y: number): void {
    if (!this.model) return;
    const hit = shownMeshAt(x, y, this.ui.canvas, this.camera, this.model);
    const parts = new Set(this.parts.map((p) => p.object));
    let part: THREE.Object3D | null = hit ?? null;
    while (part && !parts.has(part)) part = part.parent;
    this.select(part ?? hit);
  }

  /** A node's name as the file writes it (three.js makes names unique and replaces some characters). */
  fileName(object: THREE.Object3D): string {
    return this.fileNames.get(object) ?? object.name;
  }

  /** The node selected, if any. */
  get selected(): THREE.Object3D | undefined {
    return this.selection?.userData.selects;
  }

  /** Draws at the next frame (once, however many moves come before it), helpers moved along. */
  private requestDraw(): void {
    if (this.drawQueued) return;
    this.drawQueued = true;
    requestAnimationFrame(() => {
      this.drawQueued = false;
      this.followParts();
      this.draw();
    });
  }

  /** Puts the hinge lines, hardpoint markers and selection box where the parts are now. */
  private followParts(): void {
    this.hingeLines?.sync(); // brings the world matrices up to date too
    for (const [axes, node] of this.hardpointOf) {
      node.matrixWorld.decompose(axes.position, axes.quaternion, new THREE.Vector3());
    }
    this.selection?.update();
  }

  /**
   * The screen rectangle (canvas pixels) of a node's meshes, for tests and tools: a part by its
   * label (or name), else a node by its three.js name.
   */
  screenBox(name: string): ScreenBox | undefined {
    const object =
      (this.parts.find((p) => p.label === name) ?? this.parts.find((p) => p.name === name))?.object ??
        this.model?.getObjectByName(name);
    return object && screenBoxOf(object, this.camera, this.ui.canvas);
  }

  /** Renders now. */
  draw(): void {
    this.renderer.render(this.scene, this.camera);
  }

  /**
   * Plays the clip chosen, a frame at a time, for as long as one is chosen; then stops asking for
   * frames. Nothing else moves by itself: a view that draws only when something changes (an orbit,
   * a resize, a slider, a load) leaves the browser idle, where a frame asked for every 1/60 s kept it
   * busy (~60 frames a second for a model nobody touched).
   */
  private tick(): void {
    if (!this.mixer || !this.ui.clips.value) {
      this.ticking = false;
      return;
    }
    this.ticking = true;
    requestAnimationFrame(() => this.tick());
    this.timer.update();
    this.mixer.update(this.timer.getDelta());
    this.followParts();
    this.draw();
  }

  private resize(): void {
    const { clientWidth: w, clientHeight: h } = this.ui.canvas;
    if (!w || !h) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.draw();
  }

  private playClip(name: string): void {
    this.mixer?.stopAllAction();
    const clip = this.clipList.find((c) => c.name === name);
    if (clip) this.mixer?.clipAction(clip).play();
    this.timer.update();
    if (!this.ticking) this.tick();
    this.draw();
  }

  private listLods(): void {
    this.lodMeshes = lodMeshesOf(this.model!);
    const levels = Math.max(0, ...this.lodMeshes.map(([, level]) => level));
    this.ui.lod.replaceChildren(
      ...Array.from({ length: levels + 1 }, (_, i) => new Option(`LOD ${i}`, String(i))),
    );
    this.ui.lod.disabled = levels === 0;
  }

  /** Shows the meshes of one LOD level (parts without LODs always show). */
  private showLod(level: number): void {
    showLodLevel(this.lodMeshes, level);
    this.draw();
  }
}

/** Draws every mesh under `root` as wireframe, or not. */
function showWireframe(root: THREE.Object3D, on: boolean): void {
  root.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh) return;
    for (const m of ([] as THREE.Material[]).concat(mesh.material)) {
      (m as THREE.MeshStandardMaterial).wireframe = on;
    }
  });
}
