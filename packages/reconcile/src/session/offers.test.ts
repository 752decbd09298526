import { describe, expect, it } from 'vitest';
import { DISPOSITIONS } from '../schemas.js';
import { offeredResolutions, resolutionCommand } from './offers.js';

describe('offeredResolutions (the one table review and promote read)', () => {
  it('offers the rule-stands and question-open outcomes of a conflict, in that order', () => {
    const offers = offeredResolutions('potential_conflict', 'S-1');
    expect(offers.map((o) => `${o.choice}${o.contest ? '+contest' : ''}`)).toEqual([
      'conflict',
      'conflict+contest',
      'supersede',
      'related',
      'unique',
    ]);
    expect(offers[0].meaning).toMatch(/existing rule stands/);
    expect(offers[1].meaning).toMatch(/question stays open/);
    expect(resolutionCommand('s1', 'KDC-1', offers[1])).toBe(
      'maestro knowledge review s1 --resolve KDC-1 --as conflict --contest --target S-1 --reason "<why>"',
    );
  });

  it('offers only unique when there is no target, and unique for every verdict', () => {
    for (const d of DISPOSITIONS) {
      expect(offeredResolutions(d, null).map((o) => o.choice)).toEqual(['unique']);
      expect(offeredResolutions(d, 'S-1').some((o) => o.choice === 'unique' && o.target === null)).toBe(true);
    }
    expect(offeredResolutions(null, null)).toEqual([
      {
        choice: 'unique',
        contest: false,
        target: null,
        promotes: true,
        meaning: 'new knowledge: promoted as a new entry',
      },
    ]);
  });

  it('marks which choices let the candidate be promoted', () => {
    const promotes = Object.fromEntries(
      offeredResolutions('semantic_duplicate', 'S-1').map((o) => [o.choice, o.promotes]),
    );
    expect(promotes).toEqual({ duplicate: false, related: true, unique: true });
  });
});
