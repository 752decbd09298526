import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContextOutput } from '@maestro/context';
import { runMaestro, tmpDir, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, writePack } from '../packages/packs/src/fixtures.test-util.js';

const NOW = '2026-05-06T09:10:00Z';

function project() {
  const root = tmpProject();
  const home = tmpDir('maestro-home-');
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), MAESTRO_NOW: NOW };
  const run = (args: string[], cwd = root) => runMaestro(args, { cwd, env });
  expect(run(['init']).code).toBe(0);
  const sid = (args: string[]) =>
    JSON.stringify(run([...args, '--json']).json()).match(/S-\d{8}-[a-z0-9]+/)?.[0] as string;
  const utc = sid([
    'spec',
    'add',
    'coding',
    'Use UTC timestamps',
    'Store and compare every timestamp in UTC; convert only for display.',
  ]);
  const old = sid(['spec', 'add', 'coding', 'Local timestamps in logs', 'Log timestamps in local time OLD-RULE.']);
  expect(run(['spec', 'deprecate', old, '--reason', 'replaced by UTC']).code).toBe(0);
  const ws = join(root, '.agents/knowledge');
  writePack(
    ws,
    'ops-facts',
    baseFront('ops-facts', { description: 'Operations facts about timestamps and time zones in logs.' }),
    {
      'compiled/facts.md': '# Facts\n\nServers run in UTC; dashboards show the viewer time zone.\n',
    },
  );
  writePack(
    ws,
    'team-voice',
    baseFront('team-voice', {
      type: 'brand-persona',
      description: 'Team voice for explaining timestamps to users.',
      runtime: { mode: 'persona' },
    }),
    {
      'compiled/voice.md': '# Voice\n\nPlain words, no jargon.\n',
    },
  );
  return { root, run, utc, old };
}

describe('maestro context', () => {
  it('prints recalled specs, then packs (persona first), wrapped as data within the budget; exposure only', () => {
    const p = project();
    expect(p.run(['session', 'create', '--id', '20260506-time']).code).toBe(0);
    expect(p.run(['run', 'start', '--session', '20260506-time', '--id', '20260506-001-plan']).code).toBe(0);
    const runDir = join(p.root, '.workflow/sessions/20260506-time/runs/20260506-001-plan');
    const before = existsSync(join(runDir, 'knowledge-delta.json'))
      ? readFileSync(join(runDir, 'knowledge-delta.json'), 'utf8')
      : null;
    const r = p.run([
      'context',
      'How should we store timestamps in logs?',
      '--trust-workspace',
      '--budget',
      '1500',
      '--session',
      '20260506-time',
      '--run',
      '20260506-001-plan',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const out = ContextOutput.parse(r.json());
    expect(out.wrapper_order).toEqual(['recalled-knowledge', 'team-voice', 'ops-facts']);
    expect(out.blocks.map((b) => b.name)).toEqual(['recalled-knowledge', 'packs']);
    expect(out.specs.map((s) => s.id)).toEqual([p.utc]);
    expect(out.context).not.toContain('OLD-RULE');
    expect(out.token_estimate).toBeLessThanOrEqual(1500);
    expect(out).toMatchObject({ session_id: '20260506-time', run_id: '20260506-001-plan', exposure_recorded: true });
    expect(readFileSync(join(p.root, '.workflow/.index/search/exposure.jsonl'), 'utf8')).toContain(p.utc);
    const after = existsSync(join(runDir, 'knowledge-delta.json'))
      ? readFileSync(join(runDir, 'knowledge-delta.json'), 'utf8')
      : null;
    expect(after).toBe(before);
    expect(after ?? '').not.toContain('consumed');
  });

  it('prints exactly the context on stdout in text mode, and nothing when nothing is relevant', () => {
    const p = project();
    const r = p.run(['context', 'How should we store timestamps in logs?', '--trust-workspace']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('<recalled-knowledge source=".workflow"')).toBe(true);
    expect(r.stdout).toContain('</recalled-knowledge>\n<knowledge_pack name="team-voice"');
    expect(r.stdout.trimEnd().endsWith('</knowledge_pack>')).toBe(true);
    const none = p.run(['context', 'bake sourdough bread']);
    expect(none).toMatchObject({ code: 0, stdout: '' });
  });

  it('keeps an untrusted workspace out and names the flag on stderr', () => {
    const p = project();
    const r = p.run(['context', 'How should we store timestamps in logs?', '--json']);
    const out = ContextOutput.parse(r.json());
    expect(out.wrapper_order).toEqual(['recalled-knowledge']);
    expect(r.stderr).toContain('--approve ops-facts');
  });

  it('serves packs without a .workflow/ directory, and rejects bad arguments', () => {
    const p = project();
    const bare = tmpDir();
    writePack(
      join(bare, '.agents/knowledge'),
      'ops-facts',
      baseFront('ops-facts', { description: 'Timestamps in logs.' }),
      { 'compiled/facts.md': '# Facts\n\nUTC everywhere.\n' },
    );
    const r = p.run(['context', 'timestamps in logs', '--trust-workspace', '--json'], bare);
    expect(r.code).toBe(0);
    expect(ContextOutput.parse(r.json()).wrapper_order).toEqual(['ops-facts']);
    expect(p.run(['context']).code).toBe(2);
    expect(p.run(['context', 'x', '--session', '20260506-time']).code).toBe(2);
    const unknown = p.run(['context', 'x', '--session', '20260506-nope', '--run', '20260506-001-plan']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('20260506-nope');
  });
});
