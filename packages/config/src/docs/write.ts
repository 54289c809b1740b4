import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfigurationDoc, undescribed, type ServiceSchema } from './configuration-doc.ts';
import { gatewayEnvProperties } from '../../../../services/gateway/src/env.ts';
import { storeEnvProperties } from '../../../../services/store/src/env.ts';
import { ruleEngineEnvProperties } from '../../../../services/rule-engine/src/env.ts';
import { broadcastEnvProperties } from '../../../../services/broadcast/src/env.ts';
import { notificationEnvProperties } from '../../../../services/notification/src/env.ts';

/**
 * `pnpm config:write`: writes docs/configuration.md from the services' env schemas.
 * `pnpm config:write --check`: exits 1 when the committed file differs.
 * (This folder imports the services, so the package's build leaves it out.)
 */
export const COMMITTED_CONFIGURATION = fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url));

/** In start order (deploy/services.txt). */
export const SERVICE_SCHEMAS: readonly ServiceSchema[] = [
  { service: 'gateway', properties: gatewayEnvProperties },
  { service: 'store', properties: storeEnvProperties },
  { service: 'rule-engine', properties: ruleEngineEnvProperties },
  { service: 'broadcast', properties: broadcastEnvProperties },
  { service: 'notification', properties: notificationEnvProperties },
];

export function configurationDoc(): string {
  return renderConfigurationDoc(SERVICE_SCHEMAS);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = configurationDoc();
  const missing = undescribed(SERVICE_SCHEMAS);
  if (missing.length > 0) console.warn(`no description in the schema (add one): ${missing.join(', ')}`);
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(COMMITTED_CONFIGURATION, 'utf8');
    } catch {
      // missing: differs
    }
    if (committed !== text) {
      console.error('docs/configuration.md differs from the env schemas: run `pnpm config:write` and commit it');
      process.exit(1);
    }
    console.log('docs/configuration.md is up to date');
  } else {
    writeFileSync(COMMITTED_CONFIGURATION, text);
    console.log(`wrote ${COMMITTED_CONFIGURATION}`);
  }
}
