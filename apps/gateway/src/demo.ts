import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { SearchLearner } from '@tool-search/core';
import type { GatewayActivity } from '@tool-search/mcp';
import { type GatewayConfig, parseGatewayConfig } from '@tool-search/mcp/config';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import { DEMO_CONTEXT_WINDOW, prepareDemoFolder } from './demo-config.js';
import { showLearning } from './demo-learning.js';
import { showProgram } from './demo-program.js';
import { showPromptAndResource } from './demo-protocol.js';
import {
  createDemoPrinter,
  type DemoOutput,
  type DemoPrinter,
  type DemoSession,
  showActivity,
  showCalls,
  showDescribe,
  showSearches,
  showToolLists,
} from './demo-steps.js';
import { formatInt, shouldColor } from './format.js';
import { createProgressReporter } from './progress.js';

export type { DemoOutput } from './demo-steps.js';
export { DEMO_QUERIES } from './demo-steps.js';

/** What the demo must remove however it ends: the client, the gateway, the folder. */
interface DemoResources {
  readonly folder: string;
  starting?: Promise<StartedGateway>;
  client?: Client;
  cleaning?: Promise<void>;
}

function cleanup(resources: DemoResources): Promise<void> {
  resources.cleaning ??= (async () => {
    await resources.client?.close().catch(() => {});
    // A signal while starting: close the gateway once it is up.
    const gateway = await resources.starting?.catch(() => undefined);
    await gateway?.close().catch(() => {});
    await rm(resources.folder, { recursive: true, force: true }).catch(() => {});
  })();
  return resources.cleaning;
}

/** The demo's session, its gateway's learner and a way to open later sessions. */
type RunningDemo = DemoSession & {
  learner: SearchLearner | undefined;
  openClient(): Promise<Client>;
};

/** Scene 1: the upstream servers and the gateway start; the SDK client connects. */
async function startDemo(
  resources: DemoResources,
  printer: DemoPrinter,
  out: DemoOutput,
  config: GatewayConfig,
): Promise<RunningDemo> {
  const { style, print } = printer;
  printer.heading('1. Start the upstream MCP servers and the gateway');
  const activity: GatewayActivity[] = [];
  const progress = createProgressReporter({ stream: out, always: true, color: style.enabled });
  resources.starting = startGateway({
    config,
    contextWindow: DEMO_CONTEXT_WINDOW,
    onProgress: (event) => {
      if (event.kind === 'ready' || event.kind === 'failed') out.write('    ');
      progress(event);
    },
    onActivity: (entry) => activity.push(entry),
    http: true,
  });
  const gateway = await resources.starting;
  // The demo shows the whole catalog: wait for every server, as a client would for list_changed.
  await gateway.ready();
  if (gateway.url === undefined) {
    throw new Error('The gateway did not start its HTTP listener.');
  }
  const url = new URL(gateway.url);
  print(`  gateway listening on ${style.bold(url.href)} (loopback only, bearer token)`);
  const client = new Client({ name: 'tool-search-demo', version: '0.0.0' });
  resources.client = client;
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${gateway.token}` } },
    }),
  );
  print('  MCP SDK client connected over Streamable HTTP');
  const openClient = async () => {
    const later = new Client({ name: 'tool-search-demo', version: '0.0.0' });
    await later.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${gateway.token}` } },
      }),
    );
    return later;
  };
  return {
    printer,
    pool: gateway.pool,
    client,
    activity,
    learner: gateway.server.learner,
    openClient,
  };
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
  const printer = createDemoPrinter(out, options.color ?? shouldColor(out));
  const { style, print } = printer;
  const started = Date.now();
  const resources: DemoResources = {
    folder: await mkdtemp(join(tmpdir(), 'tool-search-demo-')),
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void cleanup(resources).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
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
    const { workspace, configPath, raw } = await prepareDemoFolder(resources.folder);
    const config = parseGatewayConfig(raw, { source: configPath });
    const session = await startDemo(resources, printer, out, config);
    const shown = await showToolLists(session);
    await showSearches(session);
    await showDescribe(session);
    await showCalls(session, workspace);
    if (session.learner !== undefined) {
      await showLearning({ ...session, learner: session.learner }, workspace);
    }
    await showProgram(session);
    await showPromptAndResource(session);
    showActivity(session);
    printer.heading('Done');
    print(
      `  ${formatInt(shown.upstreamCount)} tools from ${shown.serverCount} servers served as ${shown.listedCount}: ` +
        `${formatInt(shown.saved)} tokens saved per turn, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
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
    await cleanup(resources);
  }
}
