import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime, MaestroError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { conflictMarkerLines } from './conflict-markers.js';
import { addSpecEntry, deprecateEntry, initWorkflow, loadCorpus, parseSpecFile } from './index.js';

const entry = (body: string) =>
  `<spec-entry category="coding" keywords="x" date="2026-01-01" sid="S-20260101-aaaa" title="A">\n\n${body}\n\n</spec-entry>\n`;
const conflicted = `# Coding\n\n<<<<<<< ours\n${entry('ours')}=======\n${entry('theirs')}>>>>>>> theirs\n`;

describe('unresolved merge conflicts in a spec file', () => {
  it('finds the line of each conflict, and nothing in text that only looks like one', () => {
    expect(conflictMarkerLines(conflicted)).toEqual([3]);
    expect(conflictMarkerLines(conflicted.replace(/\n/g, '\r\n'))).toEqual([3]);
    expect(conflictMarkerLines('a <<<<<<< b\n>>>>>>> c\n')).toEqual([]);
    expect(conflictMarkerLines('<<<<<<< ours\nno end\n')).toEqual([]);
    expect(conflictMarkerLines('<<<<<<<<< long\n>>>>>>>>> x\n')).toEqual([]);
  });

  it('is a parse error at the marker line, with the fix', () => {
    const { issues } = parseSpecFile(conflicted, '.workflow/specs/coding-conventions.md');
    expect(issues).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        code: 'SPEC_CONFLICT_MARKERS',
        file: '.workflow/specs/coding-conventions.md',
        line: 3,
        hint: expect.stringContaining('git add'),
      }),
    );
  });

  it('is never written to: spec add and deprecate refuse (exit 2) naming the file and line', async () => {
    const root = tmpProject();
    const layout = workflowLayout(root);
    await initWorkflow(layout);
    const path = join(layout.workflow, 'specs/coding-conventions.md');
    writeFileSync(path, conflicted);
    const rt = fixedRuntime('2026-05-01T10:00:00Z', { seed: 3, stepMs: 1000 });
    for (const run of [
      () => addSpecEntry(layout, { category: 'coding', title: 'New', content: 'x' }, rt),
      () => deprecateEntry(layout, 'S-20260101-aaaa', 'old', rt),
    ]) {
      const err = await run().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(MaestroError);
      expect(err).toMatchObject({
        code: 'FILE_HAS_CONFLICT_MARKERS',
        exitCode: 2,
        location: { file: '.workflow/specs/coding-conventions.md', line: 3 },
      });
      expect((err as MaestroError).message).toContain('.workflow/specs/coding-conventions.md:3');
    }
    expect(readFileSync(path, 'utf8')).toBe(conflicted);
    expect(loadCorpus(layout).issues.map((i) => i.code)).toContain('SPEC_CONFLICT_MARKERS');
  });
});
