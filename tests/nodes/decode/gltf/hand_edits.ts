/**
 * Hand-edited glTF, as people break files in a text editor or by pasting one file into another: a key
 * written twice (a second `"nodes"` block pasted in, a `"translation"` added above the old one), a root
 * listed twice in a scene, sparse indices typed out of order, bounds left from before an edit, a
 * trailing comma, a BOM, numbers in quotes, `"scene": -1`, a stride shorter than its element, a count
 * of 0. Each case is a small textured, skinned, animated wing (`tests/support/messy_gltf.ts`) with one
 * such edit, chosen and placed by its seed, written as .gltf text or as a GLB around that text.
 *
 * @module
 */
import { messyGlb, type MessyJson } from "../../../support/messy_gltf.ts";
import { prng as mulberry32 } from "../../../support/prng.ts";

/** What a reader should do with a case: say something (a warning or a refusal), or read it as it is. */
export type Expect = "notice" | "quiet";

/** One hand-edited file. */
export interface HandEdit {
  readonly kind: string;
  readonly expect: Expect;
  readonly name: string;
  readonly bytes: Uint8Array;
}

type Random = () => number;

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** An edit: changes the JSON, then may rewrite its text (what JSON.stringify cannot write). */
interface Edit {
  readonly expect: Expect;
  json?(json: MessyJson, bin: Uint8Array, random: Random): void;
  text?(text: string, json: MessyJson, random: Random): string;
}

/** A number as a hand edit writes it: a few decimals. */
const typed = (random: Random) => Math.round((random() * 4 - 2) * 100) / 100;

/** Inserts `insert` right after the opening brace of the `index`-th object in `list` of the text. */
function intoItem(text: string, list: string, index: number, insert: string): string {
  let at = text.indexOf(`"${list}":[`) + list.length + 4;
  for (let depth = 0, seen = -1; at < text.length; at++) {
    if (text[at] === "{" && depth++ === 0 && ++seen === index) {
      return text.slice(0, at + 1) + insert + text.slice(at + 1);
    }
    if (text[at] === "}") depth--;
  }
  throw new Error(`no item ${index} in ${list}`);
}

/** The hand edits, by kind. */
export const HAND_EDITS: Readonly<Record<string, Edit>> = {
  /** A second top-level collection pasted in from another file (or an older copy of this one). */
  "duplicate-collection": {
    expect: "notice",
    text(text, json, random) {
      const key = pick(random, ["nodes", "materials", "scenes"]);
      const list = structuredClone(json[key]) as MessyJson[];
      const item = list[Math.floor(random() * list.length)];
      if (key === "nodes") item.translation = [typed(random), typed(random), typed(random)];
      else if (key === "materials") item.name = `${item.name}_old`;
      else item.nodes = item.nodes.slice(1);
      const block = `"${key}":${JSON.stringify(list)},`;
      // Before or after the original: pasted at the top, or at the end.
      return random() < 0.5 ? `{${block}${text.slice(1)}` : `${text.slice(0, -1)},${block.slice(0, -1)}}`;
    },
  },
  /** A property typed again in the same object with another value, the old line left in. */
  "duplicate-property": {
    expect: "notice",
    text(text, json, random) {
      const n = Math.floor(random() * json.nodes.length);
      // One the node has: the old line stays below the new one.
      const has = ["translation", "scale", "rotation", "mesh", "name"].filter((k) => k in json.nodes[n]);
      const key = pick(random, has);
      const value = key === "name"
        ? `"edited_${n}"`
        : key === "mesh"
        ? String((json.nodes[n].mesh + 1) % json.meshes.length)
        : JSON.stringify(key === "rotation" ? [0, 0.6, 0, 0.8] : [typed(random) + 3, 1, typed(random)]);
      return intoItem(text, "nodes", n, `"${key}":${value},`);
    },
  },
  /** The same key twice with the same value: nothing read differs. */
  "duplicate-same": {
    expect: "quiet",
    text(text, json, random) {
      const n = Math.floor(random() * json.nodes.length);
      return intoItem(text, "nodes", n, `"name":${JSON.stringify(json.nodes[n].name)},`);
    },
  },
  /** A root listed twice in a scene's nodes (pasted in again). */
  "root-twice": {
    expect: "notice",
    json(json, _bin, random) {
      const roots = json.scenes[0].nodes as number[];
      roots.splice(Math.floor(random() * (roots.length + 1)), 0, pick(random, roots));
    },
  },
  /** A child node also listed as a scene root (handled before: the control). */
  "root-and-child": {
    expect: "notice",
    json(json) {
      const parent = json.nodes.findIndex((node: MessyJson) => node.children?.length);
      json.scenes[0].nodes.push(json.nodes[parent].children[0]);
    },
  },
  /** Sparse indices typed out of order (each once): every reader gets the same values. */
  "sparse-unsorted": {
    expect: "notice",
    json(json, bin, random) {
      sparseOn(json, bin, random, (indices) => indices.reverse());
    },
  },
  /** Sparse indices with one repeated (handled before: the control). */
  "sparse-repeated": {
    expect: "notice",
    json(json, bin, random) {
      sparseOn(json, bin, random, (indices) => [indices[0], ...indices]);
    },
  },
  /** POSITION bounds left from before the vertices were edited. */
  "bounds-stale": {
    expect: "notice",
    json(json, _bin, random) {
      const mesh = pick(random, json.meshes as MessyJson[]);
      const accessor = json.accessors[mesh.primitives[0].attributes.POSITION];
      const key = pick(random, ["min", "max"]);
      const k = Math.floor(random() * 3);
      accessor[key][k] += (key === "min" ? 1 : -1) * (0.25 + Math.round(random() * 4) / 4);
    },
  },
  /** Bounds rounded to a few decimals, as exporters write them: not wrong. */
  "bounds-rounded": {
    expect: "quiet",
    json(json) {
      for (const accessor of json.accessors) {
        for (const key of ["min", "max"]) {
          if (accessor[key]) accessor[key] = accessor[key].map((v: number) => Number(v.toFixed(5)));
        }
      }
    },
  },
  /** `"scene"` typed to point at an empty scene (or an exporter's empty scene left as the default). */
  "scene-empty-default": {
    expect: "notice",
    json(json, _bin, random) {
      const empty = random() < 0.5 ? {} : { name: "Scene", nodes: [] };
      if (random() < 0.5) json.scenes.push(empty), json.scene = json.scenes.length - 1;
      else json.scenes.unshift(empty), json.scene = 0;
    },
  },
  /** A second scene that is empty while the default has the model: nothing a viewer shows differs. */
  "scene-empty-other": {
    expect: "quiet",
    json: (json) => void json.scenes.push({ name: "Empty" }),
  },
  /** A camera's field of view typed in degrees. */
  "camera-yfov-degrees": {
    expect: "notice",
    json(json, _bin, random) {
      json.cameras = [{
        type: "perspective",
        perspective: { yfov: pick(random, [35, 45, 50, 60, 90]), znear: 0.1 },
      }];
      json.nodes.push({ name: "Camera", camera: 0, translation: [0, 1, 5] });
      json.scenes[json.scene ?? 0].nodes.push(json.nodes.length - 1);
    },
  },
  /** A node's matrix typed row by row (translation in the bottom row), as read off a row-major engine. */
  "matrix-row-major": {
    expect: "notice",
    json(json, _bin, random) {
      const node = json.nodes[Math.floor(random() * json.nodes.length)];
      const [t, turn] = [[typed(random), typed(random) + 0.5, typed(random)], (random() - 0.5) * Math.PI];
      const [c, s] = [Math.cos(turn), Math.sin(turn)];
      // Column-major glTF: a turn about Y, then the translation; written transposed.
      const matrix = [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, t[0], t[1], t[2], 1];
      node.matrix = matrix.map((_, i) => matrix[(i % 4) * 4 + Math.floor(i / 4)]);
      node.extras = { meant: { translation: t, turn } };
      for (const key of ["translation", "rotation", "scale"]) delete node[key];
    },
  },
  /** An extension typed in by hand with its name misspelt, and not added to extensionsUsed. */
  "extension-misspelt": {
    expect: "notice",
    json(json, _bin, random) {
      const material = json.materials[0];
      const [name, value] = pick(
        random,
        [
          ["KHR_material_unlit", {}],
          ["KHR_materials_unlt", {}],
          ["KHR_materials_emmissive_strength", { emissiveStrength: 3 }],
          ["KHR_materials_ior ", { ior: 1.2 }],
        ] as const,
      );
      if (random() < 0.5) material.extensions = { [name]: value };
      else {material.pbrMetallicRoughness.baseColorTexture.extensions = {
          KHR_texture_transfrom: { scale: [2, 2] },
        };}
    },
  },
  /** A comma left after the last item of a list or object. */
  "trailing-comma": {
    expect: "notice",
    text(text, _json, random) {
      const ends = [...text.matchAll(/[\]}](?=[\]}])/g)].map((m) => m.index!);
      const at = pick(random, ends) + 1;
      return text.slice(0, at) + "," + text.slice(at);
    },
  },
  /** A UTF-8 byte order mark, as Windows editors save it: the content reads the same. */
  "bom": { expect: "quiet", text: (text) => "\uFEFF" + text },
  /** A number typed in quotes. */
  "number-as-string": {
    expect: "notice",
    json(json, _bin, random) {
      const node = pick(random, json.nodes as MessyJson[]);
      const where = pick(random, ["scene", "translation", "mesh", "count"]);
      if (where === "scene") json.scene = String(json.scene ?? 0);
      else if (where === "translation") node.translation = [String(typed(random)), "0", "0"];
      else if (where === "mesh") node.mesh = "0";
      else json.accessors[0].count = String(json.accessors[0].count);
    },
  },
  /** `"scene": -1`, meaning "none" to the person who typed it. */
  "scene-minus-one": { expect: "notice", json: (json) => void (json.scene = -1) },
  /** A byteStride shorter than its accessors' elements. */
  "stride-short": {
    expect: "notice",
    json(json, _bin, random) {
      const views: number[] = json.bufferViews.flatMap((view: MessyJson, i: number) =>
        view.byteStride ? [i] : []
      );
      const view = json.bufferViews[pick(random, views)];
      view.byteStride = pick(random, [4, 8]);
    },
  },
  /** An accessor's count typed as 0. */
  "count-zero": {
    expect: "notice",
    json(json, _bin, random) {
      json.accessors[Math.floor(random() * json.accessors.length)].count = 0;
    },
  },
};

/** Gives the wing's POSITION a sparse part moving two vertices, its indices as `order` lists them. */
function sparseOn(json: MessyJson, bin: Uint8Array, random: Random, order: (indices: number[]) => number[]) {
  const mesh = json.meshes.find((m: MessyJson) => m.name === "flap");
  const accessor = json.accessors[mesh.primitives[0].attributes.POSITION];
  const indices = order([1, 2 + Math.floor(random() * 3)]);
  const values = indices.flatMap(() => [typed(random), typed(random), 0.1]);
  const data = new Uint8Array(
    [...new Uint8Array(new Uint16Array(indices).buffer), 0, 0].slice(0, 4 * Math.ceil(indices.length / 2)),
  );
  const extra = new Uint8Array([...data, ...new Uint8Array(new Float32Array(values).buffer)]);
  void bin;
  const uri = `data:application/octet-stream;base64,${extra.toBase64()}`;
  const buffer = json.buffers.push({ uri, byteLength: extra.length }) - 1;
  const iv = json.bufferViews.push({ buffer, byteLength: data.length }) - 1;
  const vv = json.bufferViews.push({ buffer, byteOffset: data.length, byteLength: values.length * 4 }) - 1;
  accessor.sparse = {
    count: indices.length,
    indices: { bufferView: iv, componentType: 5123 },
    values: { bufferView: vv },
  };
  delete accessor.min;
  delete accessor.max;
}

/** Case `index` of seed `seed` for edit `kind`: the file's bytes, as .gltf text or a GLB. */
export async function handEdited(kind: string, seed: number): Promise<HandEdit> {
  const edit = HAND_EDITS[kind];
  const random = mulberry32(seed * 7919 + kind.length);
  let json: MessyJson = {}, bin: Uint8Array = new Uint8Array();
  await messyGlb((j, b) => {
    json = j;
    bin = b;
  });
  edit.json?.(json, bin, random);
  const glb = random() < 0.5;
  if (!glb) {
    json.buffers[0].uri = `data:application/octet-stream;base64,${bin.toBase64()}`;
  }
  let text = JSON.stringify(json);
  if (edit.text) text = edit.text(text, json, random);
  const name = `${kind}-${seed}.${glb ? "glb" : "gltf"}`;
  return {
    kind,
    expect: edit.expect,
    name,
    bytes: glb ? glbOfText(text, bin) : new TextEncoder().encode(text),
  };
}

/** A GLB around JSON text as written (padded with spaces), and `bin`. */
function glbOfText(text: string, bin: Uint8Array): Uint8Array {
  const raw = new TextEncoder().encode(text);
  const json = new Uint8Array(raw.length + ((4 - (raw.length % 4)) % 4)).fill(0x20);
  json.set(raw);
  const out = new Uint8Array(28 + json.length + bin.length);
  const view = new DataView(out.buffer);
  [0x46546c67, 2, out.length, json.length, 0x4e4f534a].forEach((word, i) =>
    view.setUint32(4 * i, word, true)
  );
  out.set(json, 20);
  view.setUint32(20 + json.length, bin.length, true);
  view.setUint32(24 + json.length, 0x004e4942, true);
  out.set(bin, 28 + json.length);
  return out;
}
