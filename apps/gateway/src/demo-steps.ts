import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isBridgeToolName, TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH } from '@tool-search/bridge';
import { TOOL_PROGRAM } from '@tool-search/code';
import { estimateToolTokens, type ToolDefinition } from '@tool-search/core';
import type { GatewayActivity, UpstreamPool } from '@tool-search/mcp';
import { DEMO_CONTEXT_WINDOW } from './demo-config.js';
import {
  createStyle,
  formatInt,
  formatPct,
  renderTable,
  type Style,
  truncate,
  wrapText,
} from './format.js';
import { RECORDED_NAME_SEPARATOR } from './recorded-server.js';

// The scenes of the demo, one function each, over the session they share.

/** Where the demo writes. */
export interface DemoOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** The queries of the demo's searches. */
export const DEMO_QUERIES = [
  'read a text file',
  'create a github issue',
  'take a screenshot of the page',
  'store facts in a knowledge graph',
] as const;

interface CallOutcome {
  text: string;
  isError: boolean;
}

function textOf(result: CallToolResult): string {
  return result.content
    .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
    .join('\n');
}

function tokensOfListed(tools: readonly Tool[]): number {
  return estimateToolTokens(
    tools.map(
      (tool): ToolDefinition => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema,
      }),
    ),
  );
}

/** `filesystem`, or `recorded (github)` for a recorded tool. */
function originOf(pool: UpstreamPool, name: string): string {
  const info = pool.lookup(name);
  if (info === undefined) return '';
  if (info.server === 'recorded') {
    const at = info.upstreamName.indexOf(RECORDED_NAME_SEPARATOR);
    return at > 0 ? `recorded ${info.upstreamName.slice(0, at)}` : 'recorded';
  }
  return info.server;
}

function activityLine(pool: UpstreamPool, entry: GatewayActivity, style: Style): string {
  if (entry.kind === 'search') {
    return `${TOOL_SEARCH} ${style.dim(JSON.stringify(entry.arguments['query'] ?? ''))}`;
  }
  if (entry.kind === 'describe') {
    return `${TOOL_DESCRIBE} ${style.dim(String(entry.arguments['name'] ?? ''))}`;
  }
  if (entry.kind !== 'call') return `${entry.kind} ${style.dim(entry.name)}`;
  const real = `${pool.lookup(entry.name)?.server ?? '?'} ${style.bold(entry.name)}`;
  if (entry.via === 'program') return `${TOOL_PROGRAM} → ${real}`;
  return entry.via === 'bridge' ? `${TOOL_CALL} → ${real}` : `direct → ${real}`;
}

function activityResult(entry: GatewayActivity, style: Style): string {
  switch (entry.status) {
    case 'ok':
      return style.green('ok');
    case 'denied':
      return style.red(`denied: ${truncate(entry.detail ?? '', 60)}`);
    case 'tool_error':
      return style.yellow(`tool error: ${truncate(entry.detail ?? '', 54)}`);
    default:
      return style.red(`${entry.status}: ${truncate(entry.detail ?? '', 55)}`);
  }
}

/** How the demo prints: lines, headings and tables in its style. */
export interface DemoPrinter {
  readonly style: Style;
  print(line?: string): void;
  heading(title: string): void;
  table(...args: Parameters<typeof renderTable>): void;
}

export function createDemoPrinter(out: DemoOutput, color: boolean): DemoPrinter {
  const style = createStyle(color);
  const print = (line = '') => {
    out.write(`${line}\n`);
  };
  return {
    style,
    print,
    heading(title) {
      print();
      print(style.bold(style.cyan(`▌ ${title}`)));
    },
    table(...args) {
      for (const line of renderTable(args[0], args[1], { style, indent: 4, ...args[2] })) {
        print(line);
      }
    },
  };
}

/** A running demo: its printer, the gateway's pool, the connected client and the feed. */
export interface DemoSession {
  readonly printer: DemoPrinter;
  readonly pool: UpstreamPool;
  readonly client: Client;
  readonly activity: readonly GatewayActivity[];
}

/** What the tool lists showed, for the closing line. */
export interface ListsShown {
  upstreamCount: number;
  listedCount: number;
  saved: number;
  serverCount: number;
}

async function callTool(
  session: DemoSession,
  name: string,
  args: Record<string, unknown>,
): Promise<CallOutcome> {
  const result = (await session.client.callTool({ name, arguments: args })) as CallToolResult;
  return { text: textOf(result), isError: result.isError === true };
}

/** Scene 2: every upstream tool by server, then what the gateway lists instead. */
export async function showToolLists(session: DemoSession): Promise<ListsShown> {
  const { printer, pool } = session;
  const { style, print } = printer;
  printer.heading('2. The tool list, before and after');
  const upstream = pool.tools();
  const beforeTokens = estimateToolTokens(upstream);
  const byServer = new Map<string, ToolDefinition[]>();
  for (const tool of upstream) {
    const server = pool.lookup(tool.name)?.server ?? '?';
    byServer.set(server, [...(byServer.get(server) ?? []), tool]);
  }
  const recorded = new Set(
    (byServer.get('recorded') ?? []).map((tool) => originOf(pool, tool.name)),
  );
  print('  Without the gateway, a client lists every tool of every server on every turn:');
  print();
  printer.table(
    [
      { header: 'server' },
      { header: 'tools', align: 'right' },
      { header: '~tokens', align: 'right' },
      { header: 'of 200k', align: 'right' },
    ],
    [
      ...[...byServer].map(([server, tools]) => {
        const tokens = estimateToolTokens(tools);
        return [
          server === 'recorded' ? `recorded (${recorded.size} published servers)` : server,
          formatInt(tools.length),
          formatInt(tokens),
          formatPct(tokens, DEMO_CONTEXT_WINDOW),
        ];
      }),
      [
        style.bold('total'),
        style.bold(formatInt(upstream.length)),
        style.bold(formatInt(beforeTokens)),
        style.bold(formatPct(beforeTokens, DEMO_CONTEXT_WINDOW)),
      ],
    ],
  );
  const listed = await showListed(session, beforeTokens, upstream.length);
  return {
    upstreamCount: upstream.length,
    listedCount: listed.count,
    saved: listed.saved,
    serverCount: byServer.size - 1 + recorded.size,
  };
}

/**
 * How a tool of the gateway's list is labelled: the bridge tools and `tool_program` by
 * name, any other tool listed beside them as pinned (it is not deferred).
 *
 * @param name - the listed tool's name
 * @returns the label, without colour
 * @throws nothing
 */
export function listedToolLabel(name: string): string {
  if (isBridgeToolName(name)) return name;
  if (name === TOOL_PROGRAM) return `${name} (programs)`;
  return `${name} (pinned)`;
}

/**
 * How many tools the bridge stands in for: the upstream tools, less those listed beside
 * the bridge (pinned). The bridge tools and `tool_program` are the gateway's own.
 *
 * @param upstreamCount - the tools of every upstream server
 * @param listed - the names `tools/list` returns through the gateway
 * @returns the deferred tools, as `tool_search`'s `total_available` counts them
 * @throws nothing
 */
export function deferredToolCount(upstreamCount: number, listed: readonly string[]): number {
  const pinned = listed.filter((name) => !isBridgeToolName(name) && name !== TOOL_PROGRAM);
  return upstreamCount - pinned.length;
}

async function showListed(session: DemoSession, beforeTokens: number, upstreamCount: number) {
  const { printer } = session;
  const { style, print } = printer;
  const listed = (await session.client.listTools()).tools;
  const afterTokens = tokensOfListed(listed);
  const saved = beforeTokens - afterTokens;
  print();
  print(`  Through the gateway, tools/list returns ${style.bold(String(listed.length))} tools:`);
  print();
  printer.table(
    [
      { header: 'tool' },
      { header: '~tokens', align: 'right' },
      { header: 'description', maxWidth: 64 },
    ],
    listed.map((tool) => [
      isBridgeToolName(tool.name) || tool.name === TOOL_PROGRAM
        ? style.green(listedToolLabel(tool.name))
        : listedToolLabel(tool.name),
      formatInt(tokensOfListed([tool])),
      truncate(tool.description ?? '', 64),
    ]),
  );
  print();
  print(
    `  before: ${style.bold(formatInt(beforeTokens))} tokens, ${formatPct(beforeTokens, DEMO_CONTEXT_WINDOW)} of a 200k context` +
      `  →  after: ${style.bold(formatInt(afterTokens))} tokens, ${formatPct(afterTokens, DEMO_CONTEXT_WINDOW)}`,
  );
  print(
    `  ${style.green(style.bold(`tokens saved: ${formatInt(saved)} per turn`))} (${formatPct(saved, beforeTokens)}): ` +
      `the bridge tools tool_search, tool_describe and tool_call stand in for ${formatInt(
        deferredToolCount(
          upstreamCount,
          listed.map(({ name }) => name),
        ),
      )} deferred tools`,
  );
  return { count: listed.length, saved };
}

/** Scene 3: the demo's queries through `tool_search`. */
export async function showSearches(session: DemoSession): Promise<void> {
  const { printer, pool } = session;
  const { style, print } = printer;
  printer.heading('3. tool_search: ranked search over the deferred tools');
  let counted = false;
  for (const query of DEMO_QUERIES) {
    const { text, isError } = await callTool(session, TOOL_SEARCH, { query, limit: 4 });
    print();
    print(`  ${style.magenta(TOOL_SEARCH)} ${style.bold(JSON.stringify(query))}`);
    if (isError) {
      print(`    ${style.red(text)}`);
      continue;
    }
    const answer = JSON.parse(text) as {
      total_available?: number;
      matches?: { name: string; description?: string }[];
    };
    if (!counted && answer.total_available !== undefined) {
      counted = true;
      print(`    (ranked over ${formatInt(answer.total_available)} deferred tools)`);
    }
    printer.table(
      [
        { header: '#', align: 'right' },
        { header: 'tool' },
        { header: 'server' },
        { header: 'description', maxWidth: 56 },
      ],
      (answer.matches ?? []).map((match, index) => [
        String(index + 1),
        index === 0 ? style.bold(match.name) : match.name,
        originOf(pool, match.name),
        truncate(match.description ?? '', 56),
      ]),
    );
  }
}

/** Scene 4: one schema through `tool_describe`. */
export async function showDescribe(session: DemoSession): Promise<void> {
  const { printer } = session;
  const { style, print } = printer;
  printer.heading('4. tool_describe: load one schema when it is needed');
  const described = await callTool(session, TOOL_DESCRIBE, { name: 'read_text_file' });
  print(`  ${style.magenta(TOOL_DESCRIBE)} ${style.bold('read_text_file')}`);
  if (described.isError) {
    print(`    ${style.red(described.text)}`);
    return;
  }
  const schema = JSON.parse(described.text) as {
    description?: string;
    parameters?: {
      properties?: Record<string, { type?: string; description?: string }>;
      required?: string[];
    };
  };
  print(`    ${truncate(schema.description ?? '', 100)}`);
  print();
  const required = new Set(schema.parameters?.required ?? []);
  printer.table(
    [
      { header: 'parameter' },
      { header: 'type' },
      { header: 'required' },
      { header: 'description', maxWidth: 60 },
    ],
    Object.entries(schema.parameters?.properties ?? {}).map(([name, property]) => [
      name,
      property.type ?? 'any',
      required.has(name) ? 'yes' : '',
      truncate(property.description ?? '', 60),
    ]),
  );
}

/** One call of scene 5: what was called, why it ends as it does, and its first lines. */
function showCall(printer: DemoPrinter, label: string, note: string, outcome: CallOutcome): void {
  const { style, print } = printer;
  print();
  print(`  ${style.magenta(TOOL_CALL)} ${label}`);
  print(style.dim(`    ${note}`));
  const mark = outcome.isError ? style.red('✗') : style.green('✓');
  let text = outcome.text;
  try {
    text = JSON.stringify(JSON.parse(text)); // one line for JSON answers
  } catch {
    // plain text: keep its lines
  }
  const lines = outcome.isError
    ? wrapText(text, 96, 3)
    : text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .slice(0, 5)
        .map((line) => truncate(line, 96));
  lines.forEach((line, index) => {
    print(`    ${index === 0 ? mark : ' '} ${line}`);
  });
}

/** Scene 5: real calls through `tool_call`, each meeting a different policy. */
export async function showCalls(session: DemoSession, workspace: string): Promise<void> {
  const { printer } = session;
  printer.heading('5. tool_call: real calls through the bridge; policy sees the real tool');
  const show = (label: string, note: string, outcome: CallOutcome) =>
    showCall(printer, label, note, outcome);
  const call = (name: string, args: Record<string, unknown>) =>
    callTool(session, TOOL_CALL, { name, arguments: args });
  const notes = join(workspace, 'notes.md');
  show(
    'read_text_file { path: ".../workspace/notes.md" }',
    'filesystem, read-only: it runs',
    await call('read_text_file', { path: notes }),
  );
  show(
    'write_file { path: ".../workspace/notes.md", content: "..." }',
    'filesystem, destructiveHint: needs approval; this client cannot be asked (no elicitation), so the policy denies',
    await call('write_file', { path: notes, content: 'overwritten by the demo' }),
  );
  show(
    'get-env {}',
    'everything: the guardrail "deny get-env" (it would leak the environment) stops it first',
    await call('get-env', {}),
  );
  show(
    'create_entities { entities: [{ name: "tool search demo", ... }] }',
    'memory: not destructive, so no approval; it writes to the temporary memory file',
    await call('create_entities', {
      entities: [
        {
          name: 'tool search demo',
          entityType: 'event',
          observations: ['searched 397 real tool definitions through three bridge tools'],
        },
      ],
    }),
  );
  show(
    'playwright__browser_take_screenshot { scale: "css" }',
    'recorded catalog: a real definition of @playwright/mcp, served with no backend',
    await call('playwright__browser_take_screenshot', { scale: 'css' }),
  );
}

/** Scene 9: the gateway's activity feed. */
export function showActivity(session: DemoSession): void {
  const { printer, pool } = session;
  printer.heading("9. Activity feed: the gateway's log, with the real tool behind every tool_call");
  printer.print();
  printer.table(
    [{ header: 'what ran' }, { header: 'result' }, { header: 'ms', align: 'right' }],
    session.activity.map((entry) => [
      activityLine(pool, entry, printer.style),
      activityResult(entry, printer.style),
      formatInt(entry.durationMs),
    ]),
  );
}
