import { isMaestroError, type MaestroError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { loadCorpus } from '@maestro/spec';
import { readTree, skipDerived } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { plannedIds } from './ids.js';
import { cid, fileReceipts, NOW, project, R1, read, runtime, S, verdict } from './promote.fixture.js';
import { promote } from './promote.js';

const run = (root: string, req: { candidates?: string[]; all?: boolean }) =>
  promote(workflowLayout(root), { sessionId: S, ...req }, runtime(), { receipts: fileReceipts });

async function refusal(p: Promise<unknown>): Promise<MaestroError> {
  try {
    await p;
  } catch (err) {
    if (isMaestroError(err)) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const entry = (sid: string, title: string, body: string, extra = '') =>
  `<spec-entry category="coding" keywords="x" date="2026-01-01" sid="${sid}" title="${title}"${extra}>\n\n### ${title}\n\n${body}\n\n</spec-entry>\n`;
const confirmed = { status: 'confirmed' as const, reason: 'checked', resolved_at: NOW };

describe('planned ids', () => {
  test('S-/tip-/DOC- ids use the first_recorded_at date and the candidate id hex', () => {
    const ids = plannedIds({ candidate_id: 'KDC-0123456789abcdef', first_recorded_at: '2026-05-06T23:59:59+08:00' });
    expect(ids).toEqual({
      sid: 'S-20260506-0123456789abcdef',
      tipExplicitId: 'tip-20260506-0123456789abcdef',
      tipFile: 'knowhow/TIP-20260506-0123456789abcdef.md',
      tipId: 'knowhow-tip-20260506-0123456789abcdef',
      docExplicitId: 'doc-20260506-0123456789abcdef',
      docFile: 'knowhow/DOC-20260506-0123456789abcdef.md',
    });
  });
});

describe('preflight (before anything is written)', () => {
  test('two selected candidates with the same normalised title and different content conflict', async () => {
    const root = project({
      runs: [
        {
          runId: R1,
          candidates: [
            { content: 'One body.', title: 'Same Title' },
            { content: 'Another body.', title: '  same   TITLE ' },
          ],
        },
      ],
    });
    const before = readTree(root);
    const err = await refusal(run(root, { all: true }));
    expect(err).toMatchObject({ code: 'TITLE_CONFLICT', exitCode: 1 });
    expect(err.message).toContain(cid('One body.'));
    expect(err.message).toContain(cid('Another body.'));
    expect(readTree(root, (p) => skipDerived(p) || p.endsWith('.lock'))).toEqual(before);
  });

  test('an active entry with the same title and other content conflicts; deprecated ones and the superseded target do not', async () => {
    const files = {
      '.workflow/specs/coding-conventions.md':
        entry('S-20260101-aaaa', 'Cache policy', 'Cache for 5 minutes.') +
        entry('S-20260101-dead', 'Old name', 'Gone.', ' status="deprecated"'),
    };
    const content = 'Cache for 10 minutes.';
    const conflict = project({ files, runs: [{ runId: R1, candidates: [{ content, title: 'cache POLICY' }] }] });
    const err = await refusal(run(conflict, { all: true }));
    expect(err).toMatchObject({ code: 'TITLE_CONFLICT', exitCode: 1 });
    expect(err.message).toContain('S-20260101-aaaa');
    expect(err.location?.file).toBe('.workflow/specs/coding-conventions.md');
    expect(err.hint).toContain(`--as supersede --target S-20260101-aaaa`);

    const deprecated = project({ files, runs: [{ runId: R1, candidates: [{ content, title: 'Old name' }] }] });
    expect((await run(deprecated, { all: true })).promoted).toHaveLength(1);

    const superseding = project({
      files,
      runs: [
        {
          runId: R1,
          candidates: [{ content, title: 'Cache policy' }],
          verdicts: [
            verdict(cid(content), {
              disposition: 'supersede_candidate',
              canonical_id: 'S-20260101-aaaa',
              resolution: confirmed,
            }),
          ],
        },
      ],
    });
    expect((await run(superseding, { all: true })).promoted[0]).toMatchObject({ supersedes: 'S-20260101-aaaa' });
  });

  test('an active entry with the same title and the same content is reaffirmed, not copied', async () => {
    const content = 'Cache for 5 minutes.';
    const files = { '.workflow/specs/coding-conventions.md': entry('S-20260101-aaaa', 'Cache policy', content) };
    const root = project({
      files,
      runs: [{ runId: R1, candidates: [{ content: ` ${content}\n`, title: 'Cache policy' }] }],
    });
    const r = await run(root, { all: true });
    expect(r.promoted[0]).toMatchObject({ outcome: 'reaffirmed', promoted_id: 'S-20260101-aaaa' });
    expect(loadCorpus(workflowLayout(root)).entries).toHaveLength(1);
  });

  test('a planned sid taken by different content is refused', async () => {
    const content = 'Planned rule.';
    const sid = `S-20260102-${cid(content).slice(4)}`;
    const files = { '.workflow/specs/learnings.md': entry(sid, 'Squatter', 'Something else entirely.') };
    const root = project({ files, runs: [{ runId: R1, candidates: [{ content, title: 'Planned' }] }] });
    const err = await refusal(run(root, { all: true }));
    expect(err).toMatchObject({ code: 'PLANNED_ID_CONFLICT', exitCode: 1 });
    expect(err.message).toContain(sid);
  });

  test('a planned TIP file with another document is refused; with the same document it converges', async () => {
    const content = 'Knowhow body.';
    const file = `.workflow/knowhow/TIP-20260102-${cid(content, 'knowhow').slice(4)}.md`;
    const foreign = project({
      files: { [file]: '---\ntitle: Other\ntype: tip\n---\n\nDifferent body.\n' },
      runs: [{ runId: R1, candidates: [{ content, target: 'knowhow' }] }],
    });
    expect(await refusal(run(foreign, { all: true }))).toMatchObject({ code: 'CALLER_PAYLOAD_CONFLICT', exitCode: 1 });

    const ours = project({
      files: {
        [file]: `---\ntitle: Mine\ntype: tip\nexplicitId: tip-20260102-${cid(content, 'knowhow').slice(4)}\n---\n\n${content}\n`,
      },
      runs: [{ runId: R1, candidates: [{ content, target: 'knowhow' }] }],
    });
    const before = read(ours, file.slice('.workflow/'.length));
    const r = await run(ours, { all: true });
    expect(r.promoted[0]).toMatchObject({ outcome: 'created', replayed: true });
    expect(read(ours, file.slice('.workflow/'.length))).toBe(before);
  });

  test('two candidates superseding one entry, or an entry already superseded by another, are refused', async () => {
    const files = {
      '.workflow/specs/coding-conventions.md':
        entry('S-20260101-aaaa', 'Policy', 'Old.') +
        entry('S-20260101-bbbb', 'Taken', 'Old too.', ' superseded-by="S-20260101-cccc"') +
        entry('S-20260101-cccc', 'Taken v2', 'Newer.', ' supersedes="S-20260101-bbbb"'),
    };
    const sup = (canonical_id: string) => ({ disposition: 'supersede_candidate', canonical_id, resolution: confirmed });
    const twice = project({
      files,
      runs: [
        {
          runId: R1,
          candidates: [{ content: 'New one.' }, { content: 'New two.' }],
          verdicts: [
            verdict(cid('New one.'), sup('S-20260101-aaaa')),
            verdict(cid('New two.'), sup('S-20260101-aaaa')),
          ],
        },
      ],
    });
    expect(await refusal(run(twice, { all: true }))).toMatchObject({ code: 'SUPERSEDE_CONFLICT', exitCode: 1 });
    const taken = project({
      files,
      runs: [
        {
          runId: R1,
          candidates: [{ content: 'New three.' }],
          verdicts: [verdict(cid('New three.'), sup('S-20260101-bbbb'))],
        },
      ],
    });
    expect(await refusal(run(taken, { all: true }))).toMatchObject({ code: 'ALREADY_SUPERSEDED', exitCode: 1 });
  });

  test('a knowhow supersession deprecates the old document and links the new one', async () => {
    const old = '---\ntitle: Old tip\ntype: tip\n---\n\nOld advice.\n';
    const content = 'New advice.';
    const root = project({
      files: { '.workflow/knowhow/TIP-20250101-old-tip.md': old },
      runs: [
        {
          runId: R1,
          candidates: [{ content, target: 'knowhow', title: 'New tip' }],
          verdicts: [
            verdict(cid(content, 'knowhow'), {
              disposition: 'supersede_candidate',
              canonical_id: 'knowhow-tip-20250101-old-tip',
              resolution: confirmed,
            }),
          ],
        },
      ],
    });
    const r = await run(root, { all: true });
    const corpus = loadCorpus(workflowLayout(root));
    expect(corpus.byId.get('knowhow-tip-20250101-old-tip')).toMatchObject({
      status: 'deprecated',
      supersededBy: r.promoted[0].promoted_id,
    });
    expect(corpus.byId.get(r.promoted[0].promoted_id)?.supersedes).toEqual(['knowhow-tip-20250101-old-tip']);
  });

  test('a target file that is not UTF-8 is named (exit 2) and left as it is; a damaged entry before ours stays damaged', async () => {
    const content = 'Lands in learnings.';
    const latin1 = Buffer.from('# Learnings\n\ncaf\xe9\n', 'latin1');
    const root = project({ runs: [{ runId: R1, candidates: [{ content }] }] });
    const { mkdirSync, writeFileSync, readFileSync } = await import('node:fs');
    mkdirSync(`${root}/.workflow/specs`, { recursive: true });
    writeFileSync(`${root}/.workflow/specs/learnings.md`, latin1);
    const err = await refusal(run(root, { all: true }));
    expect(err).toMatchObject({ code: 'FILE_NOT_UTF8', exitCode: 2 });
    expect(err.location?.file).toBe('.workflow/specs/learnings.md');
    expect(readFileSync(`${root}/.workflow/specs/learnings.md`).equals(latin1)).toBe(true);

    const unclosed = project({
      files: {
        '.workflow/specs/learnings.md':
          '<spec-entry category="learning" sid="S-20250101-open">\n\n### Open\n\nno close\n',
      },
      runs: [{ runId: R1, candidates: [{ content }] }],
    });
    const r = await run(unclosed, { all: true });
    const corpus = loadCorpus(workflowLayout(unclosed));
    expect(corpus.byId.get(r.promoted[0].promoted_id)?.content).toBe(content);
    expect(corpus.byId.get('S-20250101-open')?.content).toBe('no close');
  });
});
