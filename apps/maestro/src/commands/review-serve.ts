import { spawn } from 'node:child_process';
import { inputError } from '@maestro/core';
import { type ReviewServeInfo, startReviewServer } from '@maestro/review-server';
import type { CommandModule } from '../kit.js';
import { bold, dim } from '../style.js';
import { optionalString } from './ledger-args.js';

const usage = 'maestro review serve [--port <n>] [--open]';

function portOf(value: string | undefined): number {
  if (value === undefined) return 0;
  const n = /^\d{1,5}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(n >= 0 && n <= 65535)) {
    throw inputError('USAGE', `--port must be a number from 0 to 65535 (got "${value}")`, {
      hint: 'e.g. --port 4820; leave it out to take a free port',
    });
  }
  return n;
}

/** Opens the URL in the desktop's browser; a missing opener is a warning, never a failure. */
function openBrowser(url: string, warn: (line: string) => void): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => warn(`could not start ${cmd}; open the URL above yourself`));
  child.unref();
}

/** Resolves on the first Ctrl+C or SIGTERM, after the server has closed. */
function stopped(close: () => Promise<void>): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void close().then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export const command: CommandModule = {
  usage,
  summary: 'Serve the review page on 127.0.0.1: backlog, review, resolve, promote, audit, restore',
  options: { port: { type: 'string' }, open: { type: 'boolean' } },
  optionHelp: {
    port: 'the port on 127.0.0.1 (default: a free one)',
    open: "open the page in the desktop's browser",
  },
  examples: ['maestro review serve', 'maestro review serve --port 4820 --open', 'maestro review serve --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    if (args.positionals.length) {
      throw inputError('USAGE', `unexpected argument "${args.positionals[0]}"`, { hint: `usage: ${usage}` });
    }
    const port = portOf(optionalString(args, 'port'));
    const server = await startReviewServer(ctx.layout, { port, runtime: ctx.runtime });
    if (args.values.open === true) openBrowser(server.url, ctx.warn);
    const data: ReviewServeInfo = {
      schema_version: 'review-serve/1.0',
      url: server.url,
      origin: server.origin,
      port: server.port,
      workflow: ctx.layout.workflow,
    };
    const text = [
      `${bold('Review page')} for ${ctx.layout.workflow}`,
      `  ${server.url}`,
      dim('The link works once (it sets a cookie); 127.0.0.1 only. Press Ctrl+C to stop.'),
    ].join('\n');
    return { data, text, until: stopped(server.close) };
  },
};
