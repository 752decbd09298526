import { auditKnowledge, listBackups } from '@maestro/audit';
import type { Runtime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { summarizeSession } from '@maestro/ledger';
import { knowledgeBacklog, readReceipt, receiptIsFresh, reviewSession } from '@maestro/reconcile';
import { readExposure } from '@maestro/search';
import { findEntry, type KnowledgeEntry, knowhowHistory, loadCorpus, specHistory } from '@maestro/spec';
import type { EntryText } from './views/compare.js';
import type { EntryPageData, Origin } from './views/entry.js';
import type { SessionPageData } from './views/session.js';

/**
 * What each view shows, read through the same package functions the CLI commands call
 * (`knowledge backlog`, `knowledge review`, `spec|knowhow history`, `knowledge audit --prune`,
 * `knowledge audit --backups`). Read-only: nothing here writes what the user wrote.
 */
export const backlogData = (layout: WorkflowLayout, runtime: Runtime) => knowledgeBacklog(layout, {}, runtime);

export async function sessionData(
  layout: WorkflowLayout,
  sessionId: string,
  runtime: Runtime,
): Promise<SessionPageData> {
  const view = await reviewSession(layout, sessionId, {}, runtime);
  const contents = new Map(summarizeSession(layout, sessionId).candidates.map((c) => [c.candidate_id, c.content]));
  const corpus = loadCorpus(layout);
  const entries = new Map<string, EntryText>();
  for (const m of view.candidates.flatMap((c) => c.matches)) {
    const e = corpus.byId.get(m.knowledge_id);
    if (e) entries.set(e.id, entryText(e));
  }
  return { view, contents, entries };
}

const entryText = (e: KnowledgeEntry): EntryText => ({
  id: e.id,
  title: e.title,
  content: e.content,
  status: e.status,
  file: e.file,
  line: e.line,
});

export function entryData(layout: WorkflowLayout, id: string): EntryPageData {
  const corpus = loadCorpus(layout);
  const found = findEntry(corpus, id);
  const history = found?.store === 'knowhow' ? knowhowHistory(corpus, id) : specHistory(corpus, id);
  const entry = corpus.byId.get(history.id) ?? found!;
  const origins = new Map<string, Origin>();
  for (const item of history.chain) {
    const o = originOf(layout, corpus.byId.get(item.id)?.source ?? null);
    if (o) origins.set(item.id, o);
  }
  return { entry, history, origins };
}

/** `source="session:<session>:<candidate>"` as promotion writes it, with that session's ledger facts. */
function originOf(layout: WorkflowLayout, source: string | null): Origin | null {
  const m = source?.match(/^session:(.+):(KDC-[0-9a-f]{16})$/);
  if (!m) return null;
  const origin: Origin = {
    session_id: m[1],
    candidate_id: m[2],
    runs: null,
    promoted_at: null,
    outcome: null,
    decision: null,
  };
  try {
    const s = summarizeSession(layout, m[1]);
    const c = s.candidates.find((x) => x.candidate_id === m[2]);
    const commands = new Map(s.runs.map((r) => [r.run_id, r.command]));
    origin.runs = (c?.run_ids ?? []).map((run_id) => ({ run_id, command: commands.get(run_id) ?? '?' }));
    origin.promoted_at = c?.promotion_receipt?.promoted_at ?? null;
    origin.outcome = c?.promotion_receipt?.outcome ?? null;
    origin.decision = decisionOf(layout, m[1], m[2], c?.run_ids ?? []);
  } catch {
    // A session that is gone or damaged still names where the entry came from.
  }
  return origin;
}

/** The person's confirmed resolution of the candidate, from the first receipt that holds one. */
function decisionOf(
  layout: WorkflowLayout,
  sessionId: string,
  candidateId: string,
  runs: string[],
): Origin['decision'] {
  for (const run of runs) {
    const r = readReceipt(layout, sessionId, run)?.candidates.find((x) => x.candidate_id === candidateId)?.resolution;
    if (r?.status === 'confirmed') return { choice: r.choice ?? null, reason: r.reason, resolved_at: r.resolved_at };
  }
  return null;
}

export async function auditData(layout: WorkflowLayout, runtime: Runtime) {
  const report = await auditKnowledge(layout, {
    exposure: readExposure,
    receipts: { read: readReceipt, fresh: receiptIsFresh },
    scope: 'all',
    prune: true,
    runtime,
  });
  return { report, backups: listBackups(layout) };
}
