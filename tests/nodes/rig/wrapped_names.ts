/**
 * Aircraft as tools wrap them: Sketchfab's re-export (`Sketchfab_model`, turning its Z-up content to
 * Y-up, > `root` > `GLTF_SceneRootNode` > `Aileron_L_3` > `Object_6` drawing mesh `Object_6`, one
 * `Object_<n>` per material) and Maya's FBX (`|group1|aileron_L` kept as a name, under a `group1` and
 * beside `polySurface12`). Each panel is judged rigged whole: kind, side, hinge within 2° and 5 % of the
 * chord, confidence good.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { prng } from "../../support/prng.ts";
import { addAircraftMesh, hingeError } from "./coarse_panels.ts";
import { newScene } from "./fixtures.ts";
import { rig } from "./pipeline.ts";
import { piecesAircraft } from "./surface_pieces.ts";

/** How the aircraft is wrapped. */
export type Wrapping = "sketchfab" | "maya";

/** Writes a Z-up copy of a node's mesh, as Sketchfab's converter keeps the source's axes below its turn. */
function toZUp(node: Node): void {
  const accessor = node.getMesh()!.listPrimitives()[0].getAttribute("POSITION")!;
  // The accessor's own array, turned in place.
  const p = accessor.getArray()!;
  for (let i = 0; i < p.length; i += 3) {
    const [y, z] = [p[i + 1], p[i + 2]];
    p[i + 1] = -z;
    p[i + 2] = y;
  }
}

/** `piecesAircraft(seed)` wrapped as `wrapping` does. */
export function wrappedAircraft(
  seed: number,
  wrapping: Wrapping,
): { doc: Document; panels: ReturnType<typeof piecesAircraft>["panels"]; names: string[] } {
  const next = prng(seed * 13 + 5);
  const aircraft = piecesAircraft(seed);
  const doc = newScene();
  const scene = doc.getRoot().getDefaultScene()!;
  let holder: Node;
  let counter = 2;
  if (wrapping === "sketchfab") {
    const model = doc.createNode("Sketchfab_model").setRotation([-Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
    const root = doc.createNode("root");
    holder = doc.createNode("GLTF_SceneRootNode");
    scene.addChild(model);
    model.addChild(root);
    root.addChild(holder);
  } else {
    holder = doc.createNode("group1");
    scene.addChild(holder);
  }
  const add = (name: string, mesh: { positions: ArrayLike<number>; triangles: ArrayLike<number> }) => {
    if (wrapping === "maya") return addAircraftMesh(doc, name, mesh.positions, mesh.triangles, holder);
    const object = doc.createNode(`${name}_${counter++}`);
    holder.addChild(object);
    const drawn = addAircraftMesh(doc, `Object_${counter++}`, mesh.positions, mesh.triangles, object);
    toZUp(drawn);
    return object;
  };
  aircraft.fixed.forEach(({ name, mesh }, k) => add(next() < 0.5 ? name : `polySurface${k + 12}`, mesh));
  const names = aircraft.panels.map((panel) => {
    const name = wrapping === "maya" ? `|group1|${panel.name.toLowerCase()}` : panel.name;
    return add(name, panel.mesh).getName();
  });
  return { doc, panels: aircraft.panels, names };
}

/** Rigs a wrapped aircraft; one line per panel rigged wrong, and how many of those were judged good. */
export async function judgeWrapped(
  seed: number,
  wrapping: Wrapping,
): Promise<{ wrong: string[]; wrongGood: number }> {
  const { doc, panels, names } = wrappedAircraft(seed, wrapping);
  const { report } = await rig(doc);
  const wrong: string[] = [];
  let wrongGood = 0;
  panels.forEach((panel, i) => {
    const part = report.parts.find((p) => p.panel === names[i]);
    const label = `seed ${seed} ${wrapping} '${names[i]}'`;
    if (!part?.hinge) return void wrong.push(`${label}: not rigged`);
    const { degrees, offset } = hingeError(panel.truth!, part.hinge.aircraft);
    const confidence = (part.fit as unknown as { confidence: string }).confidence;
    if (
      part.kind === panel.kind && part.side === panel.side && degrees <= 2 &&
      offset <= 0.05 * panel.truth!.chord && confidence === "good"
    ) return;
    wrong.push(
      `${label}: ${part.kind} ${part.side} (${panel.kind} ${panel.side}), ${
        degrees.toFixed(1)
      }°, ${confidence}`,
    );
    if (confidence === "good") wrongGood++;
  });
  return { wrong, wrongGood };
}
