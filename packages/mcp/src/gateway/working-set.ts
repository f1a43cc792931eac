// The working-set handle of the 2026-07-28 leg: what a 2025 session keeps between a
// model's requests (the tools it was given in full, its recent searches for learning),
// handed to the model instead, signed, bound to its principal and profile, expiring and
// bounded, and passed back as the `working_set` argument of the bridge tools. The handle
// holds nothing another replica would need to look up: any replica reads it.

import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type McpTool, ToolSearchError } from '@tool-search/core';
import { TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH } from '@tool-search/core/internal';
import { readSignedState, type SignedStateEnvelope, signState } from './signed-state.js';

/** The argument of the modern leg's bridge tools that carries the working-set handle. */
export const WORKING_SET_ARGUMENT = 'working_set';

/** How long a working-set handle holds after the answer that issued it: 30 minutes. */
export const WORKING_SET_TTL_MS = 30 * 60 * 1000;

/** The longest handle issued or read (a longer one is refused, never parsed). */
export const WORKING_SET_MAX_CHARS = 4096;

/** The `_meta` key of a result that carries the handle (the model reads the content too). */
export const WORKING_SET_META_KEY = 'tool-search/working_set';

/** The bridge tools that take and answer a handle. */
const HANDLE_TOOLS: ReadonlySet<string> = new Set([TOOL_SEARCH, TOOL_DESCRIBE, TOOL_CALL]);

/** The recent searches a handle keeps (a session keeps as many). */
export const MAX_HANDLE_SEARCHES = 8;
/** The hits of one search a handle keeps. */
const MAX_HANDLE_HITS = 20;
/** The analysed terms of one search a handle keeps. */
const MAX_HANDLE_TERMS = 16;
/** The tools given in full (described or selected) a handle keeps. */
const MAX_HANDLE_DESCRIBED = 32;

/** One recent search in a handle: its id, analysed terms, hits not yet called, calls since. */
export interface WorkingSetSearch {
  /** The search's id: a search leads to each of its tools once, on every replica. */
  i: string;
  /** Its analysed terms (never the query's text). */
  t: string[];
  /** Its hits that no call has been attributed to yet. */
  h: string[];
  /** The calls made since it. */
  c: number;
}

/** What a working-set handle holds. */
export interface WorkingSetState extends SignedStateEnvelope {
  /** The profile it was issued under (`''` for none). */
  f: string;
  /** The tools whose full schema the model was given (tool_describe, `select:`), oldest first. */
  d: string[];
  /** The recent searches, oldest first. */
  s: WorkingSetSearch[];
}

/** Who presents a handle, and what its names are re-checked against. */
export interface WorkingSetReader {
  key: Uint8Array;
  principal: string;
  profile: string | undefined;
  /** Whether a tool is in the caller's scope now (never trusted from the handle). */
  inScope: (name: string) => boolean;
  now: number;
}

/** A new search id. */
export function newSearchId(): string {
  return randomBytes(9).toString('base64url');
}

/** Whether a call's tool is a bridge tool that takes a handle. */
export function takesWorkingSet(name: string): boolean {
  return HANDLE_TOOLS.has(name);
}

function strings(value: unknown, max: number, each = 256): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is string => typeof item === 'string' && item.length <= each)
    .slice(-max);
}

/**
 * Reads a handle back: signature, purpose, principal, expiry and length checked by the
 * codec, then its profile; its names kept only where they are in the caller's scope now.
 *
 * @throws {@link ToolSearchError} `invalid_argument` (`data.field`: `working_set`) when it
 * is forged, altered, too long, expired, another principal's or another profile's
 */
export function readWorkingSet(raw: string, reader: WorkingSetReader): WorkingSetState {
  const advice = `call again without ${WORKING_SET_ARGUMENT} to start a new one`;
  const state = readSignedState<WorkingSetState>(reader.key, 'working-set', raw, {
    principal: reader.principal,
    now: reader.now,
    maxLength: WORKING_SET_MAX_CHARS,
    field: WORKING_SET_ARGUMENT,
    advice,
  });
  if (state.f !== (reader.profile ?? '')) {
    throw new ToolSearchError(
      'invalid_argument',
      `The ${WORKING_SET_ARGUMENT} was issued for another profile: ${advice}.`,
      { data: { field: WORKING_SET_ARGUMENT } },
    );
  }
  const searches = Array.isArray(state.s) ? state.s : [];
  return {
    v: 1,
    p: state.p,
    e: state.e,
    f: state.f,
    d: strings(state.d, MAX_HANDLE_DESCRIBED).filter(reader.inScope),
    s: searches.slice(-MAX_HANDLE_SEARCHES).flatMap((search) => {
      if (typeof search !== 'object' || search === null || typeof search.i !== 'string') return [];
      const hits = strings(search.h, MAX_HANDLE_HITS).filter(reader.inScope);
      const terms = strings(search.t, MAX_HANDLE_TERMS, 64);
      const calls = Number.isInteger(search.c) && search.c >= 0 ? search.c : 0;
      return hits.length === 0 || terms.length === 0
        ? []
        : [{ i: search.i, t: terms, h: hits, c: calls }];
    }),
  };
}

/**
 * Issues a handle for what the model holds now, renewed for {@link WORKING_SET_TTL_MS}:
 * the oldest searches, then the oldest tools, go first until it fits
 * {@link WORKING_SET_MAX_CHARS}.
 *
 * @throws nothing
 */
export function issueWorkingSet(
  key: Uint8Array,
  held: {
    principal: string;
    profile: string | undefined;
    described: string[];
    searches: WorkingSetSearch[];
  },
  now: number,
): string {
  const state: WorkingSetState = {
    v: 1,
    p: held.principal,
    e: now + WORKING_SET_TTL_MS,
    f: held.profile ?? '',
    d: [...new Set(held.described)].slice(-MAX_HANDLE_DESCRIBED),
    s: held.searches
      .filter((search) => search.h.length > 0)
      .slice(-MAX_HANDLE_SEARCHES)
      .map((search) => ({
        ...search,
        h: search.h.slice(0, MAX_HANDLE_HITS),
        t: search.t.slice(0, MAX_HANDLE_TERMS),
      })),
  };
  let signed = signState(key, 'working-set', state);
  while (signed.length > WORKING_SET_MAX_CHARS && (state.s.length > 0 || state.d.length > 0)) {
    if (state.s.length > 0) state.s.shift();
    else state.d.shift();
    signed = signState(key, 'working-set', state);
  }
  return signed;
}

const HANDLE_DESCRIPTION =
  `Optional: the ${WORKING_SET_ARGUMENT} of your last ${TOOL_SEARCH}, ${TOOL_DESCRIBE} or ${TOOL_CALL} answer, passed back as it is. ` +
  'It carries what you found and loaded across requests (this server keeps no session); it expires 30 minutes after the answer that gave it. ' +
  `If it is refused, call again without ${WORKING_SET_ARGUMENT}.`;

/**
 * A bridge tool's definition with the optional `working_set` argument, for the modern
 * leg's list only (every other surface's bridge schemas stay as they are).
 *
 * @throws nothing
 */
export function withWorkingSetArgument(tool: McpTool): McpTool {
  if (!takesWorkingSet(tool.name)) return tool;
  const schema = tool.inputSchema as Record<string, unknown>;
  const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
  // A strict schema (every property required, optional ones nullable) stays strict.
  const strict = schema['additionalProperties'] === false && Array.isArray(schema['required']);
  const property = {
    type: strict ? ['string', 'null'] : 'string',
    description: HANDLE_DESCRIPTION,
  };
  const inputSchema = {
    ...schema,
    properties: { ...properties, [WORKING_SET_ARGUMENT]: property },
    ...(strict ? { required: [...(schema['required'] as string[]), WORKING_SET_ARGUMENT] } : {}),
  };
  const description = `${tool.description ?? ''}\n\nAnswers carry a ${WORKING_SET_ARGUMENT} handle: pass it back on your next ${TOOL_SEARCH}, ${TOOL_DESCRIBE} or ${TOOL_CALL}.`;
  return { ...tool, description, inputSchema } as McpTool;
}

/** A bridge answer's JSON object, when the result is one text part holding one. */
function answerObject(result: CallToolResult): Record<string, unknown> | undefined {
  const [only, ...rest] = result.content;
  if (only?.type !== 'text' || rest.length > 0) return undefined;
  try {
    const parsed = JSON.parse(only.text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The names a `tool_describe` or `select:` answer gave in full (with their `parameters`).
 *
 * @throws nothing
 */
export function describedBy(name: string, result: CallToolResult): string[] {
  if (result.isError === true || (name !== TOOL_DESCRIBE && name !== TOOL_SEARCH)) return [];
  const answer = answerObject(result);
  if (answer === undefined) return [];
  const given = (item: unknown): string[] => {
    if (typeof item !== 'object' || item === null) return [];
    const { name: described, parameters } = item as { name?: unknown; parameters?: unknown };
    return typeof described === 'string' && parameters !== undefined ? [described] : [];
  };
  const items = [
    answer,
    ...(Array.isArray(answer['results']) ? answer['results'] : []),
    ...(Array.isArray(answer['matches']) ? answer['matches'] : []),
  ];
  return items.flatMap(given);
}

/**
 * A bridge tool's result with the handle: in the answer's JSON (text and
 * `structuredContent`) for a search or describe, as one more text part otherwise; and in
 * `_meta` for clients.
 *
 * @throws nothing
 */
export function withWorkingSet(
  name: string,
  result: CallToolResult,
  handle: string,
): CallToolResult {
  const meta = { ...(result._meta ?? {}), [WORKING_SET_META_KEY]: handle };
  const answer = name === TOOL_CALL || result.isError === true ? undefined : answerObject(result);
  if (answer !== undefined) {
    const structured = { ...answer, [WORKING_SET_ARGUMENT]: handle };
    return {
      ...result,
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
      _meta: meta,
    };
  }
  const part = { type: 'text' as const, text: JSON.stringify({ [WORKING_SET_ARGUMENT]: handle }) };
  return { ...result, content: [...result.content, part], _meta: meta };
}
