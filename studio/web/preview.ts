/// <reference lib="dom" />
/**
 * The 3D preview (three.js): orbit/pan/zoom, frame all, wireframe, the node tree, a part panel with a
 * slider per `ctrl_type` part (turn about local X or slide along it, from `min` to `max`) and per
 * `group` (each slider shows its parts' values: a group's moves its members' sliders, and shows their
 * common value, or "mixed" when they differ), hinge lines and pivot axes, fit confidence, Freelancer
 * LODs and hardpoints, animation clips.
 *
 * Models with thousands of parts stay responsive: a slider move updates only the sliders that share
 * a part with it, and the scene is drawn once per frame whatever the number of moves; all hinge
 * lines and pivot axes are one line set (one draw call, not two per part). Names are shown as the
 * file writes them (three.js renames nodes), as text, isolated for right-to-left scripts.
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
// @ts-types="@types/three/examples/jsm/controls/OrbitControls.d.ts"
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { partsOf, type PreviewPart } from "./parts.ts";

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
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera(45, 1, 0.01, 5000);
  private readonly controls: OrbitControls;
  private model?: THREE.Object3D;
  private helpers = new THREE.Group();
  /** The hinge lines and pivot axes of every part: 8 vertices per part (see {@link drawHinges}). */
  private hingeLines?: THREE.LineSegments;
  /** Each part's hinge length (model units), in part order. */
  private hingeLengths: number[] = [];
  private drawQueued = false;
  private hardpoints = new THREE.Group();
  private mixer?: THREE.AnimationMixer;
  private clipList: THREE.AnimationClip[] = [];
  private lodMeshes: [THREE.Mesh, number][] = [];
  private readonly timer = new THREE.Timer();
  private readonly loader: GLTFLoader;
  /** The parts of the loaded model, by node name. */
  parts: PreviewPart[] = [];
  /** The part panel's sliders, each with the parts it moves (one, or a group's members). */
  private sliders: Slider[] = [];
  /** The sliders showing each part (its own, and its group's). */
  private slidersOf = new Map<PreviewPart, Slider[]>();

  constructor(private readonly ui: PreviewElements) {
    this.renderer = new THREE.WebGLRenderer({
      canvas: ui.canvas,
      antialias: true,
      preserveDrawingBuffer: true,
    });
    this.renderer.setPixelRatio(1);
    this.loader = new GLTFLoader()
      .setDRACOLoader(new DRACOLoader().setDecoderPath("/decoders/"))
      // The transcoder picks the GPU format this renderer can sample (ASTC, BC7, ETC, S3TC, or RGBA).
      .setKTX2Loader(new KTX2Loader().setTranscoderPath("/decoders/").detectSupport(this.renderer))
      .setMeshoptDecoder(MeshoptDecoder);
    this.scene.background = new THREE.Color(0x2b2b2b);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.8);
    sun.position.set(3, 10, 6);
    this.scene.add(sun, this.helpers, this.hardpoints);
    this.controls = new OrbitControls(this.camera, ui.canvas);
    this.controls.addEventListener("change", () => this.draw());
    new ResizeObserver(() => this.resize()).observe(ui.canvas);
    ui.lod.onchange = () => this.showLod(Number(ui.lod.value));
    ui.clips.onchange = () => this.playClip(ui.clips.value);
    this.tick();
  }

  /** Loads a GLB and lists its parts, tree, LODs and clips. */
  async load(glb: ArrayBuffer, label: string): Promise<void> {
    const gltf = await this.loader.parseAsync(glb, "");
    this.clear();
    this.model = gltf.scene;
    this.scene.add(gltf.scene);
    const nodes = (gltf.parser.json.nodes ?? []) as { name?: unknown }[];
    this.parts = partsOf(gltf.scene, (object) => {
      const index = gltf.parser.associations.get(object)?.nodes;
      const name = index === undefined ? undefined : nodes[index]?.name;
      return typeof name === "string" ? name : object.name;
    });
    this.drawHinges();
    this.markHardpoints();
    this.renderTree();
    this.renderParts();
    this.listLods();
    this.mixer = new THREE.AnimationMixer(gltf.scene);
    this.clipList = gltf.animations;
    this.ui.clips.replaceChildren(
      new Option("(no clip)", ""),
      ...gltf.animations.map((c) => new Option(c.name, c.name)),
    );
    this.ui.clips.disabled = !gltf.animations.length;
    this.ui.info.textContent = `${label}: ${this.parts.length} parts, ${gltf.animations.length} clips`;
    this.frameAll();
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
    this.parts = [];
    this.sliders = [];
    this.slidersOf.clear();
    this.mixer?.stopAllAction();
    this.mixer = undefined;
    this.clipList = [];
    this.lodMeshes = [];
    this.ui.parts.replaceChildren();
    this.ui.tree.replaceChildren();
    this.ui.lod.replaceChildren();
    this.ui.lod.disabled = true;
    this.ui.clips.replaceChildren();
    this.ui.clips.disabled = true;
    this.ui.info.textContent = "";
    this.draw();
  }

  /** Points the camera so the whole model is in view. */
  frameAll(): void {
    if (!this.model) return;
    const box = new THREE.Box3().setFromObject(this.model);
    if (box.isEmpty()) return;
    const centre = box.getCenter(new THREE.Vector3());
    const radius = box.getSize(new THREE.Vector3()).length() / 2 || 1;
    const distance = radius / Math.sin(THREE.MathUtils.degToRad(this.camera.fov / 2));
    this.camera.position.copy(centre).add(
      new THREE.Vector3(0.6, 0.8, 1).normalize().multiplyScalar(distance),
    );
    this.camera.near = distance / 100;
    this.camera.far = distance * 100;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(centre);
    this.controls.update();
    this.draw();
  }

  /** Shows every mesh as wireframe, or not. */
  setWireframe(on: boolean): void {
    this.model?.traverse((o) => {
      const mesh = o as THREE.Mesh;
      if (!mesh.isMesh) return;
      for (const m of ([] as THREE.Material[]).concat(mesh.material)) {
        (m as THREE.MeshStandardMaterial).wireframe = on;
      }
    });
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
    const touched = new Set<Slider>();
    for (const p of parts) for (const slider of this.slidersOf.get(p) ?? []) touched.add(slider);
    this.showValues(touched);
    this.requestDraw();
  }

  /** Draws at the next frame (once, however many moves come before it), hinge lines moved along. */
  private requestDraw(): void {
    if (this.drawQueued) return;
    this.drawQueued = true;
    requestAnimationFrame(() => {
      this.drawQueued = false;
      this.syncHelpers();
      this.draw();
    });
  }

  /**
   * Puts sliders (all by default) at their parts' value: a part's own slider follows a group's, and a
   * group's shows its members' common value, or "mixed" (its thumb left where it was) when they differ.
   */
  private showValues(sliders: Iterable<Slider> = this.sliders): void {
    for (const { members, input, output, row } of sliders) {
      const value = members[0].value;
      const agree = members.every((m) => Math.abs(m.value - value) < 1e-9);
      row.classList.toggle("mixed", !agree);
      if (agree) input.value = String(value);
      output.textContent = agree ? value.toFixed(2) : "mixed";
    }
  }

  /** The screen rectangle (canvas pixels) of a named node's meshes, for tests and tools. */
  screenBox(name: string): { x0: number; y0: number; x1: number; y1: number } | undefined {
    const object = this.parts.find((p) => p.name === name)?.object ?? this.model?.getObjectByName(name);
    if (!object) return undefined;
    const box = new THREE.Box3().setFromObject(object);
    const { width, height } = this.ui.canvas;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < 8; i++) {
      const p = new THREE.Vector3(
        i & 1 ? box.max.x : box.min.x,
        i & 2 ? box.max.y : box.min.y,
        i & 4 ? box.max.z : box.min.z,
      )
        .project(this.camera);
      const [x, y] = [(p.x + 1) / 2 * width, (1 - p.y) / 2 * height];
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
    return { x0, y0, x1, y1 };
  }

  /** Renders now. */
  draw(): void {
    this.renderer.render(this.scene, this.camera);
  }

  private tick(): void {
    requestAnimationFrame(() => this.tick());
    if (this.mixer && this.ui.clips.value) {
      this.timer.update();
      this.mixer.update(this.timer.getDelta());
      this.draw();
    }
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
    this.draw();
  }

  /**
   * A hinge line along each part's local X and a small axes triad at its pivot, all in one line set:
   * per part 8 vertices (the hinge's two ends, then the X, Y and Z axes from the pivot).
   */
  private drawHinges(): void {
    this.hingeLengths = this.parts.map((part) =>
      Math.max(0.2, new THREE.Box3().setFromObject(part.object).getSize(new THREE.Vector3()).length())
    );
    const colours = new Float32Array(this.parts.length * 24);
    const hinge = new THREE.Color(), weak = new THREE.Color(0xff5030), normal = new THREE.Color(0xffd040);
    this.parts.forEach((part, i) => {
      hinge.copy(part.weak ? weak : normal);
      const rgb = [hinge.r, hinge.g, hinge.b, hinge.r, hinge.g, hinge.b];
      colours.set([...rgb, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1], i * 24);
    });
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(this.parts.length * 24), 3));
    geometry.setAttribute("color", new THREE.BufferAttribute(colours, 3));
    const lines = new THREE.LineSegments(
      geometry,
      new THREE.LineBasicMaterial({ vertexColors: true, depthTest: false }),
    );
    lines.renderOrder = 10;
    lines.frustumCulled = false; // its vertices move with the parts; its bounds are not kept up
    this.hingeLines = lines;
    this.helpers.add(lines);
    this.syncHelpers();
  }

  /** Puts the hinge lines and axes where the parts are now (their world pose, without scale). */
  private syncHelpers(): void {
    if (!this.hingeLines) return;
    this.model?.updateMatrixWorld(true);
    const attribute = this.hingeLines.geometry.getAttribute("position") as THREE.BufferAttribute;
    const out = attribute.array as Float32Array;
    const [x, y, z] = [new THREE.Vector3(), new THREE.Vector3(), new THREE.Vector3()];
    const origin = new THREE.Vector3();
    this.parts.forEach((part, i) => {
      const e = part.object.matrixWorld.elements;
      origin.set(e[12], e[13], e[14]);
      x.set(e[0], e[1], e[2]).normalize();
      y.set(e[4], e[5], e[6]).normalize();
      z.set(e[8], e[9], e[10]).normalize();
      const length = this.hingeLengths[i], axis = length / 8;
      const points = [
        origin.clone().addScaledVector(x, -length / 2),
        origin.clone().addScaledVector(x, length / 2),
        origin,
        origin.clone().addScaledVector(x, axis),
        origin,
        origin.clone().addScaledVector(y, axis),
        origin,
        origin.clone().addScaledVector(z, axis),
      ];
      points.forEach((p, k) => out.set([p.x, p.y, p.z], i * 24 + k * 3));
    });
    attribute.needsUpdate = true;
  }

  private markHardpoints(): void {
    this.model?.updateMatrixWorld(true);
    this.model?.traverse((o) => {
      if (!o.userData.hardpoint) return;
      const axes = new THREE.AxesHelper(0.5);
      o.matrixWorld.decompose(axes.position, axes.quaternion, new THREE.Vector3());
      axes.name = `hardpoint:${o.name}`;
      this.hardpoints.add(axes);
    });
  }

  private renderTree(): void {
    const list = (o: THREE.Object3D): HTMLElement => {
      const li = document.createElement("li");
      // The file's name, as text; <bdi> keeps a right-to-left name from reordering what follows it.
      li.append(Object.assign(document.createElement("bdi"), { textContent: nodeName(o) || `(${o.type})` }));
      if (o.userData.ctrl_type) li.className = "tree-part";
      if (o.children.length) {
        const ul = document.createElement("ul");
        for (const c of o.children) ul.append(list(c));
        li.append(ul);
      }
      return li;
    };
    const names = new Map(this.parts.map((p) => [p.object, p.name]));
    const nodeName = (o: THREE.Object3D) => names.get(o) ?? o.name;
    const root = document.createElement("ul");
    if (this.model) { for (const c of this.model.children) root.append(list(c)); }
    this.ui.tree.replaceChildren(root);
  }

  private renderParts(): void {
    this.sliders = [];
    this.slidersOf.clear();
    const groups = new Map<string, PreviewPart[]>();
    for (const part of this.parts) {
      if (!part.group) continue;
      const members = groups.get(part.group);
      if (members) members.push(part);
      else groups.set(part.group, [part]);
    }
    for (const [group, members] of groups) {
      if (members.length < 2) continue;
      const min = members.reduce((least, m) => Math.min(least, m.min), Infinity);
      const max = members.reduce((most, m) => Math.max(most, m.max), -Infinity);
      this.slider(`group ${group}`, "", members, min, max, `group:${group}`);
    }
    for (const part of this.parts) {
      const fit = part.fit ? ` fit ${part.fit}` : "";
      const row = this.slider(part.name, fit, [part], part.min, part.max, part.name);
      if (part.weak) row.classList.add("weak");
    }
    const rows = this.sliders.map((s) => s.row);
    this.ui.parts.replaceChildren(...rows);
    if (!rows.length) this.ui.parts.textContent = "No ctrl_type parts in this model.";
    this.showValues();
  }

  /**
   * A slider row moving `members`. Its caption names the declared limits (∞ where there is none);
   * its track spans the parts' travel, which takes in the rest (0) when that lies outside the limits,
   * and a turn or the model's size when they are unbounded: the caption then says so.
   */
  private slider(
    label: string,
    note: string,
    members: PreviewPart[],
    min: number,
    max: number,
    key: string,
  ): HTMLElement {
    const row = document.createElement("label");
    row.className = "part";
    row.dataset.part = key;
    const outside = members.some((m) => m.restOutside);
    row.classList.toggle("rest-outside", outside);
    const low = members.reduce((least, m) => Math.min(least, m.low), Infinity);
    const high = members.reduce((most, m) => Math.max(most, m.high), -Infinity);
    const unbounded = members.some((m) => m.unbounded);
    const caption = document.createElement("span");
    const travel = unbounded ? `, unbounded: slider ${shown(low)}…${shown(high)}` : "";
    caption.append(
      Object.assign(document.createElement("bdi"), { textContent: label }),
      ` (${shown(min)}…${shown(max)} ${members[0].unit}${travel}${outside ? ", rest 0 outside" : ""})${note}`,
    );
    const titles = [
      unbounded ? "No limit declared: the slider spans one turn, or the model's size for a slide." : "",
      outside ? "At rest (0) this part lies outside its limits; the slider reaches back to 0." : "",
    ];
    if (unbounded || outside) caption.title = titles.filter(Boolean).join(" ");
    const input = document.createElement("input");
    input.type = "range";
    input.min = String(low);
    input.max = String(high);
    input.step = "any";
    const output = document.createElement("output");
    input.oninput = () => this.setPart(members, Number(input.value));
    row.append(caption, input, output);
    const slider = { members, input, output, row };
    this.sliders.push(slider);
    for (const m of members) {
      const list = this.slidersOf.get(m);
      if (list) list.push(slider);
      else this.slidersOf.set(m, [slider]);
    }
    return row;
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
    for (const [mesh, meshLevel] of this.lodMeshes) {
      // A mesh with child parts cannot be hidden as an object (its parts would go too): hide its material.
      if (!mesh.children.length) mesh.visible = meshLevel === level;
      else {
        mesh.material = ([] as THREE.Material[]).concat(mesh.material).map((m) => {
          const own = m.userData.lodCopy ? m : Object.assign(m.clone(), { userData: { lodCopy: true } });
          own.visible = meshLevel === level;
          return own;
        })[0];
      }
    }
    this.draw();
  }
}

/** A limit or travel end for a caption: ∞ for none, else at most 3 decimals. */
function shown(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  return String(Number(value.toFixed(3)));
}

/** A part panel slider and the parts it moves. */
interface Slider {
  members: PreviewPart[];
  input: HTMLInputElement;
  output: HTMLOutputElement;
  row: HTMLElement;
}

/**
 * Freelancer LODs (LancerEdit layout): a part P has children `P$lod<n>` for LOD n ≥ 1; its LOD 0 is P's
 * own mesh — P itself, or its mesh node (`P.mesh`, which three.js names `Pmesh`) and unnamed primitive groups.
 */
function lodMeshesOf(root: THREE.Object3D): [THREE.Mesh, number][] {
  const found: [THREE.Mesh, number][] = [];
  const meshesUnder = (o: THREE.Object3D, level: number) =>
    o.traverse((m) => void ((m as THREE.Mesh).isMesh && found.push([m as THREE.Mesh, level])));
  root.traverse((part) => {
    const lods = part.children.filter((c) => c.name.startsWith(`${part.name}$lod`));
    if (!part.name || !lods.length) return;
    if ((part as THREE.Mesh).isMesh) found.push([part as THREE.Mesh, 0]);
    for (const child of part.children) {
      if (child.name === "" || child.name === `${part.name}mesh`) meshesUnder(child, 0);
    }
    for (const lod of lods) meshesUnder(lod, Number(/\$lod(\d+)$/.exec(lod.name)?.[1] ?? 0));
  });
  return found;
}
