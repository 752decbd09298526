import { contentHash, refusedError } from '@maestro/core';
import type { SummaryCandidate } from '@maestro/ledger';
import type { LoadedCorpus } from '@maestro/spec';
import { PlanBuilder } from './builder.js';
import { plannedIds } from './ids.js';
import type { CandidatePolicy } from './model.js';
import { sameDocument } from './ops.js';
import { activeSpecTitles, preflightTitles } from './preflight.js';
import { renderKnowhowCandidate, renderSpecCandidate } from './render.js';
import type { FilePlan, PromotedEntry } from './schemas.js';
import { linkOld, refuseSharedSupersession, successorView, supersedeTarget } from './supersede.js';

/**
 * The promotion planner (pure): the corpus and ledgers as read under the locks, the selected
 * candidates and their policies in; every file's operations and exact final bytes, plus the
 * reported outcome per candidate, out. Nothing here touches the disk.
 */

export interface PlanItem {
  candidate: SummaryCandidate;
  policy: Extract<CandidatePolicy, { kind: 'create' | 'reaffirm' }>;
}

export interface PlanInput {
  sessionId: string;
  now: Date;
  loaded: LoadedCorpus;
  items: readonly PlanItem[];
  /** Current ledger text per run id, read under the ledger locks; path relative to `.workflow/`. */
  ledgers: ReadonlyMap<string, { path: string; text: string }>;
  session: { path: string; text: string };
}

export interface PromotionPlan {
  files: FilePlan[];
  /** Only the files whose bytes change, in commit order (corpus, then ledgers, then session.json). */
  writes: { path: string; content: string }[];
  promoted: PromotedEntry[];
}

function planSpec(b: PlanItemContext, item: PlanItem, supersedes: string | null): PromotedEntry {
  const c = item.candidate;
  const ids = plannedIds(c);
  const r = renderSpecCandidate(c, ids, b.ctx, supersedes);
  const existing = b.builder.input.loaded.corpus.byId.get(ids.sid);
  const docText = r.doc ? b.builder.textOf(r.doc.file) : null;
  if (r.doc && docText !== null) {
    refuseForeignDocument(r.doc.file, docText, { explicit_id: r.doc.explicitId, content_hash: r.doc.contentHash });
  }
  if (existing && (existing.store !== 'spec' || existing.contentHash !== r.entryHash)) {
    throw refusedError(
      'PLANNED_ID_CONFLICT',
      `the planned promotion id ${ids.sid} of ${c.candidate_id} is already used by different content (.workflow/${existing.file}:${existing.line ?? 1})`,
      {
        hint: 'another entry took this sid; give that entry a new sid (remove its sid attribute and run `maestro spec backfill-sid`), then promote again',
        location: { file: `.workflow/${existing.file}`, line: existing.line ?? undefined },
      },
    );
  }
  const next = successorView(b.builder, ids.sid, c);
  const old = supersedes ? supersedeTarget(b.builder, supersedes, 'spec', next) : null;
  if (r.doc) {
    const op = {
      kind: 'create-document' as const,
      text: r.doc.text,
      explicit_id: r.doc.explicitId,
      content_hash: r.doc.contentHash,
    };
    b.builder.add(r.doc.file, 'knowhow', op);
  }
  if (!existing) b.builder.add(r.file, 'spec', { kind: 'append-entry', sid: ids.sid, block: r.block });
  else if (old && !existing.supersedes.includes(old.id)) {
    const merged = [...new Set([...existing.supersedes, old.id])].join(',');
    b.builder.add(existing.file, 'spec', { kind: 'set-attributes', id: ids.sid, changes: { supersedes: merged } });
  }
  if (old) linkOld(b.builder, old, ids.sid);
  return entry(
    item,
    'created',
    ids.sid,
    existing !== undefined,
    existing?.file ?? r.file,
    r.doc?.file ?? null,
    supersedes,
  );
}

function planKnowhow(b: PlanItemContext, item: PlanItem, supersedes: string | null): PromotedEntry {
  const c = item.candidate;
  const ids = plannedIds(c);
  const r = renderKnowhowCandidate(c, ids, b.ctx, supersedes);
  const current = b.builder.textOf(r.file);
  const op = { kind: 'create-document' as const, text: r.text, explicit_id: r.explicitId, content_hash: r.contentHash };
  const replayed = current !== null;
  if (current !== null) refuseForeignDocument(r.file, current, op);
  const old = supersedes
    ? supersedeTarget(b.builder, supersedes, 'knowhow', successorView(b.builder, ids.tipId, c))
    : null;
  b.builder.add(r.file, 'knowhow', op);
  if (old) linkOld(b.builder, old, ids.tipId);
  return entry(item, 'created', ids.tipId, replayed, r.file, null, supersedes);
}

/** A planned knowhow file that exists must be this promotion's own earlier write. */
function refuseForeignDocument(file: string, text: string, op: { explicit_id: string; content_hash: string }): void {
  if (sameDocument(file, text, op)) return;
  throw refusedError(
    'CALLER_PAYLOAD_CONFLICT',
    `divergent existing explicit id: .workflow/${file} holds a different document`,
    {
      hint: 'the planned promotion file is taken by other content; move it aside, then promote again; nothing was written',
      location: { file: `.workflow/${file}` },
    },
  );
}

function entry(
  item: PlanItem,
  outcome: PromotedEntry['outcome'],
  promotedId: string,
  replayed: boolean,
  file: string,
  docFile: string | null,
  supersedes: string | null,
): PromotedEntry {
  const c = item.candidate;
  return {
    candidate_id: c.candidate_id,
    target: c.target,
    title: c.title,
    outcome,
    promoted_id: promotedId,
    replayed,
    file,
    doc_file: docFile,
    supersedes,
    run_ids: c.run_ids,
    stage: c.stage,
  };
}

interface PlanItemContext {
  builder: PlanBuilder;
  ctx: { sessionId: string; now: Date };
}

export function planPromotion(input: PlanInput): PromotionPlan {
  const builder = new PlanBuilder(input);
  const b: PlanItemContext = { builder, ctx: { sessionId: input.sessionId, now: input.now } };
  refuseSharedSupersession(input.items);
  const specCreates = input.items.filter((i) => i.candidate.target === 'spec' && i.policy.kind === 'create');
  const restated = preflightTitles(
    input.sessionId,
    specCreates.map(({ candidate: c, policy }) => ({
      candidate_id: c.candidate_id,
      title: c.title,
      content: c.content,
      supersedes: policy.kind === 'create' ? policy.supersedes : null,
      plannedId: plannedIds(c).sid,
    })),
    activeSpecTitles(input.loaded.corpus),
  );
  const promoted: PromotedEntry[] = [];
  const created = { spec: [] as string[], knowhow: [] as string[] };
  for (const item of input.items) {
    const c = item.candidate;
    const reaffirmId = item.policy.kind === 'reaffirm' ? item.policy.entryId : restated.get(c.candidate_id)?.id;
    let result: PromotedEntry;
    if (reaffirmId !== undefined) {
      const target = input.loaded.corpus.byId.get(reaffirmId);
      if (!target) {
        throw refusedError('REAFFIRM_TARGET_MISSING', `${c.candidate_id} reaffirms ${reaffirmId}, which is gone`, {
          hint: `run \`maestro knowledge review ${input.sessionId} --refresh\`, then promote again`,
        });
      }
      result = entry(item, 'reaffirmed', target.id, false, target.file, null, null);
    } else {
      const supersedes = item.policy.kind === 'create' ? item.policy.supersedes : null;
      result = c.target === 'spec' ? planSpec(b, item, supersedes) : planKnowhow(b, item, supersedes);
      created[c.target].push(result.promoted_id);
    }
    promoted.push(result);
    for (const run of c.run_ids) {
      const ledger = input.ledgers.get(run);
      if (!ledger) throw new Error(`bug: ledger of run ${run} was not read`);
      builder.add(ledger.path, 'ledger', {
        kind: 'mark-promoted',
        candidate_id: c.candidate_id,
        promoted_id: result.promoted_id,
        receipt: {
          outcome: result.outcome,
          promoted_at: input.now.toISOString(),
          content_hash: contentHash(c.content),
        },
      });
    }
  }
  if (created.spec.length || created.knowhow.length) {
    builder.add(input.session.path, 'session', { kind: 'add-promoted-ids', ...created });
  }
  return builder.build(promoted);
}
