// Knowledge packs: discovery over many packs, in-process resolution latency, and the cold CLI
// calls an agent hook pays on every prompt (`maestro pack resolve`, `maestro context`).
// Sizes: BENCH_PACKS (default "20,200") packs, each with a guide, 6 splits, 3 compiled views, a
// 60 KB primary document, a 1 MB source and 20 wiki pages; every fifth pack also has an ontology
// (200 concepts, 400 claims). One category folder is excluded by a .gitignore.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, percentile, writeResults } from './lib/report.mjs';

const packs = await import(pathToFileURL(resolve(import.meta.dirname, '../packages/packs/dist/index.js')).href);
const bin = resolve(import.meta.dirname, '../apps/maestro/dist/main.js');
const sizes = (process.env.BENCH_PACKS ?? '20,200').split(',').map(Number);
const QUERIES = 60;
const LOAD_AT_START = loadavg()[0];
const CLI_RUNS = Number(process.env.BENCH_N ?? 8);
const topics = [
  'offline',
  'pricing',
  'warranty',
  'onboarding',
  'refunds',
  'security',
  'latency',
  'billing',
  'voice',
  'roadmap',
];

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function makePack(ws, i) {
  const name = `pack-${String(i).padStart(4, '0')}`;
  const topic = topics[i % topics.length];
  const root = join(ws, `team-${i % 7}`, name);
  write(
    join(root, 'KNOWLEDGE.md'),
    `---\nname: ${name}\ndescription: Facts about ${topic} for product line ${i}.\ntype: domain-reference\nstatus: ready\nprofile: document-first\nmetadata:\n  primaryDocument: documents/main.md\n${i % 5 === 0 ? '  primaryOntology: ontology/ontology.json\n' : ''}---\n# ${name}\n\n## Usage\n\nUse for ${topic} questions about product line ${i}.\n\n## Boundaries\n\nNever invent numbers.\n\n## Context map\n\n- \`documents/main.md\`\n`,
  );
  if (i % 5 === 0) {
    write(join(root, 'ontology/ontology.json'), '{"status":"reviewed"}');
    const concepts = Array.from({ length: 200 }, (_, c) => ({
      id: `c-${c}`,
      name: `${topics[c % topics.length]} concept ${c}`,
    }));
    const claims = Array.from({ length: 400 }, (_, c) => ({
      id: `claim-${c}`,
      text: `Claim ${c} about ${topics[c % topics.length]}.`,
      conceptIds: [`c-${c % 200}`],
      evidenceStatus: c % 7 === 0 ? 'needs-verification' : 'verified',
    }));
    write(join(root, 'ontology/concepts.json'), JSON.stringify(concepts));
    write(join(root, 'ontology/claims.json'), JSON.stringify(claims));
  }
  for (let s = 0; s < 6; s++)
    write(
      join(root, `compiled/splits/${name}/${topics[(i + s) % topics.length]}.md`),
      `# ${topics[(i + s) % topics.length]}\n\n${`Line about ${topic} ${s}. `.repeat(40)}\n`,
    );
  for (const v of ['briefing', 'facts', 'boundaries'])
    write(join(root, `compiled/${v}.md`), `# ${v}\n\n${`${v} text for ${topic}. `.repeat(60)}\n`);
  write(
    join(root, 'documents/main.md'),
    Array.from(
      { length: 30 },
      (_, k) => `## Section ${k} ${topics[k % topics.length]}\n\n${'body words '.repeat(180)}`,
    ).join('\n'),
  );
  write(join(root, 'sources/transcript.md'), 'transcript line\n'.repeat(65_000));
  for (let w = 0; w < 20; w++) write(join(root, `wiki/page-${w}.md`), `# Page ${w}\n\n${'wiki words '.repeat(100)}\n`);
}

function time(fn) {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

const rows = [];
const metrics = [];
for (const n of sizes) {
  const base = mkdtempSync(join(tmpdir(), 'maestro-bench-packs-'));
  try {
    const ws = join(base, '.agents/knowledge');
    mkdirSync(join(base, '.workflow'), { recursive: true });
    for (let i = 0; i < n; i++) makePack(ws, i);
    write(join(ws, '.gitignore'), 'team-6/\n');
    const scope = {
      cwd: base,
      workspaceRoot: ws,
      userRoot: null,
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: true,
    };
    const discovery = [];
    const discoveryNoIgnore = [];
    for (let k = 0; k < 5; k++) {
      discovery.push(time(() => packs.discoverPacks([{ scope: 'workspace', dir: ws }])).ms);
      discoveryNoIgnore.push(
        time(() => packs.discoverPacks([{ scope: 'workspace', dir: ws }], undefined, { gitignore: false })).ms,
      );
    }
    const resolveMs = [];
    const bareMs = [];
    const catalogMs = [];
    let tokens = 0;
    for (let q = 0; q < QUERIES; q++) {
      const query = `How does product line ${q % n} handle ${topics[q % topics.length]} claims?`;
      const r = time(() => packs.resolveContext({ ...scope, query, budget: 1500 }));
      resolveMs.push(r.ms);
      tokens = Math.max(tokens, r.value.output.token_estimate);
      bareMs.push(time(() => packs.resolveContext({ ...scope, query, budget: 1500, guide: false })).ms);
      const c = time(() => packs.resolveContext({ ...scope, query, budget: 1500, catalog: true }));
      catalogMs.push(c.ms);
      tokens = Math.max(tokens, c.value.output.token_estimate);
    }
    const env = { ...process.env, HOME: base, XDG_CONFIG_HOME: join(base, '.config'), NO_COLOR: '1' };
    const cli = (args) => {
      const xs = [];
      for (let k = 0; k < CLI_RUNS; k++) {
        const t0 = process.hrtime.bigint();
        const r = spawnSync(process.execPath, [bin, ...args, '--trust-workspace', '--json'], {
          cwd: base,
          env,
          stdio: 'ignore',
        });
        if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
        xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      return median(xs);
    };
    const resolveCli = cli([
      'pack',
      'resolve',
      '--query',
      'How does product line 3 handle pricing?',
      '--budget',
      '1500',
    ]);
    const contextCli = cli(['context', 'How does product line 3 handle pricing?', '--budget', '1500']);
    rows.push(
      `| ${n} | ${median(discovery).toFixed(1)} (${median(discoveryNoIgnore).toFixed(1)}) | ${median(resolveMs).toFixed(1)} | ${percentile(resolveMs, 95).toFixed(1)} | ${median(bareMs).toFixed(1)} | ${median(catalogMs).toFixed(1)} | ${tokens} | ${resolveCli.toFixed(0)} | ${contextCli.toFixed(0)} |`,
    );
    metrics.push(
      { name: `discovery, ${n} packs`, value: median(discovery), unit: 'ms' },
      { name: `resolve p50, ${n} packs`, value: median(resolveMs), unit: 'ms' },
      { name: `resolve p95, ${n} packs`, value: percentile(resolveMs, 95), unit: 'ms' },
      { name: `resolve p50 with --catalog, ${n} packs`, value: median(catalogMs), unit: 'ms' },
      { name: `cold maestro context, ${n} packs`, value: contextCli, unit: 'ms' },
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const table = [
  '## Knowledge packs',
  '',
  `Each pack: a guide, 6 splits, 3 compiled views, a 60 KB primary document (30 sections), a 1 MB source and 20 wiki pages, in 7 category folders (one excluded by a .gitignore); every fifth pack has an ontology of 200 concepts and 400 claims. In-process figures over ${QUERIES} queries (budget 1,500 tokens); cold CLI figures are medians of ${CLI_RUNS} runs (node start-up included). Load average at start: ${LOAD_AT_START.toFixed(1)}.`,
  '',
  '| packs | discovery ms (without .gitignore) | resolve p50 ms | resolve p95 ms | p50 without guide | p50 with catalog | max tokens emitted | cold `pack resolve` ms | cold `context` ms |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'Discovery reads only frontmatter (≤ 64 KB per pack); resolution reads at most 256 KB per file and 2 MB per activated pack, and never opens `sources/` unless evidence is asked for.',
  '',
].join('\n');
console.log(table);
writeResults('packs', table, metrics);
