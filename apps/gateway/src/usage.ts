import { wrapText } from '@tool-search/terminal';
import { COMMAND_FLAGS, type CommandName } from './command-flags.js';
import { type FlagTable, renderFlagHelp, synopsisOf } from './flag-table.js';

/** The widest line of the help, in terminal columns. */
const HELP_WIDTH = 86;

const PROGRAM = 'tool-search-gateway';

/** The words before a command's flags in its synopsis. */
const SYNOPSIS_HEAD: Record<CommandName, string> = {
  demo: 'demo',
  serve: 'serve',
  search: 'search "<query>"',
  inspect: 'inspect',
  'recorded-server': 'recorded-server',
  audit: 'audit',
  learning: 'learning export|import|clear',
  reload: 'reload',
  login: 'login <server>',
  logout: 'logout <server>',
};

/** Stands for a space inside one flag of a synopsis while it is wrapped (private use). */
const JOINER = '\ue000';

/**
 * A command's synopsis: its head, then its flags wrapped under the first one.
 *
 * @param prefix - what the first line starts with, e.g. `Usage: `
 * @param command - the command
 * @param table - its flags
 */
function synopsis(prefix: string, command: CommandName, table: FlagTable): string {
  const head = `${prefix}${PROGRAM} ${SYNOPSIS_HEAD[command]}`;
  const indent = ' '.repeat(head.length + 1);
  // wrapText breaks at every space; a joiner keeps `[--port N]` on one line.
  const words = synopsisOf(table).map((word) => word.replaceAll(' ', JOINER));
  const lines = wrapText(words.join(' '), HELP_WIDTH - indent.length).map((line) =>
    line.replaceAll(JOINER, ' '),
  );
  if (lines.length === 0) return head;
  return lines.map((line, index) => `${index === 0 ? `${head} ` : indent}${line}`).join('\n');
}

/**
 * The usage line atop a command's help: its whole synopsis when that fits on one
 * line, else its required flags and `[options]` (the options follow it anyway).
 */
function usageLine(command: CommandName): string {
  const table: FlagTable = COMMAND_FLAGS[command];
  const full = synopsis('Usage: ', command, table);
  if (!full.includes('\n')) return full;
  const required = table.filter((flag) => flag.kind === 'text' && flag.required === true);
  return `${synopsis('Usage: ', command, required)} [options]`;
}

function options(table: FlagTable): string {
  return `Options:\n${renderFlagHelp(table, HELP_WIDTH).join('\n')}`;
}

const main = `${PROGRAM}: an MCP gateway that puts tool search in front of any MCP client

Usage:
${(Object.keys(COMMAND_FLAGS) as CommandName[])
  .map((command) => synopsis('  ', command, COMMAND_FLAGS[command]))
  .join('\n')}
  ${PROGRAM} --help | <command> --help

Commands:
  demo             a scripted session against real MCP servers, no configuration needed
  serve            run the gateway for an MCP client (stdio or Streamable HTTP)
  search           ranked tool search over the tools of a config's servers
  inspect          per server: tools and estimated tokens; activation at 32k/128k/200k/1M;
                   refused, cut, held and flagged definitions; programs (tool_program)
                   and their policy; new and changed tools
  recorded-server  a stdio MCP server of 397 recorded real tool definitions (no backend)
  audit            print (and follow) the audit trail that gateways write to a Redis store
  learning         export, import or clear what the gateways learned from use (Redis store)
  reload           a running gateway reads its config again: servers added, removed and
                   changed apply while sessions go on (also SIGHUP, the console's Reload)
  login            sign in to a server that needs OAuth: prints the URL to open, waits
                   for the redirect on a loopback port, stores the tokens
  logout           forget a server's stored sign-in

Exit codes: 0 done, 1 failed, 2 bad command line or bad config file.`;

/** The help of the program (`main`) and of each command, as `--help` prints it. */
export const USAGE: Record<CommandName | 'main', string> = {
  main,
  demo: `${usageLine('demo')}

Spawns real MCP servers (everything, filesystem on a temporary folder, memory) and the
recorded-catalog server, starts the gateway on Streamable HTTP (127.0.0.1, a free port,
a bearer token), connects to it with the MCP SDK client and walks a scripted session.
Needs no configuration and no network; removes its temporary folder when done.`,
  serve: `${usageLine('serve')}

With "programs": { "enabled": true } in the config, every client is also served
tool_program: a short JavaScript program over the session's tools, run in a sandbox,
each nested call through the same guardrails, approvals and audit as a direct call
(read-only tools by default; "programs.allow" names more).

${options(COMMAND_FLAGS.serve)}`,
  search: `${usageLine('search')}

Connects to the config's servers and prints the ranked matches of the query.

${options(COMMAND_FLAGS.search)}`,
  inspect: `${usageLine('inspect')}

Connects to the config's servers and prints, per server, its tools and their estimated
tokens, and whether tool search activates at context windows of 32k, 128k, 200k and 1M.
Then the definitions refused or cut by the limits, self-pins ignored, tools held for
review and descriptions flagged as tool poisoning, whether the profile is served
tool_program (the config's "programs" section) with its policy and limits, and the new,
changed and removed tools against the review file (review.file, default
tool-review.json beside the config).

${options(COMMAND_FLAGS.inspect)}`,
  audit: `${usageLine('audit')}

Prints the audit trail that every gateway replica on the store writes: one JSON line a
call (tool, origin, session, profile, decision, status, who denied it and why, the
replica), oldest first. The trail is a Redis Stream capped at about 100,000 records.

${options(COMMAND_FLAGS.audit)}`,
  learning: `${usageLine('learning')}

Learning from use ("learning": { "enabled": true } in the config) keeps, per profile and
tool, the analysed words of the searches that led to a successful call, with counts, in
the gateways' store. export prints them as JSON (--file writes a file), import adds a
file's counts (within the config's bounds), clear forgets one profile (--profile) or all.
With a memory store they live in the serving gateway's process: use a redis:// store.

${options(COMMAND_FLAGS.learning)}`,
  reload: `${usageLine('reload')}

Asks a running gateway (serve --transport http, console on) to read its config file
again, signed in to its console API with an operator's token. The file is checked here
first: a file that does not parse changes nothing (exit 2). Servers added, removed and
changed apply while sessions go on; what else changed (profiles, rules) is listed as
applying at the next start. SIGHUP to the serve process does the same.

${options(COMMAND_FLAGS.reload)}`,
  login: `${usageLine('login')}

For a server whose entry has "auth": "oauth" (or an oauth object). Prints
"Open this URL to sign in: <url>" on a line of its own; open it in a browser and sign
in. The authorization server sends the browser back to a loopback port of this command
(its state and issuer checked), the tokens are stored (owner-only files in the state
folder, or encrypted in a Redis store) and never printed. serve then uses and refreshes
them. With --profile the sign-in is that profile's own: serve --profile <name> uses it,
never the gateway's.

${options(COMMAND_FLAGS.login)}`,
  logout: `${usageLine('logout')}

Forgets the stored sign-in (tokens and client registration) of the server, for the
gateway or, with --profile, for that profile.

${options(COMMAND_FLAGS.logout)}`,
  'recorded-server': `${usageLine('recorded-server')}

A stdio MCP server that lists recorded tool definitions of 23 published MCP servers
(data/mcp-real) and answers every call with an error: the tool has no backend.

${options(COMMAND_FLAGS['recorded-server'])}`,
};
