import { expect, test } from 'vitest';
import { finding, sortFindings } from './finding.js';

test('findings on one target are in line order, whatever their ids', () => {
  const at = (line: number, subtype: string) =>
    finding({
      priority: 'P2',
      store: 'spec',
      subtype,
      target: '.workflow/specs/x.md',
      evidence: subtype,
      recommended_action: 'fix',
      file: '.workflow/specs/x.md',
      line,
      key: [String(line)],
    });
  const shuffled = [at(14, 'b'), at(3, 'a'), at(10, 'c'), at(6, 'd'), at(14, 'a')];
  const lines = sortFindings(shuffled).map((f) => f.line);
  expect(lines).toEqual([3, 6, 10, 14, 14]);
  const p1 = { ...at(1, 'z'), priority: 'P1' as const };
  expect(sortFindings([...shuffled, p1])[0]).toBe(p1);
});
