import { request } from 'node:http';
import { candidateId, fixedRuntime } from '@maestro/core';
import { type WorkflowLayout, workflowLayout } from '@maestro/fs';
import { reconcileSession } from '@maestro/reconcile';
import { sessionTree, tmpProject } from '@maestro/test-utils';
import { type ReviewServer, startReviewServer } from './server.js';

/** Test fixtures: a reconciled project with a conflict, a duplicate, a unique and an HTML-laden candidate. */

export const S = '20260102-review';
export const R1 = '20260102-001-plan';
export const R2 = '20260102-002-build';
export const NOW = '2026-03-04T05:06:07.000Z';
export const runtime = () => fixedRuntime(NOW, { stepMs: 1000 });

export const LOGGER_SID = 'S-20260101-lg01';
export const WINSTON = 'Use winston for application logging.';
export const PARAPHRASE = 'Persist every date-time value as Coordinated Universal Time.';
export const FLAGS = 'Remove feature flags within two sprints after full rollout.';
export const HOSTILE = 'Never echo <script>alert(1)</script> or </textarea><b>bold</b> from input into a page.';
export const cid = (content: string) => candidateId('spec', content);

function entry(sid: string, title: string, content: string, category = 'coding'): string {
  return `<spec-entry category="${category}" keywords="${category}" date="2026-01-01" sid="${sid}" title="${title}">\n\n### ${title}\n\n${content}\n\n</spec-entry>\n`;
}

export const SPEC_FILE = `# Coding\n\n## Entries\n\n${[
  entry(LOGGER_SID, 'Logger', 'Use pino for application logging.'),
  entry('S-20260101-utc1', 'UTC', 'Store all timestamps in UTC.'),
].join('\n')}`;

export async function reviewProject(): Promise<{ root: string; layout: WorkflowLayout }> {
  const root = tmpProject({
    '.workflow/specs/coding-conventions.md': SPEC_FILE,
    ...sessionTree({
      sessionId: S,
      runs: [
        {
          runId: R1,
          candidates: [
            { content: WINSTON, title: 'Logger' },
            { content: PARAPHRASE, title: 'Time' },
            { content: HOSTILE, title: 'Escape <b>user</b> text' },
          ],
        },
        {
          runId: R2,
          candidates: [
            { content: PARAPHRASE, title: 'Time' },
            { content: FLAGS, title: 'Flags' },
          ],
        },
      ],
    }),
  });
  const layout = workflowLayout(root);
  await reconcileSession(layout, S, { refresh: true }, runtime());
  return { root, layout };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request, so tests can send any Host, Origin or Cookie (fetch forbids some of them). */
export function raw(
  server: ReviewServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** A logged-in page client: exchanges the one-time token, then GETs and POSTs with fetch like a browser. */
export interface Client {
  server: ReviewServer;
  cookie: string;
  get(path: string): Promise<Response>;
  post(path: string, fields: [string, string][], headers?: Record<string, string>): Promise<Response>;
  csrf(): Promise<string>;
}

export async function serve(layout: WorkflowLayout): Promise<Client> {
  const server = await startReviewServer(layout, { runtime: runtime() });
  const first = await fetch(server.url, { redirect: 'manual' });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const client: Client = {
    server,
    cookie,
    get: (path) => fetch(`${server.origin}${path}`, { headers: { cookie }, redirect: 'manual' }),
    post: (path, fields, headers = {}) =>
      fetch(`${server.origin}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: server.origin, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      }),
    csrf: async () => {
      const html = await (await client.get(`/session/${S}`)).text();
      return /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    },
  };
  return client;
}

/** The hidden corpus fingerprint the session page's forms carry. */
export async function pageFingerprint(c: Client): Promise<string> {
  const html = await (await c.get(`/session/${S}`)).text();
  return /name="fp" value="([^"]+)"/.exec(html)?.[1] ?? '';
}
