// Deterministic generator of a realistic maestro-flow `.workflow/` corpus for benchmarks.
//
//   import { generateCorpus } from './lib/gen-corpus.mjs';
//   const info = generateCorpus(root, { entries: 10_000, lang: 'en', seed: 1 });
//
// Writes <root>/.workflow/specs/*.md (the 7 seed files with frontmatter, spec entries spread over
// the 7 categories in the maestro-flow writer format) and <root>/.workflow/knowhow/*.md (one
// document per 50 entries, at least 1). Mix modelled on the real-world corpus: ~40% of entries
// without a sid, ~25% without a title attribute, ~3% deprecated with supersede links on both
// sides, ~0.5% contested, a few legacy `### [category] [date] title` entries, CJK text for 'zh'.
// Same seed → same bytes. Returns { root, specEntries, knowhowDocs, files, bytes, sids }.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CATEGORY_FILES = {
  coding: 'coding-conventions.md',
  arch: 'architecture-constraints.md',
  debug: 'debug-notes.md',
  test: 'test-conventions.md',
  review: 'review-standards.md',
  learning: 'learnings.md',
  ui: 'ui-conventions.md',
};
const CATEGORIES = Object.keys(CATEGORY_FILES);
const WEIGHTS = [0.17, 0.45, 0.07, 0.03, 0.04, 0.2, 0.04];

const EN = (
  'cache retry timeout lock queue index schema migration token session auth jwt utc timezone ' +
  'logger metrics trace span batch stream buffer parser encoder socket pool worker thread mutex ' +
  'deadline backoff idempotent replay journal snapshot checksum hash shard replica leader follower ' +
  'config secret env flag rollout canary deploy build bundle lint format test fixture mock stub ' +
  'render layout theme button modal form input validation error boundary fallback gateway router ' +
  'handler middleware endpoint payload request response header cookie cors csrf sql orm query ' +
  'transaction isolation deadlock vacuum partition ttl eviction latency throughput budget quota'
).split(' ');
const ZH = (
  '缓存 重试 超时 锁 队列 索引 模式 迁移 令牌 会话 认证 时区 日志 指标 追踪 批处理 数据流 缓冲 ' +
  '解析器 编码 连接池 线程 互斥 截止 退避 幂等 重放 日志 快照 校验 哈希 分片 副本 主节点 配置 ' +
  '密钥 环境 开关 灰度 部署 构建 打包 测试 夹具 模拟 渲染 布局 主题 按钮 弹窗 表单 输入 校验 ' +
  '错误 边界 回退 网关 路由 处理器 中间件 接口 负载 请求 响应 事务 隔离 死锁 分区 淘汰 延迟 吞吐 配额'
).split(' ');

/** Seeded xorshift32 in [0, 1): the benchmarks' one source of reproducible randomness. */
export function rng(seed) {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

const esc = (v) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function seedHeader(category, file) {
  const title = file
    .replace('.md', '')
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
  return `---\ntitle: "${title}"\nreadMode: optional\npriority: medium\ncategory: ${category}\nkeywords:\n  - ${category}\n---\n\n# ${title}\n\n## Entries\n\n`;
}

export function generateCorpus(root, { entries = 10_000, lang = 'en', seed = 1 } = {}) {
  const r = rng(seed);
  const words = lang === 'zh' ? ZH : EN;
  const sep = lang === 'zh' ? '' : ' ';
  const pick = () => words[Math.floor(r() * words.length)];
  const phrase = (n) => Array.from({ length: n }, pick).join(sep);
  const specs = join(root, '.workflow', 'specs');
  const knowhow = join(root, '.workflow', 'knowhow');
  mkdirSync(specs, { recursive: true });
  mkdirSync(knowhow, { recursive: true });
  const bodies = Object.fromEntries(CATEGORIES.map((c) => [c, [seedHeader(c, CATEGORY_FILES[c])]]));
  const sids = [];
  const chooseCategory = () => {
    let x = r();
    for (let i = 0; i < CATEGORIES.length; i++) {
      x -= WEIGHTS[i];
      if (x < 0) return CATEGORIES[i];
    }
    return 'learning';
  };
  const blocks = [];
  for (let i = 0; i < entries; i++) {
    const category = chooseCategory();
    const day = String(1 + (i % 28)).padStart(2, '0');
    const month = String(5 + (Math.floor(i / 28) % 5)).padStart(2, '0');
    const date = `2026-${month}-${day}`;
    const hasSid = r() > 0.4;
    const sid = hasSid ? `S-2026${month}${day}-${i.toString(36).padStart(4, '0')}` : null;
    const title = `${phrase(3 + Math.floor(r() * 4))}${sep}#${i}`;
    const content = Array.from({ length: 1 + Math.floor(r() * 3) }, () => `${phrase(12 + Math.floor(r() * 25))}.`).join(
      '\n\n',
    );
    const keywords = Array.from({ length: 2 + Math.floor(r() * 4) }, pick);
    blocks.push({ category, date, sid, title, content, keywords, withTitle: r() > 0.25, extra: {} });
    if (sid) sids.push({ sid, index: blocks.length - 1 });
  }
  // Supersession chains on both sides, and a few contested entries.
  for (let k = 0; k + 1 < sids.length && k < sids.length * 0.06; k += 2) {
    const [a, b] = [blocks[sids[k].index], blocks[sids[k + 1].index]];
    a.extra['superseded-by'] = b.sid;
    a.extra.status = 'deprecated';
    b.extra.supersedes = a.sid;
  }
  for (let k = 0; k < blocks.length; k += 200) {
    Object.assign(blocks[k].extra, {
      confidence: 'contested',
      'conflict-marker': `CMK-20260601-${k.toString(36).padStart(4, '0')}`,
      'conflict-note': 'disputed',
      'conflict-date': '2026-06-01',
    });
  }
  for (const [i, b] of blocks.entries()) {
    if (i % 997 === 996) {
      bodies[b.category].push(`### [${b.category}] [${b.date}] ${b.title}\n\n${b.content}\n\n`);
      continue;
    }
    let tag = `<spec-entry category="${b.category}" keywords="${esc(b.keywords.join(','))}" date="${b.date}"`;
    if (b.sid) tag += ` sid="${b.sid}"`;
    if (b.withTitle) tag += ` title="${esc(b.title)}"`;
    tag += ` source="bench@${((i * 2654435761) >>> 0).toString(16).slice(0, 7)}"`;
    for (const [k, v] of Object.entries(b.extra)) tag += ` ${k}="${esc(v)}"`;
    bodies[b.category].push(`${tag}>\n\n### ${b.title}\n\n${b.content}\n\n</spec-entry>\n\n`);
  }
  let bytes = 0;
  const files = [];
  for (const c of CATEGORIES) {
    const text = bodies[c].join('');
    writeFileSync(join(specs, CATEGORY_FILES[c]), text);
    bytes += Buffer.byteLength(text);
    files.push(`specs/${CATEGORY_FILES[c]}`);
  }
  const knowhowDocs = Math.max(1, Math.floor(entries / 50));
  const types = [
    ['tip', 'TIP'],
    ['recipe', 'RCP'],
    ['reference', 'REF'],
    ['decision', 'DCS'],
    ['document', 'DOC'],
  ];
  for (let i = 0; i < knowhowDocs; i++) {
    const [type, prefix] = types[i % types.length];
    const title = `${phrase(4)}${sep}#${i}`;
    const name = `${prefix}-202606${String(1 + (i % 28)).padStart(2, '0')}-doc-${i}.md`;
    const body = Array.from({ length: 3 + Math.floor(r() * 6) }, () => `${phrase(20 + Math.floor(r() * 30))}.`).join(
      '\n\n',
    );
    const text = `---\ntitle: ${JSON.stringify(title)}\ntype: ${type}\ncreated: "2026-06-01T10:00:00.000Z"\nkeywords:\n  - ${pick()}\n  - ${pick()}\ntags: []\n---\n\n# ${title}\n\n${body}\n`;
    writeFileSync(join(knowhow, name), text);
    bytes += Buffer.byteLength(text);
    files.push(`knowhow/${name}`);
  }
  return { root, specEntries: entries, knowhowDocs, files, bytes, sids: sids.map((s) => s.sid) };
}
