import type { Runtime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { previewPromotion } from '@maestro/promote';
import * as act from './actions.js';
import { auditData, backlogData, entryData, sessionData } from './data.js';
import type { Html } from './html.js';
import { auditView } from './views/audit.js';
import { backlogView } from './views/backlog.js';
import { entryView } from './views/entry.js';
import { type Flash, page } from './views/layout.js';
import { promoteView } from './views/promote.js';
import { sessionView } from './views/session.js';

/** What a route hands back: a page, or a redirect after a POST (with a one-time message). */
export type Reply =
  | { kind: 'page'; status?: number; html: Html }
  | { kind: 'redirect'; location: string; flash?: Flash };

export interface RouteContext {
  layout: WorkflowLayout;
  runtime: Runtime;
  csrf: string;
  flash: Flash | null;
  form: URLSearchParams;
}

type Handler = (c: RouteContext, param: string) => Promise<Reply>;

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle: Handler;
}

const view = (title: string, html: Html, c: RouteContext, nav: 'backlog' | 'audit' | null = null): Reply => ({
  kind: 'page',
  html: page({ title, body: html, flash: c.flash, nav }),
});

const sessionPath = (id: string) => `/session/${encodeURIComponent(id)}`;
const back = (id: string, flash: Flash): Reply => ({ kind: 'redirect', location: sessionPath(id), flash });

/** The whole surface: four views, a confirmation, five actions. A session or entry id is one path segment. */
export const ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: /^\/$/,
    handle: async (c) => view('Backlog', backlogView(await backlogData(c.layout, c.runtime)), c, 'backlog'),
  },
  {
    method: 'GET',
    pattern: /^\/session\/([^/]+)$/,
    handle: async (c, id) => view(`Session ${id}`, sessionView(await sessionData(c.layout, id, c.runtime), c.csrf), c),
  },
  {
    method: 'GET',
    pattern: /^\/session\/([^/]+)\/promote$/,
    handle: async (c, id) => {
      const p = await previewPromotion(c.layout, { sessionId: id, all: true }, c.runtime);
      return view(`Promote ${id}`, promoteView(id, p, act.planDigest(p), c.csrf), c);
    },
  },
  {
    method: 'GET',
    pattern: /^\/entry\/([^/]+)$/,
    handle: async (c, id) => view(id, entryView(entryData(c.layout, id)), c),
  },
  {
    method: 'GET',
    pattern: /^\/audit$/,
    handle: async (c) => {
      const { report, backups } = await auditData(c.layout, c.runtime);
      return view('Audit', auditView(report, backups, c.csrf), c, 'audit');
    },
  },
  {
    method: 'POST',
    pattern: /^\/session\/([^/]+)\/resolve$/,
    handle: async (c, id) => back(id, await act.resolveOne(c, id)),
  },
  {
    method: 'POST',
    pattern: /^\/session\/([^/]+)\/batch$/,
    handle: async (c, id) => back(id, await act.resolveBatch(c, id)),
  },
  {
    method: 'POST',
    pattern: /^\/session\/([^/]+)\/refresh$/,
    handle: async (c, id) => back(id, await act.refresh(c, id)),
  },
  {
    method: 'POST',
    pattern: /^\/session\/([^/]+)\/promote$/,
    handle: async (c, id) => back(id, await act.promoteConfirmed(c, id)),
  },
  {
    method: 'POST',
    pattern: /^\/audit\/restore$/,
    handle: async (c) => ({ kind: 'redirect', location: '/audit', flash: await act.restore(c) }),
  },
];

/** The route for a method and path, or why there is none (404 unknown path, 405 wrong method). */
export function findRoute(method: string, path: string): { route: Route; param: string } | 404 | 405 {
  let pathKnown = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (route.method === method) return { route, param: m[1] === undefined ? '' : decodeURIComponent(m[1]) };
  }
  return pathKnown ? 405 : 404;
}
