import type { CommandModule } from './kit.js';
import { COMMANDS, type CommandEntry, commandsUnder } from './registry.js';

export function topHelp(version: string): string {
  const lines = [
    `maestro ${version} — a governed knowledge lifecycle for agent teams`,
    '',
    'Usage: maestro <command> [options]     (every command takes --json and --workflow-root <dir>)',
    '',
    'Commands:',
  ];
  const width = COMMANDS.reduce((w, e) => Math.max(w, e.path.join(' ').length), 0);
  for (const e of COMMANDS) lines.push(`  ${e.path.join(' ').padEnd(width)}  ${e.summary}`);
  lines.push(
    '',
    'Run `maestro <command> --help` for its options and an example.',
    'Exit codes: 0 done, 1 refused by a rule, 2 bad input, 3 environment or internal error.',
  );
  return lines.join('\n');
}

export function nounHelp(noun: string[], entries: CommandEntry[]): string {
  const width = entries.reduce((w, e) => Math.max(w, e.path.join(' ').length), 0);
  return [
    `Usage: maestro ${noun.join(' ')} <command> [options]`,
    '',
    'Commands:',
    ...entries.map((e) => `  ${e.path.join(' ').padEnd(width)}  ${e.summary}`),
    '',
    `Run \`maestro ${noun.join(' ')} <command> --help\` for details.`,
  ].join('\n');
}

export function commandHelp(mod: CommandModule): string {
  const names = Object.keys(mod.options);
  const optLines = names.map((name) => {
    const spec = mod.options[name];
    const flag = `--${name}${spec.type === 'string' ? ` <${name === 'content-file' ? 'file|-' : 'value'}>` : ''}`;
    const short = spec.short ? `-${spec.short}, ` : '';
    return { flag: `${short}${flag}`, help: mod.optionHelp[name] ?? '' };
  });
  optLines.push(
    { flag: '--json', help: 'print one JSON document on stdout (schema in schemas/)' },
    { flag: '--workflow-root <dir>', help: 'project root holding .workflow/ (default: nearest from cwd)' },
  );
  const width = optLines.reduce((w, o) => Math.max(w, o.flag.length), 0);
  return [
    mod.summary,
    '',
    `Usage: ${mod.usage}`,
    '',
    'Options:',
    ...optLines.map((o) => `  ${o.flag.padEnd(width)}  ${o.help}`),
    '',
    'Examples:',
    ...mod.examples.map((e) => `  ${e}`),
  ].join('\n');
}

/** Levenshtein distance, for "did you mean". */
export function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/**
 * The command closest to what was typed. Each command is compared with as many typed words as
 * it has, so trailing arguments (`maestro serach retry`) do not hide the typo.
 */
/**
 * The commands a mistyped command line probably meant: a bare verb (`maestro promote`) names every
 * command ending in it; otherwise the closest command by edit distance, if any is close.
 */
export function suggestions(words: string[]): string[] {
  const first = words[0];
  const nouns = new Set(COMMANDS.filter((e) => e.path.length > 1).map((e) => e.path[0]));
  if (first && !nouns.has(first)) {
    const byVerb = COMMANDS.filter((e) => e.path.length > 1 && e.path[e.path.length - 1] === first);
    if (byVerb.length > 0) return byVerb.map((e) => e.path.join(' '));
  }
  const guess = suggest(words);
  return guess ? [guess] : [];
}

export function suggest(words: string[]): string | null {
  let best: { name: string; d: number; len: number } | null = null;
  for (const e of COMMANDS) {
    const name = e.path.join(' ');
    const typed = words.slice(0, e.path.length).join(' ');
    const d = distance(typed, name);
    if (!best || d < best.d) best = { name, d, len: typed.length };
  }
  return best && best.d <= Math.max(2, Math.floor(best.len / 3)) ? best.name : null;
}

export { commandsUnder };
