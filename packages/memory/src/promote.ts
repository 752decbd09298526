import { inputError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readRun, readSession, stageKnowledge, startRun } from '@maestro/ledger';
import type { MemoryLocation } from './location.js';
import type { MemoryPromoteOutputData } from './output-schemas.js';
import { findRecord, locate, type MemoryTarget, storeInfo } from './records.js';
import { readStore, updateStore } from './store.js';

export interface PromoteRequest {
  ids: readonly string[];
  session: string;
  /** A running run to stage on; without it a run `memory-promote` is started in the session. */
  run?: string;
  target?: 'spec' | 'knowhow';
  category?: string | null;
  /** Stage a correction against this shared rule instead of a new proposal. */
  against?: { id: string; action: 'contest' | 'supersede' };
}

/** The evidence ref a candidate carries back to its memory record (an id, never the private text's location). */
export const memoryRef = (agent: string, id: string) => `memory:${agent}/${id}`;

/**
 * `memory promote`: the one channel from memory to knowledge. Stages each memory as a knowledge
 * candidate (`source_kind: memory`, evidence pointing at the record) on a run of the session
 * through the ledger's own stage path; reconcile → review → explicit promote apply from there.
 * With `against`, it is staged as a contest or supersede of that rule, and the rule is recorded
 * as contradicted on the run so the matcher links the two; the rule itself is never touched.
 * The memory stays, with the promotion noted on it.
 */
export async function promoteMemories(t: MemoryTarget, req: PromoteRequest): Promise<MemoryPromoteOutputData> {
  const loc = locate(t);
  if (req.ids.length === 0)
    throw inputError('USAGE', 'missing <id...>', { hint: 'e.g. maestro memory promote M-0123456789 --session S' });
  const layout = workflowLayout(t.root);
  const records = req.ids.map((id) => findRecord(readStore(loc), id, loc));
  readSession(layout, req.session); // unknown or damaged session: exit 2 before anything is written
  let runId = req.run;
  if (runId !== undefined) readRun(layout, req.session, runId);
  else runId = (await startRun(layout, { sessionId: req.session, command: 'memory-promote' }, t.runtime)).run_id;
  const staged: MemoryPromoteOutputData['staged'] = [];
  for (const r of records) {
    const action = req.against?.action ?? 'propose';
    const s = await stageKnowledge(
      layout,
      {
        session_id: req.session,
        run_id: runId,
        target: req.target ?? 'spec',
        title: titleOf(r.text),
        content: r.text,
        action,
        category: req.category ?? null,
        evidence: [memoryRef(loc.agent, r.id)],
        source_kind: 'memory',
        ...(req.against ? { signal: 'contradicted' as const, signal_ids: [req.against.id] } : {}),
      },
      t.runtime,
    );
    staged.push({
      memory_id: r.id,
      candidate_id: s.candidate_id,
      action,
      against: req.against?.id ?? null,
      reused: s.reused,
    });
  }
  await notePromotions(loc, t, staged, req.session, runId);
  return {
    store: storeInfo(loc),
    session_id: req.session,
    run_id: runId,
    run_started: req.run === undefined,
    staged,
    next: `maestro knowledge review ${req.session} --refresh`,
  };
}

/** Notes each staging on its memory record (history and `promotions`), so both sides are recorded. */
async function notePromotions(
  loc: MemoryLocation,
  t: MemoryTarget,
  staged: MemoryPromoteOutputData['staged'],
  session: string,
  run: string,
): Promise<void> {
  const at = t.runtime.now().toISOString();
  await updateStore(loc, at, (store) => {
    for (const s of staged) {
      const r = store.records.find((x) => x.id === s.memory_id);
      if (!r) continue; // deleted meanwhile: the candidate stands on its own
      r.promotions.push({
        at,
        session_id: session,
        run_id: run,
        candidate_id: s.candidate_id,
        action: s.action,
        against: s.against,
      });
      r.history.push({
        at,
        action: 'promoted',
        text: null,
        from_id: null,
        confidence: null,
        note: `staged ${s.candidate_id} on ${session}/${run}`,
      });
    }
  });
}

/** The first line, at most 80 characters, cut at a word. */
function titleOf(text: string): string {
  const line = text.split('\n')[0].trim();
  if (line.length <= 80) return line;
  const cut = line.slice(0, 80);
  const space = cut.lastIndexOf(' ');
  return `${(space > 40 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
