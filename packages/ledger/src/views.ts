import type { Issue } from '@maestro/core';
import { appendAll } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { listRuns } from './run.js';
import type { RunRecord, SessionRecord } from './schemas.js';
import { type KnowledgeBacklog, knowledgeBacklog } from './seal.js';
import { listSessions, readSession } from './session.js';
import { type SessionSummary, summarizeSession } from './summary.js';

export interface SessionListItem extends SessionRecord {
  run_count: number;
  unsealed_runs: number;
}

export interface SessionListResult {
  sessions: SessionListItem[];
  /** Damaged sessions and runs, reported and skipped. */
  problems: Issue[];
}

/** `maestro session list`: every readable session with run counts; damage is reported, not fatal. */
export function sessionOverview(layout: WorkflowLayout): SessionListResult {
  const { sessions, problems } = listSessions(layout);
  const items = sessions.map((s) => {
    const { runs, problems: runProblems } = listRuns(layout, s.session_id);
    appendAll(problems, runProblems);
    return { ...s, run_count: runs.length, unsealed_runs: runs.filter((r) => r.status !== 'sealed').length };
  });
  return { sessions: items, problems };
}

export interface SessionShowResult {
  session: SessionRecord;
  runs: RunRecord[];
  summary: SessionSummary;
  knowledge: KnowledgeBacklog;
  problems: Issue[];
}

/** `maestro session show`: the session, its runs, its candidates and inputs, and the backlog. */
export function showSession(layout: WorkflowLayout, sessionId: string): SessionShowResult {
  const session = readSession(layout, sessionId);
  const { runs } = listRuns(layout, sessionId);
  const summary = summarizeSession(layout, sessionId);
  const problems = [...summary.problems];
  return { session, runs, summary, knowledge: knowledgeBacklog(layout, summary, problems), problems };
}
