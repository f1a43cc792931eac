import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isBridgeToolName, TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH } from '@tool-search/bridge';
import { estimateToolTokens, type ToolDefinition } from '@tool-search/core';
import {
  type GatewayActivity,
  type StartedGateway,
  startGateway,
  type UpstreamPool,
} from '@tool-search/mcp';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { DEMO_CONTEXT_WINDOW, prepareDemoFolder } from './demo-config.js';
import {
  createStyle,
  formatInt,
  formatPct,
  renderTable,
  type Style,
  shouldColor,
  truncate,
  wrapText,
} from './format.js';
import { createProgressReporter } from './progress.js';
import { RECORDED_NAME_SEPARATOR } from './recorded-server.js';

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
  const real = `${pool.lookup(entry.name)?.server ?? '?'} ${style.bold(entry.name)}`;
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

/**
 * Runs the scripted demo session: real upstream MCP servers, the gateway on a real
 * transport (Streamable HTTP on 127.0.0.1, a free port, a bearer token), and the MCP
 * SDK client walking list → search → describe → calls → activity feed. Child
 * processes and the temporary folder are removed on success, on errors and on
 * SIGINT / SIGTERM.
 *
 * @param out - where to print @defaultValue process.stdout
 * @param options.color - colour the output @defaultValue {@link shouldColor}(out)
 * @returns the exit code
 */
export async function runDemo(
  out: DemoOutput = process.stdout,
  options: { color?: boolean } = {},
): Promise<number> {
  const style = createStyle(options.color ?? shouldColor(out));
  const started = Date.now();
  const print = (line = '') => out.write(`${line}\n`);
  const heading = (title: string) => {
    print();
    print(style.bold(style.cyan(`▌ ${title}`)));
  };
  const table = (...args: Parameters<typeof renderTable>) => {
    for (const line of renderTable(args[0], args[1], { style, indent: 4, ...args[2] })) {
      print(line);
    }
  };

  const folder = await mkdtemp(join(tmpdir(), 'tool-search-demo-'));
  let starting: Promise<StartedGateway> | undefined;
  let client: Client | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanup = () => {
    cleaning ??= (async () => {
      await client?.close().catch(() => {});
      // A signal while starting: close the gateway once it is up.
      const gateway = await starting?.catch(() => undefined);
      await gateway?.close().catch(() => {});
      await rm(folder, { recursive: true, force: true }).catch(() => {});
    })();
    return cleaning;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    print(style.bold('Tool Search gateway: demo'));
    print(
      style.dim(
        'Real MCP servers behind the gateway; the MCP SDK client plays Claude Desktop or Cursor.',
      ),
    );
    const { workspace, configPath, raw } = await prepareDemoFolder(folder);
    const config = parseGatewayConfig(raw, { source: configPath });

    // ── 1. start ──────────────────────────────────────────────────────────────
    heading('1. Start the upstream MCP servers and the gateway');
    const activity: GatewayActivity[] = [];
    const progress = createProgressReporter({ stream: out, always: true, color: style.enabled });
    starting = startGateway({
      config,
      contextWindow: DEMO_CONTEXT_WINDOW,
      onProgress: (event) => {
        if (event.kind === 'ready' || event.kind === 'failed') out.write('    ');
        progress(event);
      },
      onActivity: (entry) => activity.push(entry),
      http: true,
    });
    const gateway = await starting;
    // The demo shows the whole catalog: wait for every server, as a client would for list_changed.
    await gateway.ready();
    const { pool } = gateway;
    if (gateway.url === undefined) {
      throw new Error('The gateway did not start its HTTP listener.');
    }
    const url = new URL(gateway.url);
    print(`  gateway listening on ${style.bold(url.href)} (loopback only, bearer token)`);
    client = new Client({ name: 'tool-search-demo', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${gateway.token}` } },
      }),
    );
    print('  MCP SDK client connected over Streamable HTTP');

    // ── 2. before / after ─────────────────────────────────────────────────────
    heading('2. The tool list, before and after');
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
    table(
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

    const listed = (await client.listTools()).tools;
    const afterTokens = tokensOfListed(listed);
    const saved = beforeTokens - afterTokens;
    print();
    print(`  Through the gateway, tools/list returns ${style.bold(String(listed.length))} tools:`);
    print();
    table(
      [
        { header: 'tool' },
        { header: '~tokens', align: 'right' },
        { header: 'description', maxWidth: 64 },
      ],
      listed.map((tool) => [
        isBridgeToolName(tool.name) ? style.green(tool.name) : `${tool.name} (pinned)`,
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
        `the bridge tools tool_search, tool_describe and tool_call stand in for ${formatInt(upstream.length - listed.length + 3)} deferred tools`,
    );

    const call = async (name: string, args: Record<string, unknown>): Promise<CallOutcome> => {
      const result = (await client!.callTool({ name, arguments: args })) as CallToolResult;
      return { text: textOf(result), isError: result.isError === true };
    };

    // ── 3. search ─────────────────────────────────────────────────────────────
    heading('3. tool_search: ranked search over the deferred tools');
    for (const query of DEMO_QUERIES) {
      const { text, isError } = await call(TOOL_SEARCH, { query, limit: 4 });
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
      table(
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

    // ── 4. describe ───────────────────────────────────────────────────────────
    heading('4. tool_describe: load one schema when it is needed');
    const described = await call(TOOL_DESCRIBE, { name: 'read_text_file' });
    print(`  ${style.magenta(TOOL_DESCRIBE)} ${style.bold('read_text_file')}`);
    if (described.isError) {
      print(`    ${style.red(described.text)}`);
    } else {
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
      table(
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

    // ── 5. calls ──────────────────────────────────────────────────────────────
    heading('5. tool_call: real calls through the bridge; policy sees the real tool');
    const show = (label: string, note: string, outcome: CallOutcome) => {
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
    };
    const notes = join(workspace, 'notes.md');
    show(
      'read_text_file { path: ".../workspace/notes.md" }',
      'filesystem, read-only: it runs',
      await call(TOOL_CALL, { name: 'read_text_file', arguments: { path: notes } }),
    );
    show(
      'write_file { path: ".../workspace/notes.md", content: "..." }',
      'filesystem, destructiveHint: needs approval; this client cannot be asked (no elicitation), so the policy denies',
      await call(TOOL_CALL, {
        name: 'write_file',
        arguments: { path: notes, content: 'overwritten by the demo' },
      }),
    );
    show(
      'get-env {}',
      'everything: the guardrail "deny get-env" (it would leak the environment) stops it first',
      await call(TOOL_CALL, { name: 'get-env', arguments: {} }),
    );
    show(
      'create_entities { entities: [{ name: "tool search demo", ... }] }',
      'memory: not destructive, so no approval; it writes to the temporary memory file',
      await call(TOOL_CALL, {
        name: 'create_entities',
        arguments: {
          entities: [
            {
              name: 'tool search demo',
              entityType: 'event',
              observations: ['searched 397 real tool definitions through three bridge tools'],
            },
          ],
        },
      }),
    );
    show(
      'playwright__browser_take_screenshot { scale: "css" }',
      'recorded catalog: a real definition of @playwright/mcp, served with no backend',
      await call(TOOL_CALL, {
        name: 'playwright__browser_take_screenshot',
        arguments: { scale: 'css' },
      }),
    );

    // ── 6. activity ───────────────────────────────────────────────────────────
    heading("6. Activity feed: the gateway's log, with the real tool behind every tool_call");
    print();
    table(
      [{ header: 'what ran' }, { header: 'result' }, { header: 'ms', align: 'right' }],
      activity.map((entry) => [
        activityLine(pool, entry, style),
        activityResult(entry, style),
        formatInt(entry.durationMs),
      ]),
    );

    heading('Done');
    print(
      `  ${formatInt(upstream.length)} tools from ${byServer.size - 1 + recorded.size} servers served as ${listed.length}: ` +
        `${formatInt(saved)} tokens saved per turn, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    print(
      style.dim(
        '  Next: tool-search-gateway serve --config <file>, then point your MCP client at it (apps/gateway/README.md).',
      ),
    );
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanup();
  }
}
