import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_TOKEN,
  FILES_TOKEN,
  startTestGateway,
  type TestGateway,
} from '../__fixtures__/gateway.js';

const MODERN = '2026-07-28';

type Json = Record<string, unknown>;

describe('approvals of the modern leg by input_required', () => {
  let setup: TestGateway;
  let nextId = 100;

  beforeAll(async () => {
    setup = await startTestGateway();
  }, 30_000);

  afterAll(async () => {
    await setup?.close();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  /** A modern `tools/call` of `tool_call` with these arguments, raw on the wire. */
  const post = async (
    toolCall: Json,
    options: {
      token?: string;
      elicitation?: boolean;
      requestState?: string;
      answer?: unknown;
    } = {},
  ): Promise<Json> => {
    const id = nextId++;
    const params: Json = {
      name: 'tool_call',
      arguments: toolCall,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities':
          options.elicitation === false ? {} : { elicitation: { form: {} } },
      },
      ...(options.requestState === undefined ? {} : { requestState: options.requestState }),
      ...(options.answer === undefined ? {} : { inputResponses: { approval: options.answer } }),
    };
    const response = await fetch(setup.listener.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${options.token ?? ADMIN_TOKEN}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'tool_call',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    });
    const text = await response.text();
    const data = text.startsWith('{')
      ? text
      : (text
          .split('\n')
          .find((line) => line.startsWith('data: '))
          ?.slice(6) ?? '{}');
    const json = JSON.parse(data) as Json;
    expect(json['id']).toBe(id);
    return json;
  };

  /** A modern `tools/call` of `write_file` through `tool_call`. */
  const call = async (options: {
    path: string;
    content?: string;
    token?: string;
    elicitation?: boolean;
    requestState?: string;
    answer?: unknown;
  }): Promise<{ json: Json }> => {
    const { path, content, ...rest } = options;
    const json = await post(
      {
        name: 'write_file',
        arguments: { path: join(setup.workspace.directory, path), content: content ?? 'hello' },
      },
      rest,
    );
    return { json };
  };

  const ask = async (path: string, token = ADMIN_TOKEN) => {
    const { json } = await call({ path, token });
    const result = json['result'] as Json;
    expect(result['resultType']).toBe('input_required');
    const request = (result['inputRequests'] as Record<string, Json>)['approval']!;
    expect(request['method']).toBe('elicitation/create');
    expect(String((request['params'] as Json)['message'])).toContain('write_file');
    expect(existsSync(join(setup.workspace.directory, path))).toBe(false);
    return result['requestState'] as string;
  };
  const allowOnce = { action: 'accept', content: { decision: 'allow-once' } };
  const errorOf = (json: Json) => json['error'] as { code: number; message: string } | undefined;

  it('asks by input_required, and the retry with the answer runs exactly that call', async () => {
    const requestState = await ask('asked.txt');
    const { json } = await call({ path: 'asked.txt', requestState, answer: allowOnce });
    const result = json['result'] as Json;
    expect(result['resultType']).toBe('complete');
    expect(result['isError']).not.toBe(true);
    expect(readFileSync(join(setup.workspace.directory, 'asked.txt'), 'utf8')).toBe('hello');
  });

  it('refuses a replayed requestState: the call runs once', async () => {
    const requestState = await ask('once.txt');
    await call({ path: 'once.txt', requestState, answer: allowOnce });
    const { json } = await call({ path: 'once.txt', requestState, answer: allowOnce });
    expect(errorOf(json)?.code).toBe(-32602);
    expect(errorOf(json)?.message).toMatch(/already used/);
  });

  it('refuses a forged or altered requestState', async () => {
    const requestState = await ask('forged.txt');
    const [body, signature] = requestState.split('.');
    const altered = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Json;
    altered['t'] = 'read_text_file';
    const forged = `${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`;
    for (const state of [forged, `${requestState}x`, 'not-a-state']) {
      const { json } = await call({ path: 'forged.txt', requestState: state, answer: allowOnce });
      expect(errorOf(json)?.code).toBe(-32602);
      expect(errorOf(json)?.message).toMatch(/not one this gateway issued/);
    }
    expect(existsSync(join(setup.workspace.directory, 'forged.txt'))).toBe(false);
  });

  it('refuses an expired requestState', async () => {
    const requestState = await ask('late.txt');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000);
    const { json } = await call({ path: 'late.txt', requestState, answer: allowOnce });
    expect(errorOf(json)?.message).toMatch(/expired/);
    expect(existsSync(join(setup.workspace.directory, 'late.txt'))).toBe(false);
  });

  it("refuses another principal's requestState", async () => {
    const requestState = await ask('theirs.txt', ADMIN_TOKEN);
    const { json } = await call({
      path: 'theirs.txt',
      requestState,
      answer: allowOnce,
      token: FILES_TOKEN,
    });
    expect(errorOf(json)?.message).toMatch(/another client/);
    expect(existsSync(join(setup.workspace.directory, 'theirs.txt'))).toBe(false);
  });

  it('does not run other arguments than the approved ones', async () => {
    const requestState = await ask('approved.txt');
    const { json } = await call({ path: 'other.txt', requestState, answer: allowOnce });
    const result = json['result'] as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/not the one that was approved/);
    expect(existsSync(join(setup.workspace.directory, 'other.txt'))).toBe(false);
  });

  it('denies when the person declines', async () => {
    const requestState = await ask('declined.txt');
    const { json } = await call({
      path: 'declined.txt',
      requestState,
      answer: { action: 'decline' },
    });
    expect((json['result'] as Json)['isError']).toBe(true);
    expect(existsSync(join(setup.workspace.directory, 'declined.txt'))).toBe(false);
  });

  it('answers a client that declared no elicitation as today: the fallback denies', async () => {
    const { json } = await call({ path: 'silent.txt', elicitation: false });
    const result = json['result'] as {
      resultType: string;
      isError?: boolean;
      content: { text: string }[];
    };
    expect(result.resultType).toBe('complete');
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/cannot be asked/);
  });

  it('keeps "allow for this credential" in the store for its time, for that credential only', async () => {
    const requestState = await ask('granted-1.txt', FILES_TOKEN);
    await call({
      path: 'granted-1.txt',
      token: FILES_TOKEN,
      requestState,
      answer: { action: 'accept', content: { decision: 'allow-session' } },
    });
    const again = await call({ path: 'granted-2.txt', token: FILES_TOKEN });
    expect((again.json['result'] as Json)['resultType']).toBe('complete');
    expect(existsSync(join(setup.workspace.directory, 'granted-2.txt'))).toBe(true);
    // Another credential is still asked.
    await ask('granted-3.txt', ADMIN_TOKEN);
    // And the grant ends with its time.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 60 * 60 * 1000);
    await ask('granted-4.txt', FILES_TOKEN);
  });

  it('answers a batch of several calls as today: its retry would run the others again', async () => {
    const json = await post({
      calls: ['batch-1.txt', 'batch-2.txt'].map((path) => ({
        name: 'write_file',
        arguments: { path: join(setup.workspace.directory, path), content: path },
      })),
    });
    const result = json['result'] as Json;
    expect(result['resultType']).toBe('complete');
    expect(result['isError']).toBe(true);
    expect(existsSync(join(setup.workspace.directory, 'batch-1.txt'))).toBe(false);
  });

  it('runs one call for one answer: a batch repeating the approved call gets the rest refused', async () => {
    const requestState = await ask('repeat.txt');
    const path = join(setup.workspace.directory, 'repeat.txt');
    const json = await post(
      {
        calls: [1, 2, 3].map(() => ({ name: 'write_file', arguments: { path, content: 'hello' } })),
      },
      { requestState, answer: allowOnce },
    );
    const result = json['result'] as Json;
    const said = JSON.stringify(result);
    expect(said.match(/decided one call, and it has been made/g)).toHaveLength(2);
    expect(readFileSync(path, 'utf8')).toBe('hello');
  });
});
