/**
 * The knowledge graph: a projection of specs, knowhow, run ledgers and receipts. Never a source
 * of truth — every node and edge names the file (and line) it was read from, and deleting the
 * stored graph only costs a rebuild.
 */
export type NodeKind = 'spec' | 'knowhow' | 'session' | 'run' | 'candidate';

export const EDGE_KINDS = [
  'supersedes',
  'superseded_by',
  'conflict_marked',
  'resolved_as',
  'consumed',
  'cited',
  'validated',
  'contradicted',
  'promoted_from',
  'ref',
  'same_file',
] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

export interface GraphNode {
  /** Stable node id: `spec:<sid>`, `knowhow:<slug>`, `session:<id>`, `run:<session>/<run>`, `candidate:<KDC-…>`. */
  id: string;
  kind: NodeKind;
  label: string;
  /** The canonical knowledge id (what `load` takes) for spec and knowhow nodes. */
  entry_id: string | null;
  /** active | deprecated for entries; the ledger status for candidates and runs' sessions. */
  status: string | null;
  /** `YYYY-MM-DD` of an entry, or null (used to tell a drifted positional id). */
  date: string | null;
  /** Relative to `.workflow/`. */
  file: string;
  line: number | null;
  /** Other ids that name this node (maestro-flow forms; positional ones drift). */
  aliases: string[];
}

/**
 * A relation as written in one file. `from` and `to` are references as written there (an id, a
 * maestro-flow alias, a file path) and are resolved to nodes when the graph is queried, so a
 * change to one file never rewrites another file's edges.
 */
export interface GraphEdge {
  kind: EdgeKind;
  from: string;
  to: string;
  /** Where the relation is written (relative to `.workflow/`) and its 1-based line. */
  file: string;
  line: number | null;
  /** resolved_as: duplicate | related | conflict | supersede; signals: `<source> ×<count>`. */
  detail: string | null;
  /** When a ledger input was first recorded (ISO), to judge positional ids; else null. */
  at: string | null;
}

/** What one source file contributes to the graph. */
export interface FileContribution {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Problems reading this file (damaged JSON, schema mismatch): file:line: message. */
  problems: string[];
}

/** One source file as last projected (stat + content hash), with its contribution. */
export interface GraphFileRecord extends FileContribution {
  path: string;
  size: number;
  mtime_ms: number;
  /** Inode change time when projected (absent in older graphs: such a file is checked by its hash once). */
  ctime_ms?: number;
  hash: string;
}

export interface StoredGraph {
  schema_version: 'knowledge-graph/1.0';
  /** Bumped when extraction changes, so an older file is rebuilt rather than trusted. */
  format: number;
  /** Wall-clock time the sources were stat'ed (racy-timestamp reference). */
  built_at_ms: number;
  /** sha256 of the JSON of `files`: a torn or hand-edited file is rebuilt. */
  checksum: string;
  files: GraphFileRecord[];
}
