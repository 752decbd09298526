import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sha256 } from '@maestro/core';
import { findLeftoverTemps, type WorkflowLayout } from '@maestro/fs';
import type { KnowledgeEntry } from '@maestro/spec';
import { type DerivedStore, fileStates, openStore, type SectionSpec, tryWrite } from '@maestro/store';
import { listBackups } from './backups.js';
import { readRestoreIntent } from './restore-journal.js';
import { CONTESTED_STALE_DAYS, FRESHNESS_FLOOR, HALF_LIFE_DAYS, STALE_BELOW } from './rules-corpus.js';
import type { AuditReport, AuditScope, Finding } from './schemas.js';

/**
 * Stored audit results (store section `audit`). A result is reused only when every input of the
 * audit is the same as when it was computed:
 * - the key: the corpus files (listing of specs/ and knowhow/, content hash of each `*.md`), every
 *   file and folder under sessions/ (session, run, ledger, receipt, report files: they feed the
 *   pipeline rules, the receipt fences and the graph), the exposure counters, the backups, a
 *   pending restore intent, the leftover temp files, the options (scope, prune, the caller's tag
 *   naming its receipt reader) and the rule revision below;
 * - then, per row: each knowhow `codePaths` target still exists or not as it did, and the clock
 *   has not passed the next instant at which a time rule (stale contested, freshness decay, the
 *   day count in a stale-contested finding) could change a finding.
 * Anything else is a miss and the audit runs in full. Best effort: a store that cannot be opened,
 * read or written only costs the full audit.
 */

/**
 * Bump when any audit or graph rule changes what a finding says, or the rows' layout changes:
 * older rows are dropped, never trusted. 2: the report is stored deflated (a BLOB).
 */
export const AUDIT_RESULT_REVISION = '2';

export const AUDIT_SECTION: SectionSpec = {
  name: 'audit',
  revision: AUDIT_RESULT_REVISION,
  ddl: [
    `CREATE TABLE audit_result (
       key TEXT PRIMARY KEY,
       computed_at_ms INTEGER NOT NULL,
       valid_until_ms INTEGER NOT NULL,
       code_refs TEXT NOT NULL,
       summary TEXT NOT NULL,
       summary_sha256 TEXT NOT NULL,
       report BLOB NOT NULL,
       report_sha256 TEXT NOT NULL
     ) WITHOUT ROWID`,
    // Smaller results other commands derive from the same inputs (the gate's per-session checks).
    `CREATE TABLE audit_value (
       key TEXT PRIMARY KEY,
       kind TEXT NOT NULL,
       at_ms INTEGER NOT NULL,
       value TEXT NOT NULL,
       sha256 TEXT NOT NULL
     ) WITHOUT ROWID`,
    'CREATE INDEX audit_value_kind ON audit_value (kind, at_ms)',
  ],
};

/** How many results are kept (one per scope / prune / caller combination in practice). */
const KEEP_ROWS = 8;
/**
 * The report's JSON is stored deflated (raw deflate, zlib's default level): at 100k entries 15 MB
 * of JSON take 1.8 MB, and reading them back (the hash of the stored bytes, then the inflate)
 * costs less CPU than hashing the JSON did. The summary, which the gate reads, stays plain text.
 */
const REPORT_DEFLATE = { level: 6 } as const;
/**
 * Stored reports beyond the newest are kept only while all of them together take at most this
 * many bytes: at 100k entries a report is about 1.8 MB deflated, and a result for another corpus
 * state is only of use if the corpus goes back to it.
 */
const REPORT_BYTES_KEPT = 8 * 1024 * 1024;
const DAY_MS = 86_400_000;
/** A time boundary this close to "now" is not trusted to float arithmetic: no reuse across it. */
const MARGIN_MS = 60_000;

/** What the gate needs from an audit: the counts and the P0 findings. */
export interface AuditSummary {
  counts: AuditReport['counts'];
  p0: Finding[];
}

export interface StoredInputs {
  store: DerivedStore;
  key: string;
  /** The project root the code paths are resolved against. */
  root: string;
}

/** A code path the audit stat'ed, and what it found. */
export interface CodeRefState {
  path: string;
  exists: boolean;
}

function dirents(abs: string): Dirent[] {
  try {
    return readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw err;
  }
}

const kind = (d: Dirent) => (d.isFile() ? 'f' : d.isDirectory() ? 'd' : d.isSymbolicLink() ? 'l' : 'o');

/** Every entry under `sessions/` (relative to `.workflow/`), with its kind; files are hashed by the caller. */
function walk(layout: WorkflowLayout, rel: string, listing: string[], files: string[]): void {
  for (const d of dirents(join(layout.workflow, rel))) {
    const path = `${rel}/${d.name}`;
    listing.push(`${kind(d)} ${path}`);
    if (d.isDirectory()) walk(layout, path, listing, files);
    else files.push(path); // symlinks too: the readers follow them
  }
}

/**
 * Digests of the files the audit and the gate read, taken once per command: the corpus (listing
 * of specs/ and knowhow/, content hash of each `*.md`) and each session's folder (every file and
 * folder under `sessions/<id>/`). Costs a stat per file (a read only for files changed since).
 */
export interface InputDigests {
  store: DerivedStore;
  corpus: string;
  /** Per session folder name. */
  sessions: ReadonlyMap<string, string>;
  /** Everything under `sessions/` (folders without a session too). */
  allSessions: string;
}

/** The digests, or null when the store cannot be used (the caller computes everything). */
export function readInputDigests(layout: WorkflowLayout): InputDigests | null {
  let store: DerivedStore;
  try {
    store = openStore(layout);
    store.section(AUDIT_SECTION);
  } catch {
    return null; // derived state only: the audit runs in full
  }
  try {
    const corpusListing: string[] = [];
    const corpusFiles: string[] = [];
    for (const dir of ['specs', 'knowhow']) {
      for (const d of dirents(join(layout.workflow, dir))) {
        if (!d.name.endsWith('.md')) continue;
        corpusListing.push(`${kind(d)} ${dir}/${d.name}`);
        if (d.isFile()) corpusFiles.push(`${dir}/${d.name}`);
      }
    }
    const listing: string[] = [];
    const files: string[] = [];
    walk(layout, 'sessions', listing, files);
    const states = new Map<string, string>();
    for (const f of fileStates(store, layout.workflow, [...corpusFiles, ...files])) {
      states.set(f.path, `${f.size} ${f.sha256}`);
    }
    const corpus = sha256(JSON.stringify([corpusListing, corpusFiles.map((f) => [f, states.get(f) ?? null])]));
    const lines = (prefix: string) => [
      listing.filter((l) => l.slice(2).startsWith(prefix)),
      files.filter((f) => f.startsWith(prefix)).map((f) => [f, states.get(f) ?? null]),
    ];
    const sessions = new Map<string, string>();
    for (const l of listing) {
      const m = /^d sessions\/([^/]+)$/.exec(l);
      if (m) sessions.set(m[1], sha256(JSON.stringify(lines(`sessions/${m[1]}/`))));
    }
    return { store, corpus, sessions, allSessions: sha256(JSON.stringify(lines('sessions/'))) };
  } catch {
    return null;
  }
}

/**
 * The key of the audit's inputs (see the comment at the top), or null when the store cannot be
 * used. Pass `digests` when the caller took them already (the gate), so files are stat'ed once.
 */
export function storedInputs(
  layout: WorkflowLayout,
  parts: { tag: string; scope: AuditScope; prune: boolean; exposure: unknown },
  digests: InputDigests | null = readInputDigests(layout),
): StoredInputs | null {
  if (!digests) return null;
  try {
    let restore: string | null;
    try {
      restore = readRestoreIntent(layout)?.backup_id ?? null;
    } catch (err) {
      restore = `damaged: ${(err as Error).message}`;
    }
    const key = sha256(
      JSON.stringify({
        revision: AUDIT_RESULT_REVISION,
        ...parts,
        root: layout.root,
        corpus: digests.corpus,
        sessions: digests.allSessions,
        backups: listBackups(layout).backups,
        restore,
        temps: findLeftoverTemps(layout.workflow).map((t) => relative(layout.root, t.path)),
      }),
    );
    return { store: digests.store, key, root: layout.root };
  } catch {
    return null;
  }
}

interface Meta {
  computed_at_ms: number;
  valid_until_ms: number;
  code_refs: string;
}

/** The stored payload (`summary`, or `report` deflated) when the row for these inputs holds at `now`, else null. */
function usable(s: StoredInputs, now: Date, column: 'summary' | 'report'): string | Buffer | null {
  try {
    const meta = s.store
      .prepare('SELECT computed_at_ms, valid_until_ms, code_refs FROM audit_result WHERE key = ?')
      .get(s.key) as Meta | undefined;
    if (!meta) return null;
    const t = now.getTime();
    if (t < meta.computed_at_ms || t >= meta.valid_until_ms) return null;
    const refs = JSON.parse(meta.code_refs) as CodeRefState[];
    for (const r of refs) if (existsSync(join(s.root, r.path)) !== r.exists) return null;
    const row = s.store
      .prepare(`SELECT ${column} AS text, ${column}_sha256 AS sha FROM audit_result WHERE key = ?`)
      .get(s.key) as { text: string | Buffer; sha: string } | undefined;
    // A row that does not hash to what was stored (a torn or hand-edited store) is a miss.
    return row && sha256(row.text) === row.sha ? row.text : null;
  } catch {
    return null;
  }
}

/** The stored summary for these inputs at `now`, or null (a miss, a damaged row). */
export function storedSummary(s: StoredInputs, now: Date): AuditSummary | null {
  const text = usable(s, now, 'summary');
  try {
    return typeof text !== 'string' ? null : (JSON.parse(text) as AuditSummary);
  } catch {
    return null;
  }
}

/** The stored report for these inputs at `now` (re-stamped with `now`), or null. */
export function storedReport(s: StoredInputs, now: Date): AuditReport | null {
  const packed = usable(s, now, 'report');
  try {
    if (!Buffer.isBuffer(packed)) return null;
    const text = inflateRawSync(packed).toString('utf8');
    return { ...(JSON.parse(text) as AuditReport), generated_at: now.toISOString() };
  } catch {
    return null;
  }
}

export function summaryOf(report: AuditReport): AuditSummary {
  return { counts: report.counts, p0: report.findings.filter((f) => f.priority === 'P0') };
}

/** Saves a freshly computed report (best effort; a failure is one store warning). */
export function saveReport(
  s: StoredInputs,
  report: AuditReport,
  extra: { now: Date; validUntil: number; codeRefs: readonly CodeRefState[] },
): void {
  if (extra.validUntil <= extra.now.getTime()) return; // too close to a time boundary to be reused
  const packed = deflateRawSync(JSON.stringify(report), REPORT_DEFLATE);
  const summary = JSON.stringify(summaryOf(report));
  tryWrite(s.store, () => {
    // Deleted first, so that a replaced row's pages are reused rather than left free in the file.
    s.store.prepare('DELETE FROM audit_result WHERE key = ?').run(s.key);
    s.store
      .prepare('INSERT INTO audit_result VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        s.key,
        extra.now.getTime(),
        extra.validUntil,
        JSON.stringify(extra.codeRefs),
        summary,
        sha256(summary),
        packed,
        sha256(packed),
      );
    // The newest KEEP_ROWS, and of those only as many as fit in REPORT_BYTES_KEPT (the newest always).
    s.store
      .prepare(
        `DELETE FROM audit_result WHERE key IN (
           SELECT key FROM (
             SELECT key, row_number() OVER w AS n, sum(length(report)) OVER w AS total FROM audit_result
             WINDOW w AS (ORDER BY computed_at_ms DESC, key)
           ) WHERE n > ? OR (n > 1 AND total > ?)
         )`,
      )
      .run(KEEP_ROWS, REPORT_BYTES_KEPT);
  });
}

function dayStart(date: string | null): number | null {
  if (!date || !/^\d{4}-\d{2}-\d{2}/.test(date)) return null;
  const t = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(t) ? null : t;
}

/**
 * The first instant after `now` at which a time rule could report something else: an active
 * entry's freshness crossing STALE_BELOW, a contested entry passing CONTESTED_STALE_DAYS, or the
 * next whole day of a stale-contested finding's age. Boundaries closer than a minute to `now`
 * make the result not reusable at all (returns `now`).
 */
export function validUntil(entries: readonly KnowledgeEntry[], now: Date): number {
  const t = now.getTime();
  let until = Number.POSITIVE_INFINITY;
  const boundary = (b: number) => {
    if (b < t - MARGIN_MS) return;
    until = Math.min(until, Math.max(t, Math.floor(b - MARGIN_MS)));
  };
  // freshness = FLOOR + (1 − FLOOR)·2^(−age/half-life) < STALE_BELOW  ⇔  age > half-life·log2((1 − FLOOR)/(STALE_BELOW − FLOOR))
  const staleAfter = Math.log2((1 - FRESHNESS_FLOOR) / (STALE_BELOW - FRESHNESS_FLOOR));
  for (const e of entries) {
    if (e.status !== 'active') continue;
    const born = dayStart(e.date);
    if (born !== null) boundary(born + staleAfter * HALF_LIFE_DAYS[e.store] * DAY_MS);
    if (e.confidence !== 'contested') continue;
    const since = dayStart(e.conflict?.date ?? e.date);
    if (since === null) continue;
    const limit = since + CONTESTED_STALE_DAYS * DAY_MS;
    boundary(limit);
    // Past the limit the finding names the age in whole days: it changes at each day boundary.
    if (t >= limit - MARGIN_MS) boundary(since + (Math.floor((t - since) / DAY_MS) + 1) * DAY_MS);
  }
  return until === Number.POSITIVE_INFINITY ? Number.MAX_SAFE_INTEGER : until;
}

/** How many values of one kind are kept (the newest). */
const KEEP_VALUES = 4096;

/**
 * A value stored under `key` by `saveValue`, or null (missing, or a row that does not hash to
 * what was stored). The caller's key must name every input of the value.
 */
export function storedValue<T>(digests: InputDigests, key: string): T | null {
  try {
    const row = digests.store.prepare('SELECT value, sha256 FROM audit_value WHERE key = ?').get(key) as
      | { value: string; sha256: string }
      | undefined;
    return row && sha256(row.value) === row.sha256 ? (JSON.parse(row.value) as T) : null;
  } catch {
    return null;
  }
}

/** Saves a value (best effort), keeping the newest KEEP_VALUES of its kind. */
export function saveValue(digests: InputDigests, kind: string, key: string, value: unknown, nowMs: number): void {
  const text = JSON.stringify(value);
  const store = digests.store;
  tryWrite(store, () => {
    store
      .prepare('INSERT OR REPLACE INTO audit_value VALUES (?, ?, ?, ?, ?)')
      .run(key, kind, nowMs, text, sha256(text));
    store
      .prepare(
        'DELETE FROM audit_value WHERE kind = ? AND key NOT IN (SELECT key FROM audit_value WHERE kind = ? ORDER BY at_ms DESC LIMIT ?)',
      )
      .run(kind, kind, KEEP_VALUES);
  });
}

/** What the user should hear about the store this process opened (rebuilt after damage, kept in memory). */
export function storeWarnings(layout: WorkflowLayout): string[] {
  try {
    return [...openStore(layout).warnings];
  } catch {
    return [];
  }
}
