/**
 * Judges how `rig.detect_panels` reads the files of `cut_names.ts`: each file one scene (a box a name,
 * left surfaces on the left), every name's kind and the side its name states checked; a misread no
 * warning names is silent.
 *
 * @module
 */
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { getPart } from "../../../nodes/rig/part_extras.ts";
import { partneredWords, sideFromName } from "../../../nodes/rig/vocabulary.ts";
import { runNode, testContext } from "../../support/context.ts";
import { addAircraftMesh } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { boxMesh } from "./surface_classes.ts";
import { cutFiles } from "./cut_names.ts";

/** What reading cut files came to. */
export interface CutJudgement {
  readonly names: number;
  /** One line per misread name (wrong kind, missed, or a side its name does not state). */
  readonly misread: string[];
  /** The misread names no warning named. */
  readonly silent: string[];
}

/** Reads `count` files of `seed`. */
export async function judgeCutFiles(seed: number, count: number, files = cutFiles): Promise<CutJudgement> {
  const misread: string[] = [], silent: string[] = [];
  let names = 0;
  for (const file of files(seed, count)) {
    const doc = newScene();
    const nodes = file.names.map((n, i) => {
      // Left surfaces at +z (the aircraft's left in the default frame), right at -z.
      const z = n.trueSide === "left" ? 2 : n.trueSide === "right" ? -3 : -0.5;
      // A tab is a small box at its surface's trailing edge.
      const { positions, triangles } = n.kind === "trim_tab"
        ? boxMesh([i * 0.1 + 1, 0, z], [i * 0.1 + 1.3, 0.05, z + 0.3])
        : boxMesh([i * 0.1, 0, z], [i * 0.1 + 1, 0.1, z + 1]);
      return addAircraftMesh(doc, n.name, positions, triangles);
    });
    const ctx = testContext();
    const out = (await runNode(rigDetectPanels, { scene: doc }, {}, ctx)).scene;
    const outNodes = out.getRoot().listNodes();
    // Sides are read with the file's other names, as rig.assign_side reads them (`RAIL` beside `LAIL`).
    const words = partneredWords(file.names.map((n) => n.name));
    file.names.forEach((n, i) => {
      names++;
      const kind = getPart(outNodes[doc.getRoot().listNodes().indexOf(nodes[i])])?.kind;
      const side = sideFromName(n.name, words);
      let fault: string | undefined;
      if (kind !== n.kind) fault = `${kind ?? "missed"} (${n.kind})`;
      // A side the name states must be the surface's; a side still written must be read.
      else if ((side ?? n.side) !== undefined && side !== (n.side ?? side) || side && side !== n.trueSide) {
        fault = `side ${side} (${n.side ?? `${n.trueSide} cut`})`;
      }
      if (!fault) return;
      const line = `${file.style}: '${n.name}' ${fault}`;
      misread.push(line);
      if (!ctx.warnings.some((w) => w.message.includes(`'${n.name}'`))) silent.push(line);
    });
  }
  return { names, misread, silent };
}
