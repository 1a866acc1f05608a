/**
 * `partgraph inspect`: decode a model and describe its node tree — transforms, meshes, skins,
 * extras — as text or JSON.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { JsonValue } from "./node.ts";
import { getSourceInfo } from "./scene/source.ts";

/** One node of the described tree. */
export interface NodeDescription {
  name: string;
  translation?: number[];
  rotation?: number[];
  scale?: number[];
  mesh?: {
    name: string;
    primitives: number;
    vertices: number;
    triangles: number;
    lines: number;
    targets: number;
  };
  skin?: { joints: number };
  extras?: JsonValue;
  children: NodeDescription[];
}

/** A texture's image, described. */
export interface TextureDescription {
  name: string;
  mimeType: string;
  bytes: number;
  /** Width and height, where the image's header tells them (PNG, JPEG, WebP, KTX2). */
  size?: [number, number];
}

/** A whole scene, described. */
export interface SceneDescription {
  source?: JsonValue;
  counts: Record<string, number>;
  /** The glTF extensions the scene uses, when any: a viewer that lacks a required one refuses the file. */
  extensions?: { name: string; required: boolean }[];
  /** Every texture's image, when there are textures. */
  textures?: TextureDescription[];
  /** Each animation: its name, how many channels it drives and how long it runs (seconds). */
  animations?: { name: string; channels: number; seconds: number }[];
  extras?: JsonValue;
  scenes: { name: string; extras?: JsonValue; nodes: NodeDescription[] }[];
}

/** Describes a scene as plain JSON. */
export function describeScene(doc: Document): SceneDescription {
  const root = doc.getRoot();
  const describe = (node: Node): NodeDescription => {
    const out: NodeDescription = { name: node.getName(), children: [] };
    const t = node.getTranslation(), r = node.getRotation(), s = node.getScale();
    if (t.some((v) => v !== 0)) out.translation = round(t);
    if (r[0] !== 0 || r[1] !== 0 || r[2] !== 0 || r[3] !== 1) out.rotation = round(r);
    if (s.some((v) => v !== 1)) out.scale = round(s);
    const mesh = node.getMesh();
    if (mesh) {
      let vertices = 0, triangles = 0, lines = 0, targets = 0;
      for (const prim of mesh.listPrimitives()) {
        const count = prim.getAttribute("POSITION")?.getCount() ?? 0;
        const elements = prim.getIndices()?.getCount() ?? count;
        vertices += count;
        targets = Math.max(targets, prim.listTargets().length);
        if (prim.getMode() === 4) triangles += elements / 3;
        if (prim.getMode() === 5 || prim.getMode() === 6) triangles += Math.max(0, elements - 2);
        if (prim.getMode() === 1) lines += elements / 2;
      }
      out.mesh = {
        name: mesh.getName(),
        primitives: mesh.listPrimitives().length,
        vertices,
        triangles,
        lines,
        targets,
      };
    }
    const skin = node.getSkin();
    if (skin) out.skin = { joints: skin.listJoints().length };
    const extras = node.getExtras() as JsonValue;
    if (extras && Object.keys(extras).length) out.extras = extras;
    out.children = node.listChildren().map(describe);
    return out;
  };
  const rootExtras = root.getExtras() as JsonValue;
  const extensions = root.listExtensionsUsed().map((e) => ({
    name: e.extensionName,
    required: e.isRequired(),
  }));
  const textures = root.listTextures().map((t): TextureDescription => {
    const size = t.getSize();
    return {
      name: t.getName(),
      mimeType: t.getMimeType(),
      bytes: t.getImage()?.byteLength ?? 0,
      ...(size ? { size: [size[0], size[1]] as [number, number] } : {}),
    };
  });
  const animations = root.listAnimations().map((a) => ({
    name: a.getName(),
    channels: a.listChannels().length,
    seconds: Math.max(0, ...a.listSamplers().map((s) => s.getInput()?.getMax([0])[0] ?? 0)),
  }));
  return {
    source: getSourceInfo(doc) as unknown as JsonValue,
    counts: {
      scenes: root.listScenes().length,
      nodes: root.listNodes().length,
      meshes: root.listMeshes().length,
      materials: root.listMaterials().length,
      textures: root.listTextures().length,
      skins: root.listSkins().length,
      animations: root.listAnimations().length,
    },
    ...(extensions.length ? { extensions } : {}),
    ...(textures.length ? { textures } : {}),
    ...(animations.length ? { animations } : {}),
    ...(rootExtras && Object.keys(rootExtras).length ? { extras: rootExtras } : {}),
    scenes: root.listScenes().map((scene) => ({
      name: scene.getName(),
      ...(Object.keys(scene.getExtras()).length ? { extras: scene.getExtras() as JsonValue } : {}),
      nodes: scene.listChildren().map(describe),
    })),
  };
}

/** Renders a description as an indented tree for the terminal. */
export function renderTree(description: SceneDescription, maxExtras = 160): string {
  const lines: string[] = [];
  const c = description.counts;
  lines.push(
    `${c.nodes} nodes, ${c.meshes} meshes, ${c.materials} materials, ${c.textures} textures, ` +
      `${c.skins} skins, ${c.animations} animations`,
  );
  if (description.source) lines.push(`source: ${JSON.stringify(description.source)}`);
  if (description.extensions) {
    const names = description.extensions.map((e) => `${e.name}${e.required ? " (required)" : ""}`);
    lines.push(`extensions: ${names.join(", ")}`);
  }
  for (const t of description.textures ?? []) {
    const size = t.size ? ` ${t.size[0]}×${t.size[1]}` : "";
    lines.push(`texture "${t.name}" ${t.mimeType}${size}, ${(t.bytes / 1024).toFixed(1)} KiB`);
  }
  for (const a of description.animations ?? []) {
    lines.push(`animation "${a.name}" ${a.channels} channels, ${Math.round(a.seconds * 1000) / 1000} s`);
  }
  const short = (value: JsonValue) => {
    const text = JSON.stringify(value);
    return text.length > maxExtras ? text.slice(0, maxExtras - 1) + "…" : text;
  };
  const walk = (node: NodeDescription, prefix: string, last: boolean) => {
    const parts = [node.name || "(unnamed)"];
    if (node.translation) parts.push(`T(${node.translation.join(", ")})`);
    if (node.rotation) parts.push(`R(${node.rotation.join(", ")})`);
    if (node.scale) parts.push(`S(${node.scale.join(", ")})`);
    if (node.mesh) {
      const m = node.mesh;
      const bits = [`${m.vertices} verts`];
      if (m.triangles) bits.push(`${m.triangles} tris`);
      if (m.lines) bits.push(`${m.lines} lines`);
      if (m.targets) bits.push(`${m.targets} morphs`);
      parts.push(`mesh "${m.name}" [${m.primitives} prim, ${bits.join(", ")}]`);
    }
    if (node.skin) parts.push(`skin [${node.skin.joints} joints]`);
    lines.push(`${prefix}${last ? "└─ " : "├─ "}${parts.join("  ")}`);
    const inner = prefix + (last ? "   " : "│  ");
    if (node.extras) lines.push(`${inner}${node.children.length ? "│ " : "  "} extras ${short(node.extras)}`);
    node.children.forEach((child, i) => walk(child, inner, i === node.children.length - 1));
  };
  for (const scene of description.scenes) {
    lines.push(`scene "${scene.name}"${scene.extras ? ` extras ${short(scene.extras)}` : ""}`);
    scene.nodes.forEach((node, i) => walk(node, "", i === scene.nodes.length - 1));
  }
  return lines.join("\n");
}

function round(values: ArrayLike<number>): number[] {
  return Array.from(values, (v) => Math.round(v * 1e5) / 1e5 || 0);
}
