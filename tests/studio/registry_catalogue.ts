/**
 * The catalogue the studio page gets from the server, built from the built-in registry, for tests that
 * drive the page's model without a page.
 *
 * @module
 */
import { createRegistry, SOCKET_TYPES } from "../../mod.ts";
import type { Catalogue } from "../../studio/web/types.ts";

/** Every built-in node type as `/api/catalogue` lists it (a JSON round trip, as the page receives it). */
export const registryCatalogue: Catalogue = JSON.parse(JSON.stringify({
  types: SOCKET_TYPES,
  nodes: createRegistry().list().map(({ type, version, doc, inputs, outputs, params }) => ({
    type,
    version,
    doc,
    inputs,
    outputs,
    params,
  })),
}));
