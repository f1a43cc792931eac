// A new user whose 202 small tools come to just under the threshold of a 128k context
// (issue 43): tool search stays inactive, and the setup, the log and the model are told
// why. Run by check-packages.ts from the packed tarballs, on ai 6 and on ai 7.
import assert from 'node:assert/strict';
import { withToolSearch } from '@tool-search/ai-sdk';
import { createScriptedModel } from '@tool-search/ai-sdk/testing';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'archive', 'export'];
const NOUNS = ['invoice', 'customer', 'order', 'ticket', 'report', 'project', 'task', 'note'];
const NOUNS_MORE = ['label', 'comment', 'webhook', 'team', 'member', 'budget', 'asset', 'event'];
const NOUNS_LAST = ['survey', 'coupon', 'shipment', 'refund', 'contract', 'lead', 'campaign'];
const ran: string[] = [];
const tools = Object.fromEntries(
  [
    ...NOUNS,
    ...NOUNS_MORE,
    ...NOUNS_LAST,
    'segment',
    'device',
    'alert',
    'policy',
    'secret',
    'backup',
  ]
    .flatMap((noun) => VERBS.map((verb) => `${verb}_${noun}`))
    .slice(0, 202)
    .map((name) => [
      name,
      tool({
        description: `${name.replace('_', ' one ')} of the workspace by its id; answers it as JSON, or why not.`,
        inputSchema: jsonSchema<{ id: string }>({
          type: 'object',
          properties: { id: { type: 'string', description: "The record's id" } },
          required: ['id'],
        }),
        execute: async () => {
          ran.push(name);
          return { ok: true };
        },
      }),
    ]),
);

const warnings: string[] = [];
const search = withToolSearch(tools, {
  contextWindow: 128_000,
  logger: { warn: (message) => void warnings.push(message) },
});
const decision = await search.decision;
assert.equal(Object.keys(tools).length, 202);
assert.equal(decision.active, false);
assert.equal(decision.reason, 'below-threshold');
assert.equal(decision.thresholdTokens, 12_800);
assert.ok(
  warnings.some((line) => line.includes('tool search is inactive')),
  warnings.join('\n'),
);

const scriptWarnings: string[] = [];
const result = await generateText({
  model: createScriptedModel(
    [
      { tool: 'tool_search', input: { query: 'refund an order' } },
      { tool: 'create_refund', input: { id: 'o1' } },
      { text: 'Refunded.' },
    ],
    { logger: { warn: (message) => void scriptWarnings.push(message) } },
  ),
  ...search,
  stopWhen: stepCountIs(4),
  prompt: 'Refund order o1',
});
const errors = result.steps.flatMap((step) =>
  step.content.filter((part) => part.type === 'tool-error'),
);
assert.equal(errors.length, 1);
assert.match(String((errors[0] as { error: unknown }).error), /reason: below-threshold/);
assert.deepEqual(ran, ['create_refund']);
assert.equal(scriptWarnings.length, 1);
console.log(
  `below the threshold: ${decision.deferrableTokens} of ${decision.thresholdTokens} tokens, reason ${decision.reason}, warned once, tool_search answered why`,
);
