import type * as real from '../../../packages/config/src/http-tracing.ts';

/** packages/config/src/http-tracing.ts without tracing (see ./tracing.ts): no hook, no header read. */
export const registerHttpTracing: typeof real.registerHttpTracing = () => undefined;
export const requestTraceparent: typeof real.requestTraceparent = () => undefined;
