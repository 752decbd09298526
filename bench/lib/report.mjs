// Shared by every benchmark: writes `results/<name>.md` (the human table) and
// `results/<name>.json` (the figures `run-all.mjs` compares against the previous run).
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const dir = resolve(import.meta.dirname, '../results');

/**
 * @param {string} name   benchmark name, e.g. "search"
 * @param {string} markdown  the section for RESULTS.md (starts with a `## ` heading)
 * @param {{ name: string, value: number, unit: string, better?: 'lower'|'higher' }[]} metrics
 */
export function writeResults(name, markdown, metrics = []) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(resolve(dir, `${name}.md`), markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  writeFileSync(resolve(dir, `${name}.json`), `${JSON.stringify({ name, metrics }, null, 2)}\n`);
}

/** Peak resident memory of this process so far, in MiB. */
export function peakRssMiB() {
  return process.resourceUsage().maxRSS / 1024;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
