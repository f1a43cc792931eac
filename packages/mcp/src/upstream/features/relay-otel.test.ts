import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CallRelay, relayServerRequest } from './relay.js';

const relay: CallRelay = {
  sessionId: 's',
  supports: () => true,
  request: async () => ({ role: 'assistant', content: { type: 'text', text: 'sure' } }),
  log: () => {},
  confirm: async () => true,
};

const request = (server: string, inFlight: readonly CallRelay[]) =>
  relayServerRequest({
    server,
    method: 'sampling/createMessage',
    params: {},
    signal: new AbortController().signal,
    inFlight,
    sampling: 'allow',
    held: false,
    record: () => {},
  });

describe('the relay of server requests, traced', () => {
  let spans: InMemorySpanExporter;
  let provider: TracerProvider;
  beforeEach(() => {
    spans = new InMemorySpanExporter();
    provider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
  });
  afterEach(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  it('gives each relayed request a span with its method and server, and marks a refusal failed', async () => {
    await expect(request('alpha', [relay])).resolves.toMatchObject({ role: 'assistant' });
    await expect(request('beta', [])).rejects.toThrow(/only while a call is in flight/);
    const [relayed, refused] = spans.getFinishedSpans();
    expect(relayed).toMatchObject({
      name: 'sampling/createMessage relay',
      attributes: { 'mcp.method.name': 'sampling/createMessage', 'tool_search.server': 'alpha' },
    });
    expect(relayed?.attributes['error.type']).toBeUndefined();
    expect(refused).toMatchObject({
      name: 'sampling/createMessage relay',
      attributes: { 'tool_search.server': 'beta', 'error.type': expect.any(String) },
    });
  });
});
