import type { K8sObject } from './helm.ts';

/**
 * The policy every rendered workload must meet, as a list of violations (empty: it passes):
 * resource limits, not root (non-root, no privilege escalation, read-only root, no
 * capabilities, seccomp RuntimeDefault), probes on long-running containers, and an image
 * tag that names a release.
 */
export function policyViolations(object: K8sObject): string[] {
  const pod = object.kind === 'Deployment' || object.kind === 'Job' ? object.spec?.template?.spec : undefined;
  if (pod === undefined) return [];
  const where = `${object.kind}/${object.metadata.name}`;
  const out: string[] = [];
  const podSecurity = pod.securityContext ?? {};
  if (podSecurity.seccompProfile?.type !== 'RuntimeDefault') out.push(`${where}: seccomp profile is not RuntimeDefault`);
  for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
    const at = `${where} container ${c.name}`;
    const security = { ...podSecurity, ...(c.securityContext ?? {}) };
    if (c.resources?.limits?.cpu === undefined || c.resources?.limits?.memory === undefined) out.push(`${at}: no cpu and memory limits`);
    if (security.runAsNonRoot !== true || security.runAsUser === 0) out.push(`${at}: may run as root`);
    if (security.allowPrivilegeEscalation !== false) out.push(`${at}: privilege escalation allowed`);
    if (security.readOnlyRootFilesystem !== true) out.push(`${at}: root filesystem writable`);
    if (!(c.securityContext?.capabilities?.drop ?? []).includes('ALL')) out.push(`${at}: capabilities not all dropped`);
    const image = String(c.image ?? '');
    const tag = /:([^:/@]+)$/.exec(image)?.[1];
    if (!image.includes('@') && (tag === undefined || tag === 'latest')) out.push(`${at}: image ${image} has no release tag`);
    if (object.kind === 'Deployment')
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) if (c[probe] === undefined) out.push(`${at}: no ${probe}`);
  }
  return out;
}
