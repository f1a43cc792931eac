import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { withinBudget } from './budget.js';
import { GATEWAY_CLI, gatewayOptionsOf, writeLoadConfig } from './gateway-config.js';
import type { GatewayProcess } from './gateway-process.js';
import type { LoadOptions } from './options.js';
import { errorKind, textOf } from './outcome.js';
import { type ReplicaSet, startGatewayOrReplicas } from './replica-set.js';
import { closeClient } from './session.js';
import { seededRandom } from './stats.js';

/** What the client wants done with a call: the person allows it or denies it. */
export type Want = 'allow' | 'deny';

/** What became of one call that needed approval. */
export type CallOutcome = 'ran' | 'denied' | 'hung' | 'error';

/** One call that needed approval, and what its own question got. */
export interface ApprovalCall {
  /** The session's number. */
  session: number;
  /** In the call's path and content; the question names it. */
  nonce: string;
  want: Want;
  /** How many questions named this call (1 when all is well). */
  asked: number;
  /** The answer the client gave to this call's own question. */
  answer?: 'allow-once' | 'deny';
  outcome: CallOutcome;
  /** The file the call writes when it runs. */
  path: string;
  /** The error or result text when the outcome is neither `ran` nor `denied`. */
  detail?: string;
}

/** The counts of one row of the approvals table. */
export interface ApprovalCounts {
  calls: number;
  /** Calls whose own question reached the client. */
  asked: number;
  /** Calls whose question the client answered, and whose answer the gateway took. */
  answered: number;
  /** Calls that ran although their own answer denied them, or were denied although it allowed them. */
  crossed: number;
  /** Calls never asked, never answered, or that hung or failed otherwise. */
  lost: number;
}

/** What an approvals run measured. */
export interface ApprovalsReport {
  options: LoadOptions;
  /** Wall time of the sessions, connect to close. */
  durationMs: number;
  /** One row per wanted decision, then the total. */
  rows: ({ decision: Want | 'total' } & ApprovalCounts)[];
  /** Questions that named no call of their session (they should not exist). */
  strayQuestions: number;
  /** Answers the gateway refused (the client's POST of an answer failed). */
  refusedAnswers: number;
  /** Per replica (`host:pid`), the approval calls its audit trail records; absent with one process. */
  replicas?: { replica: string; calls: number }[];
  /** Sessions whose approval calls landed on more than one replica (from the audit trail). */
  sessionsOnSeveralReplicas?: number;
  /** A few crossed or lost calls, for the log. */
  examples: string[];
  /** Correctness failures that make the run fail. */
  failures: string[];
}

/** The part of a call's path that its question repeats: session, call, wanted decision, nonce. */
const NONCE = /approval-(s\d+-c\d+)-(allow|deny)-([0-9a-f]{12})/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Counts a set of calls for one row of the approvals table. A crossed call is not also
 * counted lost.
 *
 * @param calls - the calls of the row
 * @returns calls, asked, answered, crossed and lost
 * @throws nothing
 */
export function countCalls(calls: readonly ApprovalCall[]): ApprovalCounts {
  let asked = 0;
  let answered = 0;
  let crossed = 0;
  let lost = 0;
  for (const call of calls) {
    if (call.asked > 0) asked += 1;
    if (call.answer !== undefined) answered += 1;
    if (isCrossed(call)) crossed += 1;
    else if (call.answer === undefined || call.outcome === 'hung' || call.outcome === 'error')
      lost += 1;
  }
  return { calls: calls.length, asked, answered, crossed, lost };
}

/**
 * Whether a call went against the answer given to its own question: it ran (or its file
 * exists) when denied, or was denied when allowed.
 */
function isCrossed(call: ApprovalCall): boolean {
  if (call.answer === 'deny') return call.outcome === 'ran' || existsSync(call.path);
  if (call.answer === 'allow-once') return call.outcome === 'denied';
  return false;
}

/** Connects a client that answers each approval question from the call it names. */
async function connectApprover(
  url: string,
  token: string,
  timeoutMs: number,
  answer: (message: string) => Promise<'allow-once' | 'deny' | undefined>,
  onRefused: (error: Error) => void,
): Promise<Client> {
  const client = new Client(
    { name: 'tool-search-load-approvals', version: '0.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const decision = await answer(request.params.message);
    return decision === undefined
      ? { action: 'decline' as const }
      : { action: 'accept' as const, content: { decision } };
  });
  // The SDK reports an answer whose POST failed here ("Failed to send response"); only
  // the gateway's refusal (HTTP 4xx) counts, not a POST cut off as the session closes.
  client.onerror = (error) => {
    if (/send response/i.test(error.message) && /HTTP 4\d\d/.test(error.message)) {
      onRefused(error);
    }
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport, { timeout: timeoutMs });
  return client;
}

/** Reads the store's audit trail with the app's own `audit` command. */
async function readAudit(
  store: string,
): Promise<{ tool: string; sessionId?: string; replica: string }[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [GATEWAY_CLI, 'audit', '--store', store, '--count', '100000'],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { tool: string; sessionId?: string; replica: string });
}

/**
 * An approvals run: the real gateway (or `--replicas N` of it behind nginx on a Redis
 * store) with every `write_file` needing the person's approval; `sessions` concurrent
 * MCP sessions each make `operations` such calls, two at a time (one the person allows,
 * one they deny, in random order), so that one session's questions wait on several
 * replicas at once. The client answers each question from the call it names (the
 * nonce and the wanted decision are in the call's path), after a random delay so that
 * answers overtake each other, then checks that every call went as its own answer said.
 *
 * @param options - see {@link LoadOptions}; `operations` is calls per session
 * @param log - progress lines (to stderr in the CLI)
 * @returns the report; `failures` lists crossed and lost calls, refused or stray questions
 * @throws `Error` when the gateway cannot start or the run passes its budget
 */
export async function runApprovals(
  options: LoadOptions,
  log: (line: string) => void = () => {},
): Promise<ApprovalsReport> {
  const folder = mkdtempSync(join(tmpdir(), 'tool-search-approvals-'));
  let gateway: GatewayProcess | undefined;
  let replicaSet: ReplicaSet | undefined;
  try {
    const config = writeLoadConfig(folder, {
      profiles: 0,
      hang: false,
      memoryQueue: false,
      only: ['filesystem'],
      approval: true,
    });
    ({ gateway, replicaSet } = await startGatewayOrReplicas(
      options,
      gatewayOptionsOf(config),
      log,
    ));
    const url = gateway.url;

    const calls: ApprovalCall[] = [];
    const byNonce = new Map<string, ApprovalCall>();
    const sessionIds = new Map<string, number>();
    let strayQuestions = 0;
    const refused: string[] = [];
    const runSession = async (index: number) => {
      const random = seededRandom(options.seed * 7919 + index);
      const client = await connectApprover(
        url,
        config.adminToken,
        options.requestTimeoutMs,
        async (message) => {
          const match = NONCE.exec(message);
          const call = match === null ? undefined : byNonce.get(match[0]);
          if (call === undefined || call.session !== index) {
            strayQuestions += 1;
            return undefined;
          }
          call.asked += 1;
          // Answers overtake each other: the second question of a pair is often answered first.
          await sleep(Math.floor(random() * 150));
          const decision = call.want === 'allow' ? 'allow-once' : 'deny';
          if (call.asked === 1) call.answer = decision;
          return decision;
        },
        (error) => refused.push(`s${index}: ${error.message}`),
      );
      const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId;
      if (sessionId !== undefined) sessionIds.set(sessionId, index);
      const callOnce = async (number: number, want: Want) => {
        const nonce = `approval-s${index}-c${number}-${want}-${randomBytes(6).toString('hex')}`;
        const call: ApprovalCall = {
          session: index,
          nonce,
          want,
          asked: 0,
          outcome: 'error',
          path: join(config.workspace, `${nonce}.txt`),
        };
        calls.push(call);
        byNonce.set(nonce, call);
        try {
          const result = (await client.callTool(
            { name: 'write_file', arguments: { path: call.path, content: `${nonce}\n` } },
            undefined,
            { timeout: options.requestTimeoutMs },
          )) as CallToolResult;
          const text = textOf(result);
          if (result.isError !== true) {
            call.outcome = 'ran';
            if (!existsSync(call.path) || readFileSync(call.path, 'utf8') !== `${nonce}\n`) {
              call.outcome = 'error';
              call.detail = `answered a result but wrote nothing: ${text.slice(0, 120)}`;
            }
          } else if (/denied/i.test(text)) {
            call.outcome = 'denied';
          } else {
            call.detail = text.slice(0, 160);
          }
        } catch (error) {
          const kind = errorKind(error);
          call.outcome = kind === 'timed out' ? 'hung' : 'error';
          call.detail = kind;
        }
      };
      try {
        for (let number = 0; number < options.operations; number += 2) {
          const first: Want = random() < 0.5 ? 'allow' : 'deny';
          const second: Want = first === 'allow' ? 'deny' : 'allow';
          await Promise.all([
            callOnce(number, first),
            ...(number + 1 < options.operations ? [callOnce(number + 1, second)] : []),
          ]);
        }
      } finally {
        await closeClient(client);
      }
    };

    log(`${options.sessions} sessions × ${options.operations} calls needing approval on ${url}`);
    const began = performance.now();
    await withinBudget(
      Promise.all(Array.from({ length: options.sessions }, (_, index) => runSession(index))),
      options.budgetMs,
    );
    const durationMs = performance.now() - began;

    let replicas: ApprovalsReport['replicas'];
    let sessionsOnSeveralReplicas: number | undefined;
    if (replicaSet !== undefined) {
      log('reading the audit trail: which replica ran or denied each call');
      const trail = (await readAudit(replicaSet.store)).filter(
        (record) =>
          record.tool === 'write_file' &&
          record.sessionId !== undefined &&
          sessionIds.has(record.sessionId),
      );
      const perReplica = new Map<string, number>();
      const perSession = new Map<string, Set<string>>();
      for (const record of trail) {
        perReplica.set(record.replica, (perReplica.get(record.replica) ?? 0) + 1);
        const seen = perSession.get(record.sessionId!) ?? new Set<string>();
        seen.add(record.replica);
        perSession.set(record.sessionId!, seen);
      }
      replicas = [...perReplica]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([replica, count]) => ({ replica, calls: count }));
      sessionsOnSeveralReplicas = [...perSession.values()].filter((seen) => seen.size > 1).length;
    }
    await gateway.stop();

    const rows: ApprovalsReport['rows'] = [
      ...(['allow', 'deny'] as const).map((want) => ({
        decision: want,
        ...countCalls(calls.filter((call) => call.want === want)),
      })),
      { decision: 'total' as const, ...countCalls(calls) },
    ];
    const total = rows[rows.length - 1]!;
    const bad = calls.filter(
      (call) =>
        isCrossed(call) ||
        call.answer === undefined ||
        call.outcome === 'hung' ||
        call.outcome === 'error',
    );
    const examples = bad
      .slice(0, 5)
      .map(
        (call) =>
          `${call.nonce}: asked ${call.asked}, answered ${call.answer ?? '-'}, ${call.outcome}${call.detail ? ` (${call.detail})` : ''}`,
      );
    const failures: string[] = [];
    if (total.crossed > 0) failures.push(`${total.crossed} calls went against their own answer`);
    if (total.lost > 0) failures.push(`${total.lost} calls were never answered or hung`);
    if (strayQuestions > 0) failures.push(`${strayQuestions} questions named no call of theirs`);
    if (refused.length > 0) {
      failures.push(`${refused.length} answers were refused`);
      examples.push(...refused.slice(0, 3));
    }
    return {
      options,
      durationMs,
      rows,
      strayQuestions,
      refusedAnswers: refused.length,
      ...(replicas === undefined ? {} : { replicas }),
      ...(sessionsOnSeveralReplicas === undefined ? {} : { sessionsOnSeveralReplicas }),
      examples,
      failures,
    };
  } finally {
    await gateway?.stop().catch(() => {});
    rmSync(folder, { recursive: true, force: true });
  }
}
