import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

/** The committed OpenAPI document the gateway's routes generate (`pnpm openapi:write`). */
export const OPENAPI_DOCUMENT = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));
/** The committed AsyncAPI document (`pnpm asyncapi:write`): the broadcast protocol's messages. */
export const ASYNCAPI_DOCUMENT = fileURLToPath(new URL('../../../../docs/asyncapi.json', import.meta.url));
/** The client's types, generated from them (`pnpm client:types`). */
export const GENERATED_TYPES = fileURLToPath(new URL('./openapi.ts', import.meta.url));
export const GENERATED_BROADCAST_TYPES = fileURLToPath(new URL('./broadcast.ts', import.meta.url));

const HEADER = (source: string) =>
  `// Generated from ${source} by \`pnpm client:types\` (openapi-typescript). Do not edit: a unit test fails when it drifts.\n`;

/** The TypeScript text openapi-typescript makes of docs/openapi.json. */
export async function generateTypes(): Promise<string> {
  const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as Record<string, unknown>;
  const ast = await openapiTS(document as never, { alphabetize: true });
  return HEADER('docs/openapi.json') + astToString(ast);
}

/**
 * The broadcast protocol's message types: the AsyncAPI document's schemas
 * (the same JSON Schemas broadcast validates against), given to the same
 * generator as an OpenAPI document with no paths.
 */
export async function generateBroadcastTypes(): Promise<string> {
  const asyncapi = JSON.parse(readFileSync(ASYNCAPI_DOCUMENT, 'utf8')) as { components: { schemas: Record<string, unknown> } };
  // IngestedEvent: the live tail's `event` message carries one.
  const { TileChange, IngestedEvent, BroadcastServerMessage, BroadcastClientMessage } = asyncapi.components.schemas;
  const document = {
    openapi: '3.1.0',
    info: { title: 'broadcast protocol', version: '1' },
    paths: {},
    components: { schemas: { TileChange, IngestedEvent, BroadcastServerMessage, BroadcastClientMessage } },
  };
  const ast = await openapiTS(document as never, { alphabetize: true });
  return HEADER('docs/asyncapi.json') + astToString(ast);
}

/** Each generated file and its text. */
export async function generateAll(): Promise<Array<{ file: string; text: string }>> {
  return [
    { file: GENERATED_TYPES, text: await generateTypes() },
    { file: GENERATED_BROADCAST_TYPES, text: await generateBroadcastTypes() },
  ];
}
