import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateAsyncApiDocument, serialiseAsyncApi } from './document.ts';

/** `pnpm asyncapi:write`: writes docs/asyncapi.json from the topic definitions and the broadcast protocol's schemas. */
const target = fileURLToPath(new URL('../../../../docs/asyncapi.json', import.meta.url));
writeFileSync(target, serialiseAsyncApi(generateAsyncApiDocument()));
console.log(`wrote ${target}`);
