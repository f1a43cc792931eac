import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../types.js';
import { isDeprecatedTool } from './deprecation.js';
import { createBm25Ranker } from './index.js';

const filesystem = JSON.parse(
  readFileSync(new URL('./__fixtures__/filesystem-tools.json', import.meta.url), 'utf8'),
) as ToolDefinition[];

async function ranked(query: string, options?: Parameters<typeof createBm25Ranker>[0]) {
  const index = await createBm25Ranker(options).index(filesystem);
  return (await index.search(query, 5)).map(({ name }) => name);
}

describe('isDeprecatedTool', () => {
  it('reads the marker a tool puts in its own description', () => {
    for (const description of [
      'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.',
      'Deprecated. Use list_items instead.',
      '[DEPRECATED] Lists the projects.',
      'Lists the projects (deprecated).',
      'Lists the projects. This tool is deprecated and will be removed.',
      'The endpoint has been deprecated; call v2_search.',
      'Sends a message. Deprecated in favor of post_message.',
      'Lists the projects. deprecated - use list_projects_v2',
    ]) {
      expect(isDeprecatedTool({ description }), description).toBe(true);
    }
  });

  it('ignores what speaks of something else being deprecated', () => {
    for (const description of [
      'Check if packages are deprecated',
      'Include Agent Monitoring Issues in the results. This parameter is deprecated.',
      'A flag to determine if deprecated metrics should be included in the results.',
      'Lists the deprecated APIs of a service.',
      '',
      undefined,
    ]) {
      expect(isDeprecatedTool({ description }), String(description)).toBe(false);
    }
  });
});

describe('createBm25Ranker: a deprecated tool ranks below its replacement', () => {
  it("ranks the filesystem server's read_text_file above its deprecated read_file", async () => {
    const names = await ranked('read a file');
    expect(names.indexOf('read_text_file')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('read_text_file')).toBeLessThan(names.indexOf('read_file'));
  });

  it('is the demotion that does it: without it, read_file ranks above read_text_file', async () => {
    const names = await ranked('read a file', { deprecatedWeight: 1 });
    expect(names.indexOf('read_file')).toBeLessThan(names.indexOf('read_text_file'));
  });

  it('still finds the deprecated tool by its exact name', async () => {
    expect((await ranked('read_file'))[0]).toBe('read_file');
  });

  it('keeps a deprecated tool below the replacement its description names, however well it matches', async () => {
    const tools: ToolDefinition[] = [
      {
        name: 'send_slack_message',
        description:
          'Send a Slack message to a Slack channel. Deprecated: use post_message instead.',
        inputSchema: { type: 'object', properties: { slack_channel: { type: 'string' } } },
      },
      {
        name: 'post_message',
        description: 'Post to a channel.',
        inputSchema: { type: 'object', properties: { channel: { type: 'string' } } },
      },
      {
        name: 'list_channels',
        description: 'List the channels of the workspace.',
        inputSchema: { type: 'object', properties: {} },
      },
    ];
    const search = async (weight?: number) => {
      const ranker = createBm25Ranker(weight === undefined ? {} : { deprecatedWeight: weight });
      const index = await ranker.index(tools);
      return (await index.search('send a slack message to a channel', 3)).map(({ name }) => name);
    };
    expect((await search(1))[0]).toBe('send_slack_message');
    const names = await search();
    expect(names.slice(0, 2)).toEqual(['post_message', 'send_slack_message']);
  });
});
