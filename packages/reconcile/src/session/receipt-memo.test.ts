import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeStores, openStore } from '@maestro/store';
import { afterEach, describe, expect, it } from 'vitest';
import { readReceipt, receiptPath } from '../receipt/io.js';
import { corpusDelta } from '../receipt/revalidate.js';
import { useMatchStore } from './corpus-cache.js';
import { columnsDelta, entryColumns, entryRecord } from './entry-columns.js';
import { readReceiptMemo } from './receipt-memo.js';
import { reconcileSession } from './reconcile-session.js';
import { forgetCurrentCorpus } from './revalidate-run.js';
import { reviewSession } from './review.js';
import {
  project,
  R1,
  R2,
  rotationRuns as runs,
  runtime,
  S,
  specFile,
  UNRELATED as unrelated,
} from './session.fixture.js';

async function moved() {
  const p = project(runs());
  await reconcileSession(p.layout, S, { refresh: true }, runtime());
  writeFileSync(join(p.root, '.workflow/specs/architecture-constraints.md'), specFile(unrelated, 'arch'));
  return p;
}

/** A review as a fresh process makes it: nothing kept in memory. */
async function review(p: { layout: Parameters<typeof reviewSession>[0] }) {
  closeStores();
  forgetCurrentCorpus();
  return reviewSession(p.layout, S, {}, runtime());
}

afterEach(() => {
  useMatchStore(true);
  closeStores();
  forgetCurrentCorpus();
});

describe('receipt memo', () => {
  it('a repeated read-only review answers from the memo exactly as without any store', async () => {
    const p = await moved();
    const first = await review(p);
    expect(first.runs.map((r) => r.revalidated?.added)).toEqual([12, 12]);
    const store = openStore(p.layout);
    expect(store.prepare('SELECT count(*) AS n FROM rmemo_revalidated').get()).toEqual({ n: 2 });
    const second = await review(p);
    expect(second).toEqual(first);
    useMatchStore(false);
    expect(await review(p)).toEqual(first);
    rmSync(p.layout.index, { recursive: true, force: true });
    useMatchStore(true);
    expect(await review(p)).toEqual(first);
  });

  it('a tampered or foreign memo row is a miss, never another answer', async () => {
    const p = await moved();
    const first = await review(p);
    const store = openStore(p.layout);
    // A stored outcome that says R1 went stale, without the hash it was saved with.
    store.db
      .prepare("UPDATE rmemo_revalidated SET value = ? WHERE path LIKE '%' || ? || '%'")
      .run(JSON.stringify({ state: 'stale', reason: 'tampered', entry: null, delta: null }), R1);
    // A parsed receipt whose head lies about its candidates.
    const row = store.db.prepare("SELECT path, head FROM rmemo_parsed WHERE path LIKE '%' || ? || '%'").get(R2) as {
      path: string;
      head: string;
    };
    const head = JSON.parse(row.head);
    head.candidates = [];
    store.db.prepare('UPDATE rmemo_parsed SET head = ? WHERE path = ?').run(JSON.stringify(head), row.path);
    expect(await review(p)).toEqual(first);
  });

  it('a receipt edited by hand is parsed again; its memoised revalidation is not reused', async () => {
    const p = await moved();
    const first = await review(p);
    const path = receiptPath(p.layout, S, R1);
    const json = JSON.parse(readFileSync(path, 'utf8'));
    delete json.corpus_entries;
    writeFileSync(path, `${JSON.stringify(json, null, 2)}\n`);
    const after = await review(p);
    expect(after.runs.find((r) => r.run_id === R1)?.reasons.join(' ')).toMatch(/no per-entry corpus hashes/);
    expect(after.runs.find((r) => r.run_id === R2)).toEqual(first.runs.find((r) => r.run_id === R2));
    useMatchStore(false);
    expect(await review(p)).toEqual(after);
  });

  it('reads a receipt exactly as readReceipt does, from the file or from the memo', async () => {
    const p = await moved();
    closeStores();
    const plain = readReceipt(p.layout, S, R1);
    const cold = readReceiptMemo(p.layout, S, R1);
    closeStores();
    const warm = readReceiptMemo(p.layout, S, R1);
    expect(JSON.parse(JSON.stringify(cold?.receipt))).toEqual(plain);
    expect(JSON.parse(JSON.stringify(warm?.receipt))).toEqual(plain);
    expect(warm?.entries?.ids).toEqual(Object.keys(plain?.corpus_entries ?? {}));
  });
});

describe('revalidated receipts written from entry columns', () => {
  it('have the bytes and memo rows of the record path (MAESTRO_RECEIPT_COLUMNS=0)', async () => {
    const refresh = async (p: { layout: Parameters<typeof reviewSession>[0] }) => {
      closeStores();
      forgetCurrentCorpus();
      return reconcileSession(p.layout, S, { refresh: true }, runtime());
    };
    const a = await moved();
    const b = await moved();
    const viaColumns = await refresh(a);
    process.env.MAESTRO_RECEIPT_COLUMNS = '0';
    let viaRecord: Awaited<ReturnType<typeof refresh>>;
    try {
      viaRecord = await refresh(b);
    } finally {
      delete process.env.MAESTRO_RECEIPT_COLUMNS;
    }
    expect(viaColumns.runs.map((r) => [r.regenerated, r.revalidated?.added])).toEqual([
      [false, 12],
      [false, 12],
    ]);
    expect(viaColumns.runs).toEqual(viaRecord.runs);
    for (const run of [R1, R2]) {
      const text = readFileSync(receiptPath(a.layout, S, run), 'utf8');
      expect(text).toBe(readFileSync(receiptPath(b.layout, S, run), 'utf8'));
      expect(Object.keys(JSON.parse(text).corpus_entries)).toHaveLength(15);
      closeStores();
      const memo = readReceiptMemo(a.layout, S, run);
      expect(memo?.entries?.ids).toEqual(readReceiptMemo(b.layout, S, run)?.entries?.ids);
      expect(JSON.parse(JSON.stringify(memo?.receipt))).toEqual(JSON.parse(text));
    }
  });
});

describe('columnsDelta', () => {
  it('is corpusDelta over the same hashes, whatever the order of either side', () => {
    const hex = (n: number) => n.toString(16).padStart(16, '0');
    const before: Record<string, string> = {};
    const after: Record<string, string> = {};
    for (let i = 0; i < 500; i++) {
      if (i % 7 !== 0) before[`S-${i}`] = hex(i);
      if (i % 11 !== 0) after[`S-${i}`] = hex(i % 13 === 0 ? i + 1 : i);
    }
    after['10'] = hex(1); // an integer-like id, ordered first by the engine
    const ids = Object.keys(after).reverse();
    const cols = entryColumns(after);
    const source = {
      size: ids.length,
      positionOf: (id: string) => (ids.includes(id) ? ids.indexOf(id) : undefined),
      idAt: (i: number) => ids[i],
      hashAt: (i: number) => ({ buf: cols.hashes, at: cols.ids.indexOf(ids[i]) * 8 }),
    };
    const delta = columnsDelta(entryColumns(before), source);
    expect(delta).toEqual(corpusDelta(before, after));
    expect(delta.changed.length).toBeGreaterThan(0);
    expect(delta.added).toContain('10');
    expect(entryRecord(entryColumns(before))).toEqual(before);
  });
});
