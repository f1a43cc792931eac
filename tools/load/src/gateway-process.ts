import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { GATEWAY_CLI } from './gateway-config.js';

/** A running gateway process (`node apps/gateway/dist/cli.js serve --transport http`). */
export interface GatewayProcess {
  /** Its pid. */
  pid: number;
  /** The endpoint it printed, e.g. `http://127.0.0.1:41234/mcp`. */
  url: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with its exit once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Options of {@link startGateway}. */
export interface StartGatewayOptions {
  /** The config file. */
  config: string;
  /** The token of sessions without a profile. */
  token: string;
  /** The client model's context window, which decides whether tool search activates. */
  contextWindow: number;
  /** How long to wait for the listening line. */
  timeoutMs: number;
  /** `--shutdown-grace`: seconds that calls in flight may still finish after SIGTERM. */
  shutdownGraceSeconds?: number;
  /** The port. @defaultValue 0 (a free one) */
  port?: number;
  /** More flags of `serve`, e.g. `--store redis://…` for a replica. */
  extraArgs?: readonly string[];
  /** Another build of the gateway CLI to run. @defaultValue {@link GATEWAY_CLI} */
  cli?: string;
  /** Flags of node itself, before the script, e.g. `--cpu-prof`. */
  nodeArgs?: readonly string[];
  /** More environment variables of the process. */
  env?: Readonly<Record<string, string>>;
}

/**
 * Starts the built gateway CLI on a free loopback port and waits for its
 * `listening on <url>` line.
 *
 * @param options - see {@link StartGatewayOptions}
 * @returns the running process
 * @throws `Error` when it exits or stays silent for `timeoutMs` (its stderr is in the message)
 */
export async function startGateway(options: StartGatewayOptions): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      options.cli ?? GATEWAY_CLI,
      'serve',
      '--config',
      options.config,
      '--transport',
      'http',
      '--host',
      '127.0.0.1',
      '--port',
      String(options.port ?? 0),
      '--token',
      options.token,
      '--context-window',
      String(options.contextWindow),
      ...(options.shutdownGraceSeconds === undefined
        ? []
        : ['--shutdown-grace', String(options.shutdownGraceSeconds)]),
      ...(options.extraArgs ?? []),
    ],
    { env: { ...process.env, ...options.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // Bounded: a chatty upstream must not fill our memory over a long run.
    stderr = (stderr + chunk.toString()).slice(-200_000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
    (resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() }));
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the gateway printed no URL in ${options.timeoutMs} ms:\n${stderr}`));
    }, options.timeoutMs);
    const onData = () => {
      const match = /listening on (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        child.stderr?.off('data', onData);
        resolve(match[1]!);
      }
    };
    child.stderr?.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited with ${signal ?? `code ${code}`}:\n${stderr}`));
    });
  });
  return {
    pid: child.pid!,
    url,
    stderr: () => stderr,
    exited,
    async stop(graceMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The resident set size of a process, from `/proc/<pid>/status` (Linux).
 *
 * @param pid - the process
 * @returns `VmRSS` in bytes, or `undefined` when it cannot be read (gone, not Linux)
 * @throws nothing
 */
export function readRss(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A child process of the gateway, with its command line. */
export interface ChildInfo {
  pid: number;
  commandLine: string;
}

/**
 * The children of a process, from `/proc/<pid>/stat` (their parent pid) and
 * `/proc/<pid>/cmdline` (Linux).
 *
 * @param parent - the parent's pid
 * @returns its children; empty where `/proc` is missing
 * @throws nothing
 */
export function childProcesses(parent: number): ChildInfo[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  const children: ChildInfo[] = [];
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses: parse after its end.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== parent) continue;
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      children.push({ pid: Number(entry), commandLine: commandLine.trim() });
    } catch {
      // The process went away while we looked.
    }
  }
  return children;
}

/**
 * Whether a process is alive.
 *
 * @param pid - the process
 * @returns true while it exists (a zombie counts as gone)
 * @throws nothing
 */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * The CPU time a process has used so far, user and system, from `/proc/<pid>/stat`
 * (Linux; in clock ticks of 10 ms).
 *
 * @param pid - the process
 * @returns milliseconds, or `undefined` when it cannot be read (gone, not Linux)
 * @throws nothing
 */
export function readCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields 14 and 15 (utime, stime), counted after the command name's closing ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}
