/**
 * The new-user scenarios of issue 26 for the agent loops (run by new-user-scenarios.ts):
 * in empty folders where only the packed tarballs and the SDKs a user would add are
 * installed, the code blocks of the README and the guides are pasted word for word into a
 * user's file, type-checked under strict mode with tsc, and run.
 *
 * - `AI SDK 6 and 7`: the quick start of the installed `@tool-search/ai-sdk` README, with
 *   the scripted model of `@tool-search/ai-sdk/testing` (tools/scripts/scenarios/
 *   ai-sdk-quick-start.ts around it), once on `ai` 6 and once on `ai` 7.
 * - `provider loops`: the loops of the Anthropic and OpenAI guides (their generated
 *   blocks, taken from docs/guides/*.md) in place of the same region of
 *   docs/examples/native-*.ts, which run them against the stand-ins of
 *   `@tool-search/providers/testing` in client, hosted and bridge mode.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  manifestOf,
  markdownCodeBlock,
  pasteCode,
  root,
  SCENARIO_FILES,
  type Scenario,
  typecheckAndRun,
} from './scenario-kit.js';

/** The line of ai-sdk-quick-start.ts that the README's quick start replaces. */
const QUICK_START_MARKER = "// <the README's quick start>";

/** The `ai` versions the package's tests ran: `npm:ai@^6…` -> `^6…`. */
async function aiRanges(): Promise<{ ai6: string; ai7: string; zod: string }> {
  const aiSdk = (await manifestOf('packages/ai-sdk'))['devDependencies']!;
  const scripts = (await manifestOf('tools/scripts'))['devDependencies']!;
  const range = (alias: string) => aiSdk[alias]!.replace(/^npm:ai@/, '');
  return { ai6: range('ai6'), ai7: range('ai7'), zod: scripts['zod']! };
}

export const aiSdkScenario: Scenario = {
  name: "AI SDK 6 and 7: the README's quick start on the scripted test model",
  async projects() {
    const { ai6, ai7, zod } = await aiRanges();
    return {
      'ai-sdk-6': { '@tool-search/ai-sdk': '', ai: ai6, zod },
      'ai-sdk-7': { '@tool-search/ai-sdk': '', ai: ai7, zod },
    };
  },
  async run(context, folders) {
    const template = await readFile(join(SCENARIO_FILES, 'ai-sdk-quick-start.ts'), 'utf8');
    for (const [name, major] of [
      ['ai-sdk-6', '6'],
      ['ai-sdk-7', '7'],
    ] as const) {
      const folder = folders[name]!;
      // The README as npm shows it: the one in the installed tarball.
      const readme = await readFile(
        join(folder, 'node_modules', '@tool-search', 'ai-sdk', 'README.md'),
        'utf8',
      );
      const agent = pasteCode(template, { marker: QUICK_START_MARKER }, markdownCodeBlock(readme));
      await typecheckAndRun(
        context,
        folder,
        `ai ${major}`,
        { 'agent.ts': agent },
        {
          'agent.ts': (stdout) =>
            stdout.includes(`ai ${major}.`) ? undefined : `not run on ai ${major}: ${stdout}`,
        },
      );
    }
  },
};

/** A guide's loop: the guide, and the example whose region its generated block shows. */
const GUIDE_LOOPS = [
  { guide: 'docs/guides/anthropic.md', example: 'native-anthropic.ts', region: 'anthropic-native' },
  { guide: 'docs/guides/openai.md', example: 'native-openai.ts', region: 'openai-native' },
] as const;

/** The stdout of an example that ran its loop in every mode: a line per mode taken. */
function ranEveryMode(stdout: string): string | undefined {
  const missing = ['client', 'hosted', 'bridge'].filter((mode) => !stdout.includes(`-> ${mode} `));
  return missing.length === 0 ? undefined : `no run in ${missing.join(', ')} mode`;
}

export const providerLoopsScenario: Scenario = {
  name: 'Anthropic and OpenAI: the guides’ loops against the stand-ins, client and hosted modes',
  async projects() {
    const sdks = (await manifestOf('packages/core'))['devDependencies']!;
    return {
      providers: {
        '@tool-search/providers': '',
        '@tool-search/core': '',
        '@tool-search/bridge': '',
        '@tool-search/hooks': '',
        '@anthropic-ai/sdk': sdks['@anthropic-ai/sdk']!,
        openai: sdks['openai']!,
      },
    };
  },
  async run(context, folders) {
    const folder = folders['providers']!;
    const examples = join(root, 'docs', 'examples');
    const files: Record<string, string> = {
      'tools.ts': await readFile(join(examples, 'tools.ts'), 'utf8'),
    };
    for (const { guide, example, region } of GUIDE_LOOPS) {
      const block = markdownCodeBlock(
        await readFile(join(root, guide), 'utf8'),
        `<!-- include: docs/examples/${example}#${region} -->`,
      );
      const source = await readFile(join(examples, example), 'utf8');
      files[example] = pasteCode(source, { region }, block);
    }
    await typecheckAndRun(
      context,
      folder,
      'provider loops',
      files,
      Object.fromEntries(GUIDE_LOOPS.map(({ example }) => [example, ranEveryMode])),
    );
  },
};
