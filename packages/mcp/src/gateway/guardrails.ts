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
 * The schema guardrail checks against the tool in the dispatch context (`ctx.tool`),
 * so give the dispatcher a `resolveTool`; a call whose tool is unknown is denied.
 *
 * @param config - the guardrails section
 * @returns the guardrails; empty when the section asks for nothing
 * @throws nothing for a parsed config
 */
export function createConfigGuardrails(config: GuardrailsConfig): Guardrail[] {
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
  if (config.validateArguments) guardrails.push(createSchemaGuardrail());
  return guardrails;
}
