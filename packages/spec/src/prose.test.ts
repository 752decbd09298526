import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { loadCorpus } from './corpus.js';
import { readSpecHealth, specHealth } from './health.js';
import { findUnindexedProse, proseOutsideEntries } from './prose.js';
import { SEED_FILES, seedFileText } from './seeds.js';

const FM = '---\ntitle: "Service Rules"\ncategory: coding\nkeywords:\n  - service\n---\n';
const RULE = '- Every outbound HTTP call sets an explicit timeout and logs the upstream name when it gives up.';

describe('proseOutsideEntries', () => {
  test('an empty template (frontmatter, headings, blank lines) is not prose', () => {
    expect(proseOutsideEntries(`${FM}\n# Service Rules\n\n## Entries\n\n`)).toBeNull();
    expect(proseOutsideEntries('')).toBeNull();
    expect(proseOutsideEntries('---\n---\n')).toBeNull();
  });

  test('the seed files `maestro init` writes are templates, not unread text', () => {
    for (const seed of SEED_FILES) expect(proseOutsideEntries(seedFileText(seed))).toBeNull();
    // Text a person adds under the guidance line is still found.
    const seeded = `${seedFileText(SEED_FILES[0])}\n${RULE}\n`;
    expect(proseOutsideEntries(seeded)).toEqual({ line: 16, chars: RULE.length });
  });

  test('body text after the frontmatter is found at its first line, headings and rules not counted', () => {
    const text = `${FM}\n# Service Rules\n\n---\n\n${RULE}\n${RULE}\n`;
    // Frontmatter 6 lines, blank, heading, blank, rule, blank, then the first rule line.
    expect(proseOutsideEntries(text)).toEqual({ line: 12, chars: 2 * RULE.length });
  });

  test('short text stays below the threshold; the threshold can be lowered', () => {
    const text = `${FM}# Notes\n\nTBD.\n`;
    expect(proseOutsideEntries(text)).toBeNull();
    expect(proseOutsideEntries(text, 4)).toEqual({ line: 9, chars: 4 });
  });

  test('a file without frontmatter (and with a BOM and CRLF) counts from line 1', () => {
    expect(proseOutsideEntries(`\ufeff${RULE}\r\n${RULE}\r\n`)).toEqual({ line: 1, chars: 2 * RULE.length });
  });

  test('Chinese prose counts by characters', () => {
    const zh =
      '所有对外的 HTTP 调用必须显式设置超时时间，放弃重试时记录上游服务的名字，并把请求编号写进日志，便于排查问题。';
    expect(proseOutsideEntries(`${FM}\n# 服务规范\n\n${zh}\n${zh}\n`)?.chars).toBe(2 * zh.length);
  });
});

describe('findUnindexedProse / spec health', () => {
  function project(files: Record<string, string>) {
    const root = tmpDir('maestro-prose-');
    mkdirSync(join(root, '.workflow/specs'), { recursive: true });
    mkdirSync(join(root, '.workflow/knowhow'), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, '.workflow', name), text);
    return workflowLayout(root);
  }
  const entry = (sid: string) =>
    `<spec-entry sid="${sid}" category="coding" date="2026-01-02" status="active">\n\n### A rule\n\n${RULE}\n\n</spec-entry>\n`;

  test('only spec files with text and no entry are listed, sorted, with their line', () => {
    const layout = project({
      'specs/b-prose.md': `${FM}\n# Service Rules\n\n${RULE}\n${RULE}\n`,
      'specs/a-prose.md': `${RULE}\n`,
      'specs/with-entry.md': `${FM}\n# Intro text that explains the file at some length before its entries.\n\n${RULE}\n\n${entry('S-20260102-aaaa')}`,
      'specs/template.md': `${FM}\n# Debug Notes\n\n## Entries\n`,
      'knowhow/KNW-20260102-note.md': `---\ntitle: Note\n---\n\n${RULE}\n${RULE}\n`,
    });
    const corpus = loadCorpus(layout);
    expect(findUnindexedProse(layout, corpus)).toEqual([
      { file: 'specs/a-prose.md', line: 1, chars: RULE.length },
      { file: 'specs/b-prose.md', line: 10, chars: 2 * RULE.length },
    ]);
    expect(readSpecHealth(layout, new Date('2026-02-01'), corpus).unindexedProse.map((p) => p.file)).toEqual([
      'specs/a-prose.md',
      'specs/b-prose.md',
    ]);
    // The pure counts read no file.
    expect(specHealth(corpus, new Date('2026-02-01')).unindexedProse).toEqual([]);
  });
});
