import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@maestro/core';
import { type WorkflowLayout, writeFileAtomic } from '@maestro/fs';
import { corpusFiles } from '@maestro/reconcile';
import type { StoredGraph } from './model.js';

export const GRAPH_SCHEMA = 'knowledge-graph/1.0';
/** Bump when extraction changes: a graph built by another format is rebuilt, never trusted. */
export const GRAPH_FORMAT = 3;
export const GRAPH_FILE = 'graph.json';

/** `.workflow/.index/graph/` (derived state: delete it any time). */
export function graphDir(layout: WorkflowLayout): string {
  return join(layout.index, 'graph');
}

function dirs(abs: string): string[] {
  try {
    return readdirSync(abs, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Every file the graph may be projected from, relative to `.workflow/`: the corpus files (as the
 * corpus loader selects them) and each run's ledger and receipt path. Run folders are not listed
 * (a listing per run costs more than the stat the caller makes anyway): a path that does not exist
 * is skipped by the caller.
 */
export function graphSources(layout: WorkflowLayout): string[] {
  const out = corpusFiles(layout);
  for (const s of dirs(layout.sessions)) {
    for (const r of dirs(join(layout.sessions, s, 'runs'))) {
      out.push(`sessions/${s}/runs/${r}/knowledge-delta.json`, `sessions/${s}/runs/${r}/knowledge-reconciliation.json`);
    }
  }
  return out;
}

/** The key `files` is written last, so its raw JSON text can be hashed without serialising again. */
const FILES_KEY = ',"files":';

/** The raw JSON text of `files` inside a stored graph's text, or null. */
function filesText(text: string): string | null {
  const at = text.indexOf(FILES_KEY);
  const end = text.lastIndexOf('}');
  return at < 0 || end < at ? null : text.slice(at + FILES_KEY.length, end);
}

export type StoredRead = { kind: 'missing' } | { kind: 'corrupt'; reason: string } | { kind: 'ok'; graph: StoredGraph };

function shapeOk(g: StoredGraph): boolean {
  return (
    g !== null &&
    typeof g === 'object' &&
    g.schema_version === GRAPH_SCHEMA &&
    typeof g.format === 'number' &&
    typeof g.built_at_ms === 'number' &&
    typeof g.checksum === 'string' &&
    Array.isArray(g.files) &&
    g.files.every(
      (f) =>
        f &&
        typeof f.path === 'string' &&
        typeof f.size === 'number' &&
        typeof f.mtime_ms === 'number' &&
        (f.ctime_ms === undefined || typeof f.ctime_ms === 'number') &&
        typeof f.hash === 'string' &&
        Array.isArray(f.nodes) &&
        Array.isArray(f.edges) &&
        Array.isArray(f.problems),
    )
  );
}

/**
 * Reads `graph.json` and checks it (shape, then the checksum over the text of its files), by hand: no zod on
 * the read path of `graph show`. The zod schema in schemas.ts describes the same shape.
 */
export function readStoredGraph(layout: WorkflowLayout): StoredRead {
  let text: string;
  try {
    text = readFileSync(join(graphDir(layout), GRAPH_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'corrupt', reason: `${GRAPH_FILE} is unreadable (${(err as Error).message})` };
  }
  let g: StoredGraph;
  try {
    g = JSON.parse(text) as StoredGraph;
  } catch (err) {
    return { kind: 'corrupt', reason: `${GRAPH_FILE} is not valid JSON (${(err as Error).message})` };
  }
  if (!shapeOk(g)) return { kind: 'corrupt', reason: `${GRAPH_FILE} does not have the ${GRAPH_SCHEMA} shape` };
  const raw = filesText(text);
  if (raw === null || sha256(raw) !== g.checksum)
    return { kind: 'corrupt', reason: `${GRAPH_FILE} fails its checksum` };
  return { kind: 'ok', graph: g };
}

/**
 * Writes graph.json atomically, `checksum` = sha256 of the JSON text of `files` (written last).
 * Returns the checksum; the caller treats a failure as a warning (derived state).
 */
export async function writeStoredGraph(layout: WorkflowLayout, graph: Omit<StoredGraph, 'checksum'>): Promise<string> {
  const files = JSON.stringify(graph.files);
  const checksum = sha256(files);
  const head = { schema_version: graph.schema_version, format: graph.format, built_at_ms: graph.built_at_ms, checksum };
  await writeFileAtomic(
    join(graphDir(layout), GRAPH_FILE),
    `${JSON.stringify(head).slice(0, -1)}${FILES_KEY}${files}}\n`,
  );
  return checksum;
}
