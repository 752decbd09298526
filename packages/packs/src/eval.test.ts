import { join } from 'node:path';
import { evalPack } from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, write, writePack, wsOptions } from './fixtures.test-util.js';

const suite = (cases: unknown[]) => JSON.stringify({ pack_name: 'acme-widget', cases });

describe('pack eval', () => {
  it('runs selection cases through the activation rules and reports the pass rate', () => {
    const root = tmpDir();
    writePack(
      root,
      'acme-widget',
      baseFront('acme-widget', { description: 'Acme Widget product facts: pricing, offline mode, warranty.' }),
      {
        'evals/discovery.validation.json': suite([
          { id: 'pos-1', prompt: 'Does Acme Widget work offline?', expected: 'select' },
          { id: 'pos-2', prompt: 'What does the widget warranty cover?', expected: 'select' },
          { id: 'neg-1', prompt: 'Write a poem about the sea', expected: 'reject' },
          { id: 'wrong', prompt: 'Tell me about soup', expected: 'select' },
        ]),
      },
    );
    const out = evalPack({ ...wsOptions(root), pack: 'acme-widget', suite: 'evals/discovery.validation.json' });
    expect(out.results.map((r) => [r.id, r.actual, r.passed])).toEqual([
      ['pos-1', 'select', true],
      ['pos-2', 'select', true],
      ['neg-1', 'reject', true],
      ['wrong', 'reject', false],
    ]);
    expect(out.summary).toEqual({ passed: 3, failed: 1, total: 4, pass_rate: 0.75 });
    expect(out).toMatchObject({ ok: false, status: 'failed', command: 'eval' });
  });

  it('answers warn for a pack that would be used with warnings or held for confirmation', () => {
    const root = tmpDir();
    write(join(root, 'suite.json'), suite([{ id: 'w', prompt: 'acme widget pricing', expected: 'warn' }]));
    writePack(
      root,
      'ws/acme-widget',
      baseFront('acme-widget', { status: 'stale', description: 'Acme Widget pricing.' }),
    );
    const out = evalPack({ ...wsOptions(join(root, 'ws')), cwd: root, pack: './ws/acme-widget', suite: 'suite.json' });
    expect(out.summary.pass_rate).toBe(1);
  });

  it('refuses a malformed suite as bad input naming file and field', () => {
    const root = tmpDir();
    writePack(root, 'acme-widget', baseFront('acme-widget'), {
      'evals/bad.json': JSON.stringify({
        pack_name: 'acme-widget',
        cases: [{ id: 'a', prompt: 'x', expected: 'maybe' }],
      }),
      'evals/broken.json': '{',
    });
    expect(() => evalPack({ ...wsOptions(root), pack: 'acme-widget', suite: 'evals/bad.json' })).toThrow(
      /cases\[0\]\.expected: Expected one of: select, reject, warn\./,
    );
    expect(() => evalPack({ ...wsOptions(root), pack: 'acme-widget', suite: 'evals/broken.json' })).toThrow(
      expect.objectContaining({ code: 'INVALID_JSON', exitCode: 2 }),
    );
    expect(() => evalPack({ ...wsOptions(root), pack: 'acme-widget', suite: 'evals/none.json' })).toThrow(
      expect.objectContaining({ code: 'PACK_SUITE_NOT_FOUND', exitCode: 2 }),
    );
  });
});
