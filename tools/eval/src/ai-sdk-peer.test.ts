import type { ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { createAiSdkRanker } from './ai-sdk-peer.js';

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

const tools = [
  tool('getWeather', 'Current conditions for a city'),
  tool('weather_report', 'The weather report of a region'),
  tool('send_email', 'Sends an email'),
];

describe('createAiSdkRanker', () => {
  it('ranks by the SDK keyword overlap: a word in the name counts 2, in the description 1', async () => {
    const index = await createAiSdkRanker().index(tools);
    // weather_report: name 2 + description 1; getWeather: name 2 (camelCase split).
    expect((await index.search('Weather', 10)).map((hit) => hit.name)).toEqual([
      'weather_report',
      'getWeather',
    ]);
    expect((await index.search('city email', 10)).map((hit) => hit.name)).toEqual([
      'send_email',
      'getWeather',
    ]);
  });

  it('returns nothing for a query no tool shares a word with, and at most limit tools', async () => {
    const index = await createAiSdkRanker().index(tools);
    expect(await index.search('translate sentences', 10)).toEqual([]);
    expect(await index.search('weather city email', 1)).toHaveLength(1);
  });
});
