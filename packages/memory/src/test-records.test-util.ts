import type { MemoryKind, MemoryRecord } from './schemas.js';

let n = 0;

/** A record as the store holds it; `id` defaults to a fresh M- id, times to 2026-01-01. */
export function rec(text: string, over: Partial<MemoryRecord> & { kind?: MemoryKind } = {}): MemoryRecord {
  n += 1;
  const at = over.created_at ?? '2026-01-01T00:00:00.000Z';
  return {
    id: `M-${String(n).padStart(10, '0')}`,
    kind: 'experience',
    text,
    scope: { session: null, run: null, path: null },
    created_at: at,
    updated_at: at,
    last_recalled_at: null,
    recall_count: 0,
    recalled_sessions: [],
    confidence: 0.8,
    decayed_at: at,
    source: { kind: 'manual', prompt: null, session: null, run: null },
    corrects: null,
    promotions: [],
    history: [{ at, action: 'created', text: null, from_id: null, confidence: null, note: null }],
    ...over,
  };
}
