import { statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { inputError, isoDate, slugify } from '@maestro/core';
import { version } from '../cli.js';
import type { CommandModule } from '../kit.js';
import { dim, green, yellow } from '../style.js';
import { str } from './pack-args.js';

const usage = 'maestro pack build [--out dir] [--name pack-name] [--json]';
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const command: CommandModule = {
  usage,
  summary: 'Export active specs and knowhow as a document-first Agent Knowledge pack',
  options: { out: { type: 'string' }, name: { type: 'string' } },
  optionHelp: {
    out: 'pack directory to write (default: <project>/dist/agent-knowledge/<name>); must be new, empty or a previous build',
    name: 'pack name, lowercase letters, digits and hyphens (default: the --out folder name, else <project>-knowledge)',
  },
  examples: ['maestro pack build', 'maestro pack build --out ./share/acme-knowledge --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    if (args.positionals.length > 0)
      throw inputError('USAGE', `unexpected argument "${args.positionals[0]}"`, { hint: `usage: ${usage}` });
    const project = basename(ctx.root);
    const outFlag = str(args, 'out');
    const name =
      str(args, 'name') ??
      (outFlag ? slugify(basename(resolve(ctx.cwd, outFlag))) : `${slugify(project, 54) || 'project'}-knowledge`);
    if (!NAME.test(name) || name.length > 64) {
      throw inputError('PACK_BUILD_BAD_NAME', `invalid pack name '${name}'`, {
        hint: 'use --name with 1–64 lowercase letters, digits and single hyphens',
      });
    }
    const out = outFlag ? resolve(ctx.cwd, outFlag) : join(ctx.root, 'dist', 'agent-knowledge', name);
    if (statSync(out, { throwIfNoEntry: false })?.isDirectory() === false) {
      throw inputError('PACK_BUILD_OUT_NOT_DIR', `--out ${out} is a file, not a directory`, {
        hint: 'pass --out <new or empty directory>',
      });
    }
    const [{ loadCorpus }, { planPackBuild, writePackBuild }] = await Promise.all([
      import('@maestro/spec'),
      import('@maestro/packs'),
    ]);
    const corpus = loadCorpus(ctx.layout);
    const plan = planPackBuild(corpus.entries, {
      name,
      project,
      maestroVersion: version(),
      date: isoDate(ctx.runtime.now()),
    });
    const result = await writePackBuild(plan, out, { runtime: ctx.runtime, maestroVersion: version() });
    const warnings = corpus.issues.map((i) => `${i.file}${i.line ? `:${i.line}` : ''}: ${i.message}`);
    if (result.entries === 0) warnings.push('the corpus has no active entries; the pack holds an empty document');
    if (!result.valid) warnings.push(`the built pack did not pass validation: run \`maestro pack validate ${out}\``);
    const changed = result.files.filter((f) => f.operation !== 'unchanged').length;
    const text = [
      `${green('✓')} Built ${result.name}: ${result.specs} spec(s) and ${result.knowhow} knowhow note(s) in ${result.pack}`,
      dim(`  ${changed} file(s) written or removed; compile run ${result.run}`),
      result.valid
        ? dim(`  next: maestro pack validate ${result.pack}`)
        : yellow('  the pack is not valid; see the warnings'),
    ].join('\n');
    return { data: result, text, warnings, exitCode: result.valid ? 0 : 3 };
  },
};
