import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { green, red, yellow } from '../style.js';
import { onePositional } from './ledger-args.js';
import { ROOT_HELP, ROOT_OPTIONS, skillRoots } from './skill-args.js';

const usage = 'maestro skill validate <folder|name> [--json]';

export const command: CommandModule = {
  usage,
  summary:
    'Check a skill folder against the Agent Skills rules; scripts are hashed, never run (exit 0 valid, 1 invalid, 2 usage)',
  options: { ...ROOT_OPTIONS },
  optionHelp: { ...ROOT_HELP },
  examples: ['maestro skill validate .agents/skills/deploy-preview', 'maestro skill validate deploy-preview --json'],
  async run(ctx, args) {
    const target = onePositional(args, 'folder|name', usage);
    const { discoverSkills, validateSkill } = await import('@maestro/skills');
    let dir = resolve(ctx.cwd, target);
    if (!existsSync(dir)) {
      const found = discoverSkills(skillRoots(ctx, args)).skills.find((s) => s.name === target);
      if (!found) {
        throw inputError('SKILL_NOT_FOUND', `${target} is neither a folder nor a skill name`, {
          hint: 'give the folder that holds SKILL.md, or a name from `maestro skill list`',
        });
      }
      dir = found.dir;
    }
    if (!statSync(dir).isDirectory()) dir = resolve(dir, '..');
    const v = validateSkill(dir);
    const errors = v.issues.filter((i) => i.severity === 'error').length;
    const data = {
      ok: v.ok,
      dir,
      name: v.properties?.name ?? null,
      errors,
      warnings: v.issues.length - errors,
      findings: v.issues.map(({ severity, code, file, field, line, column, message, hint }) => ({
        severity,
        code,
        file: file ?? 'SKILL.md',
        ...(field ? { field } : {}),
        ...(line ? { line } : {}),
        ...(column ? { column } : {}),
        message,
        ...(hint ? { hint } : {}),
      })),
      files: v.files,
      manifest_hash: v.manifestHash,
    };
    const head = v.ok ? `${green('Valid skill:')} ${dir}` : `${red('Validation failed for')} ${dir}:`;
    const lines = data.findings.map(
      (f) =>
        `  - ${f.file}${f.line ? `:${f.line}` : ''}${f.column ? `:${f.column}` : ''}: ${f.severity === 'error' ? red('error') : yellow('warning')}: ${f.message}${f.hint ? ` (${f.hint})` : ''}`,
    );
    const scripts = v.files.filter((f) => f.kind === 'script');
    if (scripts.length)
      lines.push(
        `  scripts (listed, never run): ${scripts.map((s) => `${s.path} sha256:${s.sha256.slice(0, 12)}`).join(', ')}`,
      );
    return { data, text: [head, ...lines].join('\n'), exitCode: v.ok ? 0 : 1 };
  },
};
