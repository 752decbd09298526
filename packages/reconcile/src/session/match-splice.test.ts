import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type WorkflowLayout, workflowLayout } from '@maestro/fs';
import { loadCorpus } from '@maestro/spec';
import { closeStores, openStore } from '@maestro/store';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { reconcile } from '../matcher/reconcile.js';
import { corpusFingerprintSync } from '../receipt/fingerprint.js';
import { corpusEntryHashes } from '../receipt/revalidate.js';
import { matchingCorpus, targetsOf } from './corpus-cache.js';
import { casesOf, matchSectionRows, newProcess, SETS } from './match.fixture.js';
import { lastSync } from './match-store.js';
import { forgetCurrentCorpus } from './revalidate-run.js';

const NOW = '2026-12-01T00:00:00.000Z';
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
afterEach(() => {
  forgetCurrentCorpus();
  closeStores();
});

function tmp(name: string) {
  const root = mkdtempSync(join(tmpdir(), `maestro-splice-${name}-`));
  roots.push(root);
  return root;
}

/** The match section's rows (file and term ids as paths and terms) and the spec section's. */
function dump(layout: WorkflowLayout) {
  const { rows, terms, meta } = matchSectionRows(layout);
  const { db } = openStore(layout);
  const spec = db
    .prepare(
      'SELECT path, sha256, size, utf8, entries, default_category, issues, parse_issues, hex(spots) AS spots FROM spec_files ORDER BY path',
    )
    .all() as { path: string; sha256: string }[];
  const ids = db
    .prepare('SELECT f.path, i.id, i.pos FROM spec_ids i JOIN spec_files f ON f.num = i.file ORDER BY 1, 2, 3')
    .all() as { path: string }[];
  const links = db
    .prepare('SELECT f.path, l.target, l.pos FROM spec_links l JOIN spec_files f ON f.num = l.file ORDER BY 1, 2, 3')
    .all();
  return { match: { rows, terms, meta }, spec, ids, links };
}

/** A spec file of many entries (some with sids, some not, some not ASCII), so that it has many chunks. */
function bigSpec(n: number): string {
  const words = ['retry', 'cache', 'queue', 'lock', 'tenant', 'token', 'schema', 'index', 'worker', 'backoff'];
  const out = ['---', 'title: "Generated"', 'category: arch', '---', '', '# Generated', ''];
  for (let i = 0; i < n; i++) {
    const w = (k: number) => words[(i * 7 + k * 3) % words.length];
    const sid = i % 3 === 0 ? ` sid="S-20260601-${String(i).padStart(4, '0')}"` : '';
    const extra = i % 5 === 0 ? ' Les entrées déjà vues — 重试 缓存.' : '';
    out.push(
      `<spec-entry category="arch" keywords="${w(1)},${w(2)}" date="2026-06-01"${sid}>`,
      '',
      `### ${w(0)} ${w(1)} rule ${i}`,
      '',
      `Every ${w(2)} keeps its ${w(3)} beside the ${w(4)} (rule ${i}).${extra}`,
      '',
      '</spec-entry>',
      '',
    );
    if (i % 45 === 7)
      out.push(`### [arch] [2026-05-0${i % 9}] legacy ${w(5)} note ${i}`, '', `Legacy ${w(6)} text ${i}.`, '');
  }
  return out.join('\n');
}

describe('the match section re-derives only the changed entries of a spec file', () => {
  it('appends and edits in the middle give the rows, statistics and verdicts of a cold rebuild', async () => {
    const root = tmp('v1');
    execFileSync(process.execPath, [join(SETS, 'reconcile-v1', 'stage.mjs'), root], { stdio: 'ignore' });
    const layout = workflowLayout(root);
    const big = join(layout.specs, 'zz-generated.md');
    writeFileSync(big, bigSpec(300));
    const cases = casesOf('reconcile-v1');
    const sync = async () => {
      newProcess();
      const m = await matchingCorpus(layout, corpusFingerprintSync(layout).fingerprint);
      expect(m.source).toBe('store');
      return m;
    };
    await sync();
    const edit = (f: (text: string) => string) => writeFileSync(big, f(readFileSync(big, 'utf8')));
    const entryAt = (text: string, k: number) => {
      let at = -1;
      for (let i = 0; i <= k; i++) at = text.indexOf('<spec-entry', at + 1);
      return at;
    };
    const block = (text: string, k: number) => {
      const at = entryAt(text, k);
      return text.slice(at, text.indexOf('</spec-entry>', at) + '</spec-entry>'.length + 2);
    };
    const changes: [string, (t: string) => string, 'spliced' | 'derived', boolean][] = [
      [
        'an entry with a sid appended (spec add)',
        (t) =>
          `${t}\n<spec-entry category="arch" sid="S-20261201-0001" date="2026-12-01">\n\n### Added\n\nQueue workers retry with jitter.\n\n</spec-entry>\n`,
        'spliced',
        true,
      ],
      ['a word edited in a middle entry', (t) => t.replace('(rule 101)', '(rule 101, edited)'), 'spliced', true],
      [
        'a non-ASCII entry edited in the middle',
        (t) => t.replace('(rule 150).', '(rule 150) — ça change.'),
        'spliced',
        true,
      ],
      [
        'an entry inserted in the middle (positions move)',
        (t) => {
          const at = entryAt(t, 120);
          return `${t.slice(0, at)}<spec-entry category="arch" date="2026-12-02">\n\n### Inserted\n\nLock the tenant row before the schema change.\n\n</spec-entry>\n\n${t.slice(at)}`;
        },
        'spliced',
        true,
      ],
      ['an entry removed in the middle', (t) => t.replace(block(t, 200), ''), 'spliced', true],
      [
        'the last entry edited',
        (t) => t.replace('Queue workers retry with jitter.', 'Queue workers retry.'),
        'spliced',
        true,
      ],
      [
        'an entry appended without a sid',
        (t) => `${t}\n<spec-entry category="arch">\n\n### Late\n\nA late rule.\n\n</spec-entry>\n`,
        'spliced',
        false,
      ],
      [
        'an exact twin of a middle entry (ids renumbered)',
        (t) => t.replace(block(t, 61), block(t, 61) + block(t, 61)),
        'derived',
        false,
      ],
      ['the twin removed again', (t) => t.replace(block(t, 61), ''), 'derived', false],
      ['the frontmatter edited', (t) => t.replace('category: arch', 'category: coding'), 'derived', false],
      [
        'an unclosed entry in the middle',
        (t) => t.replace(block(t, 90), '<spec-entry category="arch">\n\n### Open\n\nNo end.\n\n'),
        'derived',
        false,
      ],
      ['the unclosed entry closed', (t) => t.replace('No end.\n\n', 'No end.\n\n</spec-entry>\n\n'), 'spliced', true],
      ['an entry edited after another edit', (t) => t.replace('(rule 41)', '(rule 41 again)'), 'spliced', true],
      ['an edit in the first entries', (t) => t.replace('(rule 3)', '(rule 3, first)'), 'spliced', true],
      ['the first entry removed', (t) => t.replace(block(t, 0), ''), 'spliced', true],
      ['a legacy entry edited', (t) => t.replace('legacy', 'legacy edited'), 'spliced', true],
      [
        'a legacy entry appended',
        (t) => `${t}\n### [arch] [2026-12-01] loose note\n\nSome loose text.\n`,
        'spliced',
        false,
      ],
      [
        'an entry appended after it',
        (t) =>
          `${t}\n<spec-entry category="arch" sid="S-20261201-0009">\n\n### After\n\nAfter the loose note.\n\n</spec-entry>\n`,
        'spliced',
        false,
      ],
    ];
    for (const [what, change, how, specCurrent] of changes) {
      edit(change);
      const m = await sync();
      expect(lastSync[how], what).toBe(1);
      expect(lastSync.spliced + lastSync.derived, what).toBe(1);
      const corpus = loadCorpus(layout);
      expect(reconcile(cases, m.index, { now: NOW }), what).toEqual(reconcile(cases, corpus, { now: NOW }));
      const targets = targetsOf(corpus);
      expect(m.entryHashes(), what).toEqual(corpusEntryHashes(targets));
      // A cold rebuild of the same corpus, in a copy.
      newProcess();
      const incremental = dump(layout);
      const copy = tmp('cold');
      cpSync(root, copy, { recursive: true, filter: (src) => !src.includes('.index') });
      const coldLayout = workflowLayout(copy);
      await matchingCorpus(coldLayout, corpusFingerprintSync(coldLayout).fingerprint);
      newProcess();
      const cold = dump(coldLayout);
      expect(incremental.match, what).toEqual(cold.match);
      // The spec rows of the changed file, brought up to date with the match rows (or left to the next load).
      const row = incremental.spec.find((f) => f.path === 'specs/zz-generated.md');
      const current = row?.sha256 === cold.spec.find((f) => f.path === 'specs/zz-generated.md')?.sha256;
      if (how === 'spliced' && specCurrent) expect(current, what).toBe(true);
      if (current) {
        expect(incremental.spec, what).toEqual(cold.spec);
        expect(incremental.ids, what).toEqual(cold.ids);
        expect(incremental.links, what).toEqual(cold.links);
      }
      rmSync(copy, { recursive: true, force: true });
    }
    expect(readdirSync(layout.specs)).toContain('zz-generated.md');
  }, 600_000);

  it('a frontmatter that closes only at a later edit, or is written before a first block at the start, is read as a whole parse reads it', async () => {
    const root = tmp('fm');
    execFileSync(process.execPath, [join(SETS, 'reconcile-v1', 'stage.mjs'), root], { stdio: 'ignore' });
    const layout = workflowLayout(root);
    const bare = join(layout.specs, 'zz-bare.md');
    const unclosed = join(layout.specs, 'zz-unclosed.md');
    const body = bigSpec(80).split('---\n\n# Generated\n\n')[1];
    writeFileSync(bare, body);
    writeFileSync(unclosed, `---\ncategory: arch\n\n${body}`);
    const sync = async () => {
      newProcess();
      const m = await matchingCorpus(layout, corpusFingerprintSync(layout).fingerprint);
      expect(m.source).toBe('store');
      newProcess();
      return dump(layout).match;
    };
    const cold = async () => {
      const copy = tmp('cold');
      cpSync(root, copy, { recursive: true, filter: (src) => !src.includes('.index') });
      const coldLayout = workflowLayout(copy);
      await matchingCorpus(coldLayout, corpusFingerprintSync(coldLayout).fingerprint);
      newProcess();
      return dump(coldLayout).match;
    };
    await sync();
    writeFileSync(bare, `---\ncategory: coding\n---\n\n${body}`);
    expect(await sync()).toEqual(await cold());
    const text = readFileSync(unclosed, 'utf8');
    const at = text.indexOf('<spec-entry', text.length / 2);
    writeFileSync(unclosed, `${text.slice(0, at)}---\n\n${text.slice(at)}`);
    expect(await sync()).toEqual(await cold());
    expect(lastSync.spliced).toBe(0);
  }, 600_000);
});
