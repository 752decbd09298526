import { isMaestroError } from '@maestro/core';
import { describe, expect, test } from 'vitest';
import { BUILTIN_RULES, changeRules, checkMemoryText, DEFAULT_RULES } from './rules.js';

const at = '2026-01-01T00:00:00.000Z';

function refusal(fn: () => void) {
  try {
    fn();
  } catch (err) {
    if (isMaestroError(err)) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('never-rules refuse at write time', () => {
  const secrets: [string, string][] = [
    ['builtin-private-key', 'key is -----BEGIN RSA PRIVATE KEY----- MIIEow'],
    ['builtin-aws-key', 'deploy with AKIAIOSFODNN7EXAMPLE please'],
    ['builtin-token', 'use ghp_abcdefghijklmnopqrstuvwxyz0123456789 for the api'],
    ['builtin-token', 'openai key sk-proj_abcdefghijklmnopqrstuv'],
    ['builtin-jwt', 'bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N'],
    ['builtin-assignment', 'staging password: hunter2222'],
    ['builtin-assignment', 'API_KEY=abcd1234efgh'],
    ['builtin-url-credentials', 'connect to postgres://admin:s3cret@db.internal/app'],
  ];
  test.each(secrets)('%s refuses a secret (exit 1), naming the rule and not the secret', (rule, text) => {
    const err = refusal(() => checkMemoryText(DEFAULT_RULES, 'experience', text));
    expect(err.code).toBe('MEMORY_REFUSED_BY_RULE');
    expect(err.exitCode).toBe(1);
    expect(err.message).toContain(rule);
    for (const secret of ['hunter2222', 'AKIAIOSFODNN7EXAMPLE', 's3cret', 'abcd1234efgh']) {
      expect(`${err.message} ${err.hint}`).not.toContain(secret);
    }
  });

  test('ordinary facts pass, including ones that mention passwords without one', () => {
    for (const text of [
      'The user chose plan B for billing',
      'Password resets go through the support portal',
      'the token lifetime is 15 minutes',
    ]) {
      expect(() => checkMemoryText(DEFAULT_RULES, 'decision', text)).not.toThrow();
    }
  });

  test('a user pattern refuses with its own reason; the built-in rules still apply alongside', () => {
    const rules = changeRules(DEFAULT_RULES, { never: ['customer-[0-9]{6}'], reason: 'no customer ids' }, at);
    const err = refusal(() => checkMemoryText(rules, 'experience', 'Customer-123456 asked for a refund'));
    expect(err.message).toContain('R-1');
    expect(err.message).toContain('no customer ids');
    expect(() => checkMemoryText(rules, 'experience', 'secret = abcdef')).toThrow(/builtin-assignment/);
  });

  test('a kind the rules do not remember is refused (exit 1) with the command that allows it', () => {
    const rules = changeRules(DEFAULT_RULES, { remember: ['decision'] }, at);
    const err = refusal(() => checkMemoryText(rules, 'preference', 'likes tabs'));
    expect(err.code).toBe('MEMORY_KIND_NOT_REMEMBERED');
    expect(err.exitCode).toBe(1);
    expect(err.hint).toContain('--remember decision,preference');
  });
});

describe('rules set', () => {
  test('an invalid pattern is bad input (exit 2) and nothing is kept', () => {
    const err = refusal(() => changeRules(DEFAULT_RULES, { never: ['ok', '(unclosed'] }, at));
    expect(err.code).toBe('INVALID_RULE_PATTERN');
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain('(unclosed');
  });

  test('ids grow, drop removes one, built-in rules cannot be dropped, unknown kinds are refused', () => {
    let rules = changeRules(DEFAULT_RULES, { never: ['a+', 'b+'] }, at);
    expect(rules.never.map((r) => r.id)).toEqual(['R-1', 'R-2']);
    rules = changeRules(rules, { drop: ['R-1'], never: ['c+'] }, at);
    expect(rules.never.map((r) => r.id)).toEqual(['R-2', 'R-3']);
    expect(refusal(() => changeRules(rules, { drop: [BUILTIN_RULES[0].id] }, at)).hint).toContain('cannot be dropped');
    expect(refusal(() => changeRules(rules, { remember: ['gossip'] }, at)).code).toBe('INVALID_KIND');
  });
});
