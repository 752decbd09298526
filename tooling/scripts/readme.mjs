// Fills README.md's command reference from docs/*.md (headings moved two levels down, code fences
// left alone). With --check, fails when README.md is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const ORDER = [
  'spec',
  'ledger',
  'reconcile',
  'promote',
  'review',
  'search',
  'graph',
  'audit',
  'gate',
  'git',
  'packs',
  'agents',
  'skills',
  'memory',
];
const BEGIN = '<!-- BEGIN COMMAND REFERENCE';
const END = '<!-- END COMMAND REFERENCE -->';

function demote(text) {
  let fence = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) fence = !fence;
      return !fence && /^#{1,4} /.test(line) ? `##${line}` : line;
    })
    .join('\n')
    .trim();
}

const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const start = readme.indexOf(BEGIN);
const end = readme.indexOf(END);
if (start < 0 || end < start) throw new Error('README.md has no command-reference markers');
const beginLine = readme.slice(start, readme.indexOf('\n', start) + 1);
const body = ORDER.map((name) => demote(readFileSync(resolve(root, 'docs', `${name}.md`), 'utf8'))).join('\n\n');
const next = `${readme.slice(0, start)}${beginLine}\n${body}\n\n${readme.slice(end)}`;
if (process.argv.includes('--check')) {
  if (next !== readme) {
    console.error('README.md is out of date with docs/*.md: run `pnpm readme` and commit the result');
    process.exitCode = 1;
  } else console.log('README.md is up to date');
} else {
  writeFileSync(resolve(root, 'README.md'), next);
  console.log('README.md command reference regenerated');
}
