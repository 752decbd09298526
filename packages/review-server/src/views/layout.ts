import { type Html, h } from '../html.js';

export interface Flash {
  kind: 'ok' | 'error';
  text: string;
  detail?: string[];
}

export interface PageInput {
  title: string;
  body: Html;
  flash?: Flash | null;
  /** Which navigation tab is current. */
  nav?: 'backlog' | 'audit' | null;
}

export function page({ title, body, flash, nav }: PageInput): Html {
  const tab = (href: string, label: string, key: PageInput['nav']) =>
    h`<a href="${href}"${nav === key ? h` aria-current="page"` : ''}>${label}</a>`;
  return h`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · maestro review</title>
<link rel="stylesheet" href="/assets/style.css">
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
</head>
<body>
<header class="top"><a class="brand" href="/">maestro review</a><nav>${tab('/', 'Backlog', 'backlog')}${tab('/audit', 'Audit', 'audit')}</nav></header>
<main>
${flash ? flashBox(flash) : ''}
${body}
</main>
</body>
</html>
`;
}

function flashBox(f: Flash): Html {
  const list = f.detail?.length ? h`<ul>${f.detail.map((d) => h`<li>${d}</li>`)}</ul>` : '';
  return h`<div class="flash ${f.kind}" role="${f.kind === 'error' ? 'alert' : 'status'}"><p>${f.text}</p>${list}</div>`;
}

/** A hidden CSRF field; every form carries one. */
export const csrfField = (csrf: string) => h`<input type="hidden" name="csrf" value="${csrf}">`;

/** A refusal, with the message and hint the CLI prints; `action` is a form that fixes it, when there is one. */
export function errorPage(status: number, message: string, hint: string | null, action: Html | null = null): Html {
  return page({
    title: `Refused (${status})`,
    body: h`<section class="card refusal"><h1>Refused</h1><p class="message">${message}</p>${
      hint ? h`<p class="hint">${hint}</p>` : ''
    }${action ? h`<div class="actions">${action}</div>` : ''}<p><a href="/">Back to the backlog</a></p></section>`,
  });
}

export function badge(text: string, tone: string): Html {
  return h`<span class="badge ${tone}">${text}</span>`;
}
