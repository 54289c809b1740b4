export { AdminClient, AdminApiError, type AdminClientOptions } from './admin-client.ts';
export { runCli, buildProgram } from './program.ts';
