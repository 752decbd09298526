import type { GateResult } from '@maestro/gate';
import { describe, expect, it } from 'vitest';
import { gateMarkdown } from './gate-markdown.js';

const result = (reasons: GateResult['reasons']): GateResult => ({
  schema_version: 'knowledge-gate/1.0',
  ok: reasons.length === 0,
  generated_at: '2026-06-01T09:00:00.000Z',
  max_pending_review: 0,
  selection: { mode: 'sessions', ref: null, changed_sessions: null },
  review_required_total: 0,
  sessions: [],
  audit: { p0: 1, p1: 0, p2: 0 },
  reasons,
});

describe('gateMarkdown', () => {
  it('keeps a message with pipes, line breaks and backticks inside its table row', () => {
    const md = gateMarkdown(
      result([
        {
          code: 'audit-p0',
          message: 'a | b\nc',
          session_id: null,
          run_id: null,
          target: 'S-1',
          command: 'maestro `x`',
        },
      ]),
    );
    expect(md).toContain("| `audit-p0` | S-1 | a \\| b c | `maestro 'x'` |");
    expect(md.split('\n').filter((l) => l.startsWith('| `audit-p0`'))).toHaveLength(1);
    expect(md).toContain('Checked 0 named session(s)');
  });
});
