import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { readTree } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { cid, fileReceipts, project, R1, runtime, S } from './promote.fixture.js';
import { previewPromotion, promote } from './promote.js';

const opts = { receipts: fileReceipts };

describe('previewPromotion', () => {
  test('lists the exact bytes promote then writes, and writes nothing itself', async () => {
    const content = 'Store every timestamp in UTC.';
    const root = project({ runs: [{ runId: R1, candidates: [{ content, title: 'Use UTC', category: 'arch' }] }] });
    const before = readTree(root);
    const layout = workflowLayout(root);
    const preview = await previewPromotion(layout, { sessionId: S, all: true }, runtime(), opts);
    expect(readTree(root)).toEqual(before);
    expect(preview.interrupted).toBe(false);
    expect(preview.result.promoted.map((p) => p.candidate_id)).toEqual([cid(content)]);
    const spec = preview.writes.find((w) => w.path === 'specs/architecture-constraints.md');
    expect(spec?.after).toContain(content);
    const done = await promote(layout, { sessionId: S, all: true }, runtime(), opts);
    expect(done.promoted).toEqual(preview.result.promoted);
    expect(done.files).toEqual(preview.result.files);
    for (const w of preview.writes) {
      expect(w.before).toBe(before[`.workflow/${w.path}`] ?? null);
      expect(readFileSync(join(root, '.workflow', w.path), 'utf8')).toBe(w.after);
    }
  });

  test('refuses a stale receipt exactly like promote (exit 1)', async () => {
    const content = 'Prefer small pure functions.';
    const root = project({ runs: [{ runId: R1, candidates: [{ content }], stale: true }] });
    const layout = workflowLayout(root);
    await expect(previewPromotion(layout, { sessionId: S, all: true }, runtime(), opts)).rejects.toMatchObject({
      code: 'RECEIPT_STALE',
      exitCode: 1,
    });
  });
});
