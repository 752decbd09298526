import { describe, expect, it } from 'vitest';
import { analyzeText } from './analyze.js';
import { numericMismatch } from './compare.js';
import { corpusIndex } from './corpus-index.js';
import { entry } from './matcher.fixture.js';
import { reconcile } from './reconcile.js';
import { retrieve } from './retrieve.js';
import { compareScopes } from './scope.js';
import { makeView, THRESHOLDS } from './score.js';
import { stem } from './stem.js';

const stances = (t: string) => analyzeText(t).clauses.map((c) => c.stance);

describe('text analysis', () => {
  it('folds inflections and synonyms onto one concept', () => {
    expect(stem('validation')).toBe(stem('validates'));
    expect(stem('caching')).toBe(stem('cache'));
    const a = analyzeText('Persist every timestamp in Coordinated Universal Time.').terms;
    const b = analyzeText('Store all date-time values in UTC.').terms;
    expect([...a.keys()].filter((t) => b.has(t)).length).toBeGreaterThanOrEqual(3);
  });

  it('segments Chinese with the lexicon, CC-CEDICT words (as their English glosses) and bigrams', () => {
    const f = analyzeText('禁止在日志中打印支付密码');
    expect(f.clauses[0].stance).toBe('neg');
    expect([...f.terms.keys()]).toEqual(expect.arrayContaining(['log', 'print', 'secret', 'pay']));
    // No dictionary word: character bigrams, so two Chinese texts still meet.
    expect([...analyzeText('氪氙氡').terms.keys()]).toEqual(expect.arrayContaining(['h:氪氙']));
  });

  it('reads stance per clause: modal, imperative, default affirmation, flips', () => {
    expect(stances('Never log request bodies.')).toEqual(['neg']);
    expect(stances('Mock the database in tests.')).toEqual(['pos']);
    expect(stances('Every migration ships with a rollback script.')).toEqual(['pos']);
    expect(stances('Never skip the lint step.')).toEqual(['pos']);
    expect(stances('Use pino, not winston.')).toEqual(['pos', 'neg']);
    expect(stances('Represent money as integer cents and never as floating point numbers.')).toEqual(['pos', 'neg']);
    expect(stances('使用 pnpm，不要使用 npm。')).toEqual(['pos', 'neg']);
  });

  it('turns a negated bound into a bound ("must not exceed 60" is at most 60)', () => {
    const [n] = analyzeText('Functions must not exceed 60 lines.').clauses[0].numbers;
    expect(n).toMatchObject({ dim: 'lines', value: 60, bound: 'max' });
    expect(analyzeText('Functions must not exceed 60 lines.').clauses[0].stance).toBe('pos');
    expect(analyzeText('覆盖率不低于 80%').clauses[0].numbers[0]).toMatchObject({
      dim: 'percent',
      value: 80,
      bound: 'min',
    });
  });

  it('reads numbers with units, words and Chinese numerals, not identifiers', () => {
    const nums = (t: string) => analyzeText(t).clauses.flatMap((c) => c.numbers.map((n) => `${n.dim}=${n.value}`));
    expect(nums('Retry three times, wait 1.5 s, cap at 2 minutes')).toEqual(['times=3', 'time=1.5', 'time=120']);
    expect(nums('重试三次，超时 30 秒')).toEqual(['times=3', 'time=30']);
    expect(nums('Target es2022 and utf-8 with Node v20')).toEqual(['n=20']);
    expect(nums('Pin TypeScript 5.4.2')).toEqual(['version=5.4.2']);
  });

  it('finds scopes: environments, layers, named services, paths, file names', () => {
    expect([...analyzeText('In production, log at warn level').scopes]).toEqual(['env:production']);
    expect([...analyzeText('The billing service retries 5 times').scopes]).toEqual(['named:bill']);
    expect([...analyzeText('Files under src/api/ use named exports').scopes]).toEqual(['path:src/api']);
    expect([...analyzeText('Pin versions in package.json').scopes]).toEqual(['path:package.json']);
    expect([...analyzeText('Use read/write locks').scopes]).toEqual([]);
    expect([...analyzeText('Published packages follow semver').scopes]).toEqual([]);
  });
});

describe('comparison primitives', () => {
  it('relates scopes', () => {
    expect(compareScopes(new Set(['env:production']), new Set(['env:development']))).toBe('disjoint');
    expect(compareScopes(new Set(['path:src/api/v1']), new Set(['path:src/api']))).toBe('narrower');
    expect(compareScopes(new Set(), new Set(['named:bill']))).toBe('broader');
    expect(compareScopes(new Set(['env:production']), new Set(['env:production']))).toBe('same');
  });

  it('numbers differ only when each side has a value the other lacks in one dimension', () => {
    const n = (dim: string, value: number, bound: 'max' | 'min' | 'eq' = 'eq') => ({
      dim,
      value,
      bound,
      text: `${value}`,
    });
    expect(numericMismatch([n('time', 30)], [n('time', 60)])).toBe('30 vs 60');
    expect(numericMismatch([n('time', 30), n('times', 3)], [n('time', 30)])).toBeNull();
    expect(numericMismatch([n('lines', 60)], [n('time', 60)])).toBeNull();
    expect(numericMismatch([n('percent', 80, 'max')], [n('percent', 80, 'min')])).toMatch(/at most 80 vs at least 80/);
  });

  it('thresholds decide extends vs duplicate by how much the candidate adds', () => {
    const corpus = [entry('S-1', 'Retries', 'Retry idempotent requests up to 3 times.')];
    expect(
      reconcile(
        [
          {
            candidate_id: 'KDC-1',
            target: 'spec',
            title: 'r',
            content: 'Retry idempotent requests up to 3 times with jitter.',
          },
        ],
        corpus,
      )[0].disposition,
    ).toBe('semantic_duplicate');
    expect(
      reconcile(
        [
          {
            candidate_id: 'KDC-2',
            target: 'spec',
            title: 'r',
            content: 'Retry idempotent requests up to 3 times with exponential backoff and jitter.',
          },
        ],
        corpus,
      )[0].disposition,
    ).toBe('extends');
    expect(THRESHOLDS.extendsNovelMass).toBeGreaterThan(1);
  });
});

describe('retrieval index', () => {
  const corpus = Array.from({ length: 3000 }, (_, i) =>
    entry(`S-2025-${i}`, `Rule ${i}`, `Module m${i} keeps its own widget${i} registry and gadget${i % 50} cache.`, {
      file: `specs/f${i % 40}.md`,
    }),
  );
  corpus.push(entry('S-target', 'Logger', 'Use pino for application logging.'));

  it('is built once per corpus state and scores only retrieved neighbours', () => {
    const index = corpusIndex(corpus);
    expect(corpusIndex(corpus)).toBe(index);
    const v = reconcile(
      [{ candidate_id: 'KDC-1', target: 'spec', title: 'Logger', content: 'Use winston for application logging.' }],
      corpus,
    )[0];
    expect(v.canonical_id).toBe('S-target');
    expect(index.docs.filter((d) => d.view !== null).length).toBeLessThan(60);
    expect(retrieve(index, makeView('spec', 'x', 'gadget7 cache')).length).toBeLessThanOrEqual(61);
  });

  it('skips deprecated entries and those without content when indexing', () => {
    const index = corpusIndex([entry('S-a', 'a', 'x y z', { status: 'deprecated' }), entry('S-b', 'b', '   ')]);
    expect(index.docs).toEqual([]);
  });
});

describe('counting and preference', () => {
  it('counts nouns after number words and plural nouns after digits, but not ordinals', () => {
    const nums = (t: string) => analyzeText(t).clauses.flatMap((c) => c.numbers.map((n) => `${n.dim}=${n.value}`));
    expect(nums('Every pull request needs two approving reviews')).toEqual(['count:review=2']);
    expect(nums('Run 3 workers and target Node 20 everywhere')).toEqual(['count:worker=3', 'n=20']);
    expect(nums('至少需要一名审查者，第二位工程师复核')).toEqual(['people=1']);
  });

  it('reads "prefer X over Y" as a preference against Y', () => {
    expect(stances('Prefer composition over inheritance.')).toEqual(['pos', 'neg']);
  });
});
