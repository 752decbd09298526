import type { PackListOutputData } from '@maestro/packs';
import type { CommandModule } from '../kit.js';
import { bold, dim, yellow } from '../style.js';
import { SCOPE_HELP, SCOPE_OPTIONS, scopeOptions } from './pack-args.js';

const usage =
  'maestro pack list [--workspace-root dir] [--user-root dir] [--org-root dir]... [--builtin-root dir] [--json]';

function render(out: PackListOutputData): string {
  const lines: string[] = [];
  const active = out.packs.filter((p) => p.state === 'active');
  lines.push(
    bold(`Knowledge packs: ${active.length} active, ${out.packs.length} found`) +
      dim(out.workspace_trusted ? '' : '  (workspace untrusted: metadata only)'),
  );
  for (const p of out.packs) {
    const trust =
      p.trust.declared && p.trust.declared !== p.trust.effective
        ? `${p.trust.effective} (declared ${p.trust.declared})`
        : p.trust.effective;
    const tags = [p.status ?? 'invalid', p.type, p.profile, p.runtime_mode, `trust ${trust}`, p.scope]
      .filter(Boolean)
      .join(' · ');
    const state = p.state === 'active' ? (p.metadata_only ? yellow(' [metadata only]') : '') : yellow(` [${p.state}]`);
    lines.push('', `${bold(p.name)}${state}  ${dim(tags)}`);
    if (p.description) lines.push(`  ${p.description}`);
    lines.push(dim(`  ${p.location}`));
    if (p.shadowed_by) lines.push(dim(`  shadowed by ${p.shadowed_by}`));
    if (p.errors > 0) lines.push(yellow(`  ${p.errors} error(s): maestro pack validate ${p.root}`));
  }
  lines.push('', dim('Scopes:'));
  for (const s of out.scopes) {
    const state = s.exists
      ? `${s.packs} pack(s), ${s.dirs_scanned} dir(s)${s.ignored ? `, ${s.ignored} ignored by .gitignore` : ''}${s.truncated ? `, truncated by ${s.truncated} limit` : ''}`
      : 'missing';
    lines.push(dim(`  ${s.scope.padEnd(9)} ${s.dir}  (${state})`));
  }
  for (const d of out.diagnostics.filter((x) => x.severity === 'info')) lines.push(dim(`note: ${d.message}`));
  if (out.packs.length === 0)
    lines.push(
      dim(
        'hint: put packs in <project>/.agents/knowledge/<name>/KNOWLEDGE.md, or export project knowledge with `maestro pack build`',
      ),
    );
  return lines.join('\n');
}

export const command: CommandModule = {
  usage,
  summary: 'List knowledge packs in every scope: state, trust, shadowing',
  options: { ...SCOPE_OPTIONS },
  optionHelp: { ...SCOPE_HELP },
  examples: [
    'maestro pack list',
    'maestro pack list --org-root /srv/org-knowledge --json',
    'maestro pack list --disable brand-glossary@workspace',
  ],
  async run(ctx, args) {
    const { listPacks } = await import('@maestro/packs');
    const out = listPacks(await scopeOptions(ctx, args));
    const warnings = out.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.message);
    return { data: out, text: render(out), warnings };
  },
};
