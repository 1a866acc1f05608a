/**
 * The work of `decode.cmp` (declared in `decode_cmp.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { JsonValue } from "../../../runtime/node.ts";
import type { NodeRun } from "../../../runtime/lazy_run.ts";
import { setSortedPartgraph } from "./codec/sorted_keys.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { findLibraries, type LibrarySearchOptions } from "./library/search.ts";
import { gameMaterialMap } from "./library/dacom.ts";
import { libraryReport } from "./library/report.ts";
import { decodeModel, finishModel, modelSoFar, type NamedBytes, readModel } from "./codec/model.ts";
import { NO_MATERIAL_MAP, RETAIL_MATERIAL_MAP } from "./codec/material_map.ts";
import { buildScene } from "./codec/build_scene.ts";
import type { decodeCmp } from "./decode_cmp.ts";

/**
 * Reads the model, searches for the libraries that define what it lacks, and completes it with them.
 * A decode that searched no game tree is not stored (`cheapToRecompute`): storing a scene costs
 * about what decoding it again does, and most runs either fill the cache or hit all the way to the
 * outputs. In a batch of retail-shaped compounds that makes a cold fill 10–13 ms a model faster and
 * the cache a third smaller, for 1–11 ms more in a run that needs the scene again (a pose changed);
 * textures' PNGs are kept apart, as derived bytes, so a decode done again deflates none.
 */
export const run: NodeRun<typeof decodeCmp> = async ({ inputs, params, ctx }) => {
  await loadPngEncoder();
  const given: NamedBytes[] = [inputs.library, inputs.materials].filter((l) => l !== undefined);
  const warn = (message: string) => ctx.warn(message);
  if (params.libraries === "none") {
    // No file beyond the inputs is read: "auto" is retail's [MaterialMap].
    ctx.cheapToRecompute();
    const materialMap = params.material_map === "none" ? NO_MATERIAL_MAP : RETAIL_MATERIAL_MAP;
    return {
      scene: buildScene(decodeModel(inputs.bytes, given, warn, materialMap), warn, {
        lods: params.lods,
        file: inputs.bytes.name,
      }),
    };
  }
  const options = searchOptions(params);
  // "auto": the install's own EXE/dacom.ini when the model is in a game tree, else retail's table.
  const materialMap = params.material_map === "auto"
    ? await gameMaterialMap(options, ctx)
    : params.material_map === "retail"
    ? RETAIL_MATERIAL_MAP
    : NO_MATERIAL_MAP;
  // The file is read once: what it uses and lacks goes to the search, the libraries found complete it.
  // Its warnings wait for the search's, which a decode has always come after.
  const deferred: string[] = [];
  const reading = readModel(inputs.bytes, given, (message) => deferred.push(message));
  const search = await findLibraries(modelSoFar(reading, materialMap), options, ctx);
  deferred.forEach(warn);
  let model = finishModel(reading, search.libraries, warn, materialMap);
  if (!search.searched) ctx.cheapToRecompute();
  if (search.nearMisses.size) model = { ...model, nearMisses: search.nearMisses };
  // Libraries the search read and passed over were looked in too: a warning about what none defines says so.
  const read = Array.isArray(search.report.read)
    ? search.report.read.filter((r) => typeof r === "string")
    : [];
  const passed = read.filter((label) => !model.librariesRead?.includes(label));
  if (passed.length) model = { ...model, librariesRead: [...model.librariesRead ?? [], ...passed] };
  const scene = buildScene(model, warn, { lods: params.lods, file: inputs.bytes.name });
  // Among the scene's partgraph keys in sorted order (before `source`): the export keeps the object.
  setSortedPartgraph(scene.getRoot().getDefaultScene()!, {
    libraries: libraryReport(model, search.report),
  });
  return { scene };
};

/** The search options of the node's parameters. */
function searchOptions(
  params: { libraries: JsonValue; model_path: string; data_root: string },
): LibrarySearchOptions {
  const { libraries, model_path: modelPath, data_root: dataRoot } = params;
  return { modelPath, dataRoot, libraries: libraries === "auto" ? "auto" : libraries as string[] };
}
