import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLOW, maestroFlowTree, runMaestro, sessionTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';

const env = { MAESTRO_NOW: '2026-06-01T10:00:00Z' };
const m = (root: string, ...args: string[]) => runMaestro([...args, '--workflow-root', root], { env });
const project = () =>
  tmpProject({
    ...maestroFlowTree(),
    ...sessionTree({ sessionId: '20260601-work', runs: [{ runId: '20260601-001-plan', status: 'running' }] }),
  });

describe("maestro-flow's id forms are accepted by every command that takes an id", () => {
  test('load: the positional id resolves, is said on stderr and in --json; results carry id, graphId, aliases', () => {
    const root = project();
    const r = m(
      root,
      'load',
      '--id',
      'spec:project:coding-conventions-001,knowhow:tip-20260427-retry-jitter',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const out = r.json<{ entries: { id: string; graphId: string; aliases: string[] }[]; resolved_aliases: string[] }>();
    expect(out.entries.map((e) => [e.id, e.graphId])).toEqual([
      [FLOW.retry, `spec:${FLOW.retry}`],
      [FLOW.tip, 'knowhow:tip-20260427-retry-jitter'],
    ]);
    expect(out.entries[0].aliases).toEqual([`spec:${FLOW.retry}`, 'spec:project:coding-conventions-001']);
    expect(out.resolved_aliases).toEqual([
      expect.stringContaining(`resolved alias spec:project:coding-conventions-001 to ${FLOW.retry}`),
      `resolved alias knowhow:tip-20260427-retry-jitter to ${FLOW.tip}`,
    ]);
    expect(r.stderr).toContain(`resolved alias spec:project:coding-conventions-001 to ${FLOW.retry}`);
  });

  test('record and load with a run store the canonical id, never the alias', () => {
    const root = project();
    const rec = m(
      root,
      'knowledge',
      'record',
      'spec:project:coding-conventions-002',
      '--signal',
      'cited',
      '--session',
      '20260601-work',
      '--run',
      '20260601-001-plan',
    );
    expect(rec.code, rec.stderr).toBe(0);
    expect(rec.stderr).toContain(`resolved alias spec:project:coding-conventions-002 to ${FLOW.utc}`);
    const load = m(
      root,
      'load',
      '--id',
      `legacy:coding-conventions.md:${FLOW.legacyLine}`,
      '--session',
      '20260601-work',
      '--run',
      '20260601-001-plan',
    );
    expect(load.code, load.stderr).toBe(0);
    const ledger = JSON.parse(
      readFileSync(join(root, '.workflow/sessions/20260601-work/runs/20260601-001-plan/knowledge-delta.json'), 'utf8'),
    );
    const ids = ledger.inputs.map((i: { knowledge_id: string }) => i.knowledge_id);
    expect(ids[0]).toBe(FLOW.utc);
    expect(ids[1]).toMatch(/^D-[a-f0-9]{16}$/);
  });

  test('spec show, history and supersede take positional ids and say what they resolved', () => {
    const root = project();
    const show = m(root, 'spec', 'show', 'spec:project:coding-conventions-003');
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('Late rule');
    expect(show.stderr).toContain(`resolved alias spec:project:coding-conventions-003 to ${FLOW.late}`);
    expect(m(root, 'spec', 'history', `spec:${FLOW.retry}`).stderr).toContain(
      `resolved alias spec:${FLOW.retry} to ${FLOW.retry}`,
    );
    const sup = m(root, 'spec', 'supersede', 'spec:project:coding-conventions-001', '--by', FLOW.late, '--json');
    expect(sup.code, sup.stderr).toBe(0);
    expect(sup.json()).toMatchObject({ old: FLOW.retry, new: FLOW.late, changed: true });
    expect(sup.stderr).toContain(`resolved alias spec:project:coding-conventions-001 to ${FLOW.retry}`);
    expect(m(root, 'knowhow', 'show', 'knowhow:tip-20260427-retry-jitter').code).toBe(0);
  });

  test('drifted and ambiguous positional ids are refused (exit 2) with the candidates; nothing is written', () => {
    const root = project();
    const before = readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8');
    const gone = m(root, 'load', '--id', 'spec:project:coding-conventions-009', '--json');
    expect(gone.code).toBe(2);
    const err = gone.json<{ error: { code: string; message: string } }>().error;
    expect(err.code).toBe('DRIFTED_KNOWLEDGE_ID');
    expect(err.message).toContain('has 4 entries now');
    expect(err.message).toContain(`candidates: ${FLOW.utc}`);
    const sup = m(root, 'spec', 'supersede', 'spec:project:coding-conventions-009', '--by', FLOW.late);
    expect(sup.code).toBe(2);
    expect(readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8')).toBe(before);
    const amb = tmpProject({
      '.workflow/specs/notes.md': '### [coding] [2026-01-01] One\n\nbody\n',
      '.workflow/specs/notes-001.md': '### [coding] [2026-01-01] Two\n\nbody\n',
    });
    const r = m(amb, 'spec', 'show', 'spec:project:notes-001');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('spec:project:notes-001 is ambiguous');
    expect(r.stderr).toContain('.workflow/specs/notes-001.md');
  });
});
