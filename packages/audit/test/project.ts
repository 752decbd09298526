/** Inline `.workflow/` trees in maestro-flow's on-disk formats, for the IO tests. */

export const HEAD = '---\ntitle: "Coding Conventions"\ncategory: coding\n---\n\n# Coding Conventions\n\n## Entries\n\n';

export interface SpecBlock {
  sid?: string;
  title: string;
  content?: string;
  date?: string;
  extra?: string;
}

/** One `<spec-entry>` block in the writer's shape (tag on one line, blank line, heading, body). */
export function block(b: SpecBlock): string {
  const sid = b.sid ? ` sid="${b.sid}"` : '';
  return `<spec-entry category="coding" keywords="time" date="${b.date ?? '2026-02-20'}"${sid} title="${b.title}"${b.extra ? ` ${b.extra}` : ''}>\n\n### ${b.title}\n\n${b.content ?? `${b.title}.`}\n\n</spec-entry>\n`;
}

export function specFile(blocks: SpecBlock[], eol: '\n' | '\r\n' = '\n'): string {
  const text = HEAD + blocks.map(block).join('\n');
  return eol === '\n' ? text : text.replace(/\n/g, '\r\n');
}

export function knowhowDoc(title: string, body: string, extra = ''): string {
  return `---\ntitle: ${title}\ntype: tip\ncreated: 2026-02-20T00:00:00.000Z\nkeywords:\n  - time\ntags: []\n${extra}---\n\n${body}\n`;
}

export const SPEC = '.workflow/specs/coding-conventions.md';

/** S-old is still active although S-new supersedes it (scenario 45). */
export const UNSYNCED = specFile([
  { sid: 'S-20260101-old', title: 'Use local time', content: 'Store local times.' },
  { sid: 'S-20260201-new', title: 'Use UTC', content: 'Store UTC.', extra: 'supersedes="S-20260101-old"' },
]);

const ISO = '2026-02-20T00:00:00.000Z';

export function sessionJson(id: string): string {
  return `${JSON.stringify(
    {
      schema_version: 'maestro-session/1.0',
      session_id: id,
      title: '',
      status: 'running',
      created_at: ISO,
      updated_at: ISO,
      revision: 0,
      lifecycle: { sealed_at: null, seal_summary: null, promoted_spec_ids: [], promoted_knowhow_ids: [] },
    },
    null,
    2,
  )}\n`;
}

export function runJson(session: string, run: string): string {
  return `${JSON.stringify(
    {
      schema_version: 'maestro-run/1.0',
      run_id: run,
      session_id: session,
      command: 'x',
      status: 'completed',
      created_at: ISO,
      updated_at: ISO,
      completed_at: ISO,
      sealed_at: null,
      summary: null,
      revision: 0,
    },
    null,
    2,
  )}\n`;
}

export function deltaJson(session: string, run: string, candidateId: string, status = 'pending'): string {
  return `${JSON.stringify(
    {
      schema_version: 'run-knowledge-delta/1.0',
      session_id: session,
      run_id: run,
      revision: 1,
      created_at: ISO,
      updated_at: ISO,
      inputs: [
        {
          knowledge_id: 'S-20260201-new',
          signal: 'consumed',
          source: 'load',
          count: 2,
          first_recorded_at: ISO,
          last_recorded_at: ISO,
        },
      ],
      candidates: [
        {
          candidate_id: candidateId,
          target: 'spec',
          action: 'propose',
          title: 'Local time for display',
          content: 'Show local times in the UI.',
          category: 'coding',
          source_kind: 'manual',
          evidence_refs: [`run:${run}`],
          occurrences: 1,
          first_recorded_at: ISO,
          last_recorded_at: ISO,
          status,
          promoted_id: null,
        },
      ],
    },
    null,
    2,
  )}\n`;
}

export function receiptJson(session: string, run: string, candidateId: string, matches: string[]): string {
  return `${JSON.stringify(
    {
      schema_version: 'knowledge-reconciliation/1.0',
      session_id: session,
      run_id: run,
      candidates: [
        {
          candidate_id: candidateId,
          disposition: 'related',
          promotion_eligibility: 'eligible',
          canonical_id: null,
          matches: matches.map((knowledge_id) => ({ knowledge_id })),
          resolution: null,
        },
      ],
    },
    null,
    2,
  )}\n`;
}

/** A session with one run whose pending candidate's receipt matches `matches`. */
export function pendingSession(matches: string[], session = '20260220-work', run = '20260220-001-x') {
  const dir = `.workflow/sessions/${session}`;
  const cid = 'KDC-0123456789abcdef';
  return {
    [`${dir}/session.json`]: sessionJson(session),
    [`${dir}/runs/${run}/run.json`]: runJson(session, run),
    [`${dir}/runs/${run}/knowledge-delta.json`]: deltaJson(session, run, cid),
    [`${dir}/runs/${run}/knowledge-reconciliation.json`]: receiptJson(session, run, cid, matches),
  };
}
