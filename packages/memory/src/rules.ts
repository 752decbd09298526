import { inputError, maxOf, refusedError } from '@maestro/core';
import { MEMORY_KINDS, type MemoryKind, type MemoryRules, type NeverRule } from './schemas.js';

/**
 * "Never store secrets": always applied, whatever rules.json says. Patterns of common credential
 * shapes; a rule names the shape, never the matched text, so a refusal does not echo the secret.
 */
export const BUILTIN_RULES: readonly NeverRule[] = [
  {
    id: 'builtin-private-key',
    pattern: '-----BEGIN [A-Z ]*PRIVATE KEY-----',
    reason: 'never store secrets: a private key',
  },
  {
    id: 'builtin-aws-key',
    pattern: '\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b',
    reason: 'never store secrets: an AWS access key',
  },
  {
    id: 'builtin-token',
    pattern:
      '\\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35})',
    reason: 'never store secrets: an API token',
  },
  {
    id: 'builtin-jwt',
    pattern: '\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}',
    reason: 'never store secrets: a JSON web token',
  },
  {
    id: 'builtin-assignment',
    pattern:
      '\\b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)\\b\\s*[:=]\\s*\\S{4,}',
    reason: 'never store secrets: a password or key assignment',
  },
  {
    id: 'builtin-url-credentials',
    pattern: '[a-z][a-z0-9+.-]*://[^\\s/:@]+:[^\\s/@]+@',
    reason: 'never store secrets: credentials in a URL',
  },
];

export const DEFAULT_RULES: MemoryRules = {
  schema_version: 'maestro-memory-rules/1.0',
  remember: [...MEMORY_KINDS],
  never: [],
  updated_at: null,
};

/** Compiles a user pattern; an invalid one is bad input (exit 2) naming it. */
export function compileRule(rule: NeverRule): RegExp {
  try {
    return new RegExp(rule.pattern, 'iu');
  } catch (err) {
    throw inputError('INVALID_RULE_PATTERN', `rule ${rule.id}: "${rule.pattern}" is not a valid regular expression`, {
      hint: `fix the pattern (${(err as Error).message.replace(/^Invalid regular expression: /, '')})`,
    });
  }
}

/**
 * Refuses (exit 1) text that a never-rule matches or a kind the rules do not remember. Pure.
 * The error names the rule and its reason, never the matched text.
 */
export function checkMemoryText(rules: MemoryRules, kind: MemoryKind, text: string): void {
  if (!rules.remember.includes(kind)) {
    throw refusedError('MEMORY_KIND_NOT_REMEMBERED', `the memory rules do not remember kind "${kind}"`, {
      hint: `remember it with \`maestro memory rules set --remember ${[...rules.remember, kind].join(',')}\`, or pick another --kind`,
      details: { rule: 'remember', kind },
    });
  }
  for (const rule of [...BUILTIN_RULES, ...rules.never]) {
    if (compileRule(rule).test(text)) {
      throw refusedError(
        'MEMORY_REFUSED_BY_RULE',
        `refused by memory rule ${rule.id}: ${rule.reason}; nothing was stored`,
        {
          hint: rule.id.startsWith('builtin-')
            ? 'remove the secret from the text (store where it lives, e.g. "the key is in the vault under X"), then retry'
            : `remove what the rule forbids, or drop the rule with \`maestro memory rules set --drop ${rule.id}\``,
          details: { rule: rule.id },
        },
      );
    }
  }
}

export interface RulesChange {
  remember?: readonly string[];
  never?: readonly string[];
  reason?: string;
  drop?: readonly string[];
}

/** Applies `rules set` options to the current rules (pure); every pattern is checked before anything is kept. */
export function changeRules(current: MemoryRules, change: RulesChange, at: string): MemoryRules {
  let remember = current.remember;
  if (change.remember !== undefined) {
    const bad = change.remember.filter((k) => !(MEMORY_KINDS as readonly string[]).includes(k));
    if (bad.length > 0 || change.remember.length === 0) {
      throw inputError(
        'INVALID_KIND',
        `--remember takes kinds among ${MEMORY_KINDS.join(', ')} (got "${bad.join(', ') || '(none)'}")`,
        {
          hint: 'e.g. --remember decision,preference',
        },
      );
    }
    remember = [...new Set(change.remember)] as MemoryKind[];
  }
  const drop = new Set(change.drop ?? []);
  for (const id of drop) {
    if (!current.never.some((r) => r.id === id)) {
      const builtin = BUILTIN_RULES.some((r) => r.id === id);
      throw inputError('UNKNOWN_RULE', `no rule ${id} to drop`, {
        hint: builtin ? 'built-in secret rules cannot be dropped' : 'see the rule ids with `maestro memory rules show`',
      });
    }
  }
  const never = current.never.filter((r) => !drop.has(r.id));
  let next =
    1 +
    maxOf(
      current.never.map((r) => Number(r.id.slice(2)) || 0),
      0,
    );
  for (const pattern of change.never ?? []) {
    const rule: NeverRule = { id: `R-${next++}`, pattern, reason: change.reason?.trim() || 'never remember this' };
    compileRule(rule);
    never.push(rule);
  }
  return { schema_version: 'maestro-memory-rules/1.0', remember, never, updated_at: at };
}
