import { candidateId } from '@maestro/core';
import { describe, expect, test } from 'vitest';
import { emptyDelta } from './delta.js';
import type { StageInput } from './stage.js';
import { checkStageInput, parseAction, parseSignal, recordInto, splitList, stageInto } from './stage.js';

const at = (n: number) => `2026-01-02T00:0${n}:00.000Z`;

function input(over: Partial<StageInput> = {}): StageInput {
  return {
    target: 'spec',
    action: 'propose',
    title: 'Use UTC',
    content: 'Store times in UTC.',
    category: null,
    source_kind: 'manual',
    evidence_refs: ['run:r1'],
    ...over,
  };
}

describe('candidate identity', () => {
  test('case, Unicode width and whitespace do not change the id; the target does', () => {
    const a = candidateId('spec', 'Store  times in\nUTC.');
    expect(candidateId('spec', 'ｓｔｏｒｅ times IN utc.')).toBe(a);
    expect(a).toMatch(/^KDC-[a-f0-9]{16}$/);
    expect(candidateId('knowhow', 'Store times in UTC.')).not.toBe(a);
  });
});

describe('stageInto', () => {
  test('restaging identical content bumps occurrences, keeps the title and unions evidence', () => {
    const d = emptyDelta('20260102-s', '20260102-001-run', at(0));
    const first = stageInto(d, input(), at(1));
    expect(first.reused).toBe(false);
    const again = stageInto(
      d,
      input({ title: 'Other title', content: 'store times in utc.', evidence_refs: ['x'] }),
      at(2),
    );
    expect(again.reused).toBe(true);
    expect(d.candidates).toHaveLength(1);
    expect(d.candidates[0]).toMatchObject({
      title: 'Use UTC',
      occurrences: 2,
      evidence_refs: ['run:r1', 'x'],
      first_recorded_at: at(1),
      last_recorded_at: at(2),
      status: 'pending',
      promoted_id: null,
    });
  });

  test('restaging with another action is refused (exit 1) and leaves the ledger as it was', () => {
    const d = emptyDelta('20260102-s', '20260102-001-run', at(0));
    stageInto(d, input(), at(1));
    const before = structuredClone(d);
    expect(() => stageInto(d, input({ action: 'supersede' }), at(2))).toThrow(
      expect.objectContaining({
        code: 'CANDIDATE_ACTION_CONFLICT',
        exitCode: 1,
        hint: expect.stringContaining('promote'),
      }),
    );
    expect(d).toEqual(before);
  });

  test('onceFor makes a replayed handoff a no-op', () => {
    const d = emptyDelta('20260102-s', '20260102-001-run', at(0));
    const ref = 'report.md#decision:D-1';
    stageInto(d, input({ evidence_refs: [ref] }), at(1), ref);
    stageInto(d, input({ evidence_refs: [ref] }), at(2), ref);
    expect(d.candidates[0].occurrences).toBe(1);
  });
});

describe('checkStageInput and parsers', () => {
  test('empty title or content is bad input with the fix', () => {
    expect(() => checkStageInput(input({ title: '  ' }))).toThrow(
      expect.objectContaining({ code: 'EMPTY_TITLE', exitCode: 2 }),
    );
    expect(() => checkStageInput(input({ content: '\n\t' }))).toThrow(
      expect.objectContaining({ code: 'EMPTY_CONTENT', exitCode: 2, hint: expect.stringContaining('--content-file') }),
    );
    expect(checkStageInput(input({ title: ' T ', category: ' ' }))).toMatchObject({ title: 'T', category: null });
  });

  test('unknown actions and signals are bad input listing the allowed values', () => {
    expect(() => parseAction('replace')).toThrow(/--action must be one of propose, reaffirm, supersede, contest/);
    expect(() => parseSignal('used')).toThrow(expect.objectContaining({ code: 'INVALID_SIGNAL', exitCode: 2 }));
    expect(parseSignal('cited')).toBe('cited');
  });

  test('splitList splits commas, trims, drops empties and duplicates', () => {
    expect(splitList(['a, b', 'b,,c'])).toEqual(['a', 'b', 'c']);
    expect(splitList(undefined)).toEqual([]);
  });
});

describe('recordInto', () => {
  test('inputs are keyed by (id, signal, source); repeats count and union evidence', () => {
    const d = emptyDelta('20260102-s', '20260102-001-run', at(0));
    recordInto(d, { knowledge_ids: ['S-1', 'S-2'], signal: 'consumed', source: 'load', evidence: [] }, at(1));
    recordInto(d, { knowledge_ids: ['S-1'], signal: 'consumed', source: 'load', evidence: ['e1'] }, at(2));
    recordInto(d, { knowledge_ids: ['S-1'], signal: 'cited', source: 'load', evidence: [] }, at(3));
    expect(d.inputs).toHaveLength(3);
    expect(d.inputs[0]).toEqual({
      knowledge_id: 'S-1',
      signal: 'consumed',
      source: 'load',
      count: 2,
      first_recorded_at: at(1),
      last_recorded_at: at(2),
      evidence: ['e1'],
    });
    expect(d.inputs[1]).not.toHaveProperty('evidence');
  });
});
