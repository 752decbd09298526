import { candidateId } from '@maestro/core';
import { ledgerCandidate, sessionTree } from './ledger.js';
import type { Tree } from './tmp.js';

/**
 * A project as maestro-flow writes it (reference §2): a seed spec file with `<spec-entry>` blocks
 * and a legacy heading, a promoted knowhow tip, and run ledgers (`run-knowledge-delta/1.0`) whose
 * `inputs[]` name knowledge by maestro-flow's ids — positional `spec:project:{stem}-{NNN}`,
 * `knowhow:{slug}` graph ids, `legacy:{file}:{line}` — plus a receipt with a confirmed resolution.
 *
 * Positions in coding-conventions.md: 001 S-20260401-a1b2, 002 S-20260402-c3d4, 003
 * S-20260510-e5f6 (added after the ledgers were written, so `-003` recorded in April has drifted),
 * 004 the legacy heading at line 30.
 */
export const FLOW = {
  retry: 'S-20260401-a1b2',
  utc: 'S-20260402-c3d4',
  late: 'S-20260510-e5f6',
  tip: 'knowhow-tip-20260427-retry-jitter',
  promoted: candidateId('spec', 'Store every timestamp in UTC.'),
  legacyLine: 30,
} as const;

const SPEC = `---
title: "Coding Conventions"
readMode: required
priority: high
category: coding
keywords:
  - coding
---

# Coding Conventions

## Entries

<spec-entry category="coding" keywords="retry,http" date="2026-04-01" sid="S-20260401-a1b2" title="Retry with backoff">

### Retry with backoff

Retry failed HTTP calls with exponential backoff.

</spec-entry>

<spec-entry category="coding" keywords="time,utc" date="2026-04-02" sid="S-20260402-c3d4" title="Store UTC timestamps" source="session:20260402-utc:${FLOW.promoted}" ref="knowhow/TIP-20260427-retry-jitter.md">

### Store UTC timestamps

Store every timestamp in UTC.

</spec-entry>

### [coding] [2026-03-01] Log with structured fields

Use key=value fields, never free text.

<spec-entry category="coding" keywords="late" date="2026-05-10" sid="S-20260510-e5f6" title="Late rule" confidence="contested" conflict-marker="CMK-20260511-ab12" conflict-note="Knowledge candidate ${FLOW.promoted}: says the opposite" conflict-date="2026-05-11">

### Late rule

Added in May, after the April ledgers.

</spec-entry>
`;

const TIP = `---
title: Add jitter to retries
type: tip
explicitId: tip-20260427-retry-jitter
created: 2026-04-27T10:00:00.000Z
keywords:
  - retry
tags:
  - promoted
---

Add random jitter to backoff to avoid thundering herds.
`;

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

function input(knowledge_id: string, signal: string, at: string) {
  return { knowledge_id, signal, source: 'load', count: 1, first_recorded_at: at, last_recorded_at: at };
}

function ledger(sessionId: string, runId: string, inputs: unknown[], candidates: unknown[] = []) {
  return json({
    schema_version: 'run-knowledge-delta/1.0',
    session_id: sessionId,
    run_id: runId,
    revision: 3,
    created_at: '2026-04-15T09:00:00.000Z',
    updated_at: '2026-04-15T09:00:00.000Z',
    inputs,
    candidates,
  });
}

const hex = (c: string) => c.repeat(64);

function receipt(sessionId: string, runId: string, candidate: string, target: string) {
  return json({
    schema_version: 'knowledge-reconciliation/1.0',
    session_id: sessionId,
    run_id: runId,
    candidate_snapshot_hash: hex('a'),
    corpus_fingerprint: hex('b'),
    matcher_revision: 'semantic-delta/1.0',
    generated_at: '2026-04-02T10:00:00.000Z',
    retrieval: {
      mode: 'lexical-kg',
      embedding_used: false,
      candidate_limit: 28,
      identity_documents: 1,
      semantic_documents: 1,
      relation_documents: 0,
    },
    counts: { candidates: 1, unique: 0, duplicates: 1, related: 0, conflicts: 0, review_required: 0, suppressed: 1 },
    candidates: [
      {
        candidate_id: candidate,
        disposition: 'semantic_duplicate',
        promotion_eligibility: 'suppressed',
        canonical_id: target,
        matches: [],
        resolution: { status: 'confirmed', reason: 'same rule, other words', resolved_at: '2026-04-02T10:00:00.000Z' },
      },
    ],
  });
}

/** The whole tree (keys relative to the project root). */
export function maestroFlowTree(): Tree {
  const at = '2026-04-15T09:00:00.000Z';
  const s1 = sessionTree({ sessionId: '20260415-auth', at, runs: [{ runId: '20260415-001-plan' }] });
  const s2 = sessionTree({ sessionId: '20260416-billing', at, runs: [{ runId: '20260416-001-build' }] });
  const s3 = sessionTree({ sessionId: '20260402-utc', at, runs: [{ runId: '20260402-001-plan' }] });
  const promoted = {
    ...ledgerCandidate(
      {
        content: 'Store every timestamp in UTC.',
        title: 'Store UTC timestamps',
        status: 'promoted',
        promoted_id: FLOW.utc,
      },
      '2026-04-02T09:00:00.000Z',
    ),
    promotion_receipt: { outcome: 'created', promoted_at: '2026-04-02T11:00:00.000Z', content_hash: hex('c') },
  };
  return {
    '.workflow/specs/coding-conventions.md': SPEC,
    '.workflow/knowhow/TIP-20260427-retry-jitter.md': TIP,
    ...s1,
    ...s2,
    ...s3,
    '.workflow/sessions/20260415-auth/runs/20260415-001-plan/knowledge-delta.json': ledger(
      '20260415-auth',
      '20260415-001-plan',
      [
        input('spec:project:coding-conventions-001', 'consumed', at),
        input('spec:project:coding-conventions-001', 'contradicted', at),
        input('knowhow:tip-20260427-retry-jitter', 'cited', at),
        input(`legacy:coding-conventions.md:${FLOW.legacyLine}`, 'consumed', at),
        input('spec:project:coding-conventions-003', 'consumed', at),
      ],
    ),
    '.workflow/sessions/20260416-billing/runs/20260416-001-build/knowledge-delta.json': ledger(
      '20260416-billing',
      '20260416-001-build',
      [
        input('spec:S-20260401-a1b2', 'contradicted', '2026-04-16T09:00:00.000Z'),
        input('spec:project:coding-conventions-009', 'consumed', '2026-04-16T09:00:00.000Z'),
      ],
    ),
    '.workflow/sessions/20260402-utc/runs/20260402-001-plan/knowledge-delta.json': ledger(
      '20260402-utc',
      '20260402-001-plan',
      [],
      [promoted],
    ),
    '.workflow/sessions/20260402-utc/runs/20260402-001-plan/knowledge-reconciliation.json': receipt(
      '20260402-utc',
      '20260402-001-plan',
      FLOW.promoted,
      FLOW.retry,
    ),
  };
}
