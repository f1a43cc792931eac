import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { parseGatewayConfig } from '@tool-search/mcp/config';
import { type StartedGateway, startGateway } from '@tool-search/mcp-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parsePrometheusText } from './__fixtures__/prometheus-text.js';
import { type GatewayTelemetry, startTelemetry } from './otel.js';
import { planTelemetry } from './otel-env.js';

// The proof of "Observing the gateway": a real OTLP/HTTP receiver on loopback gets the
// spans the gateway exports (OTLP JSON), parented under the trace context the client
// sent in `_meta`; the upstream, a real MCP server, receives the context; /metrics
// answers Prometheus text whose counters move with the traffic.

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

function attributesOf(span: OtlpSpan): Record<string, unknown> {
  return Object.fromEntries(
    span.attributes.map(({ key, value }) => [key, Object.values(value)[0]]),
  );
}

async function startReceiver() {
  const spans: OtlpSpan[] = [];
  const contentTypes = new Set<string>();
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      contentTypes.add(String(req.headers['content-type']));
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resource of body.resourceSpans ?? []) {
          for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A real MCP server in process: three tools, and the `_meta` each call arrived with. */
function notesServer(seen: Record<string, unknown>[]) {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  const record = (extra: { _meta?: Record<string, unknown> }) => seen.push({ ...extra._meta });
  server.registerTool(
    'read_note',
    {
      description: 'Read one note by its id',
      inputSchema: { id: z.number() },
      annotations: { readOnlyHint: true },
    },
    async ({ id }, extra) => {
      record(extra);
      return { content: [{ type: 'text', text: `note ${id}: buy milk` }] };
    },
  );
  server.registerTool(
    'deploy_app',
    { description: 'Deploy the app to an environment', inputSchema: { env: z.string() } },
    async ({ env }, extra) => {
      record(extra);
      return { content: [{ type: 'text', text: `deployed to ${env}` }] };
    },
  );
  server.registerTool(
    'delete_repo',
    { description: 'Delete a repository', inputSchema: { name: z.string() } },
    async (_args, extra) => {
      record(extra);
      return { content: [{ type: 'text', text: 'deleted' }] };
    },
  );
  const [client, side] = InMemoryTransport.createLinkedPair();
  void server.connect(side);
  return client;
}

/**
 * A real MCP server over Streamable HTTP (stateless: a server per request), recording the
 * `traceparent` header and the `_meta` of each `tools/call` it receives.
 */
async function remoteServer(seen: { header: unknown; meta: unknown }[]) {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString());
      const server = new McpServer({ name: 'remote', version: '1.0.0' });
      server.registerTool(
        'remote_echo',
        { description: 'Echo a word from the remote server', inputSchema: { word: z.string() } },
        async ({ word }, extra) => {
          seen.push({ header: req.headers['traceparent'], meta: extra._meta?.['traceparent'] });
          return { content: [{ type: 'text', text: `remote ${word}` }] };
        },
      );
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;
const HEADER_SPAN = 'b7ad6b7169203331';

describe('observing the gateway with OpenTelemetry', () => {
  const upstreamMeta: Record<string, unknown>[] = [];
  const remoteSeen: { header: unknown; meta: unknown }[] = [];
  let remote: Awaited<ReturnType<typeof remoteServer>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let telemetry: GatewayTelemetry;
  let gateway: StartedGateway;
  let client: Client;
  const saved = { ...process.env };

  const call = (name: string, args: Record<string, unknown>) =>
    client.request(
      {
        method: 'tools/call',
        params: {
          name,
          arguments: args,
          _meta: { traceparent: TRACEPARENT, baggage: 'team=infra' },
        },
      },
      CallToolResultSchema,
    );
  const metricsText = async () => {
    const response = await fetch(new URL('/metrics', gateway.url), {
      headers: { authorization: `Bearer ${gateway.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await response.text());
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    remote = await remoteServer(remoteSeen);
    process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] = receiver.url;
    process.env['OTEL_EXPORTER_OTLP_PROTOCOL'] = 'http/json';
    const config = parseGatewayConfig({
      mcpServers: {
        notes: { transport: () => notesServer(upstreamMeta) },
        remote: { url: remote.url },
      },
      tool_search: { enabled: 'on' },
      guardrails: { deny: { tools: ['delete_*'] } },
      approval: { require: { tools: ['deploy_app'] } },
      programs: { enabled: true, readOnlyTools: ['read_note'] },
      metrics: {},
    });
    const plan = planTelemetry(process.env, config)!;
    expect(plan).toMatchObject({ traces: 'http/json', prometheus: true });
    telemetry = await startTelemetry(plan);
    gateway = await startGateway({
      config,
      http: { token: 'operator-token-0123456789' },
      metrics: { source: telemetry.metrics! },
    });
    await gateway.ready();
    client = new Client({ name: 'agent', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { decision: 'allow-once' },
    }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url!), {
        requestInit: { headers: { authorization: 'Bearer operator-token-0123456789' } },
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close().catch(() => {});
    await gateway?.close();
    await telemetry?.shutdown();
    await receiver?.close();
    await remote?.close();
    process.env = saved;
  });

  it('exports the spans of a search, an approved call, a denied call and a program under the client trace, and the upstream gets the context', async () => {
    const search = await call('tool_search', { query: 'note' });
    expect(JSON.stringify(search.content)).toContain('read_note');
    const approved = await call('tool_call', { name: 'deploy_app', arguments: { env: 'prod' } });
    expect(JSON.stringify(approved.content)).toContain('deployed to prod');
    const denied = await call('delete_repo', { name: 'tool-search' });
    expect(denied.isError).toBe(true);
    const program = await call('tool_program', {
      source: "await tools.search('note'); return await tools.call('read_note', { id: 7 });",
    });
    expect(JSON.stringify(program.content)).toContain('note 7');

    const anonymous = await fetch(new URL('/metrics', gateway.url));
    expect(anonymous.status).toBe(401);
    const before = await metricsText();
    // The search and the program's: the warm-up's own searches are not counted.
    expect(before.sum('tool_search_searches_total')).toBe(2);
    const denials = { tool_search_outcome: 'denied', tool_search_route: 'direct' };
    expect(before.sum('tool_search_calls_total', denials)).toBe(1);
    expect(before.sum('tool_search_calls_total', { tool_search_route: 'program' })).toBe(1);
    expect(
      before.sum('tool_search_approvals_total', {
        tool_search_approval_decision: 'allow-once',
        tool_search_route: 'bridge',
      }),
    ).toBe(1);
    // One client session (the warm-up's internal sessions are not counted).
    expect(before.sum('tool_search_sessions_total')).toBe(1);
    expect(before.sum('tool_search_sessions_active')).toBe(1);
    expect(before.sum('tool_search_upstream_up', { tool_search_server: 'notes' })).toBe(1);
    expect(before.types.get('mcp_client_operation_duration')).toBe('histogram');
    expect(before.types.get('tool_search_approval_wait_duration')).toBe('histogram');
    await call('tool_search', { query: 'deploy' });
    // A name the session does not know is refused, and never becomes a label or span name.
    const unknown = await call(`no_such_tool_${'x'.repeat(200)}`, {});
    expect(unknown.isError).toBe(true);
    const after = await metricsText();
    expect(
      after.samples.some((sample) => sample.labels['gen_ai_tool_name']?.startsWith('no_such')),
    ).toBe(false);
    expect(
      after.sum('mcp_server_operation_duration_count', { gen_ai_tool_name: '(unknown)' }),
    ).toBe(1);
    expect(after.sum('tool_search_searches_total')).toBe(
      before.sum('tool_search_searches_total') + 1,
    );
    expect(
      after.sum('mcp_server_operation_duration_count', { gen_ai_tool_name: 'tool_search' }),
    ).toBe(
      before.sum('mcp_server_operation_duration_count', {
        gen_ai_tool_name: 'tool_search',
      }) + 1,
    );

    // The upstream received the gateway's context: same trace, its client span as parent.
    expect(upstreamMeta).toHaveLength(2);
    for (const meta of upstreamMeta) {
      expect(meta['traceparent']).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
      expect(meta['baggage']).toBe('team=infra');
    }

    // An HTTP upstream gets the context in its request headers too, the same as in `_meta`.
    const echoed = await call('tool_call', { name: 'remote_echo', arguments: { word: 'hi' } });
    expect(JSON.stringify(echoed.content)).toContain('remote hi');
    expect(remoteSeen).toHaveLength(1);
    expect(remoteSeen[0]!.header).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(remoteSeen[0]!.meta).toBe(remoteSeen[0]!.header);

    // A client that sends its context in the HTTP headers instead of `_meta`.
    const headerClient = new Client({ name: 'agent-2', version: '1.0.0' });
    await headerClient.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url!), {
        requestInit: {
          headers: {
            authorization: 'Bearer operator-token-0123456789',
            traceparent: `00-${TRACE_ID}-${HEADER_SPAN}-01`,
          },
        },
      }),
    );
    await headerClient.callTool({ name: 'tool_search', arguments: { query: 'notes' } });
    await headerClient.close();

    await gateway.close();
    await telemetry.shutdown();
    const spans = receiver.spans.filter((span) => span.traceId === TRACE_ID);
    expect(receiver.contentTypes.has('application/json')).toBe(true);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const named = (name: string) => spans.filter((span) => span.name === name);
    const parentOf = (span: OtlpSpan) => byId.get(span.parentSpanId ?? '');

    // Each client request: a server span whose parent is the client's span.
    const servers = spans.filter((span) => span.name.startsWith('tools/call ') && span.kind === 2);
    expect(spans.filter((span) => span.name === 'tools/call' && span.kind === 2)).toHaveLength(1);
    expect(servers.map((span) => span.name).sort()).toEqual(
      [
        'tools/call delete_repo',
        'tools/call tool_call',
        'tools/call tool_call',
        'tools/call tool_program',
        'tools/call tool_search',
        'tools/call tool_search',
        'tools/call tool_search',
      ].sort(),
    );
    expect(servers.filter((span) => span.parentSpanId === HEADER_SPAN)).toHaveLength(1);
    for (const span of servers.filter((entry) => entry.parentSpanId !== HEADER_SPAN)) {
      expect(span.parentSpanId).toBe(CLIENT_SPAN);
    }
    for (const span of servers) {
      expect(attributesOf(span)).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.operation.name': 'execute_tool',
      });
      expect(attributesOf(span)['mcp.session.id']).toEqual(expect.any(String));
      expect(attributesOf(span)['jsonrpc.request.id']).toEqual(expect.any(String));
    }

    // The approved call: execute_tool deploy_app (route bridge) with approval and the wait.
    const deploy = named('execute_tool deploy_app')[0]!;
    expect(attributesOf(deploy)).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'deploy_app',
      'tool_search.route': 'bridge',
      'tool_search.outcome': 'ok',
    });
    expect(parentOf(deploy)?.name).toBe('tools/call tool_call');
    const approval = named('approval').find((span) => span.parentSpanId === deploy.spanId)!;
    expect(attributesOf(approval)['tool_search.approval.decision']).toBe('allow-once');
    expect(named('approval.wait').some((span) => span.parentSpanId === approval.spanId)).toBe(true);
    const upstreamDeploy = named('tools/call deploy_app').find((span) => span.kind === 3)!;
    expect(parentOf(upstreamDeploy)?.spanId).toBe(deploy.spanId);
    expect(attributesOf(upstreamDeploy)['tool_search.server']).toBe('notes');

    // The denied call: refused by the guardrail, never sent upstream.
    const deleted = named('execute_tool delete_repo')[0]!;
    expect(attributesOf(deleted)).toMatchObject({
      'tool_search.outcome': 'denied',
      'tool_search.denied_by.kind': 'guardrail',
      'tool_search.route': 'direct',
    });
    expect(named('tools/call delete_repo').filter((span) => span.kind === 3)).toHaveLength(0);

    // The search: execute_tool tool_search under its request, with its hits.
    const searchSpan = named('execute_tool tool_search').find(
      (span) => parentOf(span)?.name === 'tools/call tool_search',
    )!;
    expect(Number(attributesOf(searchSpan)['tool_search.search.hits'])).toBeGreaterThan(0);

    // The program: its nested search and call are children of the program's span.
    const programSpan = named('execute_tool tool_program')[0]!;
    expect(parentOf(programSpan)?.name).toBe('tools/call tool_program');
    const nested = spans.filter((span) => span.parentSpanId === programSpan.spanId);
    expect(nested.map((span) => span.name).sort()).toEqual(
      ['execute_tool read_note', 'execute_tool tool_search'].sort(),
    );
    const nestedCall = nested.find((span) => span.name === 'execute_tool read_note')!;
    expect(attributesOf(nestedCall)['tool_search.route']).toBe('program');
    const upstreamRead = named('tools/call read_note').find((span) => span.kind === 3)!;
    expect(upstreamRead.parentSpanId).toBe(nestedCall.spanId);

    // Arguments and results are not recorded by default.
    for (const span of spans) {
      expect(attributesOf(span)['gen_ai.tool.call.arguments']).toBeUndefined();
    }
  }, 60_000);
});
