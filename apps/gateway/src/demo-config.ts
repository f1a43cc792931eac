import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLED_SERVERS, CLI_SCRIPT, resolveBinScript } from './servers.js';

/** The context window the demo assumes for its client's model. */
export const DEMO_CONTEXT_WINDOW = 200_000;

/** The files the demo puts in its temporary workspace. */
export const DEMO_FILES: Record<string, string> = {
  'notes.md': `# Launch notes

- The gateway serves 3 bridge tools instead of every schema.
- tool_call is unwrapped, so policy sees the real tool.
- Ship when the demo runs in under a minute.
`,
  'todo.txt': 'write the changelog\nrecord the demo\n',
};

/**
 * The demo's embedded gateway config (the same format as a user's `--config` file):
 * the real everything, filesystem (on `workspace`) and memory servers, spawned with
 * this Node.js and their installed bin scripts, plus the recorded catalog of the other
 * 20 published servers; a guardrail that denies `get-env` (it would leak the
 * environment), an approval policy for destructive tools (the demo's client cannot
 * be asked, so the fallback, deny, answers), learning from use, on, and `tool_program`
 * for read-only tools.
 *
 * @param folder - the demo's temporary folder
 * @returns the raw config object
 */
export function demoConfig(folder: string): Record<string, unknown> {
  const node = process.execPath;
  return {
    mcpServers: {
      filesystem: {
        command: node,
        args: [resolveBinScript(BUNDLED_SERVERS.filesystem), join(folder, 'workspace')],
      },
      memory: {
        command: node,
        args: [resolveBinScript(BUNDLED_SERVERS.memory)],
        env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') },
      },
      everything: {
        command: node,
        args: [resolveBinScript(BUNDLED_SERVERS.everything), 'stdio'],
        // The bundled reference server: its read-only annotations are believed (programs).
        trusted: true,
      },
      recorded: {
        command: node,
        args: [CLI_SCRIPT, 'recorded-server', '--exclude', Object.keys(BUNDLED_SERVERS).join(',')],
      },
    },
    toolSearch: { enabled: 'auto', thresholdPct: 10 },
    pins: { tools: ['list_allowed_directories'] },
    guardrails: { deny: ['get-env'] },
    learning: { enabled: true },
    // tool_program, with the default policy: programs call read-only tools.
    programs: { enabled: true },
    approval: {
      require: { annotations: { destructiveHint: true } },
      fallback: 'deny',
      timeoutMs: 10_000,
    },
  };
}

/**
 * Creates the demo's workspace in `folder` and writes its config there.
 *
 * @param folder - an empty temporary folder
 * @returns the workspace folder, the config path and the raw config
 */
export async function prepareDemoFolder(
  folder: string,
): Promise<{ workspace: string; configPath: string; raw: Record<string, unknown> }> {
  const workspace = join(folder, 'workspace');
  await mkdir(workspace, { recursive: true });
  for (const [name, text] of Object.entries(DEMO_FILES)) {
    await writeFile(join(workspace, name), text);
  }
  const raw = demoConfig(folder);
  const configPath = join(folder, 'gateway.json');
  await writeFile(configPath, `${JSON.stringify(raw, null, 2)}\n`);
  return { workspace, configPath, raw };
}
