// node --import tsx --import ./bench/ingest/no-tracing/register.mjs: a gateway built without tracing.
// ES modules go through hooks.mjs (registered after tsx, so it runs first); CommonJS require() of
// @opentelemetry fails here. A service that reached OpenTelemetry would not start. One exception:
// prom-client (the metrics library, in every build) requires @opentelemetry/api itself, for
// exemplars; that load is not tracing's and stays (the API alone, no SDK: a no-op until one registers).
import Module, { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
const load = Module._load;
const fromPromClient = (parent) => typeof parent?.filename === 'string' && parent.filename.includes('/prom-client/');
Module._load = function (request, parent, ...rest) {
  if (typeof request === 'string' && (request.startsWith('@opentelemetry/') || request.includes('/@opentelemetry/')) && !fromPromClient(parent))
    throw new Error(`no-tracing build: ${request} must not be loaded`);
  return load.call(this, request, parent, ...rest);
};
