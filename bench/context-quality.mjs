// Prompt-time context quality on labelled prompts over real maestro-flow projects.
//   node bench/context-quality.mjs [--cases <dir>] [--bin <main.js>] [--label <text>] [--out <name>] [--json] [--failures] [--no-write]
// (`--bin /work/main/apps/maestro/dist/main.js --out context-quality-main` scores another build: the baseline.)
// bench/context-prompts/prompts.jsonl (format in its README.md) names, per prompt, a project of
// /work/shared/corpora/real-world/ (or an absolute path) and prompts labelled by people who never read
// the ranking code: `must_see` entries (a senior engineer would want the agent to see them) and
// `relevant` ones (fine to show). Every prompt runs the built `maestro context --json` on a copy of
// the project, exactly as the prompt hook would, and is scored on:
//   must-see recall      must-see labels injected / all must-see labels (micro over prompts)
//   mean precision       per prompt with an injection: injected entries labelled must-see or relevant / injected
//   empty when nothing   share of prompts with no labels whose injection is empty
//   injected tokens      median token estimate of the injected context (all prompts; and non-empty ones)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median, writeResults } from './lib/report.mjs';

const root = resolve(import.meta.dirname, '..');
const { values: early } = parseArgs({ options: { bin: { type: 'string' } }, strict: false });
const bin = resolve(typeof early.bin === 'string' ? early.bin : join(root, 'apps/maestro/dist/main.js'));
const { values } = parseArgs({
  options: {
    cases: { type: 'string' },
    corpora: { type: 'string' },
    label: { type: 'string' },
    json: { type: 'boolean' },
    failures: { type: 'boolean' },
    'no-write': { type: 'boolean' },
    bin: { type: 'string' },
    out: { type: 'string' },
  },
});
const casesDir = resolve(values.cases ?? join(root, 'bench/context-prompts'));
const corpora = resolve(values.corpora ?? '/work/shared/corpora/real-world');
const NOW = '2026-10-15T00:00:00.000Z';

/** `prompts.jsonl`: one prompt a line, `{ id, project, root, prompt, must_see: [{ id }], relevant: [{ id }] }`. */
function loadCases(dir) {
  const ids = (xs) => new Set((xs ?? []).map((x) => (typeof x === 'string' ? x : x.id)));
  return readFileSync(join(dir, 'prompts.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .map((p) => ({
      id: p.id,
      project: p.project,
      root: p.root ?? '',
      prompt: p.prompt,
      must: ids(p.must_see),
      relevant: ids(p.relevant),
    }));
}

/** A private copy of the project's `.workflow/` (context writes its index and exposure counters). */
function copyProject(project, sub) {
  const src = join(isAbsolute(project) ? project : join(corpora, project), sub);
  if (!existsSync(join(src, '.workflow'))) throw new Error(`no .workflow/ in ${src}`);
  const dir = mkdtempSync(join(tmpdir(), 'maestro-ctxq-'));
  cpSync(join(src, '.workflow'), join(dir, '.workflow'), { recursive: true });
  return dir;
}

function runContext(dir, home, prompt) {
  const r = spawnSync(process.execPath, [bin, 'context', '--json', '--workflow-root', dir, '--', prompt], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), MAESTRO_NOW: NOW, NO_COLOR: '1' },
  });
  if (r.status !== 0) return { ids: [], tokens: 0, error: r.stderr.trim().split('\n')[0] };
  const out = JSON.parse(r.stdout);
  return { ids: out.specs.map((s) => s.id), tokens: out.specs.length > 0 ? out.token_estimate : 0, error: null };
}

function score(cases) {
  const home = mkdtempSync(join(tmpdir(), 'maestro-ctxq-home-'));
  const dirs = new Map();
  const rows = [];
  try {
    for (const c of cases) {
      const key = `${c.project}/${c.root}`;
      if (!dirs.has(key)) dirs.set(key, copyProject(c.project, c.root));
      const r = runContext(dirs.get(key), home, c.prompt);
      const labelled = (id) => c.must.has(id) || c.relevant.has(id);
      rows.push({
        ...c,
        ...r,
        hitsMust: [...c.must].filter((id) => r.ids.includes(id)),
        good: r.ids.filter(labelled),
      });
    }
  } finally {
    for (const d of [...dirs.values(), home]) rmSync(d, { recursive: true, force: true });
  }
  return rows;
}

function figures(rows) {
  const must = rows.reduce((n, r) => n + r.must.size, 0);
  const found = rows.reduce((n, r) => n + r.hitsMust.length, 0);
  const injected = rows.filter((r) => r.ids.length > 0);
  const precision = injected.map((r) => r.good.length / r.ids.length);
  const nothing = rows.filter((r) => r.must.size === 0 && r.relevant.size === 0);
  return {
    prompts: rows.length,
    projects: new Set(rows.map((r) => `${r.project}/${r.root}`)).size,
    mustRecall: must ? found / must : 1,
    meanPrecision: precision.length ? precision.reduce((a, b) => a + b, 0) / precision.length : 1,
    emptyWhenNothing: nothing.length ? nothing.filter((r) => r.ids.length === 0).length / nothing.length : 1,
    nothingPrompts: nothing.length,
    meanInjected: rows.reduce((n, r) => n + r.ids.length, 0) / rows.length,
    tokensMedian: median(rows.map((r) => r.tokens)),
    tokensMedianNonEmpty: injected.length ? median(injected.map((r) => r.tokens)) : 0,
    errors: rows.filter((r) => r.error).length,
  };
}

const pct = (x) => `${(100 * x).toFixed(0)} %`;

function perProject(rows) {
  const groups = new Map();
  for (const r of rows) {
    const k = r.root ? `${r.project} (${r.root})` : r.project;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups].map(([k, rs]) => {
    const g = figures(rs);
    return `| ${k} | ${g.prompts} | ${g.mustRecall.toFixed(2)} | ${g.meanPrecision.toFixed(2)} | ${g.nothingPrompts ? pct(g.emptyWhenNothing) : '—'} | ${g.meanInjected.toFixed(1)} |`;
  });
}

function markdown(f, label, rows) {
  return [
    `## Context quality: ${label}`,
    '',
    `${f.prompts} labelled prompts over ${f.projects} real projects (\`bench/context-prompts/\`), each run through the built`,
    '`maestro context --json` on a copy of the project. Goal (issue 13): recall ≥ 0.80, precision ≥ 0.60, empty ≥ 70 %.',
    '',
    '| figure | value |',
    '|---|---|',
    `| must-see recall | ${f.mustRecall.toFixed(2)} |`,
    `| mean precision (prompts with an injection) | ${f.meanPrecision.toFixed(2)} |`,
    `| empty injection when nothing is relevant (${f.nothingPrompts} prompts) | ${pct(f.emptyWhenNothing)} |`,
    `| entries injected per prompt (mean) | ${f.meanInjected.toFixed(1)} |`,
    `| injected tokens, median (all prompts / non-empty) | ${f.tokensMedian} / ${f.tokensMedianNonEmpty} |`,
    `| prompts that failed | ${f.errors} |`,
    '',
    '| project | prompts | must-see recall | mean precision | empty when nothing | entries |',
    '|---|---|---|---|---|---|',
    ...perProject(rows),
  ].join('\n');
}

const rows = score(loadCases(casesDir));
const f = figures(rows);
const label = values.label ?? 'this branch';
if (values.failures) {
  for (const r of rows) {
    const missed = [...r.must].filter((id) => !r.ids.includes(id));
    const extra = r.ids.filter((id) => !r.must.has(id) && !r.relevant.has(id));
    if (missed.length || extra.length || r.error)
      console.error(`${r.id} [${r.project}] missed=${missed.join(',')} extra=${extra.join(',')} ${r.error ?? ''}`);
  }
}
if (values.json) console.log(JSON.stringify(f, null, 2));
else console.log(markdown(f, label, rows));
if (!values['no-write'] && !values.cases) {
  writeResults(values.out ?? 'context-quality', markdown(f, label, rows), [
    { name: 'must-see recall', value: f.mustRecall, unit: '', better: 'higher' },
    { name: 'mean precision', value: f.meanPrecision, unit: '', better: 'higher' },
    { name: 'empty when nothing relevant', value: f.emptyWhenNothing, unit: '', better: 'higher' },
    { name: 'injected tokens median', value: f.tokensMedian, unit: 'tokens', better: 'lower' },
  ]);
}
