// A new user's first LangChain agent on @tool-search/langchain, run by check-packages.ts in
// an empty folder where only @langchain/core, @langchain/langgraph, langchain, zod and the
// packed tarballs are installed. What the README's quick start leaves to the reader comes
// first (tools, a model, a checkpointer); the quick start itself is pasted, word for word
// from the installed package's README.md, where the marker line below stands; the agent
// then runs: the person's approval is asked through interrupt() and given on resume.
// The model is the scripted model of `@tool-search/langchain/testing`, no network.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createScriptedChatModel } from '@tool-search/langchain/testing';
import { z } from 'zod';

const filed: { repo: string; title: string }[] = [];
/** 302 tools: a built-in one, the one the model needs, and 300 it must not be sent. */
// biome-ignore lint/correctness/noUnusedVariables: the quick start pasted below uses it
const tools = [
  tool(async ({ path }) => `the contents of ${path}`, {
    name: 'read_file',
    description: 'Read a text file from the workspace.',
    schema: z.object({ path: z.string() }),
  }),
  tool(
    async (input) => {
      filed.push(input);
      return JSON.stringify({ number: 42 });
    },
    {
      name: 'github_create_issue',
      description: 'Create a new issue in a GitHub repository.',
      schema: z.object({ repo: z.string(), title: z.string() }),
    },
  ),
  ...Array.from({ length: 300 }, (_, index) =>
    tool(async () => 'synchronised', {
      name: `warehouse_${index}_sync`,
      description: `Synchronise the stock records of warehouse ${index} with the ledger, in batches, reporting every record that differs.`,
      schema: z.object({
        since: z.string().describe('The first day to synchronise, as YYYY-MM-DD.'),
        dryRun: z.boolean().optional().describe('Report the differences without writing.'),
      }),
    }),
  ),
];
const model = createScriptedChatModel([
  { calls: [{ name: 'tool_search', args: { query: 'create an issue in a github repository' } }] },
  {
    calls: [
      {
        name: 'tool_call',
        args: {
          name: 'github_create_issue',
          arguments: { repo: 'acme/app', title: 'Login fails' },
        },
      },
    ],
  },
  { text: 'Filed issue 42.' },
]);
// biome-ignore lint/correctness/noUnusedVariables: the quick start pasted below uses it
const checkpointer = new MemorySaver();
const logged: string[] = [];
console.info = (...parts: unknown[]) => void logged.push(parts.join(' '));

// <the README's quick start>

const thread = { configurable: { thread_id: 'new-user' } };
const paused = await agent.invoke(
  { messages: [{ role: 'user', content: 'File an issue about the failing login on acme/app.' }] },
  thread,
);
const [question] = paused.__interrupt__ ?? [];
assert.equal((question?.value as { tool?: string } | undefined)?.tool, 'github_create_issue');
assert.deepEqual(filed, [], 'nothing runs before the person answers');
const done = await agent.invoke(new Command({ resume: 'allow-once' }), thread);
assert.deepEqual(filed, [{ repo: 'acme/app', title: 'Login fails' }]);
assert.equal(done.messages.at(-1)?.text, 'Filed issue 42.');
assert.ok(search.decision.active, `tool search is inactive: ${search.decision.reason}`);
assert.ok(
  logged.some((line) => line.includes('tool search is active')),
  'the decision was logged',
);
const sent = model.bound[0] ?? [];
for (const name of ['tool_search', 'tool_describe', 'tool_call', 'read_file']) {
  assert.ok(sent.includes(name), `${name} is not sent: ${sent.join(', ')}`);
}
assert.ok(sent.length < 10, `the model was sent ${sent.length} tools of 302`);
const version = (
  JSON.parse(readFileSync('node_modules/@langchain/core/package.json', 'utf8')) as {
    version: string;
  }
).version;
console.log(
  `@langchain/core ${version}: ${sent.length} of 302 tools sent, the approval asked through interrupt(), the issue filed through tool_call`,
);
