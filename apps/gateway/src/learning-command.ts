import { readFile, writeFile } from 'node:fs/promises';
import { type LearningStore, ToolSearchError } from '@tool-search/core';
import { type GatewayStore, openGatewayStore, openLearningStore } from '@tool-search/mcp';
import type { GatewayConfig } from '@tool-search/mcp/config';
import { EXIT_USAGE, type LearningAction } from './args.js';
import type { LearningOptions } from './command-flags.js';
import { readConfigFile } from './config-file.js';

interface Output {
  write(text: string): unknown;
}

/** Why a memory store's learned terms are out of the CLI's reach. */
export const MEMORY_LEARNING_NOTE =
  "a memory store keeps learned terms in the serving gateway's process only; give the replicas' redis:// store (store in the config, or --store) to reach them";

/** The store a command reaches learned terms through: the Redis one, or none for memory. */
export function sharedStoreSpec(config: GatewayConfig, store: string | undefined) {
  const spec = (store ?? config.store)?.trim();
  return spec === undefined || spec === '' || spec === 'memory' ? undefined : spec;
}

/**
 * Opens the gateways' store and its learning store, waiting briefly for it to connect,
 * runs `use`, then closes the store.
 *
 * @throws what `use` throws; `store_unavailable` when the store does not answer in 5 s
 */
export async function withLearningStore<T>(
  spec: string,
  config: GatewayConfig,
  use: (learning: LearningStore, store: GatewayStore) => Promise<T>,
): Promise<T> {
  const store = await openGatewayStore(spec);
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await store.ping();
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    return await use(openLearningStore(store, config.learning), store);
  } finally {
    await store.close();
  }
}

async function readInput(file: string | undefined): Promise<string> {
  if (file !== undefined && file !== '-') return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

async function act(
  action: LearningAction,
  options: LearningOptions,
  learning: LearningStore,
  where: string,
  out: Output,
): Promise<void> {
  const { profile, file } = options;
  if (action === 'export') {
    const text = `${JSON.stringify(await learning.export(profile), null, 2)}\n`;
    if (file === undefined || file === '-') out.write(text);
    else await writeFile(file, text);
    return;
  }
  if (action === 'clear') {
    await learning.clear(profile);
    out.write(
      `cleared the learned terms of ${profile === undefined ? 'every profile' : `profile '${profile}'`} in ${where}\n`,
    );
    return;
  }
  let data: unknown;
  try {
    data = JSON.parse(await readInput(file));
  } catch (error) {
    throw new ToolSearchError(
      'invalid_argument',
      `Not JSON: ${error instanceof Error ? error.message : String(error)}. Import what 'learning export' wrote.`,
    );
  }
  await learning.import(data);
  const profiles = Object.keys((data as { profiles: object }).profiles);
  out.write(`imported the learned terms of ${profiles.length} profiles into ${where}\n`);
}

/**
 * `learning export|import|clear --config <file> [--store S] [--profile P] [--file F]`:
 * what the gateways on a Redis store learned from use, as JSON (export), added from a
 * file (import, within the config's bounds), or forgotten (clear).
 *
 * @param command - the action and the parsed flags
 * @param out - where to print @defaultValue process.stdout
 * @param err - where errors go @defaultValue process.stderr
 * @returns the exit code: 0 done, 1 the store failed, 2 a memory store or a bad import file
 * @throws {@link ConfigFileError} for a bad config file
 */
export async function runLearning(
  command: { action: LearningAction } & LearningOptions,
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> {
  const config = await readConfigFile(command.config);
  const spec = sharedStoreSpec(config, command.store);
  if (spec === undefined) {
    err.write(`error: ${MEMORY_LEARNING_NOTE}.\n`);
    return EXIT_USAGE;
  }
  try {
    await withLearningStore(spec, config, (learning, store) =>
      act(command.action, command, learning, store.location, out),
    );
    return 0;
  } catch (error) {
    if (!ToolSearchError.isInstance(error) && !(error instanceof Error)) throw error;
    err.write(`error: ${error.message}\n`);
    return ToolSearchError.isInstance(error) && error.code === 'invalid_argument' ? EXIT_USAGE : 1;
  }
}
