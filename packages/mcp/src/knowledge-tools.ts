import { ContextOutput, promptContext } from '@maestro/context';
import {
  ACTIONS,
  KnowledgeRecordOutput,
  KnowledgeStageOutput,
  LoadOutput,
  loadKnowledge,
  recordKnowledge,
  SIGNALS,
  stageKnowledge,
  TARGETS,
} from '@maestro/ledger';
import { ReviewOutput, reviewSession } from '@maestro/reconcile';
import { SearchOutputSchema, search } from '@maestro/search';
import { z } from 'zod';
import { tool } from './tools.js';

const ids = z.array(z.string().min(1)).min(1).max(100);
const session = z.string().min(1).describe('the Maestro session id (maestro session create)');
const run = z.string().min(1).describe('the running run id in that session (maestro run start)');

export const knowledgeSearch = tool({
  name: 'knowledge_search',
  title: 'Search project knowledge',
  description:
    'Search the project specs and knowhow (BM25F, diversified). Exposure only: nothing is recorded as used. Search before staging, so you do not stage what is already known.',
  input: z.object({
    query: z.string().min(1).describe('words to look for'),
    type: z.enum(['spec', 'knowhow']).optional(),
    category: z.string().min(1).optional(),
    limit: z.number().int().min(1).max(50).optional(),
  }),
  output: SearchOutputSchema,
  readOnly: true,
  async run(env, a) {
    const r = await search(
      env.layout,
      a.query,
      { type: a.type, category: a.category, limit: a.limit, phrases: false },
      env.runtime,
    );
    const lines = r.results.map((h) => `${h.id} ${h.title} (${h.file}${h.line ? `:${h.line}` : ''})`);
    return { data: r, text: lines.length ? lines.join('\n') : `no entry matches "${a.query}"` };
  },
});

export const knowledgeLoad = tool({
  name: 'knowledge_load',
  title: 'Load knowledge entries',
  description:
    'Read entries whole by id. With session and run, records them as consumed on that run (the only way to).',
  input: z.object({
    ids,
    session: session.optional(),
    run: run.optional(),
    include_deprecated: z.boolean().optional(),
  }),
  output: LoadOutput,
  readOnly: false,
  async run(env, a) {
    const r = await loadKnowledge(
      env.layout,
      { ids: a.ids, session_id: a.session, run_id: a.run, include_deprecated: a.include_deprecated === true },
      env.runtime,
    );
    const text = r.entries.map((e) => `## ${e.title} (${e.id}, ${e.status})\n${e.content.trimEnd()}`).join('\n\n');
    return { data: r, text };
  },
});

export const knowledgeContext = tool({
  name: 'knowledge_context',
  title: 'Context for a prompt',
  description:
    'Exactly what the prompt hook would inject for this prompt: recalled project knowledge and matching packs, wrapped as data. Empty when nothing is relevant.',
  input: z.object({
    prompt: z.string().min(1),
    budget: z.number().int().min(100).max(20_000).optional(),
  }),
  output: ContextOutput,
  readOnly: true,
  async run(env, a) {
    const { data } = await promptContext(
      env.layout,
      { ...env.scopes, prompt: a.prompt, budget: a.budget ?? 1500 },
      env.runtime,
    );
    return { data, text: data.context || 'nothing in the project or its packs is relevant to this prompt' };
  },
});

export const knowledgeStage = tool({
  name: 'knowledge_stage',
  title: 'Stage a knowledge candidate',
  description:
    'Stage what this run learned as a candidate on a running run. It is not project knowledge until a person reviews and promotes it. Search first; use action supersede or contest to change an existing entry.',
  input: z.object({
    session,
    run,
    target: z.enum(TARGETS),
    title: z.string().min(1),
    content: z.string().min(1),
    action: z.enum(ACTIONS).optional(),
    category: z.string().min(1).optional(),
    evidence: z.array(z.string().min(1)).optional().describe('evidence refs, e.g. file paths or test names'),
    signal: z.enum(SIGNALS).optional().describe('also record signal_ids with this signal'),
    signal_ids: z.array(z.string().min(1)).optional(),
  }),
  output: KnowledgeStageOutput,
  readOnly: false,
  async run(env, a) {
    const r = await stageKnowledge(
      env.layout,
      {
        session_id: a.session,
        run_id: a.run,
        target: a.target,
        title: a.title,
        content: a.content,
        action: a.action,
        category: a.category ?? null,
        evidence: a.evidence ?? [],
        ...(a.signal ? { signal: a.signal, signal_ids: a.signal_ids ?? [] } : {}),
      },
      env.runtime,
    );
    return {
      data: r,
      text: `staged ${r.candidate_id} on ${r.session_id}/${r.run_id}${r.reused ? ' (identical content was already staged)' : ''}; a person reviews it`,
    };
  },
});

export const knowledgeRecord = tool({
  name: 'knowledge_record',
  title: 'Record knowledge a run used',
  description: 'Record that this run consumed, cited, validated or contradicted entries (by id).',
  input: z.object({ session, run, ids, signal: z.enum(SIGNALS), evidence: z.array(z.string().min(1)).optional() }),
  output: KnowledgeRecordOutput,
  readOnly: false,
  async run(env, a) {
    const r = await recordKnowledge(
      env.layout,
      { session_id: a.session, run_id: a.run, knowledge_ids: a.ids, signal: a.signal, evidence: a.evidence ?? [] },
      env.runtime,
    );
    return { data: r, text: `recorded ${r.recorded} ${r.signal} input(s) on ${r.session_id}/${r.run_id}` };
  },
});

export const knowledgeReview = tool({
  name: 'knowledge_review',
  title: 'Review a session (read-only)',
  description:
    'The reconciliation view of a session: each candidate with its verdict, evidence and the commands a person would run. Read-only: resolving, promoting and pruning stay with a person.',
  input: z.object({ session }),
  output: ReviewOutput,
  readOnly: true,
  async run(env, a) {
    const view = await reviewSession(env.layout, a.session, { refresh: false }, env.runtime);
    const data = JSON.parse(JSON.stringify(view)) as { candidates?: { candidate_id: string; disposition?: string }[] };
    const lines = (data.candidates ?? []).map((c) => `${c.candidate_id}: ${c.disposition ?? 'not reconciled'}`);
    return { data: view, text: lines.join('\n') || `session ${a.session} has no pending candidates` };
  },
});
