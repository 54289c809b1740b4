// Module resolution hooks of the no-tracing build (registered by register.mjs): @pulseboard/config's
// tracing modules resolve to the no-op ones beside this file, and any import of @opentelemetry fails.
const REPLACED = {
  '/packages/config/src/tracing.ts': new URL('./tracing.ts', import.meta.url).href,
  '/packages/config/src/http-tracing.ts': new URL('./http-tracing.ts', import.meta.url).href,
};

export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith('@opentelemetry/')) throw new Error(`no-tracing build: ${specifier} must not be loaded`);
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.includes('/@opentelemetry/')) throw new Error(`no-tracing build: ${resolved.url} must not be loaded`);
  for (const [suffix, url] of Object.entries(REPLACED)) if (resolved.url.endsWith(suffix)) return { ...resolved, url };
  return resolved;
}
