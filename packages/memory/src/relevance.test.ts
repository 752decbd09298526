import { describe, expect, test } from 'vitest';
import { buildRecallIndex, DEFAULT_THRESHOLD, recall } from './relevance.js';
import { rec } from './test-records.test-util.js';

const store = [
  rec('The user chose plan B for the billing migration', { kind: 'decision' }),
  rec('Prefers small pull requests with one commit each', { kind: 'preference' }),
  rec('The staging database is reset every Monday night'),
  rec('用户在账单迁移中选择了方案B', { kind: 'decision' }),
];
const index = buildRecallIndex(store);

describe('recall relevance (0–1)', () => {
  test('the default threshold is 0.4', () => expect(DEFAULT_THRESHOLD).toBe(0.4));

  test('a prompt fully about one memory scores 1; an unrelated prompt recalls nothing', () => {
    const hits = recall(index, 'billing migration plan?');
    expect(hits[0].record.text).toContain('plan B');
    expect(hits[0].relevance).toBe(1);
    expect(recall(index, 'how do I rotate the TLS certificates')).toEqual([]);
  });

  test('every relevance is within 0–1 and hits come best first', () => {
    for (const q of ['billing', 'the staging database migration', 'small commits for billing', '账单迁移']) {
      const hits = recall(index, q, { threshold: 0 });
      for (const h of hits) expect(h.relevance).toBeGreaterThanOrEqual(0);
      for (const h of hits) expect(h.relevance).toBeLessThanOrEqual(1);
      expect([...hits].sort((a, b) => b.relevance - a.relevance)).toEqual(hits);
    }
  });

  test('the threshold decides: a weak overlap is out at 0.4 and in at a lower threshold', () => {
    const prompt = 'staging deployment checklist review for the release train';
    const weak = recall(index, prompt, { threshold: 0 }).find((h) => h.record.text.includes('staging'));
    expect(weak).toBeDefined();
    expect(weak!.relevance).toBeLessThan(0.4);
    expect(recall(index, prompt).some((h) => h.record.text.includes('staging'))).toBe(false);
    expect(recall(index, prompt, { threshold: weak!.relevance }).some((h) => h.record === weak!.record)).toBe(true);
  });

  test('Chinese prompts recall through CJK bigrams', () => {
    const hits = recall(index, '账单迁移选了哪个方案');
    expect(hits[0].record.text).toContain('方案B');
  });

  test('limit caps the hits', () => {
    expect(recall(index, 'the billing staging pull requests', { threshold: 0, limit: 1 })).toHaveLength(1);
  });
});
