import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { environmentError, isMaestroError, type Runtime, systemRuntime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { findRoute, type Reply } from './routes.js';
import {
  cookieName,
  cookieValue,
  hostAllowed,
  newSecrets,
  originAllowed,
  SECURITY_HEADERS,
  type Secrets,
  same,
  sessionCookie,
} from './security.js';
import { errorPage, type Flash } from './views/layout.js';
import { refreshForm } from './views/session.js';

export interface ReviewServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  runtime?: Runtime;
}

export interface ReviewServer {
  /** Open this once: it carries the one-time token, exchanged for a cookie on first use. */
  url: string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const MAX_BODY = 1024 * 1024;
const MAX_FLASHES = 100;
/** The only static files: public, so refusal pages are styled too. */
const ASSETS: Record<string, { type: string; body: string }> = {
  '/assets/style.css': { type: 'text/css; charset=utf-8', body: asset('style.css') },
  '/assets/icon.svg': { type: 'image/svg+xml', body: asset('icon.svg') },
};

function asset(name: string): string {
  return readFileSync(new URL(`../assets/${name}`, import.meta.url), 'utf8');
}

/**
 * `maestro review serve`: the review page on 127.0.0.1 only. Every request passes the Host check;
 * every page needs the session cookie (got once from the URL token); every POST needs the page's
 * own Origin, a form body and the CSRF token. Writes go through the package functions the CLI uses.
 */
export async function startReviewServer(
  layout: WorkflowLayout,
  options: ReviewServerOptions = {},
): Promise<ReviewServer> {
  const secrets = newSecrets();
  const flashes = new Map<string, Flash>();
  const runtime = options.runtime ?? systemRuntime;
  let port = 0;
  const server = createServer((req, res) => {
    handle(req, res, { layout, runtime, secrets, flashes, port }).catch((err) => fail(res, err));
  });
  port = await listen(server, options.port ?? 0);
  const origin = `http://${HOST}:${port}`;
  return {
    url: `${origin}/?token=${secrets.urlToken}`,
    origin,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((done, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const busy = err.code === 'EADDRINUSE';
      reject(
        environmentError(busy ? 'PORT_IN_USE' : 'LISTEN_FAILED', `cannot listen on ${HOST}:${port}: ${err.message}`, {
          hint: busy ? 'pick another port with --port <n>, or leave --port out to take a free one' : undefined,
          cause: err,
        }),
      );
    });
    server.listen(port, HOST, () => {
      const address = server.address();
      done(typeof address === 'object' && address ? address.port : port);
    });
  });
}

interface State {
  layout: WorkflowLayout;
  runtime: Runtime;
  secrets: Secrets;
  flashes: Map<string, Flash>;
  port: number;
}

async function handle(req: IncomingMessage, res: ServerResponse, s: State): Promise<void> {
  if (!hostAllowed(req, s.port))
    return refuse(
      res,
      403,
      'unexpected Host header',
      'open the page at the 127.0.0.1 address `maestro review serve` printed',
    );
  const url = new URL(req.url ?? '/', `http://${HOST}:${s.port}`);
  const file = req.method === 'GET' ? ASSETS[url.pathname] : undefined;
  if (file) return send(res, 200, file.type, file.body);
  const token = url.searchParams.get('token');
  if (token !== null)
    return exchangeToken(res, s, token, url.pathname, same(cookieValue(req, cookieName(s.port)), s.secrets.session));
  if (!same(cookieValue(req, cookieName(s.port)), s.secrets.session)) {
    return refuse(
      res,
      401,
      'this page needs the link `maestro review serve` printed',
      'open that link (it works once), or restart the command for a new one',
    );
  }
  let found: ReturnType<typeof findRoute>;
  try {
    found = findRoute(req.method ?? 'GET', url.pathname);
  } catch {
    return refuse(res, 400, 'malformed address', null);
  }
  if (found === 404) return refuse(res, 404, `no page at ${url.pathname}`, null);
  if (found === 405) return refuse(res, 405, `${req.method} is not allowed on ${url.pathname}`, null);
  let form = new URLSearchParams();
  if (req.method === 'POST') {
    if (!originAllowed(req, s.port))
      return refuse(res, 403, 'refused a request from another origin', 'use the page itself to submit forms');
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return refuse(res, 415, 'expected a form submission', null);
    }
    const body = await readBody(req);
    if (body === null) return refuse(res, 413, 'form too large', null);
    form = new URLSearchParams(body);
    if (!same(form.get('csrf'), s.secrets.csrf))
      return refuse(res, 403, 'the form token is missing or wrong', 'reload the page and submit again');
  }
  const flashId = url.searchParams.get('m');
  const flash = flashId ? (s.flashes.get(flashId) ?? null) : null;
  if (flashId) s.flashes.delete(flashId);
  const reply = await found.route
    .handle({ layout: s.layout, runtime: s.runtime, csrf: s.secrets.csrf, flash, form }, found.param)
    .catch((err) => errorReply(err, url.pathname.startsWith('/session/') ? found.param : null, s.secrets.csrf));
  respond(res, reply, s.flashes);
}

/** The first use of the printed link sets the cookie; reopening it where the cookie is already set just goes on. */
function exchangeToken(res: ServerResponse, s: State, token: string, path: string, hasCookie: boolean): void {
  const secrets = s.secrets;
  if (hasCookie) {
    res.writeHead(303, { ...SECURITY_HEADERS, location: path });
    res.end();
    return;
  }
  if (secrets.urlTokenUsed || !same(token, secrets.urlToken)) {
    refuse(
      res,
      403,
      'this link was already used or is not the one printed',
      'restart `maestro review serve` for a new link',
    );
    return;
  }
  secrets.urlTokenUsed = true;
  res.writeHead(303, {
    ...SECURITY_HEADERS,
    'set-cookie': sessionCookie(cookieName(s.port), secrets.session),
    location: path,
  });
  res.end();
}

function respond(res: ServerResponse, reply: Reply, flashes: Map<string, Flash>): void {
  if (reply.kind === 'page') {
    send(res, reply.status ?? 200, 'text/html; charset=utf-8', reply.html.value);
    return;
  }
  let location = reply.location;
  if (reply.flash) {
    const id = randomBytes(9).toString('base64url');
    flashes.set(id, reply.flash);
    // Messages are shown once; a redirect never followed must not grow the map for ever.
    if (flashes.size > MAX_FLASHES) flashes.delete(flashes.keys().next().value as string);
    location += `?m=${id}`;
  }
  res.writeHead(303, { ...SECURITY_HEADERS, location });
  res.end();
}

/** Receipt problems a refresh fixes: the refusal page then offers the refresh button. */
const REFRESHABLE = new Set(['RECEIPT_CORRUPT', 'RECEIPT_STALE', 'RECEIPT_MISSING']);

/** A refusal by a rule is 409, bad input 400 (404 for an unknown id), anything else 500. */
function errorReply(err: unknown, sessionId: string | null, csrf: string): Reply {
  if (!isMaestroError(err)) throw err;
  const action = sessionId !== null && REFRESHABLE.has(err.code) ? refreshForm(sessionId, csrf, true) : null;
  const status =
    err.exitCode === 1 ? 409 : err.exitCode === 2 ? (/UNKNOWN|NOT_FOUND|NO_SESSION/.test(err.code) ? 404 : 400) : 500;
  // Like the CLI: the place is named when the message does not already say it.
  const loc = err.location;
  const where = loc ? `${loc.file}${loc.line ? `:${loc.line}${loc.column ? `:${loc.column}` : ''}` : ''}` : '';
  const message = where && !err.message.includes(where) ? `${err.message} (at ${where})` : err.message;
  return { kind: 'page', status, html: errorPage(status, message, err.hint ?? null, action) };
}

function fail(res: ServerResponse, err: unknown): void {
  if (res.headersSent) return void res.end();
  const message = err instanceof Error ? err.message : String(err);
  refuse(
    res,
    500,
    `internal error: ${message}`,
    'this is a bug; the terminal running `maestro review serve` may say more',
  );
}

function refuse(res: ServerResponse, status: number, message: string, hint: string | null): void {
  send(res, status, 'text/html; charset=utf-8', errorPage(status, message, hint).value);
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((done, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => done(size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
