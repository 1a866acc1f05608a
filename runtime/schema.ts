/**
 * The JSON Schema of graph files, generated from the registry's node declarations and the field
 * tables the validator uses, so editors autocomplete node types, parameters and sockets exactly as
 * validation will judge them. `partgraph schema` writes it to `schema/graph.schema.json`.
 *
 * @module
 */
import { GRAPH_FIELDS, GROUP_NODE_TYPE, INPUT_FIELDS, NODE_FIELDS } from "./graph.ts";
import { type AnyNodeDef, type JsonValue, type ParamSpec, SOCKET_TYPES } from "./node.ts";
import type { Registry } from "./registry.ts";

/** A JSON Schema (draft 2020-12) document or fragment, as plain JSON. */
export type JsonSchema = { [key: string]: JsonValue };

const INPUT_REF: JsonSchema = {
  type: "object",
  properties: { $input: { type: "string", description: "Name of a graph input." } },
  required: ["$input"],
  additionalProperties: false,
};
const POSITION: JsonSchema = { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2 };
const LINK: JsonSchema = { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_-]*\\.[A-Za-z_][A-Za-z0-9_]*$" };

/** Builds the graph-file JSON Schema for every node type in the registry. */
export function graphSchema(registry: Registry): JsonSchema {
  const nodes = registry.list();
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://partgraph.dev/schema/graph.schema.json",
    title: "partgraph graph file (format v1)",
    type: "object",
    required: ["version", "nodes"],
    additionalProperties: false,
    properties: {
      $schema: { type: "string", description: GRAPH_FIELDS.$schema },
      version: { const: 1, description: GRAPH_FIELDS.version },
      name: { type: "string", description: GRAPH_FIELDS.name },
      description: { type: "string", description: GRAPH_FIELDS.description },
      inputs: {
        type: "object",
        description: GRAPH_FIELDS.inputs,
        propertyNames: { pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
        additionalProperties: {
          type: "object",
          required: ["type"],
          additionalProperties: false,
          properties: {
            type: { enum: [...SOCKET_TYPES], description: INPUT_FIELDS.type },
            default: { description: INPUT_FIELDS.default },
            description: { type: "string", description: INPUT_FIELDS.description },
          },
        },
      },
      modules: { type: "array", items: { type: "string" }, description: GRAPH_FIELDS.modules },
      nodes: {
        type: "object",
        description: GRAPH_FIELDS.nodes,
        propertyNames: { pattern: "^[A-Za-z_][A-Za-z0-9_-]*$" },
        additionalProperties: {
          type: "object",
          required: ["type"],
          properties: {
            type: {
              description: NODE_FIELDS.type,
              anyOf: [{ enum: [GROUP_NODE_TYPE, ...nodes.map((n) => n.type)] }, { type: "string" }],
            },
          },
          allOf: [groupSchema(), ...nodes.map(nodeSchema)],
        },
      },
      outputs: { type: "object", description: GRAPH_FIELDS.outputs, additionalProperties: LINK },
      ui: {
        type: "object",
        description: GRAPH_FIELDS.ui,
        properties: {
          nodes: { type: "object", additionalProperties: POSITION, description: "Node positions by id." },
          inputs: { ...POSITION, description: "Position of the graph-inputs node." },
          outputs: { ...POSITION, description: "Position of the graph-outputs node." },
        },
      },
    },
  };
}

function groupSchema(): JsonSchema {
  return {
    if: { properties: { type: { const: GROUP_NODE_TYPE } } },
    then: {
      required: ["graph"],
      additionalProperties: false,
      properties: {
        type: {},
        graph: { type: "string", description: NODE_FIELDS.graph },
        params: { type: "object", description: NODE_FIELDS.params },
        inputs: { type: "object", description: NODE_FIELDS.inputs, additionalProperties: linkOrRef() },
        comment: { type: "string", description: NODE_FIELDS.comment },
      },
    },
  };
}

function nodeSchema(node: AnyNodeDef): JsonSchema {
  const params: JsonSchema = {};
  for (const [name, spec] of Object.entries(node.params)) {
    params[name] = { anyOf: [paramSchema(spec), INPUT_REF] };
  }
  const inputs: JsonSchema = {};
  for (const [name, spec] of Object.entries(node.inputs)) {
    inputs[name] = { ...linkOrRef(), description: `${spec.type}: ${spec.doc}` };
  }
  const required = Object.entries(node.params).filter(([, p]) => p.default === undefined).map(([n]) => n);
  return {
    if: { properties: { type: { const: node.type } } },
    then: {
      description: node.doc,
      additionalProperties: false,
      properties: {
        type: {},
        params: {
          type: "object",
          properties: params,
          additionalProperties: false,
          ...(required.length ? { required } : {}),
        },
        inputs: { type: "object", properties: inputs, additionalProperties: false },
        comment: { type: "string", description: NODE_FIELDS.comment },
      },
      ...(required.length ? { required: ["params"] } : {}),
    },
  };
}

function linkOrRef(): JsonSchema {
  return { anyOf: [LINK, INPUT_REF] };
}

function paramSchema(spec: ParamSpec): JsonSchema {
  const base: JsonSchema = { description: spec.doc };
  if (spec.default !== undefined) base.default = spec.default;
  switch (spec.type) {
    case "number": {
      const s: JsonSchema = { ...base, type: spec.integer ? "integer" : "number" };
      if (spec.min !== undefined) s.minimum = spec.min;
      if (spec.max !== undefined) s.maximum = spec.max;
      return s;
    }
    case "enum":
      return { ...base, enum: [...spec.values] };
    case "path": // "" only where it is the default: an optional path's "none"
      return spec.default === "" ? { ...base, type: "string" } : { ...base, type: "string", minLength: 1 };
    case "json":
      return { ...base, ...(spec.schema ?? {}) };
    default:
      return { ...base, type: spec.type };
  }
}
