/**
 * `KHR_techniques_webgl` (and its earlier spelling `KHR_technique_webgl`): glTF 1.0's GLSL techniques
 * carried into 2.0 as a draft extension that was never ratified. COLLADA2GLTF (`--technique`) and
 * gltf-pipeline's 1.0 upgrade wrote it, often in `extensionsRequired`; Cesium drew it, three.js's loader
 * names it unknown and draws each material's core (metal-rough) values, Babylon.js refuses the file.
 * glTF-Transform does not read it. partgraph reads such a file as three.js does — the techniques (GLSL a
 * glTF 2.0 viewer cannot run) are left out and each material is drawn by its metal-rough values — and a
 * material the technique alone draws (no metal-rough values: three.js would draw glTF's default white
 * metal) is given metal-rough values from the technique's, as the 1.0 upgrade reads a technique: its
 * diffuse colour (linearised: shaders used it as stored) or texture as base colour, its shininess as
 * roughness, metallic 0. Works on the file's JSON before anything reads it.
 *
 * @module
 */
import type { Json } from "./checker.ts";
import { DIFFUSE, linear, roughnessOf, SHININESS } from "./gltf1_materials.ts";

/** The extension's names: the ratification draft's and the earlier one's. */
const NAMES = ["KHR_techniques_webgl", "KHR_technique_webgl"];

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const list = (value: unknown): unknown[] => Array.isArray(value) ? value : [];

/**
 * Reads `json`'s technique materials as described above, in place: the extension leaves
 * `extensionsUsed`, `extensionsRequired`, the top-level and every material's `extensions`. Returns the
 * notes to warn (none when the file does not use the extension).
 *
 * @example
 * ```ts
 * const json = { extensionsUsed: ["KHR_techniques_webgl"], materials: [{ extensions: {
 *   KHR_techniques_webgl: { technique: 0, values: { u_diffuse: [1, 0, 0, 1] } } } }] };
 * adoptWebglTechniques(json); // one note; materials[0].pbrMetallicRoughness.baseColorFactor [1, 0, 0, 1]
 * ```
 */
export function adoptWebglTechniques(file: object): string[] {
  const json = file as Json;
  const used = NAMES.filter((name) =>
    list(json.extensionsUsed).includes(name) || list(json.extensionsRequired).includes(name)
  );
  if (!used.length) return [];
  const required = used.filter((name) => list(json.extensionsRequired).includes(name));
  const top = used.map((name) => isObject(json.extensions) ? json.extensions[name] : undefined)
    .find(isObject);
  const techniques = list(top?.techniques);
  const textures = list(json.textures).length;
  const kept: string[] = [], given: string[] = [];
  list(json.materials).forEach((material, m) => {
    if (!isObject(material) || !isObject(material.extensions)) return;
    const name = NAMES.find((n) => isObject((material.extensions as Json)[n]));
    if (!name) return;
    const extension = (material.extensions as Json)[name] as Json;
    delete (material.extensions as Json)[name];
    if (!Object.keys(material.extensions as Json).length) delete material.extensions;
    const label = typeof material.name === "string" && material.name ? `'${material.name}'` : `#${m}`;
    if (material.pbrMetallicRoughness !== undefined) {
      kept.push(label);
      return;
    }
    // The technique's uniform defaults, then the material's values over them.
    const technique = typeof extension.technique === "number" ? techniques[extension.technique] : undefined;
    const values: Json = {};
    const uniforms = isObject(technique) && isObject(technique.uniforms) ? technique.uniforms : {};
    for (const [uniform, spec] of Object.entries(uniforms)) {
      if (isObject(spec) && spec.value !== undefined) values[uniform] = spec.value;
    }
    if (isObject(extension.values)) Object.assign(values, extension.values);
    const diffuse = values[DIFFUSE.find((n) => values[n] !== undefined && values[n] !== null) ?? ""];
    const shininessRaw = values[SHININESS.find((n) => values[n] !== undefined) ?? ""];
    const shininess = Array.isArray(shininessRaw) ? shininessRaw[0] : shininessRaw;
    const pbr: Json = {
      metallicFactor: 0,
      roughnessFactor: roughnessOf(values, typeof shininess === "number" ? shininess : undefined),
    };
    if (
      Array.isArray(diffuse) && (diffuse.length === 3 || diffuse.length === 4) &&
      diffuse.every((v) => typeof v === "number" && Number.isFinite(v))
    ) {
      const [r, g, b, a = 1] = diffuse as number[];
      pbr.baseColorFactor = [linear(r), linear(g), linear(b), Math.min(1, Math.max(0, a))];
    } else if (
      isObject(diffuse) && Number.isInteger(diffuse.index) && (diffuse.index as number) >= 0 &&
      (diffuse.index as number) < textures
    ) {
      pbr.baseColorTexture = {
        index: diffuse.index,
        ...(Number.isInteger(diffuse.texCoord) ? { texCoord: diffuse.texCoord } : {}),
      };
    }
    material.pbrMetallicRoughness = pbr;
    given.push(label);
  });
  for (const name of used) {
    json.extensionsUsed = list(json.extensionsUsed).filter((n) => n !== name);
    json.extensionsRequired = list(json.extensionsRequired).filter((n) => n !== name);
    if (isObject(json.extensions)) delete json.extensions[name];
  }
  if (!list(json.extensionsRequired).length) delete json.extensionsRequired;
  if (isObject(json.extensions) && !Object.keys(json.extensions).length) delete json.extensions;
  const few = (labels: string[]) =>
    labels.slice(0, 3).join(", ") + (labels.length > 3 ? ` and ${labels.length - 3} more` : "");
  const notes = [
    `${required.length ? "requires" : "uses"} ${
      used.join(" and ")
    } (GLSL techniques: a draft extension never ` +
    "ratified, written by COLLADA2GLTF and gltf-pipeline's 1.0 upgrade; three.js draws each material's " +
    `metal-rough values instead${
      required.length ? ", Babylon.js refuses the file" : ""
    }): read as three.js ` +
    "reads it, the techniques left out",
  ];
  if (kept.length) {
    notes.push(
      `${kept.length} material${
        kept.length > 1 ? "s" : ""
      } drawn by their metal-rough values beside the technique: ${few(kept)}`,
    );
  }
  if (given.length) {
    notes.push(
      `${given.length} material${
        given.length > 1 ? "s" : ""
      } the technique alone drew (three.js draws glTF's ` +
        `default white metal there) given metal-rough values from the technique's diffuse and shininess: ${
          few(given)
        }`,
    );
  }
  return [notes.join("; ")];
}
