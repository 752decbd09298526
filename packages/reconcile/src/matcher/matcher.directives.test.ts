import { describe, expect, it } from 'vitest';
import { analyzeText } from './analyze.js';
import { compareClauses } from './compare.js';
import { forbiddenName } from './slots.js';

// The general rules of maestro-match/2.3 (docs/reconcile.md, "Decision policy"): a command after a
// conditional lead-in is still a command; a command against a stated prohibition of the same act is
// a conflict; a dictionary word a text writes as a tool name can be banned. Texts written for these
// tests, in English and Chinese.

const f = analyzeText;

/** The strongest clause signal between two texts, or null. */
function signal(a: string, b: string) {
  const x = f(a);
  const y = f(b);
  for (const c of x.clauses) {
    for (const d of y.clauses) {
      const s = compareClauses(c, d, x.display, y.display);
      if (s) return s;
    }
  }
  return null;
}

describe('a command after a lead-in', () => {
  it('states its stance though the clause opens with a condition', () => {
    const [clause] = f('If the cache is cold after a deploy, flush the CDN edge nodes by hand.').clauses;
    expect(clause.explicit).toBe(true);
    expect(clause.stance).toBe('pos');
  });

  it('leaves a description after a lead-in a description', () => {
    const [clause] = f('When a node restarts, the queue drains within a minute.').clauses;
    expect(clause.explicit).toBe(false);
  });

  it('contradicts a prohibition of the same act', () => {
    const s = signal(
      'When a deploy leaves stale assets behind, purge the CDN edge cache by hand.',
      'Never purge the CDN edge cache by hand; invalidate by tag from the pipeline.',
    );
    expect(s?.kind).toBe('stance');
    expect(s?.detail).toMatch(/^requires what the entry forbids/);
  });
});

describe('a command against a stated prohibition', () => {
  it('is a conflict when they share the act and its object (English)', () => {
    const s = signal(
      'Disable the staging firewall rules while the load test runs.',
      'Never disable the staging firewall rules.',
    );
    expect(s?.kind).toBe('stance');
  });

  it('is a conflict when they share the act and its object (Chinese)', () => {
    const s = signal('压测期间关闭预发环境的防火墙规则。', '严禁关闭预发环境的防火墙规则。');
    expect(s?.kind).toBe('stance');
  });

  it('is no conflict when only the verb is shared', () => {
    expect(signal('Disable caching in local development.', 'Never disable certificate verification.')).toBeNull();
  });
});

describe('a tool name that is also a dictionary word', () => {
  it('is banned when it belongs to a set of alternatives', () => {
    const entryText = 'Unit tests run on Vitest. Jest is not used in this repository.';
    expect(forbiddenName(f('New packages should use Jest for their unit tests.'), f(entryText))).toBe(
      'uses what the entry forbids: jest',
    );
  });

  it('is banned when the prohibition capitalises it mid-sentence, also across languages', () => {
    const entryText = 'The mobile app keeps state in Riverpod. Do not introduce Bloc in the mobile app.';
    expect(forbiddenName(f('The settings screen keeps its state in a `flutter_bloc` Cubit.'), f(entryText))).toBe(
      'uses what the entry forbids: flutter_bloc',
    );
    expect(forbiddenName(f('设置页面用 flutter_bloc 的 Cubit 管理状态。'), f(entryText))).toBe(
      'uses what the entry forbids: flutter_bloc',
    );
  });

  it('is not an acronym or a part of a joined name', () => {
    const entryText = 'The phone app must never call the billing API directly.';
    expect(forbiddenName(f('The `driver-api` OpenAPI document is published on every release.'), f(entryText))).toBe(
      null,
    );
  });
});
