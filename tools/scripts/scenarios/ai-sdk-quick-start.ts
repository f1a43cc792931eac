// A new user's first agent on @tool-search/ai-sdk, run by check-packages.ts in an empty
// folder where only `ai` (6 or 7), zod and the packed tarballs are installed. What the
// README's quick start leaves to the reader comes first (tools, model, prompt and a
// prepareStep of the user's own); the quick start itself is pasted, word for word from
// the installed package's README.md, where the marker line below stands; checks follow.
// The model is the scripted test model of `@tool-search/ai-sdk/testing`, no network.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createScriptedModel } from '@tool-search/ai-sdk/testing';
import { tool } from 'ai';
import { z } from 'zod';

const filed: { repo: string; title: string }[] = [];
/** 302 tools: a built-in one, the one the model needs, and 300 it must not be sent. */
// biome-ignore lint/correctness/noUnusedVariables: the quick start pasted below uses it
const tools = {
  read_file: tool({
    description: 'Read a text file from the workspace.',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `the contents of ${path}`,
  }),
  github_create_issue: tool({
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: z.object({ repo: z.string(), title: z.string() }),
    execute: async (input) => {
      filed.push(input);
      return { number: 42 };
    },
  }),
  ...Object.fromEntries(
    Array.from({ length: 300 }, (_, index) => [
      `warehouse_${index}_sync`,
      tool({
        description: `Synchronise the stock records of warehouse ${index} with the ledger, in batches, reporting every record that differs.`,
        inputSchema: z.object({
          since: z.string().describe('The first day to synchronise, as YYYY-MM-DD.'),
          dryRun: z.boolean().optional().describe('Report the differences without writing.'),
        }),
        execute: async () => 'synchronised',
      }),
    ]),
  ),
};
const model = createScriptedModel([
  { tool: 'tool_search', input: { query: 'create an issue in a github repository' } },
  {
    tool: 'tool_call',
    input: { name: 'github_create_issue', arguments: { repo: 'acme/app', title: 'Login fails' } },
  },
  { text: 'Filed issue 42.' },
]);
// biome-ignore lint/correctness/noUnusedVariables: the quick start pasted below uses it
const prompt = 'File an issue about the failing login on acme/app.';
const stepsSeen: number[] = [];
// biome-ignore lint/correctness/noUnusedVariables: the quick start pasted below uses it
const myPrepareStep = ({ stepNumber }: { stepNumber?: number }) => {
  stepsSeen.push(stepNumber ?? -1);
  return undefined;
};
const warnings: string[] = [];
console.warn = (...parts: unknown[]) => void warnings.push(parts.join(' '));

// <the README's quick start>

const version = (
  JSON.parse(readFileSync('node_modules/ai/package.json', 'utf8')) as {
    version: string;
  }
).version;
assert.deepEqual(filed, [{ repo: 'acme/app', title: 'Login fails' }]);
assert.deepEqual(stepsSeen, [0, 1, 2], 'your prepareStep ran on every step');
assert.deepEqual(warnings, [], 'no warning: prepareStep was spread into generateText');
const sent = model.doGenerateCalls.map((call) => (call.tools ?? []).map((each) => each.name));
const first = sent[0] ?? [];
for (const name of ['tool_search', 'tool_describe', 'tool_call', 'read_file']) {
  assert.ok(first.includes(name), `${name} is not sent on the first step: ${first.join(', ')}`);
}
assert.ok(first.length < 10, `the first step sent ${first.length} tools of 302`);
console.log(
  `ai ${version}: ${sent.length} steps, ${first.length} of 302 tools sent on the first, the issue filed through tool_call`,
);
