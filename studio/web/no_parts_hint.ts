/// <reference lib="dom" />
/**
 * What the part panel says for a model with no `ctrl_type` parts, by what the model is: where a part
 * comes from depends on the format. An aircraft GLB gets its parts from partgraph's aircraft rig; a
 * Freelancer compound from its joints; a `.3db`, a Carnivores model or a Daz file has no jointed parts
 * to give. The panel said "set the aircraft rig's model input to this file" for every one of them,
 * though that rig reads glTF only: followed for a `.cmp`, it ended in a decode.gltf error.
 *
 * @module
 */

/** The rig graph a project made with partgraph has (`partgraph run` rigs a model file with it). */
const RIG_GRAPH = "graphs/aircraft_file.json";

/** The start every hint shares, so a user (and a test) reads the same words for the same state. */
const NONE = "No ctrl_type parts in this model";

/**
 * The hint for the model `label` names (a file path, or a run output's name). `graphs` lists the
 * project's graph files as the picker names them.
 */
export function noPartsHint(label: string, graphs: readonly string[]): string {
  const extension = /\.([^./\\]+)$/.exec(label)?.[1]?.toLowerCase() ?? "";
  const name = label.slice(Math.max(label.lastIndexOf("/"), label.lastIndexOf("\\")) + 1);
  switch (extension) {
    case "cmp":
      return `${NONE}: a Freelancer compound's parts are its moving joints (Rev, Pris, Cyl, Sphere and ` +
        `Loose in its Cons), and ${name} has none (Fix joints only place their parts). The aircraft rig ` +
        "reads glTF and GLB files, not .cmp.";
    case "3db":
      return `${NONE}: a Freelancer .3db is one rigid part, with no joints to move (a .cmp joins parts ` +
        "with joints).";
    case "3df":
    case "car":
    case "3dn":
    case "rsc":
      return `${NONE}: a Carnivores model has no jointed parts; a .car moves by its animations (the clip ` +
        "menu below the view).";
    case "duf":
    case "dsf":
      return `${NONE}: a Daz figure moves by its bones (skinning, set by a pose preset), not by parts.`;
  }
  // A GLB or glTF (or a run's output): an aircraft as exported has none until it is rigged.
  const rig = graphs.find((g) => g === RIG_GRAPH || g.endsWith(`/${RIG_GRAPH}`));
  return rig
    ? `${NONE} (an aircraft gets them from ${rig}'s rig: open it, set its model input (on Group Input) ` +
      "to this file, and Run)."
    : `${NONE}: they come from partgraph's aircraft rig, which this project has no graph for. In the ` +
      `partgraph folder, run: partgraph run ${RIG_GRAPH} --set model=<this file> (README, "Aircraft ` +
      'rig"), then preview the rigged GLB it writes.';
}

/** The project's graph files as the page's picker lists them. */
export function pickerGraphs(): string[] {
  const picker = document.getElementById("graph-picker") as HTMLSelectElement | null;
  return [...picker?.options ?? []].map((o) => o.value);
}
