/**
 * Scenes edited between two rig runs in one process (the studio's and watch mode's memory tier: the
 * second run's rig nodes copy the edited scene, sharing its vertex arrays, so the look for copies
 * remembered by the first is asked again). The files are hangars (`hangar_scenes.ts`) whose sides are
 * spelt as users' files spell them — `_L`/`_R`, Polish `_L`/`_P` (prawy), port and starboard `_P`/`_S`,
 * Spanish `_I`/`_D` — and that hold what a default scene does not show: leftovers in no scene (an object
 * unlinked in Blender, a kit-bash's spare parts) or in a second scene, named in another convention. The
 * edit is one a user makes in an editor between runs: leftovers added, renamed, moved into the second
 * scene or deleted, a mesh renamed, a mesh's extras set (a script's `hide_render` on the data block).
 * Deterministic from a seed.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";
import { HANGAR_NAMINGS, hangarSample } from "./hangar_scenes.ts";

/** How sides are spelt: the left letter and the right letter put in place of `L` and `R`. */
const CONVENTIONS: readonly { left: string; right: string }[] = [
  { left: "L", right: "R" },
  { left: "L", right: "P" }, // Polish: lewy, prawy
  { left: "P", right: "S" }, // port, starboard
  { left: "I", right: "D" }, // Spanish: izquierda, derecha
];

/** The surfaces a leftover may be named for. */
const LEFTOVER_WORDS = ["Aileron", "Elevator", "Flap", "Wing", "Stabilizer", "Rudder"];

/** An edit made between two runs. */
export type MemoEdit =
  | "leftover_added"
  | "leftover_renamed"
  | "leftover_into_second_scene"
  | "leftover_deleted"
  | "mesh_renamed"
  | "mesh_extras";

/** Every edit. */
export const MEMO_EDITS: readonly MemoEdit[] = [
  "leftover_added",
  "leftover_renamed",
  "leftover_into_second_scene",
  "leftover_deleted",
  "mesh_renamed",
  "mesh_extras",
];

/** A scene to rig, and the edit to make to it between two runs. */
export interface EditedHangar {
  readonly doc: Document;
  readonly description: string;
  /** Makes the edit in place (as an editor would, between runs). */
  readonly edit: () => void;
}

/** A letter side suffix (`_L`, `.R`, ` L`) at the end of a name, or before a mesh index. */
const SIDE_LETTER = /([_.\s-])([LR])(?=$|[_.\s-]\d+$)/;

/** A hangar of `seed` with its sides respelt and leftovers beside it, and an edit of kind `edit`. */
export function editedHangar(seed: number, edit: MemoEdit): EditedHangar {
  const next = prng(seed * 7 + 3);
  const naming = HANGAR_NAMINGS[Math.floor(next() * HANGAR_NAMINGS.length)];
  const sample = hangarSample(seed, naming, next() < 0.5 ? "left" : "right");
  const doc = sample.doc;
  const own = CONVENTIONS[Math.floor(next() * CONVENTIONS.length)];
  for (const node of doc.getRoot().listNodes()) {
    node.setName(
      node.getName().replace(SIDE_LETTER, (_, sep, s) => `${sep}${s === "L" ? own.left : own.right}`),
    );
  }
  // Leftovers named in another convention, a letter of which may meet this file's.
  const other = CONVENTIONS.filter((c) => c !== own)[Math.floor(next() * (CONVENTIONS.length - 1))];
  const leftoverName = () => {
    const word = LEFTOVER_WORDS[Math.floor(next() * LEFTOVER_WORDS.length)];
    return `${word}_${next() < 0.5 ? other.left : other.right}`;
  };
  const root = doc.getRoot();
  const second = next() < 0.5 ? doc.createScene("Scene.001") : undefined;
  const leftovers: Node[] = [];
  for (let i = 0, n = 1 + Math.floor(next() * 3); i < n; i++) {
    const node = doc.createNode(leftoverName());
    second?.addChild(node);
    leftovers.push(node);
  }
  const mesh = root.listMeshes()[Math.floor(next() * root.listMeshes().length)];
  const edits: Record<MemoEdit, () => void> = {
    leftover_added: () => {
      for (let i = 0, n = 1 + Math.floor(next() * 3); i < n; i++) doc.createNode(leftoverName());
    },
    leftover_renamed: () => {
      for (const node of leftovers) node.setName(leftoverName());
    },
    leftover_into_second_scene: () => {
      const into = second ?? doc.createScene("Scene.001");
      for (const node of leftovers) into.addChild(node);
      doc.createNode(leftoverName());
    },
    leftover_deleted: () => {
      for (const node of leftovers) node.dispose();
    },
    mesh_renamed: () => void mesh.setName(`${leftoverName()}_LOD1`),
    mesh_extras: () => void mesh.setExtras({ hide_render: true, visible: false, name: leftoverName() }),
  };
  return {
    doc,
    description: `${sample.description}, sides ${own.left}/${own.right}, ` +
      `leftovers ${leftovers.map((n) => n.getName()).join(", ")}${
        second ? " in a second scene" : ""
      }, ${edit}`,
    edit: edits[edit],
  };
}
