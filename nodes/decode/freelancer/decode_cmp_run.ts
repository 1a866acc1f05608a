/**
 * The work of `decode.cmp` (declared in `decode_cmp.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { JsonValue } from "../../../runtime/node.ts";
import type { NodeRun } from "../../../runtime/lazy_run.ts";
import { setPartgraphExtras } from "../../../runtime/scene/extras.ts";
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { findLibraries, type LibrarySearchOptions } from "./library/search.ts";
import { gameMaterialMap } from "./library/dacom.ts";
import { libraryReport } from "./library/report.ts";
import { decodeModel, type NamedBytes } from "./codec/model.ts";
import { NO_MATERIAL_MAP, RETAIL_MATERIAL_MAP } from "./codec/material_map.ts";
import { buildScene } from "./codec/build_scene.ts";
import type { decodeCmp } from "./decode_cmp.ts";

/**
 * Decodes the model, then decodes it again with the libraries a search found for what it lacks.
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
  // A first decode tells what is missing; its warnings are repeated by the decode that follows.
  const deferred: string[] = [];
  const first = decodeModel(inputs.bytes, given, (message) => deferred.push(message), materialMap);
  const search = await findLibraries(first, options, ctx);
  let model = first;
  if (search.libraries.length) {
    model = decodeModel(inputs.bytes, [...given, ...search.libraries], warn, materialMap);
  } else deferred.forEach(warn);
  if (!search.searched) ctx.cheapToRecompute();
  if (search.nearMisses.size) model = { ...model, nearMisses: search.nearMisses };
  const scene = buildScene(model, warn, { lods: params.lods, file: inputs.bytes.name });
  setPartgraphExtras(scene.getRoot().getDefaultScene()!, {
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
