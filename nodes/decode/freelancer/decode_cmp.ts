/**
 * `decode.cmp` — a Freelancer compound model (`.cmp`), rigid part (`.3db`) or mesh library (`.vms`)
 * to a scene: every part a root-level node with its LOD 0 mesh (other LODs and the wireframe kept
 * off-node, or as `$lodN` / `.vmeshwire` children with `lods: "all"`), hardpoints, LancerEdit-style
 * names and extras, materials as glTF PBR with PNG textures, and the raw `Cons` records kept in
 * `extras.partgraph.constraints` for `constraints.resolve`. Meshes, materials and textures the file
 * lacks are found in the game's libraries (see `library/search.ts`) and the scene says which library
 * supplied each (`extras.partgraph.libraries`).
 *
 * @module
 */
import { importOnUse } from "../../../runtime/lazy_run.ts";
import { defineNode, type JsonValue } from "../../../runtime/node.ts";
import { setPartgraphExtras } from "../../../runtime/scene/extras.ts";
import type { LibrarySearchOptions } from "./library/search.ts";
import type { NamedBytes } from "./codec/model.ts";

/** Checks the `libraries` parameter: `"auto"`, `"none"` or a list of paths. */
function checkLibraries(value: JsonValue): string | undefined {
  if (value === "auto" || value === "none") return undefined;
  return Array.isArray(value) && value.every((v) => typeof v === "string" && v !== "")
    ? undefined
    : 'expected "auto", "none" or a list of library paths';
}

/** The search options of the node's parameters. */
function searchOptions(
  params: { libraries: JsonValue; model_path: string; data_root: string },
): LibrarySearchOptions {
  const { libraries, model_path: modelPath, data_root: dataRoot } = params;
  return { modelPath, dataRoot, libraries: libraries === "auto" ? "auto" : libraries as string[] };
}

/** `decode.cmp` node definition. */
export const decodeCmp = defineNode({
  type: "decode.cmp",
  version: 3,
  doc: "Decodes a Freelancer .cmp, .3db or .vms (UTF container) into a scene: one root-level node per " +
    "part (LODs, wireframe, hardpoints, camera), PBR materials with PNG textures, and the raw Cons " +
    "constraint records for constraints.resolve. Meshes, materials and textures are looked up in the " +
    "file, then in the optional library inputs, then (libraries: auto) in the libraries the game's " +
    "archetype inis name for the model, the .mat/.txm/.vms files in its folder and its ancestors " +
    "up to the DATA folder (nearest first), and the rest of that tree; the scene records which " +
    "library supplied each.",
  inputs: {
    bytes: { type: "bytes", doc: "The .cmp, .3db or .vms file." },
    library: {
      type: "bytes",
      optional: true,
      doc: "An extra UTF library (.vms, .mat or .txm) whose meshes, materials and textures are merged in.",
    },
    materials: {
      type: "bytes",
      optional: true,
      doc: "A second extra library, usually the ship family's .mat (any UTF library is accepted).",
    },
  },
  outputs: { scene: { type: "scene", doc: "The parts as root-level nodes, with raw constraint records." } },
  params: {
    libraries: {
      type: "json",
      default: "auto",
      doc: '"auto": find what the file and inputs lack (the libraries the archetype inis name for the ' +
        "model, the .mat/.txm/.vms in its folder and ancestors up to data_root or the nearest DATA, then " +
        'the rest of that tree); "none": only the file and inputs; or a list of library paths ' +
        "(relative to data_root when set) tried in order.",
      schema: { oneOf: [{ enum: ["auto", "none"] }, { type: "array", items: { type: "string" } }] },
      check: checkLibraries,
    },
    model_path: {
      type: "string",
      default: "",
      doc: "Path of the model file, where library search starts (the bytes input has only a file name).",
    },
    data_root: {
      type: "string",
      default: "",
      doc: "The game's DATA folder: the top of the library search (nothing outside it is read) and " +
        "the root of the paths archetype inis name; empty: the nearest ancestor folder named DATA.",
    },
    lods: {
      type: "enum",
      values: ["first", "all"],
      default: "first",
      doc: "first: parts draw LOD 0; other LODs and wireframes stay in the file on no node (viewers " +
        "draw one LOD, no outline). all: LancerEdit's $lodN / .vmeshwire child nodes (all drawn).",
    },
  },
  // No fingerprint: every file the library search lists or reads (or fails to read) is recorded
  // with the result, so a library that is edited, added or removed re-runs the decode and what
  // depends on it.
  async run({ inputs, params, ctx }) {
    const [{ findLibraries }, { libraryReport }, { decodeModel }, { buildScene }, png] = await Promise.all([
      importOnUse<typeof import("./library/search.ts")>("./library/search.ts", import.meta.url),
      importOnUse<typeof import("./library/report.ts")>("./library/report.ts", import.meta.url),
      importOnUse<typeof import("./codec/model.ts")>("./codec/model.ts", import.meta.url),
      importOnUse<typeof import("./codec/build_scene.ts")>("./codec/build_scene.ts", import.meta.url),
      importOnUse<typeof import("../../../runtime/scene/png.ts")>(
        "../../../runtime/scene/png.ts",
        import.meta.url,
      ),
    ]);
    await png.loadPngEncoder();
    const given: NamedBytes[] = [inputs.library, inputs.materials].filter((l) => l !== undefined);
    const warn = (message: string) => ctx.warn(message);
    if (params.libraries === "none") {
      return { scene: buildScene(decodeModel(inputs.bytes, given, warn), warn, { lods: params.lods }) };
    }
    // A first decode tells what is missing; its warnings are repeated by the decode that follows.
    const deferred: string[] = [];
    const first = decodeModel(inputs.bytes, given, (message) => deferred.push(message));
    const search = await findLibraries(first, searchOptions(params), ctx);
    let model = first;
    if (search.libraries.length) model = decodeModel(inputs.bytes, [...given, ...search.libraries], warn);
    else deferred.forEach(warn);
    const scene = buildScene(model, warn, { lods: params.lods });
    setPartgraphExtras(scene.getRoot().getDefaultScene()!, {
      libraries: libraryReport(model, search.report),
    });
    return { scene };
  },
});
