import { z } from 'zod';
import { EDGE_KINDS } from './model.js';

const NodeKind = z.enum(['spec', 'knowhow', 'session', 'run', 'candidate']);
const EdgeKind = z.enum(EDGE_KINDS);

const NodeView = z.object({
  id: z
    .string()
    .describe('stable graph node id: spec:<sid>, knowhow:<slug>, session:<id>, run:<session>/<run>, candidate:<KDC-…>'),
  kind: NodeKind,
  label: z.string(),
  entry_id: z
    .string()
    .nullable()
    .describe('the canonical knowledge id (what `maestro load` takes); null for sessions, runs, candidates'),
  status: z.string().nullable(),
  file: z.string().describe('relative to .workflow/'),
  line: z.number().int().nullable(),
  aliases: z.array(z.string()).describe('other ids naming this node (maestro-flow forms; positional ones drift)'),
});

const EdgeView = z.object({
  kind: EdgeKind,
  direction: z
    .enum(['out', 'in'])
    .describe('out: the nearer node → the neighbour; in: the neighbour → the nearer node'),
  from: z.string().describe('the nearer node (graph id)'),
  detail: z
    .string()
    .nullable()
    .describe('resolved_as: duplicate|related|conflict|supersede; signals: <source> ×<count>'),
  file: z.string().describe('where the relation is written, relative to .workflow/'),
  line: z.number().int().nullable(),
});

const Summary = z.object({
  status: z.enum(['fresh', 'updated', 'built', 'rebuilt']),
  nodes: z.number().int(),
  edges: z.number().int(),
  reextracted: z.number().int().describe('source files extracted again by this command'),
});

export const GraphShowOutput = z
  .object({
    schema_version: z.literal('graph-show/1.0'),
    query: z.string(),
    node: NodeView,
    resolved_alias: z.string().nullable(),
    depth: z.number().int(),
    edge_kinds: z.array(EdgeKind).nullable(),
    neighbours: z.array(z.object({ node: NodeView, depth: z.number().int(), edge: EdgeView })),
    truncated: z.boolean(),
    graph: Summary,
    warnings: z.array(z.string()),
  })
  .describe('maestro graph show --json');

export const GraphPathOutput = z
  .object({
    schema_version: z.literal('graph-path/1.0'),
    from: NodeView,
    to: NodeView,
    found: z.boolean(),
    hops: z.array(z.object({ node: NodeView, edge: EdgeView })),
    graph: Summary,
    warnings: z.array(z.string()),
  })
  .describe('maestro graph path --json');

export const ExpansionSchema = z
  .object({
    hits: z.array(
      z.object({
        id: z.string(),
        neighbours: z.array(
          z.object({
            id: z.string(),
            graphId: z.string(),
            title: z.string(),
            status: z.string().nullable(),
            relation: z
              .string()
              .describe('why it is shown, e.g. "successor (superseded_by)", "resolved as related (via KDC-…)"'),
            kind: EdgeKind,
            file: z.string(),
            line: z.number().int().nullable(),
          }),
        ),
      }),
    ),
    truncated: z.boolean(),
    warnings: z.array(z.string()),
  })
  .describe('--expand: one-hop graph neighbours of the top hits (capped, labelled)');

const Node = NodeView.extend({ date: z.string().nullable() });
const Edge = z.object({
  kind: EdgeKind,
  from: z.string(),
  to: z.string(),
  file: z.string(),
  line: z.number().int().nullable(),
  detail: z.string().nullable(),
  at: z.string().nullable(),
});

export const StoredGraphSchema = z
  .object({
    schema_version: z.literal('knowledge-graph/1.0'),
    format: z.number().int(),
    built_at_ms: z.number(),
    checksum: z.string().describe('sha256 of the JSON text of `files`, which is written last'),
    files: z.array(
      z.object({
        path: z.string(),
        size: z.number().int(),
        mtime_ms: z.number(),
        ctime_ms: z.number().optional(),
        hash: z.string(),
        nodes: z.array(Node),
        edges: z.array(Edge),
        problems: z.array(z.string()),
      }),
    ),
  })
  .describe('.workflow/.index/graph/graph.json (derived; delete it any time)');

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = {
  'graph-show-output': GraphShowOutput,
  'graph-path-output': GraphPathOutput,
  'graph-expansion': ExpansionSchema,
  'knowledge-graph': StoredGraphSchema,
};
