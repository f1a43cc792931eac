// The load route (tool_search, tool_describe, then the tool by its name) with thinking on,
// through the real @ai-sdk/anthropic client (ai 7: @ai-sdk/anthropic 4; ai 6: 3) against a
// local stand-in of the Messages API that refuses a changed prefix after a thinking block.
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicStandIn, startAnthropicStandIn } from './__fixtures__/anthropic-stand-in.js';
import { catalogToolSet, type Execution } from './__fixtures__/catalog.js';
import { type WithToolSearchOptions, withToolSearch } from './with-tool-search.js';

const target = 'slack_slack_post_message';
const loadRoute = [
  { tool: 'tool_search', input: { query: 'post a message to a slack channel' } },
  { tool: 'tool_describe', input: { name: target } },
  { tool: target, input: { channel_id: 'C1', text: 'release is out' } },
  { text: 'Posted.' },
];

describe('withToolSearch with Anthropic thinking: the tools never change after a thinking block', () => {
  let standIn: AnthropicStandIn;
  beforeAll(async () => {
    standIn = await startAnthropicStandIn();
  });
  afterAll(() => standIn.close());

  async function run(options: WithToolSearchOptions = {}) {
    standIn.script(loadRoute);
    const executions: Execution[] = [];
    const search = withToolSearch(catalogToolSet(executions), {
      core: ['read_file'],
      contextWindow: 200_000,
      logger: { warn: () => {} },
      ...options,
    });
    const anthropic = createAnthropic({ baseURL: standIn.baseURL, apiKey: 'test-key' });
    const outcome = await generateText({
      model: anthropic('claude-sonnet-5-5'),
      ...search,
      providerOptions: { anthropic: { thinking: { type: 'adaptive' } } },
      stopWhen: stepCountIs(6),
      maxRetries: 0,
      prompt: 'Tell #releases that the release is out',
    } as Parameters<typeof generateText>[0]).then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
    return { ...outcome, executions };
  }

  it('is refused by the stand-in when a loaded tool joins the tools (fixedToolList: false)', async () => {
    const { error, executions } = await run({ fixedToolList: false });
    expect(String(error)).toContain('`tools` changed after a thinking block was produced');
    expect(standIn.exchanges.map(({ status }) => status)).toEqual([200, 200, 400]);
    expect(standIn.exchanges[2]?.tools).toContain(target);
    expect(executions).toEqual([]);
  });

  it('keeps the tools of every request the same for a Claude model, and the loaded tool runs by its name', async () => {
    const { error, result, executions } = await run();
    expect(error).toBeUndefined();
    expect(standIn.exchanges.map(({ status }) => status)).toEqual([200, 200, 200, 200]);
    const first = standIn.exchanges[0]?.tools;
    expect(first?.slice().sort()).toEqual([
      'read_file',
      'tool_call',
      'tool_describe',
      'tool_search',
    ]);
    for (const exchange of standIn.exchanges) expect(exchange.tools).toEqual(first);
    expect(executions.map(({ name, input }) => ({ name, input }))).toEqual([
      { name: target, input: { channel_id: 'C1', text: 'release is out' } },
    ]);
    expect(result?.text).toBe('Posted.');
    // The thinking of every step went back to the API, and was accepted.
    expect(result?.steps.filter((step) => step.reasoningText !== undefined)).toHaveLength(4);
  });

  it('lets a loaded tool join the tools for a model that is not Claude, as before', async () => {
    const prepared = withToolSearch(catalogToolSet(), {
      core: ['read_file'],
      contextWindow: 200_000,
      logger: { warn: () => {} },
    });
    const messages = [
      {
        role: 'tool' as const,
        content: [
          {
            type: 'tool-result' as const,
            toolCallId: 'c1',
            toolName: 'tool_describe',
            output: {
              type: 'json' as const,
              value: { name: target, parameters: { type: 'object' } },
            },
          },
        ],
      },
    ];
    const openai = await prepared.prepareStep({
      messages,
      model: { provider: 'openai.responses', modelId: 'gpt-5' },
    });
    const claude = await prepared.prepareStep({
      messages,
      model: { provider: 'anthropic.messages', modelId: 'claude-opus-5-5' },
    });
    const bedrock = await prepared.prepareStep({ messages, model: 'anthropic/claude-haiku-5-5' });
    expect(openai.activeTools).toContain(target);
    expect(claude.activeTools).not.toContain(target);
    expect(bedrock.activeTools).not.toContain(target);
  });
});
