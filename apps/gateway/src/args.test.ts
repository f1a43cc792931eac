import { describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_PORT, parseCommandLine, TOKEN_ENV, USAGE, UsageError } from './args.js';

describe('parseCommandLine', () => {
  it('reads serve with its defaults: stdio, 127.0.0.1, the default port', () => {
    expect(parseCommandLine(['serve', '--config', 'g.json'], {})).toEqual({
      command: 'serve',
      config: 'g.json',
      transport: 'stdio',
      port: DEFAULT_HTTP_PORT,
      host: '127.0.0.1',
    });
  });

  it('reads every serve flag, and the token from the environment when --token is absent', () => {
    expect(
      parseCommandLine(
        [
          'serve',
          '--config=g.json',
          '--transport',
          'http',
          '--port',
          '0',
          '--host',
          '0.0.0.0',
          '--profile',
          'chat',
          '--context-window',
          '200000',
        ],
        { [TOKEN_ENV]: 'from-the-environment' },
      ),
    ).toEqual({
      command: 'serve',
      config: 'g.json',
      transport: 'http',
      port: 0,
      host: '0.0.0.0',
      token: 'from-the-environment',
      profile: 'chat',
      contextWindow: 200_000,
    });
  });

  it('reads the allowed origins (repeated or comma-separated) and the idle timeout', () => {
    expect(
      parseCommandLine(
        [
          'serve',
          '--config',
          'g.json',
          '--transport',
          'http',
          '--allow-origin',
          'http://localhost:6274',
          '--allow-origin',
          'https://app.example, http://[::1]:3000',
          '--idle-timeout',
          '0',
        ],
        {},
      ),
    ).toEqual({
      command: 'serve',
      config: 'g.json',
      transport: 'http',
      port: DEFAULT_HTTP_PORT,
      host: '127.0.0.1',
      allowOrigins: ['http://localhost:6274', 'https://app.example', 'http://[::1]:3000'],
      idleTimeout: 0,
    });
  });

  it('reads the session and connection limits, and the shutdown grace (also on stdio)', () => {
    expect(
      parseCommandLine(
        [
          'serve',
          '--config',
          'g.json',
          '--transport',
          'http',
          '--max-sessions',
          '200',
          '--max-sessions-per-token',
          '20',
          '--max-connections',
          '500',
          '--shutdown-grace',
          '30',
        ],
        {},
      ),
    ).toMatchObject({
      maxSessions: 200,
      maxSessionsPerToken: 20,
      maxConnections: 500,
      shutdownGrace: 30,
    });
    expect(
      parseCommandLine(['serve', '--config', 'g.json', '--shutdown-grace', '0'], {}),
    ).toMatchObject({ transport: 'stdio', shutdownGrace: 0 });
  });

  it('joins the words of a search query and reads --limit', () => {
    expect(
      parseCommandLine(['search', 'read', 'a file', '--config', 'g.json', '--limit', '3']),
    ).toEqual({ command: 'search', config: 'g.json', query: 'read a file', limit: 3 });
  });

  it('reads recorded-server lists', () => {
    expect(
      parseCommandLine(['recorded-server', '--servers', 'github, slack', '--names', 'raw']),
    ).toEqual({
      command: 'recorded-server',
      servers: ['github', 'slack'],
      exclude: [],
      naming: 'raw',
      list: false,
    });
  });

  it('parses inspect with --accept, and mentions --accept in its usage', () => {
    expect(parseCommandLine(['inspect', '--config', 'g.json', '--accept'])).toEqual({
      command: 'inspect',
      config: 'g.json',
      accept: true,
    });
    expect(parseCommandLine(['inspect', '--config', 'g.json'])).toEqual({
      command: 'inspect',
      config: 'g.json',
    });
    expect(USAGE.inspect).toMatch(/--accept\s+write the current tool fingerprints/);
    expect(USAGE.main).toMatch(/inspect --config <file> \[--profile P\] \[--accept\]/);
  });

  it('answers help for no arguments, --help, and <command> --help', () => {
    expect(parseCommandLine([])).toEqual({ command: 'help', topic: 'main' });
    expect(parseCommandLine(['--help'])).toEqual({ command: 'help', topic: 'main' });
    expect(parseCommandLine(['inspect', '--help'])).toEqual({ command: 'help', topic: 'inspect' });
  });

  it.each([
    [['nope'], /Unknown command 'nope'/],
    [['--nope'], /Unknown option '--nope'/],
    [['demo', '--config', 'g.json'], /Unknown option '--config'/],
    [['inspect'], /needs --config/],
    [['search', '--config', 'g.json'], /needs a query/],
    [['search', 'q', '--config', 'g.json', '--limit', '0'], /--limit must be between 1 and 50/],
    [['search', 'q', '--config', 'g.json', '--limit', '2.5'], /--limit must be a whole number/],
    [['serve', '--config', 'g.json', '--port', '70000'], /--port must be between 0 and 65535/],
    [['serve', '--config', 'g.json', '--token', 'abc'], /apply only to --transport http/],
    [['serve', '--config', 'g.json', '--transport', 'ws'], /--transport must be 'stdio' or 'http'/],
    [
      ['serve', '--config', 'g.json', '--allow-origin', 'http://localhost:6274'],
      /--allow-origin and --idle-timeout apply only to --transport http/,
    ],
    [
      ['serve', '--config', 'g.json', '--idle-timeout', '60'],
      /--allow-origin and --idle-timeout apply only to --transport http/,
    ],
    [
      ['serve', '--config', 'g.json', '--transport', 'http', '--allow-origin', '*'],
      /--allow-origin must be an origin .*e\.g\. http:\/\/localhost:6274/,
    ],
    [
      [
        'serve',
        '--config',
        'g.json',
        '--transport',
        'http',
        '--allow-origin',
        'HTTP://Localhost:6274/',
      ],
      /did you mean 'http:\/\/localhost:6274'\?/,
    ],
    [
      ['serve', '--config', 'g.json', '--transport', 'http', '--idle-timeout', '1.5'],
      /--idle-timeout must be a whole number/,
    ],
    [
      ['serve', '--config', 'g.json', '--transport', 'http', '--idle-timeout', '9999999999'],
      /--idle-timeout must be between 0 and 2592000/,
    ],
    [
      ['serve', '--config', 'g.json', '--max-sessions', '10'],
      /as do --max-sessions, --max-sessions-per-token, --max-connections, --eras and --console/,
    ],
    [
      ['serve', '--config', 'g.json', '--transport', 'http', '--max-sessions-per-token', '0'],
      /--max-sessions-per-token must be between 1 and 100000/,
    ],
    [
      ['serve', '--config', 'g.json', '--shutdown-grace', '2.5'],
      /--shutdown-grace must be a whole number/,
    ],
    [['serve', '--config'], /argument missing/],
    [['recorded-server', '--names', 'short'], /--names must be 'prefixed' or 'raw'/],
  ])('refuses %j with a usage error', (argv, message) => {
    expect(() => parseCommandLine(argv, {})).toThrow(UsageError);
    expect(() => parseCommandLine(argv, {})).toThrow(message);
  });
});
