/// <reference lib="dom" />
/**
 * A finished run's results in the Outputs list: each graph output (download; Preview for a scene or
 * GLB) and each file its `io.write` nodes wrote (path and size on disk, download; Preview for a
 * glTF), so a graph whose results go only to files still shows what it made.
 *
 * @module
 */
import type { RunEnd } from "./run.ts";

/** How a listed result is shown in the 3D preview. */
export type ShowPreview = (url: string, label: string) => void;

/** Files the 3D preview opens as written (other formats a run writes are downloads only). */
const GLTF = /\.(glb|gltf)$/i;

/** Fills `list` with the run's graph outputs, then the files it wrote. */
export function listOutputs(list: HTMLElement, end: RunEnd, preview: ShowPreview): void {
  list.replaceChildren();
  for (const output of end.outputs ?? []) {
    const url = `/api/output?name=${encodeURIComponent(output.name)}`;
    list.append(row({
      url,
      download: output.file,
      text: `${output.name} (${output.type}, ${output.size} bytes)`,
      // Any output reads as a GLB from /api/output when it is one: a scene is sent as GLB.
      // Labelled in the preview by the file the run wrote it as ("out/fighter.rigged.glb: 6 parts"),
      // when it wrote one: the output's name ("glb") did not say which file was shown.
      preview: output.type === "scene" || output.file.endsWith(".glb")
        ? () => preview(url, output.written ?? output.name)
        : undefined,
    }));
  }
  for (const file of end.files ?? []) {
    const path = encodeURIComponent(file.path);
    list.append(row({
      url: `/api/file?path=${path}`,
      download: file.path.split(/[\\/]/).pop()!,
      text: `${file.path} (written, ${file.size} bytes)`,
      preview: GLTF.test(file.path) ? () => preview(`/api/model?path=${path}`, file.path) : undefined,
    }));
  }
}

/** One result: a download link, and a Preview button when the viewer opens it. */
function row(result: { url: string; download: string; text: string; preview?: () => void }): HTMLLIElement {
  const li = document.createElement("li");
  const { url: href, download, text: textContent } = result;
  li.append(Object.assign(document.createElement("a"), { href, download, textContent }));
  if (result.preview) {
    const show = Object.assign(document.createElement("button"), { textContent: "Preview" });
    show.onclick = result.preview;
    li.append(" ", show);
  }
  return li;
}
