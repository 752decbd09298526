import { parseSpecFile } from '@maestro/spec';
import { describe, expect, it } from 'vitest';
import { type E, entry, mergeSides, read, repo, SPEC, specText, write } from './git-helpers.js';

const e1: E = { sid: 'S-20260101-aaa1', title: 'UTC', body: 'Store all timestamps in UTC.' };
const e2: E = { sid: 'S-20260101-bbb2', title: 'Logger', body: 'Use pino for application logging.' };
const e3: E = { sid: 'S-20260101-ccc3', title: 'Errors', body: 'Wrap errors with a cause when rethrowing.' };
const ours: E = { sid: 'S-20260601-our1', title: 'Ours', body: 'Our branch adds this rule.' };
const theirs: E = { sid: 'S-20260601-thr1', title: 'Theirs', body: 'Their branch adds this rule.' };

const ids = (text: string) =>
  parseSpecFile(text, SPEC).value.segments.flatMap((s) =>
    s.kind === 'entry' ? [s.attributes.find((a) => a.name === 'sid')?.value] : [],
  );
const markers = (text: string) => text.split('\n').filter((l) => /^(<{7}|={7}|>{7})( |$)/.test(l)).length;

describe('maestro merge-driver under a real git merge', () => {
  it('concurrent adds at the end of one file: both kept, ours first, untouched entries byte for byte', () => {
    const root = repo({ [SPEC]: specText([e1, e2]) });
    const r = mergeSides(
      root,
      (x) => write(x, specText([e1, e2, ours])),
      (x) => write(x, specText([e1, e2, theirs])),
    );
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/maestro merge-driver: .*coding-conventions.md: merged/);
    expect(read(root)).toBe(specText([e1, e2, ours, theirs]));
  });

  it('edits of different entries merge; the same entry edited differently leaves markers around it only', () => {
    const root = repo({ [SPEC]: specText([e1, e2, e3]) });
    const clean = mergeSides(
      root,
      (x) => write(x, specText([{ ...e1, body: 'Store every timestamp in UTC.' }, e2, e3])),
      (x) => write(x, specText([e1, e2, { ...e3, body: 'Always wrap errors with a cause.' }])),
    );
    expect(clean.code, clean.out).toBe(0);
    expect(read(root)).toBe(
      specText([
        { ...e1, body: 'Store every timestamp in UTC.' },
        e2,
        { ...e3, body: 'Always wrap errors with a cause.' },
      ]),
    );

    const root2 = repo({ [SPEC]: specText([e1, e2, e3]) });
    const a = { ...e2, body: 'Use pino, always.' };
    const b = { ...e2, body: 'Use winston.' };
    const r = mergeSides(
      root2,
      (x) => write(x, specText([e1, a, e3])),
      (x) => write(x, specText([e1, b, e3])),
    );
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/CONFLICT/);
    expect(r.out).toContain('conflict (both-edited) in S-20260101-bbb2');
    const text = read(root2);
    expect(markers(text)).toBe(3);
    expect(text).toContain(
      `${entry(e1)}\n\n<<<<<<< ours\n${entry(a)}\n=======\n${entry(b)}\n>>>>>>> theirs\n\n${entry(e3)}`,
    );
  });

  it('a sid added on both sides with different content is a conflict; with the same content it is kept once', () => {
    const root = repo({ [SPEC]: specText([e1]) });
    const same = mergeSides(
      root,
      (x) => write(x, specText([e1, ours])),
      (x) => write(x, specText([e1, ours])),
    );
    expect(same.code, same.out).toBe(0);
    expect(read(root)).toBe(specText([e1, ours]));

    const root2 = repo({ [SPEC]: specText([e1]) });
    const r = mergeSides(
      root2,
      (x) => write(x, specText([e1, ours])),
      (x) => write(x, specText([e1, { ...ours, body: 'Different words under the same sid.' }])),
    );
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('conflict (both-added) in S-20260601-our1');
    expect(read(root2).startsWith(`${specText([e1])}\n<<<<<<< ours\n${entry(ours)}\n=======\n`)).toBe(true);
  });

  it('supersede on one side and an edit of the superseded entry on the other: markers around that entry only', () => {
    const root = repo({ [SPEC]: specText([e1, e2]) });
    const next: E = {
      sid: 'S-20260601-new2',
      title: 'Logger v2',
      body: 'Use pino with redaction.',
      extra: ' supersedes="S-20260101-bbb2"',
    };
    const old: E = { ...e2, extra: ' status="deprecated" superseded-by="S-20260601-new2"' };
    const edited: E = { ...e2, body: 'Use pino for all application logging.' };
    const r = mergeSides(
      root,
      (x) => write(x, specText([e1, old, next])),
      (x) => write(x, specText([e1, edited])),
    );
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('conflict (both-edited) in S-20260101-bbb2');
    const text = read(root);
    expect(text).toBe(
      `${specText([e1])}\n<<<<<<< ours\n${entry(old)}\n=======\n${entry(edited)}\n>>>>>>> theirs\n\n${entry(next)}\n`,
    );
  });

  it('deletes: an untouched entry deleted on one side goes; deleted on one side and edited on the other is a conflict', () => {
    const root = repo({ [SPEC]: specText([e1, e2, e3]) });
    const r = mergeSides(
      root,
      (x) => write(x, specText([e1, e3])),
      (x) => write(x, specText([e1, e2, { ...e3, body: 'Wrap errors, keep the cause.' }])),
    );
    expect(r.code, r.out).toBe(0);
    expect(read(root)).toBe(specText([e1, { ...e3, body: 'Wrap errors, keep the cause.' }]));

    const root2 = repo({ [SPEC]: specText([e1, e2]) });
    const edited = { ...e2, body: 'Use pino everywhere.' };
    const c = mergeSides(
      root2,
      (x) => write(x, specText([e1])),
      (x) => write(x, specText([e1, edited])),
    );
    expect(c.code).not.toBe(0);
    expect(c.out).toContain('conflict (edited-and-deleted) in S-20260101-bbb2');
    expect(read(root2)).toContain(`<<<<<<< ours\n=======\n${entry(edited)}\n>>>>>>> theirs`);
  });

  it('CRLF files stay CRLF, markers included', () => {
    const crlf = (es: E[]) => specText(es, '\r\n');
    const root = repo({ [SPEC]: crlf([e1, e2]) });
    const r = mergeSides(
      root,
      (x) => write(x, crlf([e1, { ...e2, body: 'Use pino, ours.' }, ours])),
      (x) => write(x, crlf([e1, { ...e2, body: 'Use pino, theirs.' }, theirs])),
    );
    expect(r.code).not.toBe(0);
    const text = read(root);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(text).toContain(`\r\n<<<<<<< ours\r\n${entry({ ...e2, body: 'Use pino, ours.' }, '\r\n')}\r\n=======\r\n`);
    expect(text).toContain(`${entry(ours, '\r\n')}\r\n\r\n${entry(theirs, '\r\n')}\r\n`);
  });

  it('prose outside entries merges like text: a header edit on one side, an entry on the other', () => {
    const root = repo({ [SPEC]: specText([e1]) });
    const r = mergeSides(
      root,
      (x) => write(x, specText([e1], '\n', '# Coding Conventions (team)')),
      (x) => write(x, specText([e1, theirs])),
    );
    expect(r.code, r.out).toBe(0);
    expect(read(root)).toBe(specText([e1, theirs], '\n', '# Coding Conventions (team)'));
    expect(ids(read(root))).toEqual([e1.sid, theirs.sid]);
  });

  it("a side that does not parse falls back to git's text merge and says so", () => {
    const root = repo({ [SPEC]: specText([e1, e2]) });
    const broken = specText([e1, e2]).replace(/<\/spec-entry>\n$/, '\n');
    const r = mergeSides(
      root,
      (x) => write(x, specText([e1, e2]).replace('# Coding Conventions', '# Coding conventions')),
      (x) => write(x, broken),
    );
    expect(r.out).toMatch(/their version does not parse \(line \d+: <spec-entry> has no closing/);
    expect(r.out).toContain("used git's text merge instead");
    expect(r.code, r.out).toBe(0);
    expect(read(root)).toBe(broken.replace('# Coding Conventions', '# Coding conventions'));
  });
});
