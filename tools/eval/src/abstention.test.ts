import { createBm25Ranker, type ToolDefinition } from '@tool-search/core';
import { describe, expect, it } from 'vitest';
import { catalogHalf, evaluateAbstention } from './abstention.js';
import type { EvalSet } from './data.js';

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

describe('catalogHalf', () => {
  it('puts a name in the same half every time, and splits many names about evenly', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `tool_${i}`);
    const ones = names.filter((name) => catalogHalf(name) === 1).length;
    expect(ones).toBeGreaterThan(900);
    expect(ones).toBeLessThan(1100);
    expect(names.map(catalogHalf)).toEqual(names.map(catalogHalf));
  });
});

describe('evaluateAbstention', () => {
  // Two tools in each half, so that each half has something to answer with.
  const candidates = [
    tool('weather_forecast', 'Weather forecast for a city'),
    tool('send_email', 'Send an email message'),
    tool('read_file', 'Read a file from disk'),
    tool('create_issue', 'Create an issue in a repository'),
    tool('translate_text', 'Translate text between languages'),
    tool('play_music', 'Play a song or a playlist'),
    tool('book_flight', 'Book a flight between two airports'),
    tool('convert_currency', 'Convert an amount between currencies'),
  ];

  it('counts a query once per half: answerable where its tool is, unanswerable elsewhere', async () => {
    const set: EvalSet = {
      name: 'bfcl',
      tools: candidates,
      queries: candidates.map((candidate, i) => ({
        id: String(i),
        query: candidate.description!,
        relevant: new Set([candidate.name]),
      })),
    };
    const result = await evaluateAbstention(createBm25Ranker(), 'default', set);
    expect(result.answerable).toBe(candidates.length);
    expect(result.unanswerable).toBe(candidates.length);
    // Each description finds its own tool first when it is indexed.
    expect(result.ndcg10).toBe(1);
    expect(result.empty).toBe(0);
    // A query for a tool of the other half finds nothing that shares its words.
    expect(result.abstained).toBeGreaterThan(0);
  });

  it('counts as shadowed an unanswerable query whose kept top hit scores at least what its labelled tool scores in the whole catalog', async () => {
    const set: EvalSet = {
      name: 'bfcl',
      // weather_now and read_file fall in half 0, city_guide and translate_text in half 1.
      tools: [
        tool('weather_now', 'Weather forecast for a city'),
        tool('read_file', 'Read a file from disk'),
        tool('city_guide', 'A guide to the events of a city'),
        tool('translate_text', 'Translate text between languages'),
      ],
      queries: [
        // Labelled with a weaker tool than one in the other half: no score can tell.
        { id: 'near', query: 'weather forecast for a city', relevant: new Set(['city_guide']) },
        // Nothing in half 0 holds these words: the query is not shadowed.
        {
          id: 'far',
          query: 'translate text between languages',
          relevant: new Set(['translate_text']),
        },
      ],
    };
    const result = await evaluateAbstention(createBm25Ranker(), 'default', set);
    expect(result.unanswerable).toBe(2);
    expect(result.shadowed).toBe(0.5);
  });
});
