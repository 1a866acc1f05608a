/**
 * `partgraph verify <manifest>`: reads the manifest and hands it to what rebuilds it, a run's to
 * `run.ts`, a batch's to `batch.ts`, each imported only then. Apart from `run.ts`, which loads the
 * executor, every node and glTF-Transform: a batch's rebuild runs them on its workers, and its main
 * thread (on two cores, a share of a core the workers want) needs none of them.
 *
 * @module
 */
import { importOnUse } from "../runtime/lazy_run.ts";
import { isObject } from "../runtime/json_shape.ts";
import { type Manifest, manifestProblem } from "../runtime/manifest.ts";
import { type BatchManifest, batchManifestProblem } from "../batch/manifest.ts";
import { type Opts, readManifestFile } from "./shared.ts";

/** Runs `partgraph verify`; resolves with the exit code. */
export async function verifyCommand(manifestPath: string, opts: Opts): Promise<number> {
  const recorded = await readManifestFile<Manifest | BatchManifest>(
    manifestPath,
    "build or batch manifest",
    (value) => isObject(value) && "batch" in value ? batchManifestProblem(value) : manifestProblem(value),
  );
  if ("batch" in recorded) {
    return await (await importOnUse<typeof import("./batch.ts")>("./batch.ts", import.meta.url))
      .verifyBatch(recorded, opts);
  }
  return await (await importOnUse<typeof import("./run.ts")>("./run.ts", import.meta.url))
    .verifyManifest(recorded, opts);
}
