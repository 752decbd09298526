import { workflowLayout } from '@maestro/fs';
import { FLOW, maestroFlowTree, tmpProject, writeTree } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { entryAliases, entryGraphId, findEntry, loadCorpus, requireResolvedRef, resolveEntryRef } from './index.js';

const corpusOf = (extra: Record<string, string> = {}) => {
  const root = tmpProject(maestroFlowTree());
  writeTree(root, extra);
  return loadCorpus(workflowLayout(root));
};

describe('maestro-flow id forms as aliases of the canonical id', () => {
  it('resolves positional, spec:, legacy:, knowhow: and explicit ids, saying which alias it used', () => {
    const corpus = corpusOf();
    const id = (ref: string) => {
      const r = resolveEntryRef(corpus, ref);
      return r.kind === 'entry' ? [r.entry.id, r.alias?.form ?? null] : [r.kind];
    };
    expect(id(FLOW.retry)).toEqual([FLOW.retry, null]);
    expect(id('spec:project:coding-conventions-001')).toEqual([FLOW.retry, 'positional']);
    expect(id('spec:project:coding-conventions-002')).toEqual([FLOW.utc, 'positional']);
    // Tag blocks first, then legacy headings: the legacy entry is 004 although it sits third.
    expect(id('spec:project:coding-conventions-003')).toEqual([FLOW.late, 'positional']);
    const legacy = corpus.entries.find((e) => e.legacy)!;
    expect(id('spec:project:coding-conventions-004')).toEqual([legacy.id, 'positional']);
    expect(id(`legacy:coding-conventions.md:${FLOW.legacyLine}`)).toEqual([legacy.id, 'legacy']);
    expect(id(`legacy:specs/coding-conventions.md:${FLOW.legacyLine}`)).toEqual([legacy.id, 'legacy']);
    expect(id(`spec:${FLOW.utc}`)).toEqual([FLOW.utc, 'spec-prefix']);
    expect(id('knowhow:tip-20260427-retry-jitter')).toEqual([FLOW.tip, 'knowhow']);
    expect(id('tip-20260427-retry-jitter')).toEqual([FLOW.tip, 'knowhow']);
    expect(id('TIP-20260427-retry-jitter.md')).toEqual([FLOW.tip, 'knowhow']);
    expect(id('s-20260401-A1B2')).toEqual([FLOW.retry, 'letter-case']);
    expect(id('spec:global:coding-conventions-001')).toEqual(['unknown']);
    expect(id('spec:project:nowhere-001')).toEqual(['unknown']);
    expect(id('legacy:coding-conventions.md:3')).toEqual(['unknown']);
  });

  it('refuses a drifted positional id (exit 2) with the candidates', () => {
    const corpus = corpusOf();
    const gone = resolveEntryRef(corpus, 'spec:project:coding-conventions-009');
    expect(gone).toMatchObject({ kind: 'drifted', reason: expect.stringContaining('has 4 entries now') });
    expect(() => findEntry(corpus, 'spec:project:coding-conventions-009')).toThrow(
      expect.objectContaining({ code: 'DRIFTED_KNOWLEDGE_ID', exitCode: 2 }),
    );
    // Recorded before the entry now at position 3 existed.
    const late = resolveEntryRef(corpus, 'spec:project:coding-conventions-003', { recordedAt: '2026-04-15T09:00:00Z' });
    expect(late).toMatchObject({ kind: 'drifted', reason: expect.stringContaining('dated 2026-05-10') });
    expect(late.kind === 'drifted' && late.candidates.map((c) => c.id)).toContain(FLOW.utc);
  });

  it('refuses an ambiguous positional id: entry 1 of notes.md or the container id of notes-001.md', () => {
    const corpus = corpusOf({
      '.workflow/specs/notes.md': '### [coding] [2026-01-01] One\n\nbody\n',
      '.workflow/specs/notes-001.md': '### [coding] [2026-01-01] Two\n\nbody\n',
    });
    expect(resolveEntryRef(corpus, 'spec:project:notes-001')).toMatchObject({ kind: 'ambiguous' });
    let message = '';
    try {
      requireResolvedRef(corpus, 'spec:project:notes-001');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('spec:project:notes-001 is ambiguous');
    expect(message).toContain('.workflow/specs/notes.md');
    expect(message).toContain('.workflow/specs/notes-001.md');
  });

  it('says "resolved alias X to Y" and lists every alias an entry answers to', () => {
    const corpus = corpusOf();
    const notes: string[] = [];
    expect(findEntry(corpus, 'spec:project:coding-conventions-001', notes)?.id).toBe(FLOW.retry);
    expect(notes).toEqual([
      expect.stringMatching(/^resolved alias spec:project:coding-conventions-001 to S-20260401-a1b2/),
    ]);
    const retry = corpus.byId.get(FLOW.retry)!;
    expect(entryGraphId(retry)).toBe(`spec:${FLOW.retry}`);
    expect(entryAliases(corpus, retry)).toEqual([`spec:${FLOW.retry}`, 'spec:project:coding-conventions-001']);
    const tip = corpus.byId.get(FLOW.tip)!;
    expect(entryGraphId(tip)).toBe('knowhow:tip-20260427-retry-jitter');
    expect(entryAliases(corpus, tip)).toEqual([
      'knowhow:tip-20260427-retry-jitter',
      'tip-20260427-retry-jitter',
      'TIP-20260427-retry-jitter',
    ]);
  });
});
