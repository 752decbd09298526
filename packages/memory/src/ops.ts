import { inputError } from '@maestro/core';
import type { LockOptions } from '@maestro/fs';
import { type ConsolidationChange, planConsolidation } from './consolidate.js';
import type { MemoryLocation } from './location.js';
import type { MemoryConsolidateOutputData, MemoryListOutputData, MemoryRecallOutputData } from './output-schemas.js';
import { locate, type MemoryTarget, storeInfo } from './records.js';
import { buildRecallIndex, DEFAULT_RECALL_LIMIT, DEFAULT_THRESHOLD, type RecallIndex, recall } from './relevance.js';
import { BUILTIN_RULES, changeRules, type RulesChange } from './rules.js';
import type { MemoryFile, MemoryKind, MemoryRecord } from './schemas.js';
import { readRules, readStore, readStoreCached, updateRules, updateStore } from './store.js';

/** `--suggest`: recalled in at least this many distinct sessions, never superseded, confidence at least 0.5. */
export const SUGGEST_MIN_SESSIONS = 3;
export const SUGGEST_MIN_CONFIDENCE = 0.5;
const MAX_SESSIONS_KEPT = 50;

export interface ListFilters {
  kind?: MemoryKind;
  session?: string;
  path?: string;
  minConfidence?: number;
  /** Records whose text contains this (case-insensitive). */
  contains?: string;
  suggest?: boolean;
}

/** Worth proposing to the team: recalled across sessions, never contradicted, not yet promoted. */
export function suggestions(records: readonly MemoryRecord[], agent: string) {
  return records
    .filter(
      (r) =>
        r.recalled_sessions.length >= SUGGEST_MIN_SESSIONS &&
        r.confidence >= SUGGEST_MIN_CONFIDENCE &&
        r.promotions.length === 0 &&
        !r.history.some((h) => h.action === 'superseded'),
    )
    .sort((a, b) => b.recalled_sessions.length - a.recalled_sessions.length || b.recall_count - a.recall_count)
    .map((r) => ({
      id: r.id,
      kind: r.kind,
      text: r.text,
      sessions: r.recalled_sessions.length,
      recall_count: r.recall_count,
      confidence: r.confidence,
      command: `maestro memory promote ${r.id} --agent ${agent} --session <session>`,
    }));
}

export function listMemories(t: MemoryTarget, f: ListFilters = {}): MemoryListOutputData {
  const loc = locate(t);
  const all = readStore(loc)?.records ?? [];
  const needle = f.contains?.toLowerCase();
  const records = all
    .filter(
      (r) =>
        (f.kind === undefined || r.kind === f.kind) &&
        (f.session === undefined || r.scope.session === f.session) &&
        (f.path === undefined || (r.scope.path ?? '').startsWith(f.path)) &&
        (f.minConfidence === undefined || r.confidence >= f.minConfidence) &&
        (needle === undefined || r.text.toLowerCase().includes(needle)),
    )
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : -1));
  return {
    store: storeInfo(loc),
    total: all.length,
    records,
    suggestions: f.suggest ? suggestions(records, loc.agent) : null,
  };
}

export function showRules(t: MemoryTarget) {
  const loc = locate(t);
  return { store: storeInfo(loc), rules: readRules(loc), builtin: [...BUILTIN_RULES] };
}

export async function setRules(t: MemoryTarget, change: RulesChange) {
  const loc = locate(t);
  if (change.remember === undefined && !change.never?.length && !change.drop?.length) {
    throw inputError('NOTHING_TO_SET', 'nothing to set', {
      hint: 'e.g. maestro memory rules set --never "customer [0-9]+" --reason "no customer ids" (or --remember, --drop)',
    });
  }
  const at = t.runtime.now().toISOString();
  const rules = await updateRules(loc, (current) => changeRules(current, change, at));
  return { store: storeInfo(loc), rules, builtin: [...BUILTIN_RULES] };
}

/** One index per store revision, so a long-lived caller (a hook server, the bench) recalls warm. */
const cache = new Map<string, { revision: number; updated: string; index: RecallIndex }>();

export function indexFor(loc: MemoryLocation, store: MemoryFile): RecallIndex {
  const hit = cache.get(loc.records);
  if (hit && hit.revision === store.revision && hit.updated === store.updated_at) return hit.index;
  const index = buildRecallIndex(store.records);
  cache.set(loc.records, { revision: store.revision, updated: store.updated_at, index });
  return index;
}

export interface RecallOptions {
  threshold?: number;
  limit?: number;
  /** The session the recall happens in (counts towards `--suggest`). */
  session?: string;
  /** Update recall counts and times (default true). */
  record?: boolean;
}

/** `memory recall`: the agent's memories relevant to a prompt; hits get their recall stats bumped. */
export async function recallMemories(
  t: MemoryTarget,
  prompt: string,
  o: RecallOptions = {},
): Promise<MemoryRecallOutputData> {
  const loc = locate(t);
  const threshold = o.threshold ?? DEFAULT_THRESHOLD;
  const store = readStoreCached(loc);
  const hits = store ? recall(indexFor(loc, store), prompt, { threshold, limit: o.limit ?? DEFAULT_RECALL_LIMIT }) : [];
  let recorded = false;
  if (hits.length > 0 && o.record !== false) {
    await markRecalled(
      loc,
      t,
      hits.map((h) => h.record.id),
      o.session,
    );
    recorded = true;
  }
  return {
    store: storeInfo(loc),
    prompt,
    threshold,
    hits: hits.map((h) => ({
      id: h.record.id,
      kind: h.record.kind,
      text: h.record.text,
      relevance: h.relevance,
      confidence: h.record.confidence,
      matched: h.matched,
    })),
    recorded,
  };
}

/** Bumps recall count and time (and the session list) of the given records. */
export async function markRecalled(
  loc: MemoryLocation,
  t: MemoryTarget,
  ids: readonly string[],
  session: string | undefined,
  lock?: LockOptions,
) {
  const at = t.runtime.now().toISOString();
  const wanted = new Set(ids);
  await updateStore(
    loc,
    at,
    (s) => {
      for (const r of s.records) {
        if (!wanted.has(r.id)) continue;
        r.recall_count += 1;
        r.last_recalled_at = at;
        if (session && !r.recalled_sessions.includes(session))
          r.recalled_sessions = [...r.recalled_sessions, session].slice(-MAX_SESSIONS_KEPT);
      }
    },
    { lock },
  );
}

/**
 * `memory consolidate`: merge, resolve, decay, forget — every change listed. The plan is computed
 * under the store lock from what is on disk and written in one atomic rename, so a crash leaves
 * the store as it was before or as it is after, never half. `dryRun` writes nothing.
 */
export async function consolidateMemories(
  t: MemoryTarget,
  o: { dryRun?: boolean } = {},
): Promise<MemoryConsolidateOutputData> {
  const loc = locate(t);
  const now = t.runtime.now();
  const store = readStore(loc);
  if (!store || o.dryRun) {
    const plan = planConsolidation(store?.records ?? [], now);
    return result(loc, !!o.dryRun, store?.records.length ?? 0, plan.records.length, plan.changes, false);
  }
  const out = await updateStore(
    loc,
    now.toISOString(),
    (s) => {
      const before = s.records.length;
      const plan = planConsolidation(s.records, now);
      s.records = plan.records;
      return { before, after: plan.records.length, changes: plan.changes };
    },
    { crashPointName: 'memory:consolidate:before-write', write: (r) => r.changes.length > 0 },
  );
  return result(loc, false, out.before, out.after, out.changes, out.changes.length > 0);
}

function result(
  loc: MemoryLocation,
  dryRun: boolean,
  before: number,
  after: number,
  changes: ConsolidationChange[],
  written: boolean,
) {
  return { store: storeInfo(loc), dry_run: dryRun, before, after, changes, written };
}
