import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { gatewayOptionsOf, writeLoadConfig } from './gateway-config.js';
import { childProcesses, type GatewayProcess, isAlive, startGateway } from './gateway-process.js';
import type { LoadOptions } from './options.js';
import { count, errorKind, type OutcomeCounts, resultKind } from './outcome.js';
import { closeClient, connectClient } from './session.js';

/** What the clients of one step of the fault run got. */
export interface FaultPhase {
  /** The step, e.g. `upstream killed: calls in flight`. */
  phase: string;
  /** Outcome kind → count. */
  outcomes: OutcomeCounts;
}

/** What a fault run observed. */
export interface FaultReport {
  options: LoadOptions;
  sessions: number;
  phases: FaultPhase[];
  /** Facts about the faults themselves. */
  events: { event: string; detail: string }[];
  /** The run's own breakage (never the gateway's behaviour, which is only reported). */
  failures: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The client timeout of a call to the hang fixture. */
const HANG_TIMEOUT_MS = 3_000;
/** The client timeout of calls in flight when the gateway is told to stop. */
const SIGTERM_TIMEOUT_MS = 10_000;
/**
 * The gateway's `--shutdown-grace`: longer than the long calls in flight at SIGTERM (4 s),
 * shorter than the clients' timeout, so each client sees what the gateway answers.
 */
const SHUTDOWN_GRACE_SECONDS = 6;

/**
 * The fault run: starts the real gateway in front of real upstreams and the hang
 * fixture, opens `sessions` sessions, then (1) kills the everything server while every
 * session has a long call on it, (2) calls the hang fixture's `hang` tool from every
 * session while they call another server, (3) sends SIGTERM to the gateway while every
 * session has calls in flight; records what every client got.
 *
 * @param options - see {@link LoadOptions} (`sessions`, `requestTimeoutMs`)
 * @param log - progress lines
 * @returns the outcomes of every step, and the faults' facts
 * @throws `Error` when the gateway cannot start
 */
export async function runFault(
  options: LoadOptions,
  log: (line: string) => void = () => {},
): Promise<FaultReport> {
  const folder = mkdtempSync(join(tmpdir(), 'tool-search-fault-'));
  let gateway: GatewayProcess | undefined;
  const phases: FaultPhase[] = [];
  const events: FaultReport['events'] = [];
  const failures: string[] = [];
  const clients: Client[] = [];
  try {
    const config = writeLoadConfig(folder, { profiles: 1, hang: true, memoryQueue: false });
    log('starting the gateway');
    gateway = await startGateway({
      ...gatewayOptionsOf(config),
      shutdownGraceSeconds: SHUTDOWN_GRACE_SECONDS,
    });
    // The faults are what this run measures, not the start: a call that arrives before a
    // slow upstream's first connect is answered without it (the early wait is bounded), so
    // the run waits for /readyz (the first connect round over) before the first step.
    await waitUntilReady(gateway.url, 60_000);
    const pid = gateway.pid;
    const upstreams = childProcesses(pid);
    log(`${options.sessions} sessions on ${gateway.url}; ${upstreams.length} upstream processes`);
    for (let i = 0; i < options.sessions; i++) {
      clients.push(await connectClient(gateway.url, config.adminToken, options.requestTimeoutMs));
    }

    /** Every client makes the call(s) of `make`; returns once all have an outcome. */
    const step = async (
      phase: string,
      make: (index: number) => { name: string; arguments: Record<string, unknown> },
      timeoutMs: number,
      during?: () => Promise<void>,
    ) => {
      const outcomes: OutcomeCounts = {};
      // Listed in the order the steps began, though nested steps finish first.
      phases.push({ phase, outcomes });
      const calls = clients.map(async (client, index) => {
        const call = make(index);
        // Half the sessions go through tool_call, the other half call the tool by name.
        const request =
          index % 2 === 0
            ? { name: 'tool_call', arguments: { name: call.name, arguments: call.arguments } }
            : call;
        try {
          const result = (await client.callTool(request, undefined, {
            timeout: timeoutMs,
          })) as CallToolResult;
          count(outcomes, resultKind(result));
        } catch (error) {
          count(outcomes, errorKind(error));
        }
      });
      await Promise.all([Promise.all(calls), during?.()]);
    };
    const echo = (index: number) => ({ name: 'echo', arguments: { message: `fault-${index}` } });

    // 1. An upstream killed mid-call.
    log('1/3 killing the everything server while every session has a call on it');
    await step(
      'upstream killed: calls in flight',
      () => ({ name: 'trigger-long-running-operation', arguments: { duration: 3, steps: 3 } }),
      options.requestTimeoutMs,
      async () => {
        await sleep(1_000);
        const victim = childProcesses(pid).find((child) =>
          child.commandLine.includes('server-everything'),
        );
        if (victim === undefined) {
          failures.push('the everything server was not found among the gateway’s children');
          return;
        }
        process.kill(victim.pid, 'SIGKILL');
        events.push({
          event: 'upstream killed',
          detail: `server-everything, pid ${victim.pid}, SIGKILL`,
        });
      },
    );
    await step('upstream killed: the next call', echo, options.requestTimeoutMs);
    const killedAt = performance.now();
    let recovered = false;
    while (!recovered && performance.now() - killedAt < 15_000) {
      try {
        const result = (await clients[0]!.callTool(echo(0), undefined, {
          timeout: options.requestTimeoutMs,
        })) as CallToolResult;
        recovered = result.isError !== true;
      } catch {
        // Still down.
      }
      if (!recovered) await sleep(250);
    }
    events.push({
      event: 'upstream back',
      detail: recovered
        ? `echo answered again ${Math.round(performance.now() - killedAt)} ms after the first failure`
        : 'not within 15 s',
    });
    await step('upstream killed: after it is back', echo, options.requestTimeoutMs);

    // 2. An upstream that never answers, beside one that does.
    log('2/3 calling the hang fixture from every session, and echo beside it');
    await step(
      `hung upstream (client timeout ${HANG_TIMEOUT_MS / 1000} s)`,
      () => ({ name: 'hang', arguments: {} }),
      HANG_TIMEOUT_MS,
      () => step('another upstream while one hangs', echo, options.requestTimeoutMs),
    );

    // 3. SIGTERM to the gateway with calls in flight.
    log('3/3 SIGTERM to the gateway with calls in flight');
    const childrenBefore = childProcesses(pid);
    let signalledAt = 0;
    await step(
      `SIGTERM: long calls in flight (client timeout ${SIGTERM_TIMEOUT_MS / 1000} s)`,
      () => ({ name: 'trigger-long-running-operation', arguments: { duration: 4, steps: 4 } }),
      SIGTERM_TIMEOUT_MS,
      () =>
        step(
          `SIGTERM: hung calls in flight (client timeout ${SIGTERM_TIMEOUT_MS / 1000} s)`,
          () => ({ name: 'hang', arguments: {} }),
          SIGTERM_TIMEOUT_MS,
          async () => {
            await sleep(1_000);
            signalledAt = performance.now();
            process.kill(pid, 'SIGTERM');
            events.push({
              event: 'SIGTERM',
              detail: `gateway pid ${pid}, 1 s after the calls began`,
            });
            await sleep(50);
            await step('SIGTERM: a new call 50 ms later', echo, SIGTERM_TIMEOUT_MS);
          },
        ),
    );
    const exit = await Promise.race([gateway.exited, sleep(20_000).then(() => undefined)]);
    if (exit === undefined) {
      failures.push('the gateway was still running 20 s after SIGTERM');
      events.push({ event: 'gateway exit', detail: 'still running 20 s after SIGTERM: killed' });
    } else {
      events.push({
        event: 'gateway exit',
        detail: `${exit.signal ?? `code ${exit.code}`}, ${Math.round(exit.at - signalledAt)} ms after SIGTERM`,
      });
    }
    await sleep(2_000);
    const orphans = childrenBefore.filter((child) => isAlive(child.pid));
    events.push({
      event: 'upstreams after exit',
      detail: `${childrenBefore.length - orphans.length} of ${childrenBefore.length} exited within 2 s${
        orphans.length > 0
          ? `; still running: ${orphans.map((child) => child.pid).join(', ')} (killed now)`
          : ''
      }`,
    });
    for (const orphan of orphans) process.kill(orphan.pid, 'SIGKILL');
    await step('after exit: a new call', echo, 5_000);
    return { options, sessions: clients.length, phases, events, failures };
  } finally {
    await Promise.allSettled(clients.map((client) => closeClient(client)));
    await gateway?.stop().catch(() => {});
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Polls the gateway's `/readyz` until it answers 200; throws after `timeoutMs`. */
async function waitUntilReady(mcpUrl: string, timeoutMs: number): Promise<void> {
  const url = new URL('/readyz', mcpUrl);
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  throw new Error(`the gateway was not ready within ${timeoutMs} ms (last /readyz: ${last})`);
}
