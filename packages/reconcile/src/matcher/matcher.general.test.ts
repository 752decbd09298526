import { describe, expect, it } from 'vitest';
import { analyzeText } from './analyze.js';
import { comparePair, numericMismatch } from './compare.js';
import { buildIndex, RARITY_MIN_DOCS, rarityOf, rarityWeight } from './corpus-index.js';
import { entry, judge } from './matcher.fixture.js';
import { reconcile } from './reconcile.js';
import { stem } from './stem.js';
import { exactKey } from './text.js';

/**
 * Rules added for real-world entries (long, multi-clause, code identifiers, mixed languages):
 * each rule in English and Chinese where it applies.
 */

const stances = (t: string) => analyzeText(t).clauses.map((c) => c.stance);
const review = (d: string) => d !== 'related' && d !== 'unique';

describe('exact-duplicate key: formatting is not wording', () => {
  it.each([
    ['spacing around punctuation', 'Use UTC, always.', 'Use UTC , always .'],
    ['terminal punctuation', 'Store timestamps in UTC.', 'Store timestamps in UTC'],
    ['markdown emphasis', '**Never** commit secrets.', 'Never commit secrets.'],
    ['spaces between CJK and Latin (pangu)', '日志使用 JSON 格式', '日志使用JSON格式'],
    ['CJK corner quotes', '格式为「类型: 描述」', '格式为"类型: 描述"'],
    ['full-width punctuation', '提交前运行 lint；失败则停止', '提交前运行 lint;失败则停止'],
  ])('%s', (_, a, b) => {
    expect(exactKey(a)).toBe(exactKey(b));
  });

  it('keeps the space between two words', () => {
    expect(exactKey('log in')).not.toBe(exactKey('login'));
  });
});

describe('identifiers and code', () => {
  it('matches a dotted identifier with its member (el.innerHTML ~ innerHTML)', () => {
    const terms = analyzeText('Never assign to el.innerHTML directly.').terms;
    expect(terms.has('w:innerhtml')).toBe(true);
  });

  it('ignores cue words inside inline code (`pragma: no cover` is not a negation)', () => {
    expect(stances('Use `pragma: no cover` only for unreachable paths.')).toEqual(['pos']);
    expect(stances('仅在不可达路径使用 `pragma: no cover`。')).toEqual(['pos']);
  });

  it('reads standards with a number as one word (ISO 8601, RFC 7807)', () => {
    const v = judge('接口时间一律使用 ISO 8601 格式。', [entry('S-1', '时间', '接口时间统一采用 ISO-8601 格式。')]);
    expect(v.disposition).not.toBe('potential_conflict');
  });

  it('stems only own keys (constructor is a word, not Object)', () => {
    expect(stem('constructor')).toBe('constructor');
  });

  it('reads pre-release versions as versions (4.2.0b3 vs 4.1.0)', () => {
    const v = judge('DrissionPage 当前已验证版本为 4.1.0。', [
      entry('S-1', '版本', 'DrissionPage 当前已验证版本为 4.2.0b3。'),
    ]);
    expect(v.disposition).toBe('potential_conflict');
  });
});

describe('long entries: a candidate inside a longer entry', () => {
  const long = entry(
    'S-1',
    'Network requests',
    'Native fetch has no default timeout and can hang forever. Every network request needs an AbortController ' +
      'timeout of 15 seconds and exponential backoff retries. Auth errors (401/403) are never retried. ' +
      'Timers must be cleared before they are set again.',
  );

  it('is a duplicate when everything it says is in the entry (EN)', () => {
    const v = judge('Network requests need an AbortController timeout of 15 seconds.', [long]);
    expect(v.disposition).toBe('semantic_duplicate');
  });

  it('is a duplicate when everything it says is in the entry (ZH)', () => {
    const zh = entry(
      'S-2',
      '网络请求',
      '原生 fetch 无默认超时会无限挂起。所有网络请求都要用 AbortController 设置 15 秒超时，并做指数退避重试。' +
        '鉴权错误不重试。定时器重新设置前必须先清理。',
    );
    expect(review(judge('网络请求都要用 AbortController 设置 15 秒超时。', [zh]).disposition)).toBe(true);
  });

  it('finds a changed value inside the long entry (30 s vs 15 s)', () => {
    expect(judge('Every network request needs an AbortController timeout of 30 seconds.', [long]).disposition).toBe(
      'potential_conflict',
    );
  });

  it('is related (eligible) when it shares the topic but says something else', () => {
    const v = judge('Responses larger than 5 MB must be streamed instead of parsed at once by network request code.', [
      long,
    ]);
    expect(v.promotion_eligibility).toBe('eligible');
  });

  it('is related, not unique, when it shares several words of a long entry', () => {
    const v = judge('WebSocket servers send a ping every 30 seconds and drop clients that miss two pongs.', [
      entry(
        'S-3',
        'Backpressure',
        'When a WebSocket client consumes slower than the server sends, the buffer grows until memory runs out. ' +
          'In sendToClient(), skip the send and warn when client.ws.bufferedAmount exceeds 16 KB.',
      ),
    ]);
    expect(v.disposition).toBe('related');
  });

  it('reads a candidate that restates one rule of a long entry and adds others as an extension', () => {
    const v = judge(
      'Every value interpolated into innerHTML must go through escapeHtml first. Enable the no-unsanitized ESLint rule in CI and block unescaped innerHTML assignments in review.',
      [
        entry(
          'S-1',
          'escapeHtml',
          'Interpolations into innerHTML are easy to miss. Every value interpolated into innerHTML must go through ' +
            'escapeHtml, static literals excepted. escapeHtml is a pure string replacement on the hot path. ' +
            'Fixed four XSS spots in v3.7.7 (model option, site UI, event template icon, security hint).',
        ),
      ],
    );
    expect(v.disposition).toBe('extends');
  });

  it('sends a short candidate mostly inside an entry to review (ZH)', () => {
    const v = judge('配置项可以直接写在代码里。', [
      entry('S-1', '配置', '配置项只能从环境变量读取，不得写死在代码里。'),
    ]);
    expect(v.promotion_eligibility).toBe('review_required');
  });

  it('reads "also / 此外" as an extension, its absence as a restatement', () => {
    const corpus = [entry('S-1', 'Redis', long.content)];
    const also = judge(
      'Every network request needs an AbortController timeout and backoff retries; also add random jitter of 20% to each delay.',
      corpus,
    );
    expect(also.disposition).toBe('extends');
    expect(analyzeText('此外还要补一条单测。').adds).toBe(true);
    expect(analyzeText('Use pino.').adds).toBe(false);
  });
});

describe('stance', () => {
  it('does not let a long descriptive sentence contradict a stated rule', () => {
    const v = judge('Never rely on the process working directory for SQLite paths.', [
      entry(
        'S-1',
        'SQLite paths',
        'The root cause was that a native client changed the process working directory while loading a DLL, ' +
          'so SQLite paths resolved against it created an empty database in the tools folder next to the DLL.',
      ),
    ]);
    expect(v.disposition).not.toBe('potential_conflict');
  });

  it('flags a permission against a stated prohibition of the same thing (EN, ZH)', () => {
    expect(
      judge('Deploys to production are allowed on Fridays.', [
        entry('S-1', 'Fridays', 'Never deploy to production on Fridays.'),
      ]).disposition,
    ).toBe('potential_conflict');
    expect(judge('周五可以发布到生产环境。', [entry('S-1', '周五', '周五禁止发布到生产环境。')]).disposition).toBe(
      'potential_conflict',
    );
  });

  it('flags opposite stated stances about the same named thing', () => {
    const v = judge('Use aria-hidden on focusable controls that are visually hidden.', [
      entry('S-1', 'a11y', 'Never use aria-hidden on keyboard-focusable interactive elements.'),
    ]);
    expect(v.disposition).toBe('potential_conflict');
  });

  it('starts a new clause at "and" + a flip verb (log a warning and skip the send)', () => {
    expect(stances('Log a warning and skip the send.')).toEqual(['pos', 'neg']);
  });

  it('lets a flip verb late in a clause without a stance govern only what follows', () => {
    expect(stances('Set a flag first and have the exit callback skip cleanup.')).toEqual(['pos', 'neg']);
    expect(stances('Tests must not skip the database.')).toEqual(['pos']);
  });

  it('reads 没有 as a negation and 缺一不可 as a word, not a prohibition', () => {
    expect(stances('jsdom 里没有 navigator.clipboard。')).toEqual(['neg']);
    expect(stances('三道校验缺一不可。')).toEqual(['pos']);
  });

  it('does not read a Chinese description with a verb mid-sentence as a stated rule', () => {
    const [clause] = analyzeText('流式响应已发送 header 后 catch 块二次 writeHead 导致报错。').clauses;
    expect(clause.explicit).toBe(false);
    expect(analyzeText('禁止在 catch 里再次 writeHead。').clauses[0].explicit).toBe(true);
  });

  it('does not take a ticket id for the subject of a contradiction', () => {
    const v = judge('The three checks are enforced for every endpoint (SEC-001).', [
      entry('S-1', 'Checks', 'Review SEC-001 found the checks missing; none may be skipped.'),
    ]);
    expect(v.disposition).not.toBe('potential_conflict');
  });

  it('keeps "X, never Y" affirmative for X', () => {
    expect(stances('Passwords are stored hashed, never in plain text.')).toEqual(['pos', 'neg']);
  });

  it('reads Chinese and English as alternatives: "commit in Chinese" agrees with "no English commits"', () => {
    const v = judge('英文提交信息不被接受。', [entry('S-1', '提交', 'commit message 必须使用中文。')]);
    expect(v.disposition).not.toBe('potential_conflict');
  });

  it('lets a longer Chinese word win over a two-character cue it overlaps (从不可信 is not 从不)', () => {
    expect(analyzeText('从不可信 HTML 提取文本').clauses.map((c) => c.stance)).toEqual(['pos']);
  });
});

describe('choices and values', () => {
  it('flags another member of an alternative the entry chose (EN, ZH)', () => {
    const dompurify = entry(
      'S-1',
      'XSS',
      'Sanitize the output of marked.parse with DOMPurify; hand-written regexes miss event-handler injection.',
    );
    expect(
      judge('Sanitize the output of marked.parse with the js-xss library; regexes miss injection vectors.', [dompurify])
        .disposition,
    ).toBe('potential_conflict');
    expect(judge('缩进使用 Tab。', [entry('S-2', '缩进', '缩进统一用两个空格。')]).disposition).toBe(
      'potential_conflict',
    );
  });

  it('finds the conflict when only the chosen tool and a scope word are shared (Jest vs Vitest in unit tests)', () => {
    expect(judge('Use Jest for unit tests.', [entry('S-1', 'Tests', 'Unit tests run on Vitest.')]).disposition).toBe(
      'potential_conflict',
    );
    expect(judge('单元测试使用 Jest。', [entry('S-1', '测试', '单元测试统一使用 Vitest。')]).disposition).toBe(
      'potential_conflict',
    );
  });

  it('reads counted things as topic words (two approvals vs one approval)', () => {
    expect(
      judge('Code review requires two approvals.', [entry('S-1', 'Review', 'Every pull request needs one approval.')])
        .disposition,
    ).toBe('potential_conflict');
  });

  it('compares plain numbers only one to one, not inside formulas', () => {
    const n = (value: number) => ({ dim: 'n', value, bound: 'eq' as const, text: `${value}` });
    expect(numericMismatch([n(1000), n(2)], [n(15000), n(1000), n(1)])).toBeNull();
    expect(numericMismatch([n(18)], [n(20)])).toBe('18 vs 20');
  });

  it('compares values of the same named identifier inside long clauses', () => {
    const v = judge('AlertDeduplicator uses a sliding window of 15 minutes.', [
      entry(
        'S-1',
        'Alerts',
        '所有生产告警必须通过 AlertManager.send_routed() 发送，路由矩阵决定目标通道；' +
          'AlertDeduplicator 滑动窗口去重（默认 5 分钟）防止重复轰炸，P1 告警 5 分钟内通知。',
      ),
    ]);
    expect(v.disposition).toBe('potential_conflict');
  });

  it('reads expanded / collapsed as alternatives', () => {
    const v = judge('New panels should be expanded by default.', [
      entry('S-1', 'Panels', 'New panels default to collapsed.'),
    ]);
    expect(v.disposition).toBe('potential_conflict');
  });

  it('checks the entry title for what a replacement replaces', () => {
    const v = judge('Use NUnit instead of xUnit for new test projects.', [
      entry('S-1', 'xUnit + FluentAssertions 行为命名', '测试类命名为 {Subject}Tests，断言使用 Should() 风格。'),
    ]);
    expect(v.disposition).toBe('supersede_candidate');
  });
});

describe('actions', () => {
  it('lets a contest name a long entry that says what it contests', () => {
    const v = judge(
      'Registering slash commands as a flat array of command objects should be reconsidered.',
      [
        entry(
          'S-1',
          'Slash commands',
          'Slash command menu items are registered as a flat array of command objects, each with a title, a ' +
            'description, an editor command and an optional icon. Extensions push their commands to this array ' +
            'during initialization, which keeps commands self-documenting and avoids hard-coding them.',
        ),
      ],
      { action: 'contest' },
    );
    expect(v.disposition).toBe('potential_conflict');
  });
});

describe('scope', () => {
  it('is not a scope variant when the candidate says much else besides', () => {
    const v = judge(
      'Persistent storage keys need a TTL or a size cap; register every new key in docs/storage-keys.md with its limit and add an eviction unit test.',
      [
        entry(
          'S-1',
          'Keys',
          'Persistent storage keys need a TTL or a size cap; evict expired entries before flushing.',
        ),
      ],
    );
    expect(v.promotion_eligibility).toBe('review_required');
  });

  it('does not treat a named scope the other side mentions as a different place', () => {
    const a = analyzeText('The MathView component loads KaTeX on mount.');
    const b = analyzeText('MathView 挂载时才加载 KaTeX。');
    expect(comparePair(b, a).scope).not.toBe('disjoint');
  });

  it('does not take lists or calls for paths', () => {
    expect([...analyzeText('Auth errors (401/403/invalid) are not retried.').scopes]).toEqual([]);
    expect([...analyzeText('Call response.json() once.').scopes]).toEqual([]);
    expect([...analyzeText('Types are feat/fix/refactor/docs/test/chore.').scopes]).toEqual([]);
  });

  it('names Chinese scopes only before service-like nouns, never with a modifier', () => {
    expect([...analyzeText('通知服务重试 3 次。').scopes]).toEqual(['named:notify']);
    expect([...analyzeText('测试项目位于 tests 目录。').scopes]).not.toContain('named:test');
    expect([...analyzeText('外部服务调用必须加熔断器。').scopes]).toEqual([]);
  });

  it('does not read "staged" as the staging environment', () => {
    expect([...analyzeText('Staged knowledge is never promoted automatically.').scopes]).toEqual([]);
    expect([...analyzeText('In staging, log at debug level.').scopes]).toEqual(['env:staging']);
  });

  it('does not let cited files make an entry narrower than the candidate', () => {
    const c = analyzeText('Each file edited by three or more tasks gets an explicit serial order.');
    const d = analyzeText(
      'Each file edited by three or more tasks gets an explicit serial order. Source: plan.json, index.json.',
    );
    expect(comparePair(c, d).scope).toBe('same');
  });
});

describe('rarity in large corpora', () => {
  it('weighs terms by the share of entries that use them', () => {
    expect(rarityWeight(0.001)).toBe(1);
    expect(rarityWeight(0.05)).toBeLessThan(0.5);
    expect(rarityWeight(0.5)).toBe(0.1);
  });

  it('is off for small corpora and on for large ones', () => {
    const small = buildIndex([entry('S-1', 'a', 'Use pino.')]);
    expect(rarityOf(small)).toBeUndefined();
    const many = Array.from({ length: RARITY_MIN_DOCS }, (_, i) =>
      entry(`S-${i}`, `t${i}`, `Rule ${i} about cache and queue number${i}.`),
    );
    const rarity = rarityOf(buildIndex(many));
    expect(rarity?.('cach')).toBeLessThan(0.2);
    expect(rarity?.('w:number1')).toBeGreaterThan(0.7);
  });

  it('does not send a candidate to review for sharing only common words with a large corpus', () => {
    const words = ['cache', 'queue', 'retry', 'timeout', 'lock', 'index', 'batch', 'stream', 'token', 'session'];
    const corpus = Array.from({ length: 300 }, (_, i) =>
      entry(`S-${i}`, `t${i}`, `${words[i % 10]} ${words[(i + 3) % 10]} ${words[(i + 7) % 10]} for service${i}.`),
    );
    const [v] = reconcile(
      [{ candidate_id: 'K', target: 'spec', title: 'x', content: 'Cache queue retry timeout lock for the importer.' }],
      corpus,
    );
    expect(v.promotion_eligibility).toBe('eligible');
  });
});
