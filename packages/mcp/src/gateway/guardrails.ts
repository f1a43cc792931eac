import type { SkippedKeyword } from '@tool-search/core/validate';
import {
  createArgumentSizeGuardrail,
  createSchemaGuardrail,
  createToolPolicyGuardrail,
  type Guardrail,
} from '@tool-search/hooks';
import type { GuardrailsConfig } from '../config/schemas.js';

/**
 * Turns the `guardrails` section of a gateway config into the guardrails of
 * `@tool-search/hooks`, in this order: tool policy (`allow` / `deny`), argument
 * size (`maxArgumentBytes`), argument schema (`validateArguments`).
 *
 * The size limit comes first on every path: the gateway's sessions give
 * `maxArgumentBytes` to the bridge, which refuses larger arguments of a deferred call
 * before it checks their schema, and the schema guardrail refuses them before its own
 * check too. Without `maxArgumentBytes`, both checks refuse arguments over core's
 * `DEFAULT_MAX_ARGUMENT_BYTES` (1 MiB), and every check runs within its step budget.
 *
 * The schema guardrail checks against the tool in the dispatch context (`ctx.tool`),
 * so give the dispatcher a `resolveTool`; a call whose tool is unknown is denied.
 *
 * @param config - the guardrails section
 * @param options.onSkippedKeyword - told once of each schema keyword the schema
 * guardrail leaves unchecked
 * @returns the guardrails; empty when the section asks for nothing
 * @throws nothing for a parsed config
 */
export function createConfigGuardrails(
  config: GuardrailsConfig,
  options: { onSkippedKeyword?: (skipped: SkippedKeyword) => void } = {},
): Guardrail[] {
  const guardrails: Guardrail[] = [];
  const denies = config.deny.tools.length > 0 || config.deny.toolsets.length > 0;
  if (config.allow !== undefined || denies) {
    guardrails.push(
      createToolPolicyGuardrail({
        ...(config.allow === undefined ? {} : { allow: config.allow }),
        deny: config.deny,
      }),
    );
  }
  if (config.maxArgumentBytes !== undefined) {
    guardrails.push(createArgumentSizeGuardrail(config.maxArgumentBytes));
  }
  if (config.validateArguments) {
    guardrails.push(
      createSchemaGuardrail(undefined, {
        ...(config.maxArgumentBytes === undefined
          ? {}
          : { maxArgumentBytes: config.maxArgumentBytes }),
        ...(options.onSkippedKeyword === undefined
          ? {}
          : { onSkippedKeyword: options.onSkippedKeyword }),
      }),
    );
  }
  return guardrails;
}
