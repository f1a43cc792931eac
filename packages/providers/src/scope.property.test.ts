import type { ToolDefinition } from '@tool-search/core';
import { createToolsetRegistry, scopeTools } from '@tool-search/toolsets';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerAnthropicToolSearch, prepareAnthropicTools } from './anthropic.js';
import { answerOpenAIToolSearch, prepareOpenAIResponsesTools } from './openai.js';

const TOOLSETS = ['alpha', 'beta', 'gamma'] as const;
const WORDS = ['issue', 'github', 'message', 'file', 'weather', 'deploy', 'search'];

// Names like `t7x` never occur inside another generated name, so a whole-word match
// in the request body means the tool itself leaked.
const nameOf = (index: number) => `t${index}x`;
const mentions = (text: string, name: string) =>
  new RegExp(`(?<![A-Za-z0-9])${name}(?![A-Za-z0-9])`).test(text);

const toolsArbitrary = fc
  .array(
    fc.record({
      toolset: fc.option(fc.constantFrom(...TOOLSETS), { nil: undefined }),
      source: fc.constantFrom('core', 'mcp', 'plugin'),
      words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((specs) =>
    specs.map(
      (spec, index): ToolDefinition => ({
        name: nameOf(index),
        description: `${spec.words.join(' ')} tool`,
        inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
        source: spec.source as ToolDefinition['source'] & string,
        ...(spec.toolset === undefined ? {} : { toolset: spec.toolset }),
      }),
    ),
  );

const scopeArbitrary = fc.record({
  enabledToolsets: fc.option(fc.subarray([...TOOLSETS]), { nil: undefined }),
  disabledToolsets: fc.subarray([...TOOLSETS]),
});

describe('the session scope in every mode', () => {
  it('no out-of-scope tool ever appears in a request body or a search answer', async () => {
    const registry = createToolsetRegistry([]);
    await fc.assert(
      fc.asyncProperty(
        toolsArbitrary,
        scopeArbitrary,
        fc.constantFrom('client', 'hosted', 'bridge', 'auto'),
        fc.constantFrom('on', 'auto'),
        fc.boolean(),
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
        async (tools, scope, mode, enabled, strict, queryWords) => {
          const scoped = scopeTools(tools, scope, registry);
          const outside = tools.filter((tool) => !scoped.includes(tool)).map((tool) => tool.name);
          // The model asks for out-of-scope tools by name too: a search must not find them.
          const query = [...queryWords, ...outside].join(' ');
          const options = {
            mode,
            config: { enabled, threshold_tokens: 1 },
            model: 'gpt-5.5',
            strict,
          } as const;
          const anthropic = await prepareAnthropicTools(scoped, {
            ...options,
            model: 'claude-opus-4-5',
          });
          const openai = await prepareOpenAIResponsesTools(scoped, options);
          const bodies = [
            JSON.stringify({ tools: anthropic.tools }),
            JSON.stringify({ tools: openai.tools }),
          ];
          if (anthropic.mode === 'client') {
            const input = { query, limit: 20 };
            bodies.push(
              JSON.stringify(
                await answerAnthropicToolSearch(anthropic, { id: 't', name: 'tool_search', input }),
              ),
            );
          }
          if (openai.mode === 'client') {
            bodies.push(
              JSON.stringify(
                await answerOpenAIToolSearch(openai, {
                  call_id: 'c',
                  arguments: { query, limit: 20 },
                }),
              ),
            );
          }
          for (const name of outside) {
            for (const body of bodies)
              expect(mentions(body, name), `${name} leaked into ${body}`).toBe(false);
            expect(anthropic.catalog.get(name)).toBeUndefined();
            expect(openai.catalog.get(name)).toBeUndefined();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
