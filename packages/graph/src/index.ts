export type { ExpandedNeighbour, Expansion } from './expand.js';
export { EXPAND_LIMITS, expandHits, expandIn } from './expand.js';
export type { LedgerDoc, ReceiptDoc } from './extract.js';
export { extractKnowhowFile, extractLedger, extractReceipt, extractSpecFile } from './extract.js';
export type { GraphFinding } from './findings.js';
export { graphFindings } from './findings.js';
export type {
  EdgeKind,
  FileContribution,
  GraphEdge,
  GraphFileRecord,
  GraphNode,
  NodeKind,
  StoredGraph,
} from './model.js';
export { EDGE_KINDS } from './model.js';
export type { GraphStatus, OpenedGraph, OpenGraphOptions } from './open.js';
export { contributionOf, openGraph } from './open.js';
export type { Neighbour, ResolvedEdge, Unresolved, WalkOptions } from './query.js';
export { KnowledgeGraph, shortestPath, walk } from './query.js';
export { ExpansionSchema, GraphPathOutput, GraphShowOutput, jsonSchemas, StoredGraphSchema } from './schemas.js';
export type { EdgeView, GraphPathResult, GraphShowResult, GraphSummary, NodeView, ShowOptions } from './show.js';
export { graphPath, graphShow, loadGraph, nodeView, parseEdgeKinds, requireNode, SHOW_LIMITS } from './show.js';
export { GRAPH_FILE, graphDir, graphSources, readStoredGraph } from './store.js';
