import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchResult } from '@maestro/search';
// e2e may depend only on the root's devDependencies, so the schema comes from the package source.
import { SearchOutputSchema } from '@maestro/search';
import { copyDir, readTree, runMaestro, runMaestroAsync, tmpDir, tmpProject } from '@maestro/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const env = { MAESTRO_NOW: '2026-05-01T10:00:00Z' };

/** A small real project (markdown specs and knowhow), written once through the CLI itself. */
function template() {
  const root = tmpDir('maestro-search-template-');
  let input = '';
  const m = (...args: string[]) => {
    const r = runMaestro([...args, '--workflow-root', root], { env, input });
    expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
    return r;
  };
  m('init');
  const sid = (...a: string[]) => m('spec', 'add', ...a, '--json').json<{ sid: string }>().sid;
  const ids = {
    retry: sid(
      'coding',
      'Retry with exponential backoff',
      'Retry failed HTTP calls with exponential backoff; give up after 5 attempts.',
      '--keywords',
      'retry,http',
    ),
    retryOld: sid('coding', 'Retry forever', 'Retry until the call works.', '--keywords', 'retry'),
    jwt: sid('arch', 'JWT认证', '所有接口使用jwt认证，令牌过期时间为一小时。', '--keywords', 'auth'),
    graph: sid('arch', '知识图谱', '用图谱表示服务之间的依赖关系。'),
    utc: sid('coding', 'Use UTC', 'Store and compare times in UTC.', '--keywords', 'time'),
  };
  input = 'Call parseJsonText with the file name so errors carry file:line:col.\n';
  const tip = m(
    'knowhow',
    'add',
    'tip',
    'JSON parse errors',
    '--content-file',
    '-',
    '--keywords',
    'json,errors',
    '--json',
  );
  m('spec', 'supersede', ids.retryOld, '--by', ids.retry);
  return { root, ids, tip: tip.json<{ id: string }>().id };
}

type P = ReturnType<typeof template>;
let t: P;
let p: P;

/** A fresh copy of the template project, for tests that change or damage it. */
function project(): P {
  const root = tmpProject();
  copyDir(t.root, root);
  return { ...t, root };
}
const search = (args: string[], root = p.root) => runMaestro(['search', ...args, '--workflow-root', root], { env });
const json = (args: string[], root = p.root) => {
  const r = search([...args, '--json'], root);
  expect(r.code, r.stderr).toBe(0);
  return SearchOutputSchema.parse(r.json()) as SearchResult;
};
const ids = (r: SearchResult) => r.results.map((h) => h.id);

beforeAll(() => {
  t = template();
  p = project();
});
afterAll(() => rmSync(t.root, { recursive: true, force: true }));

describe('maestro search', () => {
  test('prints ranked results with id, title, category, score, reason and a snippet', () => {
    const r = search(['retry', 'backoff']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Search "retry backoff": 1 result (balanced)');
    expect(r.stdout).toMatch(
      new RegExp(
        `1\\. Retry with exponential backoff  spec/coding\\n\\s+${p.ids.retry}  score \\d+\\.\\d{3}  relevance\\n`,
      ),
    );
    expect(r.stdout).toContain('Retry failed HTTP calls with exponential backoff');
    expect(r.stdout).toContain(`load one: maestro load --id ${p.ids.retry}`);
  });

  test('returns canonical ids that maestro load reads back', () => {
    const r = json(['parseJsonText']);
    expect(ids(r)).toEqual([p.tip]);
    expect(r.results[0].matched_terms).toContain('parsejsontext');
    const loaded = runMaestro(['load', '--id', r.results[0].id, '--workflow-root', p.root], { env });
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout).toContain('Call parseJsonText with the file name');
  });

  test('finds CJK text by a single character and splits mixed jwt认证', () => {
    expect(ids(json(['图']))).toEqual([p.ids.graph]);
    const mixed = json(['jwt认证']);
    expect(ids(mixed)).toEqual([p.ids.jwt]);
    expect(mixed.results[0].matched_terms).toEqual(['jwt', '认证']);
    const [s, e] = mixed.results[0].highlights[0];
    expect(mixed.results[0].snippet.slice(s, e)).toBe('jwt');
  });

  test('matches quoted phrases exactly', () => {
    expect(ids(json(['"exponential backoff"']))).toEqual([p.ids.retry]);
    expect(ids(json(['"backoff exponential"']))).toEqual([]);
  });

  test('excludes deprecated entries unless asked', () => {
    expect(ids(json(['retry']))).toEqual([p.ids.retry]);
    expect(ids(json(['retry', '--include-deprecated'])).sort()).toEqual([p.ids.retry, p.ids.retryOld].sort());
    expect(ids(json(['retry', '--status', 'deprecated']))).toEqual([p.ids.retryOld]);
  });

  test('applies facets: --type, --category, --tag', () => {
    expect(ids(json(['errors', '--type', 'knowhow']))).toEqual([p.tip]);
    expect(ids(json(['errors', '--type', 'spec']))).toEqual([]);
    expect(ids(json(['utc', '--category', 'CODING']))).toEqual([p.ids.utc]);
    expect(ids(json(['utc', '--category', 'arch']))).toEqual([]);
    expect(ids(json(['retry', '--tag', 'http']))).toEqual([p.ids.retry]);
    expect(ids(json(['retry', '--tag', 'http', '--tag', 'nope']))).toEqual([]);
  });

  test('pages with --limit and --offset and says how to get the next page', () => {
    const all = ids(json(['time', 'retry', 'json', '图谱', '--mode', 'relevance', '--include-deprecated']));
    expect(all.length).toBeGreaterThanOrEqual(4);
    const first = search([
      'time',
      'retry',
      'json',
      '图谱',
      '--mode',
      'relevance',
      '--include-deprecated',
      '--limit',
      '2',
    ]);
    expect(first.stdout).toContain(`results 1–2 of ${all.length}`);
    expect(first.stdout).toContain('more: add --offset 2');
    const second = json([
      'time',
      'retry',
      'json',
      '图谱',
      '--mode',
      'relevance',
      '--include-deprecated',
      '--limit',
      '2',
      '--offset',
      '2',
    ]);
    expect(ids(second)).toEqual(all.slice(2, 4));
    expect(second.results[0].rank).toBe(3);
  });

  test('refuses bad input with exit 2 and a message naming the option', () => {
    const cases: [string[], RegExp][] = [
      [['x', '--limit', '0'], /--limit must be a whole number from 1 to 500 \(got 0\)/],
      [['x', '--limit', 'ten'], /--limit must be a whole number \(got "ten"\)/],
      [['x', '--offset=-1'], /--offset must be a whole number \(got "-1"\)/],
      [['x', '--type', 'note'], /--type must be one of spec, knowhow \(got "note"\)/],
      [['x', '--mode', 'fast'], /--mode must be one of balanced, relevance/],
      [['x', '--status', 'draft'], /--status must be one of active, deprecated/],
      [[], /the search query is empty/],
      [['x', '--nope'], /Unknown option '--nope'/],
    ];
    for (const [args, message] of cases) {
      const r = search(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/hint: /);
    }
    const j = search(['x', '--limit', '0', '--json']);
    expect(j.json()).toMatchObject({
      schema_version: 'maestro-error/1.0',
      error: { code: 'SEARCH_BAD_OPTION', exit_code: 2 },
    });
  });

  test('outside a project: exit 2 with the command to fix it', () => {
    const r = runMaestro(['search', 'x', '--workflow-root', tmpDir()], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no \.workflow\/ directory in .*\nhint: run `maestro init`/);
  });
});

describe('the projection is derived state', () => {
  test('deleted: rebuilt silently with the same answer', () => {
    const root = project().root;
    const before = json(['retry', 'utc', '--mode', 'relevance'], root);
    rmSync(join(root, '.workflow/.index'), { recursive: true });
    const r = search(['retry', 'utc', '--mode', 'relevance', '--json'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.json<SearchResult>().results).toEqual(before.results);
    expect(r.json<SearchResult>().index.status).toBe('built');
  });

  test('corrupt: rebuilt with a warning, exit 0, same answer', () => {
    const root = project().root;
    const before = json(['retry', 'utc', '--mode', 'relevance'], root);
    writeFileSync(join(root, '.workflow/.index/search/index.bin'), 'garbage');
    const r = search(['retry', 'utc', '--mode', 'relevance', '--json'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: the search index in .* was unreadable \(.+\); rebuilt it from the corpus/);
    expect(r.json<SearchResult>().results).toEqual(before.results);
    const again = search(['retry', '--json'], root);
    expect(again.stderr).toBe('');
  });

  test('follows corpus edits made after it was built', () => {
    const root = project().root;
    expect(ids(json(['idempotency'], root))).toEqual([]);
    const added = runMaestro(
      [
        'spec',
        'add',
        'arch',
        'Idempotency keys',
        'Every POST carries an idempotency key.',
        '--json',
        '--workflow-root',
        root,
      ],
      { env },
    );
    const r = json(['idempotency'], root);
    expect(ids(r)).toEqual([added.json<{ sid: string }>().sid]);
    expect(r.index.status).toBe('updated');
    expect(r.index.reindexed).toBeLessThan(r.index.entries);
  });

  test('search is exposure only: specs and knowhow are untouched, only .index/ changes', () => {
    const root = project().root;
    const corpus = () => readTree(join(root, '.workflow'), (rel) => rel.startsWith('.index'));
    const before = corpus();
    json(['retry'], root);
    json(['utc', '--mode', 'relevance'], root);
    expect(corpus()).toEqual(before);
    const log = readFileSync(join(root, '.workflow/.index/search/exposure.jsonl'), 'utf8');
    expect(log.trim().split('\n')).toHaveLength(2);
    expect(readTree(join(root, '.workflow/sessions'))).toEqual({});
  });

  test('concurrent first searches all succeed and leave one consistent index', async () => {
    const root = project().root;
    rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
    const args = ['search', 'retry', 'utc', '--mode', 'relevance', '--json', '--workflow-root', root];
    const runs = await Promise.all([1, 2, 3, 4].map(() => runMaestroAsync(args, { env })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const results = runs.map((r) => JSON.stringify(r.json<SearchResult>().results));
    expect(new Set(results).size).toBe(1);
    const after = json(['retry', 'utc', '--mode', 'relevance'], root);
    expect(after.index.status).toMatch(/fresh|revalidated/);
    expect(JSON.stringify(after.results)).toBe(results[0]);
    expect(readFileSync(join(root, '.workflow/.index/search/exposure.jsonl'), 'utf8').trim().split('\n')).toHaveLength(
      5,
    );
    expect(Object.keys(readTree(join(root, '.workflow/.index'))).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  test('--read-only writes nothing at all', () => {
    const root = project().root;
    rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
    const before = readTree(root);
    const r = json(['retry', '--read-only'], root);
    expect(r).toMatchObject({ exposure_recorded: false, index: { persisted: false } });
    expect(readTree(root)).toEqual(before);
  });

  test('the exploration slot switches on once exposure counters exist', () => {
    const root = project().root;
    rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
    expect(json(['retry'], root).exploration_available).toBe(false);
    expect(json(['retry'], root).exploration_available).toBe(true);
    writeFileSync(join(root, '.workflow/.index/search/exposure.json'), '{broken');
    const r = search(['retry', '--json'], root);
    expect(r.code).toBe(0);
    expect(r.json<SearchResult>().exploration_available).toBe(false);
    expect(r.stderr).toMatch(/exploration slot is off/);
  });
});
