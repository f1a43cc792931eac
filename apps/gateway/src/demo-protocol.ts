import type { DemoSession } from './demo-steps.js';
import { formatInt, truncate } from './format.js';

/** Scene 8: a prompt and a resource of the everything server, through the same gateway. */
export async function showPromptAndResource(session: DemoSession): Promise<void> {
  const { printer, client } = session;
  const { style, print } = printer;
  printer.heading('8. Prompts and resources: what the servers offer besides tools');
  print();
  const { prompts } = await client.listPrompts();
  const { resources } = await client.listResources();
  print(
    `    prompts/list: ${formatInt(prompts.length)} prompts · resources/list: ${formatInt(resources.length)} resources`,
  );
  const prompt = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lisbon' } });
  const said = prompt.messages[0]?.content;
  print(
    `    ${style.green('✓')} prompts/get args-prompt { city: "Lisbon" } → ${truncate(said?.type === 'text' ? said.text : JSON.stringify(said), 60)}`,
  );
  // A document of the everything server: it reads as text.
  const first = resources.find((resource) => resource.uri.startsWith('demo://')) ?? resources[0];
  if (first === undefined) return;
  const read = await client.readResource({ uri: first.uri });
  const content = read.contents[0];
  const text = content !== undefined && 'text' in content ? String(content.text) : '(binary)';
  print(
    `    ${style.green('✓')} resources/read ${truncate(first.uri, 50)} → ${truncate(text.split('\n')[0] ?? '', 40)}`,
  );
}
