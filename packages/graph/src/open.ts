import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { parseDelta } from '@maestro/ledger';
import { RACY_WINDOW_MS, ReceiptSchema } from '@maestro/reconcile';
import { extractKnowhowFile, extractLedger, extractReceipt, extractSpecFile } from './extract.js';
import type { FileContribution, GraphFileRecord, StoredGraph } from './model.js';
import { GRAPH_FORMAT, GRAPH_SCHEMA, graphSources, readStoredGraph, writeStoredGraph } from './store.js';

export type GraphStatus = 'fresh' | 'updated' | 'built' | 'rebuilt';

export interface OpenedGraph {
  files: GraphFileRecord[];
  /** fresh: used as stored (a stat per source file); updated: some files re-read; built / rebuilt. */
  status: GraphStatus;
  /** Source files whose contribution was extracted again by this call (relative to `.workflow/`). */
  reextracted: string[];
  persisted: boolean;
  warnings: string[];
}

export interface OpenGraphOptions {
  /** Write the updated graph back (default true); false or an unwritable disk → answered in memory. */
  persist?: boolean;
}

/** Extracts one source file's contribution from its text (pure apart from the JSON parse). */
export function contributionOf(path: string, text: string): FileContribution {
  try {
    if (path.startsWith('specs/')) return extractSpecFile(path, text);
    if (path.startsWith('knowhow/')) return extractKnowhowFile(path, text);
    if (path.endsWith('knowledge-delta.json')) return extractLedger(path, parseDelta(text, `.workflow/${path}`), text);
    const r = ReceiptSchema.safeParse(JSON.parse(text));
    if (!r.success) {
      const first = r.error.issues[0];
      return {
        nodes: [],
        edges: [],
        problems: [
          `.workflow/${path}: not a knowledge-reconciliation/1.0 receipt (${first?.path.join('.')}: ${first?.message})`,
        ],
      };
    }
    return extractReceipt(path, r.data, text);
  } catch (err) {
    return { nodes: [], edges: [], problems: [`.workflow/${path}: ${(err as Error).message.split('\n')[0]}`] };
  }
}

/**
 * One source file, reused from `prev` when its stat (size, mtime, ctime) is unchanged and not racily
 * close to the previous build, or when its bytes hash the same; otherwise extracted again.
 */
function project(
  layout: WorkflowLayout,
  path: string,
  prev: GraphFileRecord | undefined,
  builtAt: number | null,
): { rec: GraphFileRecord | null; fresh: boolean } {
  const abs = `${layout.workflow}/${path}`; // sources are '/'-joined relative paths; join() per file shows in profiles
  const st = statSync(abs, { throwIfNoEntry: false });
  if (!st) return { rec: null, fresh: false };
  if (
    prev &&
    builtAt !== null &&
    prev.size === st.size &&
    prev.mtime_ms === st.mtimeMs &&
    prev.ctime_ms === st.ctimeMs &&
    st.mtimeMs < builtAt - RACY_WINDOW_MS
  ) {
    return { rec: prev, fresh: true };
  }
  let buf: Buffer;
  try {
    buf = readFileSync(abs);
  } catch {
    return { rec: null, fresh: false };
  }
  const hash = sha256(buf);
  const base = { path, size: st.size, mtime_ms: st.mtimeMs, ctime_ms: st.ctimeMs, hash };
  if (prev && prev.hash === hash) return { rec: { ...prev, ...base }, fresh: true };
  return { rec: { ...base, ...contributionOf(path, buf.toString('utf8')) }, fresh: false };
}

/** Each stored graph's records by path, built once per graph (a warm command then costs the stats only). */
const byPath = new WeakMap<StoredGraph, Map<string, GraphFileRecord>>();

function recordsByPath(g: StoredGraph): Map<string, GraphFileRecord> {
  let m = byPath.get(g);
  if (!m) {
    m = new Map(g.files.map((f) => [f.path, f]));
    byPath.set(g, m);
  }
  return m;
}

/** The graph this process last opened per project, reused while graph.json is the same file. */
const memo = new Map<string, { key: string; graph: StoredGraph }>();

function fileKey(layout: WorkflowLayout): string | null {
  const st = statSync(join(layout.index, 'graph', 'graph.json'), { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : null;
}

function readPrevious(layout: WorkflowLayout, warnings: string[]): { prev: StoredGraph | null; rebuilt: boolean } {
  const key = fileKey(layout);
  const hit = memo.get(layout.workflow);
  if (key && hit?.key === key) return { prev: hit.graph, rebuilt: false };
  const read = readStoredGraph(layout);
  if (read.kind === 'missing') return { prev: null, rebuilt: false };
  if (read.kind === 'corrupt') {
    warnings.push(
      `the knowledge graph in .workflow/.index/graph/ was unusable (${read.reason}); rebuilt it from the sources`,
    );
    return { prev: null, rebuilt: true };
  }
  if (read.graph.format !== GRAPH_FORMAT) return { prev: null, rebuilt: true };
  if (key) memo.set(layout.workflow, { key, graph: read.graph });
  return { prev: read.graph, rebuilt: false };
}

/**
 * Opens the knowledge graph under `.workflow/.index/graph/`, bringing it up to date first: each
 * source file (specs, knowhow, run ledgers and receipts) is stat'ed, and only changed ones are
 * read and extracted again. Missing → built; corrupt or from another format → rebuilt with a
 * warning. Saving is best effort: a read-only checkout still answers from memory.
 */
export async function openGraph(layout: WorkflowLayout, options: OpenGraphOptions = {}): Promise<OpenedGraph> {
  const warnings: string[] = [];
  const { prev, rebuilt } = readPrevious(layout, warnings);
  const builtAtMs = Date.now();
  const before = prev ? recordsByPath(prev) : new Map<string, GraphFileRecord>();
  const files: GraphFileRecord[] = [];
  const reextracted: string[] = [];
  let changed = prev === null;
  const sources = graphSources(layout);
  for (const path of sources) {
    const { rec, fresh } = project(layout, path, before.get(path), prev?.built_at_ms ?? null);
    if (!rec) continue;
    files.push(rec);
    if (!fresh) reextracted.push(path);
    if (!fresh || rec !== before.get(path)) changed = true;
  }
  const setChanged = files.length !== before.size || files.some((f) => !before.has(f.path));
  if (setChanged) changed = true;
  // Re-stat'ed (same bytes) files are saved with their new stat, but the graph itself is unchanged.
  const status: GraphStatus =
    prev === null ? (rebuilt ? 'rebuilt' : 'built') : reextracted.length || setChanged ? 'updated' : 'fresh';
  if (!changed) return { files, status, reextracted, persisted: true, warnings };
  const graph: StoredGraph = {
    schema_version: GRAPH_SCHEMA,
    format: GRAPH_FORMAT,
    built_at_ms: builtAtMs,
    checksum: '',
    files,
  };
  let persisted = false;
  if (options.persist !== false) {
    try {
      graph.checksum = await writeStoredGraph(layout, graph);
      persisted = true;
      const key = fileKey(layout);
      if (key) memo.set(layout.workflow, { key, graph });
    } catch (err) {
      warnings.push(
        `could not save the knowledge graph (${(err as Error).message.split('\n')[0]}); answered from memory`,
      );
    }
  }
  return { files, status, reextracted, persisted, warnings };
}
