import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import { type GatewayConfig, type ParseGatewayConfigOptions, parseGatewayConfig } from './parse.js';

/**
 * Reads and parses a gateway configuration file (JSON). See {@link parseGatewayConfig}.
 *
 * @param path - the file's path
 * @param options.env - variables for `${VAR}` @defaultValue `process.env`
 * @returns the parsed configuration
 * @throws {@link ToolSearchError} `invalid_config` when the file cannot be read, is not
 * JSON, or has a bad field (the message names the file and the field's path; `data.path`
 * is the file, `data.field` the field)
 */
export async function loadGatewayConfig(
  path: string,
  options: Omit<ParseGatewayConfigOptions, 'source'> = {},
): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ToolSearchError(
      'invalid_config',
      `Cannot read the gateway config ${path}: ${describeError(error)}. Check the path.`,
      { cause: error, data: { path } },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ToolSearchError(
      'invalid_config',
      `The gateway config ${path} is not valid JSON: ${describeError(error)}.`,
      { cause: error, data: { path } },
    );
  }
  const config = parseGatewayConfig(raw, { ...options, source: path });
  config.review.file = resolve(dirname(path), config.review.file);
  return config;
}
