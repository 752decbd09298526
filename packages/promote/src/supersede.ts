import { contentHash, refusedError } from '@maestro/core';
import type { SummaryCandidate } from '@maestro/ledger';
import { checkSupersede, type KnowledgeEntry } from '@maestro/spec';
import type { PlanBuilder } from './builder.js';
import type { PlanItem } from './plan.js';

/** Confirmed supersession during planning: checks (pure) and the old side's edit. */

export function supersedeTarget(b: PlanBuilder, oldId: string, target: 'spec' | 'knowhow', next: KnowledgeEntry) {
  const { byId } = b.input.loaded.corpus;
  const old = byId.get(oldId);
  const refresh = `run \`maestro knowledge review ${b.input.sessionId} --refresh\` and resolve again`;
  if (!old)
    throw refusedError('SUPERSEDE_TARGET_MISSING', `the entry to supersede, ${oldId}, is gone`, { hint: refresh });
  if (old.store !== target) {
    throw refusedError(
      'SUPERSEDE_STORE_MISMATCH',
      `${oldId} is a ${old.store} entry; a ${target} cannot supersede it`,
      {
        hint: refresh,
      },
    );
  }
  if (old.store === 'spec' && (old.legacy || !old.hasSid)) {
    throw refusedError('SUPERSEDE_TARGET_NO_SID', `${oldId} has no sid to link a successor to`, {
      hint: 'run `maestro spec backfill-sid`, then `maestro knowledge review <session> --refresh` and resolve again',
      location: { file: `.workflow/${old.file}`, line: old.line ?? undefined },
    });
  }
  checkSupersede(old, next, byId, (id) => `maestro ${target} history ${id}`);
  return old;
}

/** The successor as the supersession checks see it: the written entry on replay, else a fresh one. */
export function successorView(b: PlanBuilder, id: string, c: SummaryCandidate): KnowledgeEntry {
  const existing = b.input.loaded.corpus.byId.get(id);
  if (existing) return existing;
  return {
    id,
    store: c.target,
    title: c.title,
    content: c.content,
    category: c.category,
    keywords: [],
    description: null,
    date: null,
    status: 'active',
    confidence: null,
    supersedes: [],
    supersededBy: null,
    ref: null,
    source: null,
    file: '',
    line: null,
    contentHash: contentHash(c.content),
    legacy: false,
    hasSid: true,
    type: null,
    conflict: null,
  };
}

export function linkOld(b: PlanBuilder, old: KnowledgeEntry, newId: string): void {
  if (old.store === 'spec') {
    b.add(old.file, 'spec', {
      kind: 'set-attributes',
      id: old.id,
      changes: { status: 'deprecated', 'superseded-by': newId },
    });
  } else b.add(old.file, 'knowhow', { kind: 'deprecate-document', superseded_by: newId });
}

/** Refuses two candidates that would both supersede one entry (its `superseded-by` holds one successor). */
export function refuseSharedSupersession(items: readonly PlanItem[]): void {
  const by = new Map<string, string>();
  for (const { candidate, policy } of items) {
    if (policy.kind !== 'create' || !policy.supersedes) continue;
    const other = by.get(policy.supersedes);
    if (other) {
      throw refusedError(
        'SUPERSEDE_CONFLICT',
        `candidates ${other} and ${candidate.candidate_id} both supersede ${policy.supersedes}`,
        { hint: 'promote one of them; resolve the other against the new entry after a refresh; nothing was written' },
      );
    }
    by.set(policy.supersedes, candidate.candidate_id);
  }
}
