import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecHealthOutput } from '@maestro/spec';
import { projectTemplate, tmpDir } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { maestro, ok, R, S } from './reconcile-helpers.js';

/**
 * Issue 19 item 1 / issue 20 item 6: one huge document must not break the project. A 1.1 MB
 * knowhow document overflowed the stack in the matcher's segmenter (every review, resolve,
 * promote and gate died with it), a 5 MB single word overflowed the search tokeniser.
 */

const WORDS = ['alpha', 'retry', 'backoff', 'cache', 'queue', 'token', 'service', 'schema', 'payload', 'timeout'];

function prose(chars: number): string {
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const w = WORDS[(i * 7 + (i >> 3)) % WORDS.length];
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ');
}

function knowhow(root: string, stem: string, title: string, body: string) {
  writeFileSync(join(root, '.workflow/knowhow', `${stem}.md`), `---\ntitle: ${title}\ncategory: arch\n---\n${body}\n`);
}

function buildProject(): string {
  const root = tmpDir('maestro-big-');
  mkdirSync(join(root, '.workflow'));
  ok(root, ['init']);
  ok(root, ['spec', 'add', 'coding', 'Logger', 'Use pino for application logging.']);
  ok(root, ['session', 'create', '--id', S, '--title', 'Big']);
  ok(root, ['run', 'start', '--session', S, '--id', R]);
  ok(root, [
    'knowledge',
    'stage',
    'spec',
    'Retry',
    'Retry with backoff and a retry cache.',
    '--session',
    S,
    '--run',
    R,
  ]);
  return root;
}

describe('huge documents', () => {
  /** A fresh copy per test of the project (built once per file: five CLI runs). */
  const project = projectTemplate(buildProject);

  test('knowledge review --refresh succeeds beside a 1.1 MB knowhow document', () => {
    const root = project();
    knowhow(root, 'DOC-20260101-big', 'Retry handbook', prose(1_100_000));
    const r = maestro(root, ['knowledge', 'review', S, '--refresh']);
    expect(r.stderr).not.toMatch(/internal error|call stack/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Knowledge review');
    // The gate's own fix (this same refresh) now works, so the gate can pass review-wise.
    expect(maestro(root, ['knowledge', 'gate', '--all']).stderr).not.toMatch(/internal error/);
  });

  test('a 5 MB single word breaks neither search nor context; the document is still found by its title', () => {
    const root = project();
    knowhow(root, 'DOC-20260101-hex', 'Firmware hex dump', 'ab'.repeat(2_600_000));
    const s = maestro(root, ['search', 'firmware', '--json']);
    expect(s.stderr).not.toMatch(/internal error/);
    expect(s.code).toBe(0);
    expect(s.json<{ results: { id: string }[] }>().results.map((x) => x.id)).toContain('knowhow-doc-20260101-hex');
    const c = maestro(root, ['context', 'firmware hex dump']);
    expect(c.code).toBe(0);
    // Over the budget: a summary and a pointer to the whole, named as a knowhow document.
    expect(c.stdout).toContain('maestro load --id knowhow-doc-20260101-hex');
    expect(c.stderr).toContain('1 knowhow document over the budget');
    expect(c.stderr).not.toMatch(/relevant spec/);
    const load = maestro(root, ['load', '--id', 'knowhow-doc-20260101-hex']);
    expect(load.code).toBe(0);
  });

  test('spec health lists the entries whose text is only partly indexed', () => {
    const root = project();
    knowhow(root, 'DOC-20260101-big', 'Retry handbook', prose(1_100_000));
    const h = maestro(root, ['spec', 'health', '--json']);
    expect(h.code).toBe(0);
    const data = SpecHealthOutput.parse(h.json());
    expect(data.capped.entries).toEqual([
      expect.objectContaining({
        id: 'knowhow-doc-20260101-big',
        store: 'knowhow',
        file: 'knowhow/DOC-20260101-big.md',
      }),
    ]);
    expect(data.capped.entries[0].chars).toBeGreaterThan(1_000_000);
    const text = maestro(root, ['spec', 'health']);
    expect(text.stdout).toMatch(/Indexing: 1 entry over 262144 characters/);
    expect(text.stdout).toContain('knowhow-doc-20260101-big');
  });
});
