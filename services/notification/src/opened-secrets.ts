import { createHmac, type KeyObject, createSecretKey } from 'node:crypto';
import { inspect } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { unsealWith, type SecretKeys } from '@pulseboard/contracts';

/**
 * Standard Webhooks' `v1` signature of a delivery, by node:crypto's HMAC-SHA256. The library's own
 * `sign` hashes in JavaScript (fast-sha256), a visible share of the service's CPU per delivery.
 * The secret is read as the library reads it (it throws for the same secrets); the library's
 * `verify` accepts what this signs (opened-secrets.test.ts).
 */
export class WebhookSigner {
  private readonly key: KeyObject;

  constructor(secret: string) {
    new Webhook(secret);
    this.key = createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64'));
  }

  sign(msgId: string, timestamp: Date, payload: string): string {
    return `v1,${createHmac('sha256', this.key)
      .update(`${msgId}.${Math.floor(timestamp.getTime() / 1000)}.${payload}`)
      .digest('base64')}`;
  }
}

/** A service's secrets, opened (`{}` for a service without any), and its webhook signer. */
export class OpenedSecrets {
  private webhook: WebhookSigner | undefined;

  constructor(readonly values: Readonly<Record<string, string>>) {}

  /** The Standard Webhooks signer of `values.secret`, made on first use (throws, as `new Webhook` does, without one). */
  signer(): WebhookSigner {
    return (this.webhook ??= new WebhookSigner(this.values.secret!));
  }

  // Never in a log line or an error report, whatever serialises it.
  toJSON(): string {
    return '[secrets]';
  }

  [inspect.custom](): string {
    return '[secrets]';
  }
}

/** Services kept at most; more (a flood of services each sending once) only empties it, and they are opened again. */
const MAX_SERVICES = 10_000;

/**
 * Each service's secrets opened once, not once per delivery (AES-GCM, a JSON
 * parse and, for webhooks, the signer's key: about 3% of the service's CPU).
 * Every batch of deliveries reads its services' sealed secrets from Postgres
 * afresh (repository.ts, `withServices`), and an entry is served only while
 * the sealed text is the very one it was opened from: a changed secret or URL
 * (re-sealed, a new random IV) or a rotation of SECRETS_KEY (re-sealed under
 * the new key) is opened anew, and replaces the old entry; a deleted service
 * is never sent through (its row reads as null), so its entry is never served.
 */
export class OpenedSecretsCache {
  private readonly byService = new Map<number, { sealed: string; opened: OpenedSecrets }>();
  private static readonly NONE = new OpenedSecrets({});

  constructor(private readonly keys: SecretKeys) {}

  open(serviceId: number, sealed: string | null): OpenedSecrets {
    if (sealed === null) return OpenedSecretsCache.NONE;
    const kept = this.byService.get(serviceId);
    if (kept !== undefined && kept.sealed === sealed) return kept.opened;
    // SECRETS_KEY_PREVIOUS still opens rows sealed before a rotation re-sealed them.
    const opened = new OpenedSecrets(JSON.parse(unsealWith(sealed, this.keys).plain) as Record<string, string>);
    if (kept === undefined && this.byService.size >= MAX_SERVICES) this.byService.clear();
    this.byService.set(serviceId, { sealed, opened });
    return opened;
  }
}
