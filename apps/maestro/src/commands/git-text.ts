import { fileURLToPath } from 'node:url';
import type { GitSetupResult, GitSetupStatus } from '@maestro/git';
import { dim, green, yellow } from '../style.js';

/** The driver command `maestro git install` writes: this very binary, by absolute path. */
export function defaultDriverCommand(): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const main = fileURLToPath(new URL('../main.js', import.meta.url));
  return `${q(process.execPath)} ${q(main)} merge-driver %O %A %B %L %P`;
}

export function setupData(action: 'install' | 'uninstall' | 'status', r: GitSetupStatus & { changed?: boolean }) {
  return { schema_version: 'maestro-git-setup/1.0' as const, action, changed: r.changed ?? false, ...r };
}

export function setupText(action: 'install' | 'uninstall' | 'status', r: GitSetupResult | GitSetupStatus): string {
  const changed = 'changed' in r ? r.changed : false;
  const head =
    action === 'status'
      ? r.installed
        ? `${green('✓')} the Maestro merge driver is installed in ${r.repository}`
        : `${yellow('✗')} the Maestro merge driver is not installed in ${r.repository} (run \`maestro git install\`)`
      : `${green('✓')} ${action === 'install' ? 'installed' : 'uninstalled'}${changed ? '' : ' (nothing to change)'} in ${r.repository}`;
  const lines = [head];
  for (const a of r.attributes.slice(1)) lines.push(`  ${a.present ? '✓' : '·'} ${r.attributes_file}: ${a.line}`);
  lines.push(`  ${r.driver ? '✓' : '·'} git config merge.maestro.driver ${r.driver ? `= ${r.driver}` : '(unset)'}`);
  lines.push(dim(`  git check-attr merge on a spec file: ${r.effective ?? 'unknown'}`));
  return lines.join('\n');
}
