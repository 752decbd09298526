import { restoreBackup } from '@maestro/audit';
import { inputError, type Runtime, refusedError, sha256 } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { previewPromotion, promote } from '@maestro/promote';
import {
  CHOICES,
  type Choice,
  DISPOSITIONS,
  type Disposition,
  type ResolveRequest,
  resolveCandidates,
  reviewSession,
} from '@maestro/reconcile';
import type { Flash } from './views/layout.js';

/**
 * Every write the page offers, each one call of the package function the CLI command calls
 * (`knowledge review --resolve|--all-as|--refresh`, `knowledge promote --candidate`,
 * `knowledge restore`). Those functions take the locks and apply the fail-closed rules; the page
 * adds one guard of its own: a form made from a corpus that has changed since is refused.
 */
export interface ActionContext {
  layout: WorkflowLayout;
  runtime: Runtime;
  form: URLSearchParams;
}

const one = (form: URLSearchParams, name: string) => (form.get(name) ?? '').trim();

function choiceOf(value: string): Choice {
  if ((CHOICES as readonly string[]).includes(value)) return value as Choice;
  throw inputError('INVALID_CHOICE', `"as" must be one of ${CHOICES.join(', ')} (got "${value}")`);
}

/** Refuses a form rendered against another corpus fingerprint: the page is older than the corpus. */
async function requireSamePage(a: ActionContext, sessionId: string): Promise<void> {
  const fp = one(a.form, 'fp');
  if (!fp) return;
  const now = await reviewSession(a.layout, sessionId, {}, a.runtime);
  if (now.corpus_fingerprint !== fp) {
    throw refusedError('PAGE_OUT_OF_DATE', 'the corpus changed after this page was loaded; nothing was resolved', {
      hint: 'reload the session page, check the verdicts again (refresh the receipts if they are stale), then resolve',
    });
  }
}

export async function resolveOne(a: ActionContext, sessionId: string): Promise<Flash> {
  const choice = choiceOf(one(a.form, 'as'));
  const target = choice === 'unique' ? null : one(a.form, 'target') || null;
  return resolve(a, sessionId, {
    candidateIds: [one(a.form, 'candidate')],
    choice,
    target,
    contest: choice === 'conflict' && one(a.form, 'contest') === 'on',
    reason: one(a.form, 'reason'),
  });
}

export async function resolveBatch(a: ActionContext, sessionId: string): Promise<Flash> {
  const choice = choiceOf(one(a.form, 'as'));
  const which = one(a.form, 'which');
  const reason = one(a.form, 'reason');
  if (which === 'selected') {
    const ids = a.form
      .getAll('candidate')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!ids.length) {
      throw inputError('NOTHING_SELECTED', 'tick at least one candidate for the batch', {
        hint: 'or pick "every pending … verdict" to resolve all candidates of one verdict',
      });
    }
    return resolve(a, sessionId, { candidateIds: ids, choice, reason });
  }
  if (!(DISPOSITIONS as readonly string[]).includes(which)) {
    throw inputError('USAGE', `unknown batch selection "${which}"`, { hint: 'pick one of the listed options' });
  }
  return resolve(a, sessionId, { all: { disposition: which as Disposition }, choice, reason });
}

async function resolve(a: ActionContext, sessionId: string, request: ResolveRequest): Promise<Flash> {
  await requireSamePage(a, sessionId);
  const r = await resolveCandidates(a.layout, sessionId, request, a.runtime);
  return {
    kind: 'ok',
    text: `Resolved ${r.resolved.length} candidate(s) as ${r.choice}.`,
    detail: [
      ...r.resolved.map((x) => `${x.candidate_id}: ${x.promotion_eligibility.replace('_', ' ')}`),
      ...r.warnings,
    ],
  };
}

export async function refresh(a: ActionContext, sessionId: string): Promise<Flash> {
  const v = await reviewSession(a.layout, sessionId, { refresh: true }, a.runtime);
  const regenerated = v.runs.filter((r) => r.regenerated).length;
  return {
    kind: 'ok',
    text: `Refreshed: ${regenerated} receipt(s) regenerated, ${v.counts.fresh} candidate(s) fresh.`,
  };
}

/**
 * The digest a confirmation page carries: which entries land where, with which outcome and
 * supersession, in which files. Timestamps are left out (they move with the clock between the
 * confirmation and the write); everything a reader confirmed is in.
 */
export function planDigest(p: Awaited<ReturnType<typeof previewPromotion>>): string {
  const entries = p.result.promoted.map((e) => [
    e.candidate_id,
    e.promoted_id,
    e.outcome,
    e.file,
    e.doc_file,
    e.supersedes,
  ]);
  return sha256(JSON.stringify([entries, p.writes.map((w) => w.path)]));
}

export async function promoteConfirmed(a: ActionContext, sessionId: string): Promise<Flash> {
  const candidates = a.form.getAll('candidate').filter(Boolean);
  if (!candidates.length) throw inputError('NOTHING_SELECTED', 'the confirmation named no candidate to promote');
  const preview = await previewPromotion(a.layout, { sessionId, candidates }, a.runtime);
  if (planDigest(preview) !== one(a.form, 'digest')) {
    throw refusedError(
      'PLAN_CHANGED',
      'what would be written changed after the confirmation was shown; nothing was promoted',
      {
        hint: 'open the promotion again and read the new list before confirming',
      },
    );
  }
  const r = await promote(a.layout, { sessionId, candidates }, a.runtime);
  return {
    kind: 'ok',
    text: `Promoted ${r.promoted.length} candidate(s) of ${sessionId}.`,
    detail: r.promoted.map((p) => `${p.promoted_id} ← ${p.title} (${p.outcome}, ${p.file})`),
  };
}

export async function restore(a: ActionContext): Promise<Flash> {
  const id = one(a.form, 'backup');
  const r = await restoreBackup(a.layout, id, { runtime: a.runtime, force: one(a.form, 'force') === '1' });
  if (!r.restored) {
    return {
      kind: 'error',
      text: `Refused: ${r.changed_since_apply.length} file(s) changed after the apply; tick "also files edited since" to overwrite them.`,
      detail: r.changed_since_apply,
    };
  }
  return { kind: 'ok', text: `Restored ${r.files.length} file(s) from ${id}.`, detail: r.files };
}
