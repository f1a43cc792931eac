// What a UI shows of a whole streamText loop in which the model calls through tool_call,
// driven by the AI SDK's own mock model (ai/test) over 300 real MCP tools; ai 7 and ai 6.
import { readUIMessageStream, stepCountIs, streamText, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { type AgentTask, createAgentModel } from './__fixtures__/agent-model.js';
import { catalogToolSet, type Execution } from './__fixtures__/catalog.js';
import { createRealToolTransform, realToolPart } from './real-tool-stream.js';
import { withToolSearch } from './with-tool-search.js';

const postMessage: AgentTask = {
  query: 'post a message to a slack channel',
  arguments: { channel_id: 'C1', text: 'release is out' },
  style: 'tool_call',
};

function start(task: AgentTask = postMessage) {
  const executions: Execution[] = [];
  const search = withToolSearch(catalogToolSet(executions), { contextWindow: 200_000 });
  const agent = createAgentModel(task, { streamInput: true });
  const result = streamText({
    model: agent.model,
    tools: search.tools,
    prepareStep: search.prepareStep,
    experimental_repairToolCall: search.repairToolCall,
    stopWhen: stepCountIs(6),
    prompt: task.query,
  });
  return { result, executions, model: agent.model };
}

interface ShownTool {
  name: string;
  state: unknown;
  input: unknown;
  toolCallId: unknown;
}

// The tool parts of the assistant message as the AI SDK's UI (useChat) builds it.
async function uiTools(stream: ReadableStream<unknown>): Promise<ShownTool[]> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream: stream as never })) last = message;
  return (last?.parts ?? []).flatMap((part) => {
    const record = part as Record<string, unknown>;
    if (part.type !== 'dynamic-tool' && !part.type.startsWith('tool-')) return [];
    const name = part.type === 'dynamic-tool' ? record['toolName'] : part.type.slice(5);
    const { state, input, toolCallId } = record;
    return [{ name: String(name), state, input, toolCallId }];
  });
}

// Splits a stream in two: one copy for the UI, one to record the chunks it got.
function recorded(stream: ReadableStream<unknown>) {
  const chunks: Record<string, unknown>[] = [];
  const [ui, log] = stream.tee();
  const done = (async () => {
    for await (const chunk of log as unknown as AsyncIterable<Record<string, unknown>>)
      chunks.push(chunk);
  })();
  return { ui, chunks, done };
}

describe('createRealToolTransform over the UI message stream of a streamText loop', () => {
  it('shows the call made through tool_call as the real tool with its input, keeping its id', async () => {
    const { result, executions } = start();
    const stream = result.toUIMessageStream().pipeThrough(createRealToolTransform());
    const { ui, chunks, done } = recorded(stream as ReadableStream<unknown>);
    const tools = await uiTools(ui);
    await done;

    expect(executions.map((execution) => execution.name)).toEqual(['slack_slack_post_message']);
    expect(tools.map(({ name }) => name)).toEqual([
      'tool_search',
      'tool_describe',
      'slack_slack_post_message',
    ]);
    expect(tools[2]).toMatchObject({
      toolCallId: 'call-3',
      state: 'output-available',
      input: postMessage.arguments,
    });
    // The input streamed under tool_call (its name is inside it), then the part was renamed.
    const call3 = chunks.filter((chunk) => chunk['toolCallId'] === 'call-3');
    expect(call3.find((chunk) => chunk['type'] === 'tool-input-start')).toMatchObject({
      toolName: 'tool_call',
    });
    expect(call3.some((chunk) => chunk['type'] === 'tool-input-delta')).toBe(true);
    expect(call3.find((chunk) => chunk['type'] === 'tool-input-available')).toMatchObject({
      toolName: 'slack_slack_post_message',
      input: postMessage.arguments,
    });
  });

  it('leaves the history the model sees on tool_call', async () => {
    const { result, model } = start();
    await uiTools(result.toUIMessageStream().pipeThrough(createRealToolTransform()) as never);
    // The prompt of the model's last step: every call it made, as it made them.
    const prompt = model.doStreamCalls.at(-1)?.prompt ?? [];
    const called = prompt.flatMap((message) =>
      Array.isArray(message.content)
        ? message.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolName] : []))
        : [],
    );
    expect(called).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    const steps = await result.steps;
    expect(steps.flatMap((step) => step.toolCalls.map((call) => call.toolName))).toEqual([
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
  });

  it('without the transform, the UI shows the call as tool_call', async () => {
    const { result } = start();
    const tools = await uiTools(result.toUIMessageStream() as never);
    expect(tools[2]).toMatchObject({ name: 'tool_call', toolCallId: 'call-3' });
  });
});

describe('createRealToolTransform over the fullStream of a streamText loop', () => {
  it('names the real tool in the tool-call and tool-result parts of a tool_call call', async () => {
    const { result } = start();
    const shown: string[] = [];
    const stream = result.fullStream.pipeThrough(createRealToolTransform());
    for await (const part of stream as unknown as AsyncIterable<Record<string, unknown>>) {
      if (part['type'] === 'tool-call' || part['type'] === 'tool-result') {
        shown.push(`${part['type']}:${String(part['toolName'])}`);
        if (part['toolCallId'] === 'call-3') expect(part['input']).toEqual(postMessage.arguments);
      }
    }
    expect(shown).toEqual([
      'tool-call:tool_search',
      'tool-result:tool_search',
      'tool-call:tool_describe',
      'tool-result:tool_describe',
      'tool-call:slack_slack_post_message',
      'tool-result:slack_slack_post_message',
    ]);
  });
});

describe('realToolPart', () => {
  const call = (input: unknown) => ({
    type: 'tool-call',
    toolCallId: 'c1',
    toolName: 'tool_call',
    input,
  });

  it('renames a single tool_call call to the real tool and its input, keeping the other fields', () => {
    const part = {
      ...call({ name: 'github_create_issue', arguments: { title: 'x' } }),
      dynamic: true,
    };
    expect(realToolPart(part)).toEqual({
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'github_create_issue',
      input: { title: 'x' },
      dynamic: true,
    });
    expect(part.toolName).toBe('tool_call');
  });

  it('reads an input given as JSON text', () => {
    const part = {
      ...call('{"name":"read_file","arguments":{"path":"/a"}}'),
      type: 'tool-input-error',
    };
    expect(realToolPart(part)).toMatchObject({ toolName: 'read_file', input: { path: '/a' } });
  });

  it('shows a batch as the batch', () => {
    const batch = call({ calls: [{ name: 'read_file', arguments: {} }] });
    expect(realToolPart(batch)).toBe(batch);
  });

  it('passes malformed input, other tools, other parts and garbage through untouched', () => {
    const parts: unknown[] = [
      call('{"name": "read_fi'),
      call({ arguments: {} }),
      call({ name: 42 }),
      call(null),
      { ...call({ name: 'read_file' }), toolName: 'read_file' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"name"' },
      { type: 'tool-output-available', toolCallId: 'c1', output: {} },
      null,
      'text',
      42,
      [],
    ];
    for (const part of parts) expect(realToolPart(part)).toBe(part);
  });

  it('renames the call inside a tool-approval-request part', () => {
    const part = {
      type: 'tool-approval-request',
      approvalId: 'a1',
      toolCall: call({ name: 'slack_post', arguments: { text: 'hi' } }),
    };
    expect(realToolPart(part)).toEqual({
      type: 'tool-approval-request',
      approvalId: 'a1',
      toolCall: {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'slack_post',
        input: { text: 'hi' },
      },
    });
  });

  it('names the real tool in a denial that follows its call in the stream', async () => {
    const parts = [
      call({ name: 'slack_post', arguments: {} }),
      { type: 'tool-output-denied', toolCallId: 'c1', toolName: 'tool_call' },
    ];
    const stream = new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }).pipeThrough(createRealToolTransform());
    const shown: unknown[] = [];
    for await (const part of stream as unknown as AsyncIterable<unknown>) shown.push(part);
    expect(shown).toMatchObject([{ toolName: 'slack_post' }, { toolName: 'slack_post' }]);
  });
});
