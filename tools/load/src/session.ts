import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LoadProfile, ServerName } from './gateway-config.js';
import { type GroundTruth, isOutside } from './ground-truth.js';
import { errorKind, resultKind, textOf } from './outcome.js';
import { type OperationKind, type Recorder, record } from './recorder.js';
import { pick } from './stats.js';

/** What one load session needs to know. */
export interface SessionContext {
  /** The gateway's endpoint. */
  url: string;
  /** The session's number, from 0. */
  index: number;
  /** Its profile (its token selects it). */
  profile: LoadProfile;
  /** Whether it writes to the memory graph. */
  memoryWriter: boolean;
  /** The filesystem server's folder. */
  workspace: string;
  /** Which server publishes each tool. */
  truth: GroundTruth;
  /** The client's timeout of one request. */
  requestTimeoutMs: number;
  /** A seeded generator. */
  random: () => number;
  /** Where everything is recorded. */
  recorder: Recorder;
}

/** The outcome of a cross-profile probe that the gateway refused, as it must. */
export const REFUSED = 'refused (expected)';

/** Queries a model might send; some hit a profile's tools, some another's. */
const QUERIES = [
  'read a text file',
  'write a file to disk',
  'create an issue in a repository',
  'merge request pipeline status',
  'search notion pages',
  'take a screenshot of the page',
  'store a memory about an entity',
  'add two numbers',
  'echo a message back',
  'scrape a website to markdown',
  'send a slack message to a channel',
  'list the files in a directory',
];

/**
 * Connects an SDK client over Streamable HTTP with a profile's token.
 *
 * @param url - the endpoint
 * @param token - the bearer token
 * @param timeoutMs - the initialize request's timeout
 * @returns the connected client
 * @throws what the SDK throws when the gateway refuses or is gone
 */
export async function connectClient(
  url: string,
  token: string,
  timeoutMs: number,
): Promise<Client> {
  const client = new Client({ name: 'tool-search-load', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport, { timeout: timeoutMs });
  return client;
}

/**
 * Ends a session as a well-behaved client does: `DELETE` (so that the gateway frees its
 * place at once), then closes the transport.
 *
 * @param client - a connected client
 * @returns once closed
 * @throws nothing
 */
export async function closeClient(client: Client): Promise<void> {
  const transport = client.transport as StreamableHTTPClientTransport | undefined;
  await transport?.terminateSession().catch(() => {});
  await client.close().catch(() => {});
}

/** A call whose answer is known in advance. */
interface CheckedCall {
  name: string;
  arguments: Record<string, unknown>;
  check: (text: string) => boolean;
}

/**
 * Runs one session: connects, lists its tools, then `operations` mixed operations,
 * recording latencies, outcomes, leaks, wrong answers and writes; closes the client.
 *
 * @param context - see {@link SessionContext}
 * @param operations - how many operations
 * @returns once done; every failure is recorded, never thrown
 * @throws nothing
 */
export async function runSession(context: SessionContext, operations: number): Promise<void> {
  const { profile, recorder, truth, random } = context;
  const tag = `s${context.index}`;
  const leak = (how: string, name: string) =>
    recorder.leaks.push(`${tag} (${profile.name}) ${how}: ${name}`);
  const request = async (
    kind: OperationKind,
    name: string,
    args: Record<string, unknown>,
    outcomeOf: (result: CallToolResult) => string = resultKind,
  ): Promise<CallToolResult | undefined> => {
    const began = performance.now();
    try {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: context.requestTimeoutMs,
      })) as CallToolResult;
      record(recorder, kind, performance.now() - began, outcomeOf(result));
      return result;
    } catch (error) {
      record(recorder, kind, performance.now() - began, errorKind(error));
      return undefined;
    }
  };
  const parse = (result: CallToolResult): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(textOf(result));
      return typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  };

  let client: Client;
  const began = performance.now();
  try {
    client = await connectClient(context.url, profile.token, context.requestTimeoutMs);
  } catch (error) {
    record(recorder, 'tools/list', performance.now() - began, `connect: ${errorKind(error)}`);
    return;
  }
  try {
    const listed = performance.now();
    try {
      const { tools } = await client.listTools({}, { timeout: context.requestTimeoutMs });
      record(recorder, 'tools/list', performance.now() - listed, 'result');
      recorder.searchActive.set(
        profile.name,
        tools.some((tool) => tool.name === 'tool_search'),
      );
      for (const tool of tools) if (isOutside(truth, profile, tool.name)) leak('listed', tool.name);
    } catch (error) {
      record(recorder, 'tools/list', performance.now() - listed, errorKind(error));
    }

    const has = (server: ServerName) => profile.servers.includes(server);
    const own = profile.servers.flatMap((server) => truth.tools.get(server) ?? []);
    const foreign = [...truth.tools.entries()]
      .filter(([server]) => !has(server) && server !== 'hang')
      .flatMap(([, names]) => names);
    let lastMatches: string[] = [];
    let serial = 0;

    const checkedCall = (): CheckedCall | undefined => {
      const choices: CheckedCall[] = [];
      const n = serial++;
      if (has('filesystem')) {
        choices.push({
          name: 'read_text_file',
          arguments: { path: join(context.workspace, 'seed.txt') },
          check: (text) => text.includes('a file every session may read'),
        });
      }
      if (has('memory')) {
        choices.push({
          name: 'search_nodes',
          arguments: { query: `load-${tag}-` },
          check: (text) => text.includes('"entities"'),
        });
      }
      if (has('everything')) {
        const message = `${tag}-${n}-${Math.floor(random() * 1e9)}`;
        const a = Math.floor(random() * 1000);
        const b = Math.floor(random() * 1000);
        choices.push(
          { name: 'echo', arguments: { message }, check: (text) => text.includes(message) },
          { name: 'get-sum', arguments: { a, b }, check: (text) => text.includes(String(a + b)) },
        );
      }
      return choices.length > 0 ? pick(random, choices) : undefined;
    };

    const call = async (viaBridge: boolean) => {
      const chosen = checkedCall();
      if (chosen === undefined) return search();
      const kind: OperationKind = viaBridge ? 'call via tool_call' : 'call direct';
      const result = viaBridge
        ? await request(kind, 'tool_call', { name: chosen.name, arguments: chosen.arguments })
        : await request(kind, chosen.name, chosen.arguments);
      if (result !== undefined && result.isError !== true && !chosen.check(textOf(result))) {
        recorder.wrongAnswers.push(`${tag} ${chosen.name}: ${textOf(result).slice(0, 120)}`);
      }
    };

    const search = async () => {
      const query = pick(random, QUERIES);
      const result = await request('tool_search', 'tool_search', { query, limit: 5 });
      if (result === undefined || result.isError === true) return;
      const answer = parse(result);
      const matches = answer?.['matches'];
      if (!Array.isArray(matches) || answer?.['query'] !== query) {
        recorder.malformed.push(`${tag} tool_search: ${textOf(result).slice(0, 120)}`);
        return;
      }
      lastMatches = [];
      for (const match of matches as { name?: unknown; source_name?: unknown }[]) {
        if (typeof match.name !== 'string') continue;
        lastMatches.push(match.name);
        const toolset = String(match.source_name ?? '');
        const inScope = profile.servers.some((server) => `mcp-${server}` === toolset);
        if (!inScope || isOutside(truth, profile, match.name)) leak('found', match.name);
      }
    };

    const describe = async () => {
      const name = lastMatches.length > 0 ? pick(random, lastMatches) : pick(random, own);
      const result = await request('tool_describe', 'tool_describe', { name });
      if (result === undefined || result.isError === true) return;
      const answer = parse(result);
      if (answer?.['name'] !== name || typeof answer?.['parameters'] !== 'object') {
        recorder.malformed.push(`${tag} tool_describe ${name}: ${textOf(result).slice(0, 120)}`);
      }
    };

    const write = async () => {
      const n = serial++;
      const value = `${tag}-${n}-${Math.floor(random() * 1e12).toString(36)}`;
      const viaBridge = n % 2 === 0;
      const targets: ('filesystem' | 'memory')[] = [];
      if (has('filesystem')) targets.push('filesystem');
      if (has('memory') && context.memoryWriter) targets.push('memory');
      if (targets.length === 0) return call(viaBridge);
      const target = pick(random, targets);
      const send = (kind: OperationKind, name: string, args: Record<string, unknown>) =>
        viaBridge
          ? request(kind, 'tool_call', { name, arguments: args })
          : request(kind, name, args);
      if (target === 'filesystem') {
        const path = join(context.workspace, `${tag}-${n}.txt`);
        const written = await send('write', 'write_file', { path, content: value });
        const entry = { server: target, key: path, value, acknowledged: false, readBack: false };
        recorder.writes.push(entry);
        if (written === undefined || written.isError === true) return;
        entry.acknowledged = true;
        const read = await send('read-back', 'read_text_file', { path });
        entry.readBack = read !== undefined && read.isError !== true && textOf(read) === value;
      } else {
        const name = `load-${tag}-${n}`;
        const written = await send('write', 'create_entities', {
          entities: [{ name, entityType: 'load-test', observations: [value] }],
        });
        const entry = { server: target, key: name, value, acknowledged: false, readBack: false };
        recorder.writes.push(entry);
        if (written === undefined || written.isError === true) return;
        entry.acknowledged = true;
        const read = await send('read-back', 'open_nodes', { names: [name] });
        entry.readBack =
          read !== undefined && read.isError !== true && textOf(read).includes(value);
      }
    };

    const probe = async () => {
      if (foreign.length === 0) return search();
      const name = pick(random, foreign);
      const route = serial++ % 3;
      // Refused means an error answer that says so, before any upstream is reached.
      const isRefusal = (result: CallToolResult) =>
        result.isError === true &&
        /not available in this session|not a deferrable tool/.test(textOf(result));
      const outcomeOf = (result: CallToolResult) =>
        isRefusal(result) ? REFUSED : `not refused: ${resultKind(result)}`;
      const result =
        route === 0
          ? await request('cross-profile probe', 'tool_call', { name, arguments: {} }, outcomeOf)
          : route === 1
            ? await request('cross-profile probe', name, {}, outcomeOf)
            : await request('cross-profile probe', 'tool_describe', { name }, outcomeOf);
      if (result === undefined) return;
      if (!isRefusal(result)) leak(['tool_call', 'direct call', 'tool_describe'][route]!, name);
      const suggested = (parse(result)?.['did_you_mean'] ?? []) as unknown[];
      for (const other of Array.isArray(suggested) ? suggested : []) {
        if (typeof other === 'string' && isOutside(truth, profile, other)) leak('suggested', other);
      }
    };

    // The mix of a model's turns: mostly searches and calls, some writes, a probe now and then.
    const mix: (() => Promise<void>)[] = [
      search,
      search,
      search,
      describe,
      describe,
      () => call(true),
      () => call(true),
      () => call(false),
      () => call(false),
      write,
      write,
      probe,
    ];
    for (let i = 0; i < operations; i++) await pick(random, mix)();
  } finally {
    await closeClient(client);
  }
}
