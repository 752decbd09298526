import { inputError, lineColumnAt } from '@maestro/core';
import {
  applyEdits,
  type FormattingOptions,
  modify,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { type Agent, HOOK_EVENTS, hookCommand, isOurCommand } from './agents.js';

/**
 * Pure edits of an agent's hook file, as text: comments, key order, formatting and every hook
 * that is not ours stay byte for byte; only our entries are added or removed. A file that is not
 * valid JSON (JSON with comments is fine) is refused with its line and column, never rewritten.
 */

export interface HookFileView {
  /** Events that have our command. */
  installed: string[];
  /** Hook handlers of other tools or people, per event (kept by every edit). */
  others: Record<string, number>;
}

function parse(text: string, file: string): Node | undefined {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const { line, column } = lineColumnAt(text, errors[0].offset);
    throw inputError('HOOK_FILE_MALFORMED', `${file} is not valid JSON (${printParseErrorCode(errors[0].error)})`, {
      hint: `fix it at line ${line}, column ${column} and rerun; nothing was written`,
      location: { file, line, column },
    });
  }
  if (tree && tree.type !== 'object') {
    throw inputError('HOOK_FILE_MALFORMED', `${file} must hold a JSON object`, {
      hint: 'the agent expects { "hooks": { ... } }; fix the file and rerun; nothing was written',
      location: { file, line: 1 },
    });
  }
  return tree;
}

const child = (n: Node | undefined, key: string) =>
  n?.type === 'object' ? n.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1] : undefined;

function handlers(group: Node): Node[] {
  const list = child(group, 'hooks');
  return list?.type === 'array' ? (list.children ?? []) : [];
}

function commandOf(handler: Node): unknown {
  return child(handler, 'command')?.value;
}

function eventsNode(text: string, file: string): Node | undefined {
  const hooks = child(parse(text, file), 'hooks');
  if (hooks && hooks.type !== 'object') {
    const { line, column } = lineColumnAt(text, hooks.offset);
    throw inputError('HOOK_FILE_MALFORMED', `${file}: "hooks" must be an object of events`, {
      hint: 'fix it by hand and rerun; nothing was written',
      location: { file, line, column },
    });
  }
  return hooks;
}

export function viewHookFile(agent: Agent, text: string, file: string): HookFileView {
  const events = eventsNode(text, file);
  const view: HookFileView = { installed: [], others: {} };
  for (const prop of events?.children ?? []) {
    const event = String(prop.children?.[0]?.value);
    const groups = prop.children?.[1];
    let ours = false;
    let others = 0;
    for (const g of groups?.type === 'array' ? (groups.children ?? []) : []) {
      for (const h of handlers(g)) {
        if (isOurCommand(agent, commandOf(h))) ours = true;
        else others++;
      }
    }
    if (ours) view.installed.push(event);
    if (others > 0) view.others[event] = others;
  }
  return view;
}

/** Indentation of the file (first indented line), so our insertions look like the rest. */
function formatting(text: string): FormattingOptions {
  const m = /\n([ \t]+)\S/.exec(text);
  const indent = m?.[1] ?? '  ';
  return {
    insertSpaces: !indent.includes('\t'),
    tabSize: indent.includes('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** Adds our handler to every event that lacks it. Installing twice changes nothing. */
export function addOurHooks(agent: Agent, text: string | null, file: string, maestro: string) {
  let out = text === null || text.trim() === '' ? '{}\n' : text;
  const have = new Set(viewHookFile(agent, out, file).installed);
  const added: string[] = [];
  for (const { event, timeout } of HOOK_EVENTS) {
    if (have.has(event)) continue;
    const group = { hooks: [{ type: 'command', command: hookCommand(agent, maestro), timeout }] };
    const list = child(eventsNode(out, file), event);
    if (list && list.type !== 'array') {
      const { line, column } = lineColumnAt(out, list.offset);
      throw inputError('HOOK_FILE_MALFORMED', `${file}: hooks.${event} must be an array of hook groups`, {
        hint: 'fix it by hand (the agent would ignore it too) and rerun; nothing was written',
        location: { file, line, column },
      });
    }
    const path = list?.type === 'array' ? ['hooks', event, -1] : ['hooks', event];
    const value = list?.type === 'array' ? group : [group];
    out = applyEdits(
      out,
      modify(out, path, value, { formattingOptions: formatting(out), isArrayInsertion: list?.type === 'array' }),
    );
    added.push(event);
  }
  return { text: out, added };
}

/** Removes our handlers (and groups or events they leave empty); everything else stays as written. */
export function removeOurHooks(agent: Agent, text: string, file: string) {
  let out = text;
  const removed: string[] = [];
  for (;;) {
    const events = eventsNode(out, file);
    const hit = findOurs(agent, events);
    if (!hit) break;
    if (!removed.includes(hit.event)) removed.push(hit.event);
    out = applyEdits(out, modify(out, hit.path, undefined, { formattingOptions: formatting(out) }));
  }
  const events = eventsNode(out, file);
  if (removed.length > 0 && events && (events.children ?? []).length === 0) {
    out = applyEdits(out, modify(out, ['hooks'], undefined, { formattingOptions: formatting(out) }));
  }
  return { text: out, removed };
}

/** The path of the first of our handlers, or of the group/event it would leave empty. */
function findOurs(agent: Agent, events: Node | undefined): { event: string; path: (string | number)[] } | null {
  for (const prop of events?.children ?? []) {
    const event = String(prop.children?.[0]?.value);
    const groups = prop.children?.[1];
    const list = groups?.type === 'array' ? (groups.children ?? []) : [];
    for (const [gi, g] of list.entries()) {
      const hs = handlers(g);
      const hi = hs.findIndex((h) => isOurCommand(agent, commandOf(h)));
      if (hi < 0) continue;
      const groupKeys = (g.children ?? []).map((p) => p.children?.[0]?.value);
      const onlyOurs = hs.length === 1 && groupKeys.every((k) => k === 'hooks' || k === 'matcher');
      if (!onlyOurs) return { event, path: ['hooks', event, gi, 'hooks', hi] };
      return { event, path: list.length === 1 ? ['hooks', event] : ['hooks', event, gi] };
    }
  }
  return null;
}
