/**
 * Judges a generated scene-less glTF (`sceneless_files.ts`) as a user meets it: decoded and exported as
 * `graphs/gltf.json` does (`decode.auto → export.gltf`), then loaded by three.js's `GLTFLoader`. A part
 * the file carries a mesh for and three.js does not draw (or a refusal) is a problem; it is warned when a
 * warning of the run says the file had no scene.
 *
 * @module
 */
import { decodeAuto } from "../../nodes/decode/auto.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode, testContext } from "../support/context.ts";
import { load, meshes } from "../support/threejs_client.ts";
import type { ScenelessFile } from "./sceneless_files.ts";

/** What three.js showed of one file, and whether partgraph said the file had no scene. */
export interface ScenelessVerdict {
  /** The mesh parts three.js did not draw (all of them when it refused the file). */
  readonly undrawn: readonly string[];
  /** three.js's error, when it refused. */
  readonly refused?: string;
  /** Whether a warning said the file had no scene. */
  readonly warned: boolean;
  readonly warnings: readonly string[];
}

/** Runs `file` through decode and export and loads the GLB in three.js. */
export async function judgeSceneless(file: ScenelessFile): Promise<ScenelessVerdict> {
  const ctx = testContext();
  const { scene } = await runNode(decodeAuto, { bytes: { bytes: file.bytes, name: file.name } }, {}, ctx);
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  const warnings = ctx.warnings.map((w) => w.message);
  const warned = warnings.some((w) => /no scene/.test(w));
  try {
    const loaded = await load(glb);
    const drawn = new Set(
      meshes(loaded.scene).map((m) => {
        // three.js makes one Mesh per primitive: a node's meshes may come in as a group of them.
        const index = loaded.parser.associations.get(m)?.nodes ??
          (m.parent ? loaded.parser.associations.get(m.parent)?.nodes : undefined);
        return index === undefined
          ? undefined
          : (loaded.parser.json.nodes as { name?: string }[])[index].name;
      }),
    );
    return { undrawn: file.meshNodes.filter((name) => !drawn.has(name)), warned, warnings };
  } catch (error) {
    return { undrawn: file.meshNodes, refused: String(error).slice(0, 200), warned, warnings };
  }
}
