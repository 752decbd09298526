import { describe, expect, test } from 'vitest';
import { handoffCandidate, isStaged, parseReport } from './report.js';

const report = (fm: string) => `---\n${fm}---\n\n# Report\n`;

describe('parseReport', () => {
  test('reads full, shorthand and plain forms, stamping D-n / C-n ids and lines', () => {
    const { value, issues } = parseReport(
      report(
        [
          'verdict: pass',
          'decisions:',
          '  - {id: D-auth, text: "Tokens live 15 minutes", status: accepted}',
          '  - accepted: "Refresh tokens rotate"',
          '  - "Maybe cache sessions"',
          '  - {text: "Drop cookies", status: rejected}',
          'constraints:',
          '  - {text: "No plaintext secrets", status: locked}',
          '  - open: "Decide on Redis"',
          '  - "A loose note"',
          '',
        ].join('\n'),
      ),
      'report.md',
    );
    expect(issues).toEqual([]);
    expect(value.map((i) => [i.kind, i.id, i.status, i.line])).toEqual([
      ['decision', 'D-auth', 'accepted', 4],
      ['decision', 'D-2', 'accepted', 5],
      ['decision', 'D-3', 'proposed', 6],
      ['decision', 'D-4', 'rejected', 7],
      ['constraint', 'C-1', 'locked', 9],
      ['constraint', 'C-2', 'open', 10],
      ['constraint', 'C-3', 'open', 11],
    ]);
    expect(value.filter(isStaged).map((i) => i.id)).toEqual(['D-auth', 'D-2', 'C-1']);
  });

  test('no frontmatter, or none of the keys, means no items', () => {
    expect(parseReport('# Just a report\n', 'r.md')).toEqual({ value: [], issues: [] });
    expect(parseReport(report('verdict: pass\n'), 'r.md')).toEqual({ value: [], issues: [] });
  });

  test('every problem is reported at once with its line and a fix', () => {
    const { issues } = parseReport(
      report(
        [
          'decisions:',
          '  - {text: "A", status: approved}',
          '  - {status: accepted}',
          '  - {id: D-1, text: "B", status: accepted}',
          '  - {id: D-1, text: "C", status: accepted}',
          'constraints: nope',
          '',
        ].join('\n'),
      ),
      'runs/x/report.md',
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [3, 'decision 1 has unknown status "approved"'],
      [4, 'decision 2 has no text'],
      [6, 'decision id D-1 is used twice'],
      [7, 'constraints must be a list'],
    ]);
    expect(issues.every((i) => i.file === 'runs/x/report.md' && i.hint)).toBe(true);
  });

  test('an accepted decision or locked constraint without text is a problem, not silently dropped', () => {
    const { value, issues } = parseReport(
      report(
        ['decisions:', '  - {text: "  ", status: accepted}', '  - ""', 'constraints:', '  - locked: ""', ''].join('\n'),
      ),
      'r.md',
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [3, 'decision 1 is accepted but its text is empty'],
      [6, 'constraint 1 is locked but its text is empty'],
    ]);
    expect(value.map((i) => i.id)).toEqual(['D-2']);
  });

  test('invalid YAML is one issue with its line', () => {
    const { issues } = parseReport(report('decisions:\n  - [unclosed\n'), 'r.md');
    expect(issues).toHaveLength(1);
    expect(issues[0].message).toMatch(/not valid YAML/);
    expect(issues[0].line).toBeGreaterThanOrEqual(3);
  });
});

test('handoffCandidate: spec propose, category arch, 120-character title, evidence refs', () => {
  const text = 'x'.repeat(130);
  const c = handoffCandidate({ kind: 'constraint', id: 'C-1', text, status: 'locked', line: 3 }, '20260102-001-a');
  expect(c).toEqual({
    target: 'spec',
    action: 'propose',
    title: 'x'.repeat(120),
    content: text,
    category: 'arch',
    source_kind: 'constraint',
    evidence_refs: ['run:20260102-001-a', 'report.md#constraint:C-1'],
  });
});
