import { describe, expect, test } from 'vitest';
import { entry, NOW } from '../test/entries.js';
import { buildAudit } from './report.js';
import { CONTRADICTED_BELOW, type EvidenceRow, evidenceConfidence, knowledgeEvidence } from './rules-evidence.js';

const row = (knowledge_id: string, session_id: string, run_id: string, signal: EvidenceRow['signal']): EvidenceRow => ({
  knowledge_id,
  session_id,
  run_id,
  signal,
});

describe('knowledge confidence from evidence', () => {
  test('no evidence is 0.5; validations raise it, contradictions lower it, citations count half', () => {
    expect(evidenceConfidence(0, 0, 0)).toBe(0.5);
    expect(evidenceConfidence(2, 0, 0)).toBe(0.75);
    expect(evidenceConfidence(0, 2, 0)).toBeCloseTo(0.667, 3);
    expect(evidenceConfidence(0, 0, 1)).toBeCloseTo(0.333, 3);
    expect(evidenceConfidence(0, 0, 1)).toBeLessThan(CONTRADICTED_BELOW);
    expect(evidenceConfidence(1, 0, 1)).toBe(0.5);
  });

  test('each signal counts once per distinct session, however many runs repeat it', () => {
    const [e] = knowledgeEvidence([
      row('S-1', 's1', 'r1', 'validated'),
      row('S-1', 's1', 'r2', 'validated'),
      row('S-1', 's1', 'r3', 'cited'),
      row('S-1', 's2', 'r1', 'cited'),
    ]);
    expect(e).toMatchObject({ validated_sessions: 1, cited_sessions: 1, contradicted_sessions: 0 });
    expect(e.confidence).toBe(evidenceConfidence(1, 1, 0));
  });

  test('contradicted entries list the runs that contradicted them', () => {
    const [e] = knowledgeEvidence([row('S-1', 's2', 'r9', 'contradicted'), row('S-1', 's1', 'r1', 'contradicted')]);
    expect(e.contradicted_runs).toEqual(['s1/r1', 's2/r9']);
  });
});

describe('in the audit', () => {
  const entries = [
    entry('S-20260101-aaaa'),
    entry('S-20260101-bbbb'),
    entry('S-20260101-cccc', { status: 'deprecated' }),
  ];

  test('a contradicted active entry below the threshold is a P1 finding pointing at the runs', () => {
    const report = buildAudit({
      scope: 'all',
      now: NOW,
      entries,
      issues: [],
      files: ['specs/coding-conventions.md'],
      evidence: [
        row('S-20260101-aaaa', 's1', 'r1', 'contradicted'),
        row('S-20260101-bbbb', 's1', 'r1', 'contradicted'),
        row('S-20260101-bbbb', 's2', 'r1', 'validated'),
        row('S-20260101-cccc', 's1', 'r1', 'contradicted'),
      ],
    });
    const found = report.findings.filter((f) => f.subtype === 'contradicted-by-runs');
    expect(found.map((f) => f.target)).toEqual(['S-20260101-aaaa']);
    expect(found[0]).toMatchObject({ priority: 'P1', related: ['s1/r1'], command: 'maestro session show s1' });
    expect(report.evidence).toMatchObject({ entries: 3, contradicted: 3, below_threshold: 1 });
  });

  test('exposure and consumption alone never change evidence', () => {
    const report = buildAudit({
      scope: 'all',
      now: NOW,
      entries,
      issues: [],
      files: [],
      usage: { exposure: new Map([['S-20260101-aaaa', 500]]), consumption: new Map([['S-20260101-aaaa', 90]]) },
    });
    expect(report.evidence.by_entry).toEqual([]);
  });
});
