/**
 * The nodes a Freelancer part carries besides its meshes: its hardpoints (LancerEdit's `hardpoint` /
 * `hptype` extras, a revolute one's limits in degrees and axis) and its camera.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import type { FragmentCamera, Hardpoint } from "./fragment.ts";
import { readRotation } from "./rotation.ts";
import { degrees } from "./transform.ts";
import { setQuietly } from "../../../../runtime/scene/quiet_refs.ts";

/** A hardpoint's node: its frame, and LancerEdit's extras. */
export function hardpointNode(doc: Document, hp: Hardpoint): Node {
  // A scaled or mirrored Orientation (a hand edit) keeps its scale, as the game uses the matrix as stored.
  const { rotation, scale, problem } = readRotation(hp.orientation);
  const node = doc.createNode(hp.name);
  // A new node's literals are stored without the setters' change events (`quiet_refs.ts`).
  const translation: [number, number, number] = [hp.position[0], hp.position[1], hp.position[2]];
  if (!setQuietly(node, "translation", translation)) node.setTranslation(translation);
  if (!setQuietly(node, "rotation", rotation)) node.setRotation(rotation);
  if (problem) node.setScale(scale);
  // Keys in the written file's (sorted) order, so the export writes this very object, not a copy.
  const extras: Record<string, JsonValue> = hp.kind === "rev"
    ? {
      axis: [...hp.axis!],
      hardpoint: true,
      hptype: hp.kind,
      max: degrees(hp.max!),
      min: degrees(hp.min!),
      partgraph: { hardpoint: { kind: hp.kind } },
    }
    : { hardpoint: true, hptype: hp.kind, partgraph: { hardpoint: { kind: hp.kind } } };
  // A new node has no extras to merge with: stored at once, without the setter's event.
  if (!setQuietly(node, "extras", extras)) node.setExtras(extras);
  return node;
}

/** Sets a part's camera (half-angles stored, glTF's full vertical field of view); unusable values are skipped. */
export function attachCamera(doc: Document, node: Node, camera: FragmentCamera, warn: WarningSink): void {
  const { fovx, fovy, znear, zfar } = camera;
  if (!(fovy > 0 && fovy < Math.PI / 2 && fovx > 0 && fovx < Math.PI / 2 && znear > 0 && zfar > znear)) {
    warn(`camera of part '${node.getName()}' has unusable values ${JSON.stringify(camera)}; skipped`);
    return;
  }
  // Freelancer stores half-angles; glTF wants the full vertical field of view.
  node.setCamera(
    doc.createCamera(`${node.getName()}.camera`).setType("perspective")
      .setYFov(2 * fovy).setAspectRatio(Math.tan(fovx) / Math.tan(fovy)).setZNear(znear).setZFar(zfar),
  );
}
