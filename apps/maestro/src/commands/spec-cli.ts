import { resolve } from 'node:path';
import { formatIssue, type Issue, inputError, MaestroError, maxOf } from '@maestro/core';
import { readUserFile } from '@maestro/fs';
import type { KnowledgeEntry, WriteOptions } from '@maestro/spec';
import type { CommandContext, ParsedArgs } from '../kit.js';

/** Shared argument handling of the `spec` and `knowhow` commands. */

/** Positionals by name; too few or too many is exit 2 with the usage. */
export function positionals(args: ParsedArgs, names: readonly string[], required: number, usage: string): string[] {
  if (args.positionals.length > names.length) {
    throw inputError('USAGE', `unexpected argument "${args.positionals[names.length]}"`, {
      hint: `usage: ${usage} (quote text that contains spaces)`,
    });
  }
  for (let i = 0; i < required; i++) {
    const v = args.positionals[i];
    if (v === undefined || v.trim() === '') {
      throw inputError('USAGE', `missing <${names[i]}>`, { hint: `usage: ${usage}` });
    }
  }
  return args.positionals;
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function requiredString(args: ParsedArgs, name: string, usage: string): string {
  const v = stringOption(args, name);
  if (v === undefined || v.trim() === '')
    throw inputError('USAGE', `--${name} is required`, { hint: `usage: ${usage}` });
  return v.trim();
}

/** Comma-separated list option (`--keywords a,b`), trimmed and lower-cased, empty items dropped. */
export function listOption(args: ParsedArgs, name: string): string[] {
  const v = stringOption(args, name);
  if (!v) return [];
  return [
    ...new Set(
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** Content from the positional at `index` or `--content-file F|-` (never both). */
export async function readContent(ctx: CommandContext, args: ParsedArgs, index: number): Promise<string> {
  const positional = args.positionals[index];
  const file = stringOption(args, 'content-file');
  if (positional !== undefined && file !== undefined) {
    throw inputError('USAGE', 'pass the content either as an argument or with --content-file, not both', {
      hint: 'drop one of them',
    });
  }
  if (file === '')
    throw inputError('USAGE', '--content-file needs a path, or - for stdin', { hint: 'e.g. --content-file notes.md' });
  if (file === '-') return ctx.readStdin();
  if (file !== undefined) {
    try {
      return readUserFile(resolve(ctx.cwd, file), '--content-file');
    } catch (err) {
      if (err instanceof MaestroError && err.exitCode === 2 && !err.hint) {
        throw inputError(err.code, err.message, {
          hint: 'pass a readable file, or - to read stdin',
          location: err.location,
        });
      }
      throw err;
    }
  }
  return positional ?? '';
}

/** Write options from the environment: `MAESTRO_LOCK_TIMEOUT_MS` bounds how long a write waits for a lock. */
export function writeOptions(ctx: CommandContext): WriteOptions {
  const raw = ctx.env.MAESTRO_LOCK_TIMEOUT_MS;
  if (raw === undefined || raw === '') return {};
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms < 0) {
    throw inputError('BAD_ENV', `MAESTRO_LOCK_TIMEOUT_MS must be a number of milliseconds (got "${raw}")`, {
      hint: 'e.g. MAESTRO_LOCK_TIMEOUT_MS=2000, or unset it for the default 15 s',
    });
  }
  return { lock: { timeoutMs: ms } };
}

/** Parse issues as stderr warning lines: `file:line:col: severity: message (hint)`. */
export function issueWarnings(issues: readonly Issue[]): string[] {
  return issues.map((i) => formatIssue(i));
}

/** The list view of an entry (everything but the content). */
export function entrySummary(e: KnowledgeEntry) {
  return {
    id: e.id,
    store: e.store,
    title: e.title,
    category: e.category,
    keywords: e.keywords,
    description: e.description,
    date: e.date,
    status: e.status,
    confidence: e.confidence,
    supersedes: e.supersedes,
    supersededBy: e.supersededBy,
    ref: e.ref,
    source: e.source,
    file: e.file,
    line: e.line,
    contentHash: e.contentHash,
    legacy: e.legacy,
    hasSid: e.hasSid,
    type: e.type,
    conflict: e.conflict,
  };
}

/** Human lines for one entry (show): one `label: value` per field, values aligned. */
export function entryText(e: KnowledgeEntry): string {
  const where = `.workflow/${e.file}${e.line ? `:${e.line}` : ''}`;
  const flags = [e.status === 'deprecated' ? 'DEPRECATED' : null, e.confidence === 'contested' ? 'CONTESTED' : null]
    .filter(Boolean)
    .join(' ');
  const fields: [string, string][] = [
    ['title', e.title],
    e.store === 'spec' ? ['category', e.category ?? '-'] : ['type', e.type ?? '-'],
    ['keywords', e.keywords.join(', ') || '-'],
    ['date', e.date ?? '-'],
    ['file', where],
  ];
  if (e.description) fields.push(['summary', e.description]);
  if (e.ref)
    fields.push(['ref', `${e.ref}  (maestro knowhow show ${e.ref.replace(/^knowhow\//, '').replace(/\.md$/, '')})`]);
  if (e.supersedes.length) fields.push(['supersedes', e.supersedes.join(', ')]);
  if (e.supersededBy) fields.push(['superseded by', e.supersededBy]);
  if (e.conflict)
    fields.push(['conflict', `${e.conflict.marker} (${e.conflict.date ?? '?'}): ${e.conflict.note ?? ''}`]);
  const width =
    maxOf(
      fields.map(([label]) => label.length),
      0,
    ) + 1;
  const lines = [`${e.id}${flags ? `  [${flags}]` : ''}`, ...fields.map(([l, v]) => `  ${`${l}:`.padEnd(width)} ${v}`)];
  lines.push('', e.content);
  return lines.join('\n');
}

/** Human lines for a supersession chain. */
export function historyText(h: import('@maestro/spec').HistoryResult, command: string): string {
  const lines = [`Evolution chain (${h.chain.length} version${h.chain.length === 1 ? '' : 's'}, oldest → newest):`];
  for (const i of h.chain) {
    const mark = i.current ? '● CURRENT   ' : i.status === 'deprecated' ? '○ deprecated' : '○ active    ';
    lines.push(`  ${mark}  ${i.id}  ${i.title}  (.workflow/${i.file}${i.line ? `:${i.line}` : ''})`);
  }
  for (const b of h.broken) lines.push(`  ! Broken chain: ${b.from} ${b.attribute} ${b.to}, which does not exist`);
  if (h.cyclic) lines.push(`  ! Cycle: the chain loops back on itself; fix the supersedes/superseded-by links`);
  if (!h.chain.some((i) => i.current)) lines.push(`  (no current version; see \`${command}\`)`);
  return lines.join('\n');
}
