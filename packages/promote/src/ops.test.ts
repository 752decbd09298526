import { appendSpecEntry, renderSpecEntry, SEED_FILES, seedFileText } from '@maestro/spec';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { applyFilePlan } from './ops.js';
import type { FileOp } from './schemas.js';

const block = (sid: string, body: string) =>
  renderSpecEntry({ category: 'learning', keywords: ['k'], date: '2026-01-01', sid, title: `T ${sid}`, content: body });

const spec = (ops: FileOp[]) => ({ path: 'specs/learnings.md', kind: 'spec' as const, ops });
const AT = '2026-03-04T05:06:07.000Z';

describe('spec file operations', () => {
  test('batched appends give exactly the bytes of appending one entry after another', () => {
    const base = fc.constantFrom(
      '',
      seedFileText(SEED_FILES[5]),
      'intro\r\n\r\n## Entries\r\n',
      '\ufeff# T\n\nno final newline',
      '# T\n\n\n\n',
    );
    fc.assert(
      fc.property(
        base,
        fc.array(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 5 }),
        (text, bodies) => {
          const blocks = bodies.map((b, i) => block(`S-20260101-${i}abc`, b.trim() || 'x'));
          const sequential = blocks.reduce((t, b) => appendSpecEntry(t, b), text);
          const ops: FileOp[] = blocks.map((b, i) => ({ kind: 'append-entry', sid: `S-20260101-${i}abc`, block: b }));
          expect(applyFilePlan(spec(ops), text, AT)).toBe(sequential);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('operations are idempotent: re-applying them to their result changes nothing', () => {
    const old = `${block('S-20260101-old', 'Old rule.')}\n`;
    const ops: FileOp[] = [
      { kind: 'set-attributes', id: 'S-20260101-old', changes: { status: 'deprecated', 'superseded-by': 'S-new' } },
      { kind: 'append-entry', sid: 'S-new', block: block('S-new', 'New rule.') },
    ];
    const once = applyFilePlan(spec(ops), old, AT);
    expect(once).toContain('status="deprecated"');
    expect(once.match(/sid="S-new"/g)).toHaveLength(1);
    expect(applyFilePlan(spec(ops), once, AT)).toBe(once);
  });

  test('a missing file starts from its seed; an edit of a vanished entry is a recovery conflict', () => {
    const created = applyFilePlan(spec([{ kind: 'append-entry', sid: 'S-a', block: block('S-a', 'A.') }]), null, AT);
    expect(created.startsWith(seedFileText(SEED_FILES[5]))).toBe(true);
    const edit: FileOp = { kind: 'set-attributes', id: 'S-gone', changes: { status: 'deprecated' } };
    expect(() => applyFilePlan(spec([edit]), created, AT)).toThrow(
      expect.objectContaining({ code: 'PROMOTION_RECOVERY_CONFLICT' }),
    );
  });
});

describe('knowhow, ledger and session operations', () => {
  test('a document is created once; a foreign one with the same name is refused', () => {
    const text = '---\ntitle: Tip\ntype: tip\nexplicitId: tip-20260101-abc\n---\n\nBody.\n';
    const op: FileOp = { kind: 'create-document', text, explicit_id: 'tip-20260101-abc', content_hash: 'x' };
    const plan = { path: 'knowhow/TIP-20260101-abc.md', kind: 'knowhow' as const, ops: [op] };
    expect(applyFilePlan(plan, null, AT)).toBe(text);
    expect(applyFilePlan(plan, text, AT)).toBe(text);
    expect(() => applyFilePlan(plan, text.replace('Body', 'Other'), AT)).toThrow(
      expect.objectContaining({ code: 'CALLER_PAYLOAD_CONFLICT' }),
    );
  });

  test('marking a ledger candidate promoted bumps the revision once', () => {
    const delta = {
      schema_version: 'run-knowledge-delta/1.0',
      session_id: '20260102-s',
      run_id: '20260102-001-r',
      revision: 3,
      created_at: AT,
      updated_at: AT,
      inputs: [],
      candidates: [
        {
          candidate_id: 'KDC-0123456789abcdef',
          target: 'spec',
          action: 'propose',
          title: 'T',
          content: 'C',
          category: null,
          source_kind: 'manual',
          evidence_refs: [],
          occurrences: 1,
          first_recorded_at: AT,
          last_recorded_at: AT,
          status: 'pending',
          promoted_id: null,
          promotion_receipt: null,
        },
      ],
    };
    const op: FileOp = {
      kind: 'mark-promoted',
      candidate_id: 'KDC-0123456789abcdef',
      promoted_id: 'S-20260101-0123456789abcdef',
      receipt: { outcome: 'created', promoted_at: AT, content_hash: 'a'.repeat(64) },
    };
    const plan = { path: 'sessions/x/runs/y/knowledge-delta.json', kind: 'ledger' as const, ops: [op] };
    const once = applyFilePlan(plan, JSON.stringify(delta), AT);
    expect(JSON.parse(once)).toMatchObject({ revision: 4, candidates: [{ status: 'promoted' }] });
    expect(applyFilePlan(plan, once, AT)).toBe(once);
  });
});
