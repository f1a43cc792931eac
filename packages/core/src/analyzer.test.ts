import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnalyzer, DEFAULT_MAX_TEXT_LENGTH, DEFAULT_MAX_TOKEN_LENGTH } from './analyzer.js';
import { loadedWinkPipelines } from './analyzer-wink.js';
import { ToolSearchError } from './errors.js';

const words = createAnalyzer({ normalize: 'none', stopWords: false });
const stems = createAnalyzer();

describe('createAnalyzer', () => {
  it('splits snake_case, kebab-case, dots, colons, slashes and server__tool', () => {
    expect(words.analyze('slack_post_message')).toEqual(['slack', 'post', 'message']);
    expect(words.analyze('get-file-contents')).toEqual(['get', 'file', 'contents']);
    expect(words.analyze('math.hypot')).toEqual(['math', 'hypot']);
    expect(words.analyze('github:create_issue')).toEqual(['github', 'create', 'issue']);
    expect(words.analyze('src/lib/index')).toEqual(['src', 'lib', 'index']);
    expect(words.analyze('osm-mcp-server__geocode_address')).toEqual([
      'osm',
      'mcp',
      'server',
      'geocode',
      'address',
    ]);
  });

  it('splits camelCase and PascalCase, keeping acronyms and digits together', () => {
    expect(words.analyze('getHTTPResponse')).toEqual(['get', 'http', 'response']);
    expect(words.analyze('ResearchHelper')).toEqual(['research', 'helper']);
    expect(words.analyze('base64Encode S3Bucket oauth2')).toEqual([
      'base64',
      'encode',
      's3',
      'bucket',
      'oauth2',
    ]);
    expect(words.analyze('listURLs parseIDs')).toEqual(['list', 'urls', 'parse', 'ids']);
    expect(words.analyze('eBay iPhone')).toEqual(['ebay', 'iphone']);
  });

  it('splits nothing but separators when splitIdentifiers is off', () => {
    const plain = createAnalyzer({ normalize: 'none', stopWords: false, splitIdentifiers: false });
    expect(plain.analyze('getHTTPResponse read_file')).toEqual(['gethttpresponse', 'read', 'file']);
  });

  it('lowercases, and drops English clitics rather than leaving one-letter tokens', () => {
    expect(words.analyze("What's New York’s WEATHER? I'm sure it couldn't")).toEqual([
      'what',
      'new',
      'york',
      'weather',
      'i',
      'sure',
      'it',
      'could',
    ]);
  });

  it('stems English words with wink-nlp so that inflections meet', () => {
    expect(stems.analyze('Posts messages to channels')).toEqual(['post', 'messag', 'channel']);
    expect(stems.analyze('files')).toEqual(stems.analyze('file'));
    expect(stems.analyze('searching')).toEqual(stems.analyze('search'));
  });

  it('lemmatizes with wink-nlp when asked', () => {
    const lemmas = createAnalyzer({ normalize: 'lemma' });
    expect(lemmas.analyze('created files')).toEqual(['create', 'file']);
    expect(lemmas.id).toBe('wink:lemma:stop');
  });

  it('drops stop words but keeps the ones that name what tools do', () => {
    expect(stems.analyze('the and of to')).toEqual([]);
    expect(stems.analyze('get the first name')).toEqual(['get', 'first', 'name']);
    expect(createAnalyzer({ stopWords: false }).analyze('the file')).toEqual(['the', 'file']);
  });

  it('keeps Chinese and Japanese text searchable as character bigrams', () => {
    expect(stems.analyze('搜索关键词')).toEqual(['搜索', '索关', '关键', '键词']);
    expect(stems.analyze('数据库 查询')).toEqual(['数据', '据库', '查询']);
    expect(stems.analyze('検索')).toEqual(['検索']);
    expect(stems.analyze('天')).toEqual(['天']);
    expect(stems.analyze('MCP协议')).toEqual(['mcp', '协议']);
  });

  it('keeps other scripts as lowercased words', () => {
    expect(words.analyze('Привет Мир créer Überweisung')).toEqual([
      'привет',
      'мир',
      'créer',
      'überweisung',
    ]);
  });

  it('bounds the text and every token', () => {
    const long = `${'word '.repeat(DEFAULT_MAX_TEXT_LENGTH)}tail`;
    expect(words.analyze(long)).not.toContain('tail');
    expect(words.analyze(long).length).toBeLessThanOrEqual(DEFAULT_MAX_TEXT_LENGTH / 5 + 1);
    const [token] = words.analyze('x'.repeat(10_000));
    expect(token).toHaveLength(DEFAULT_MAX_TOKEN_LENGTH);
    const short = createAnalyzer({
      normalize: 'none',
      stopWords: false,
      maxTextLength: 10,
      maxTokenLength: 3,
    });
    expect(short.analyze('abcdefgh ijklmnop')).toEqual(['abc', 'i']);
  });

  it('keeps an unbroken blob (base64, a hash) as one cut token instead of splitting its case', () => {
    const blob = 'iVBORw0KGgoAAAANSUhEUgAAAgAAAAIACAYAAAD0eNT6AAAABHNCSVQICAgIfAhkiAAAAAlwSFlz';
    expect(words.analyze(`decode ${blob}`)).toEqual(['decode', blob.slice(0, 32).toLowerCase()]);
  });

  it('analyses a hostile long unspaced string quickly', () => {
    const start = Date.now();
    stems.analyze('A'.repeat(1_000_000));
    stems.analyze('中'.repeat(1_000_000));
    stems.analyze('aB'.repeat(500_000));
    // Generous: a super-linear path would take seconds.
    expect(Date.now() - start).toBeLessThan(2_000);
  });

  it('reads the words wink-nlp maps specially through the one pos instance', () => {
    const analyzer = createAnalyzer({ cacheSize: 100 });
    expect(analyzer.analyze('it cannot be cancelled through chk')).toEqual(['cancel', 'chk']);
    expect(loadedWinkPipelines()).toEqual(['pos']);
  });

  it('returns the same terms for the same text, from cache or not', () => {
    const fresh = createAnalyzer({ cacheSize: 2 });
    const text = 'Create issues in repositories and list pull requests';
    expect(fresh.analyze(text)).toEqual(stems.analyze(text));
    expect(fresh.analyze(text)).toEqual(stems.analyze(text));
  });

  it('never throws and returns only non-empty lowercase-or-caseless terms', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        for (const term of stems.analyze(text)) {
          expect(term.length).toBeGreaterThan(0);
          expect(term).toBe(term.toLowerCase());
        }
      }),
      { numRuns: 300 },
    );
    expect(stems.analyze('')).toEqual([]);
    expect(stems.analyze(undefined as unknown as string)).toEqual([]);
  });

  it('names its analysis in its id', () => {
    expect(stems.id).toBe('wink:stem:stop');
    expect(words.id).toBe('wink:none:all');
  });

  it('rejects an unknown normalization or a non-positive bound', () => {
    expect(() => createAnalyzer({ normalize: 'soundex' as 'stem' })).toThrow(ToolSearchError);
    expect(() => createAnalyzer({ maxTextLength: 0 })).toThrow(/maxTextLength/);
  });
});
