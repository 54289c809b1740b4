import type { Transporter } from 'nodemailer';
import type { NotificationType } from '@pulseboard/contracts';
import { operatorDetail, publicReason } from './delivery-errors.ts';
import { escapeHtml, escapeSlack } from './escape.ts';
import { postJson, TargetRefused, type PostOptions } from './safe-http.ts';
import type { OpenedSecrets } from './opened-secrets.ts';

/** What a delivery carries: a tile's status transition, or a message from the API. */
export type DeliveryContent =
  | {
      kind: 'transition';
      tile_id: number;
      tile_name: string;
      project_key: string;
      status: string;
      previous_status: string;
      value: unknown;
      event_id: number | null;
      changed_at: string;
    }
  | { kind: 'message' | 'test'; subject: string; body: string };

/** `error` is recorded and shown to the tenant (generic); `detail`, when there is more, goes to the operator's log only. */
export type SendResult =
  { ok: true; status: number | null } | { ok: false; status: number | null; retryable: boolean; retryAfterMs?: number; error: string; detail?: string };

export interface Delivery {
  id: string;
  serviceName: string;
  type: NotificationType;
  config: Record<string, unknown>;
  content: DeliveryContent;
}

function subjectOf(c: DeliveryContent): string {
  return c.kind === 'transition' ? `${c.tile_name}: ${c.previous_status} → ${c.status}` : c.subject;
}

/** Link-free text: a tile, its old and new status, value, event and time. */
function textOf(c: DeliveryContent): string {
  if (c.kind !== 'transition') return c.body;
  return `Tile "${c.tile_name}" (project ${c.project_key}) went from ${c.previous_status} to ${c.status}. Value: ${JSON.stringify(c.value)}. Event: ${c.event_id ?? 'none (time-driven)'}. At ${c.changed_at}.`;
}

/** The Standard Webhooks payload: `{type, timestamp, data}`. */
function webhookBody(d: Delivery, at: Date): string {
  const c = d.content;
  const type = c.kind === 'transition' ? 'tile.status_changed' : c.kind === 'test' ? 'notification.test' : 'notification.message';
  const data =
    c.kind === 'transition'
      ? {
          tile_id: c.tile_id,
          tile_name: c.tile_name,
          project_key: c.project_key,
          status: c.status,
          previous_status: c.previous_status,
          value: c.value,
          event_id: c.event_id,
          changed_at: c.changed_at,
          text: textOf(c),
        }
      : { subject: c.subject, body: c.body };
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/**
 * Slack's incoming-webhook payload: `text` (notifications, fallbacks) and
 * `blocks`. Every user string in `text` and in mrkdwn is escaped (`&`, `<`,
 * `>`): a tile named `<https://phish.example|click>` stays text. The header is
 * plain_text, which Slack does not parse for links or mentions: left as is.
 */
export function slackBody(d: Delivery): string {
  const c = d.content;
  const fields =
    c.kind === 'transition'
      ? [
          { type: 'mrkdwn', text: `*Tile*\n${escapeSlack(c.tile_name)}` },
          { type: 'mrkdwn', text: `*Status*\n${escapeSlack(c.previous_status)} → ${escapeSlack(c.status)}` },
          { type: 'mrkdwn', text: `*Value*\n${escapeSlack(JSON.stringify(c.value))}` },
          { type: 'mrkdwn', text: `*Time*\n${escapeSlack(c.changed_at)}` },
        ]
      : undefined;
  return JSON.stringify({
    text: escapeSlack(`${subjectOf(c)}: ${textOf(c)}`),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: subjectOf(c).slice(0, 150) } },
      // Cut before escaping, so an entity is never cut in half.
      fields === undefined
        ? { type: 'section', text: { type: 'mrkdwn', text: c.kind === 'transition' ? '' : escapeSlack(c.body.slice(0, 3000)) } }
        : { type: 'section', fields },
    ],
  });
}

/** The email's HTML part: the plain text, escaped, line breaks kept. */
export function emailHtml(text: string): string {
  return `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;
}

function httpResult(status: number, retryAfterMs: number | undefined): SendResult {
  if (status >= 200 && status < 300) return { ok: true, status };
  // 408 and 429 ask for another try, as do server errors; any other answer will not change.
  const retryable = status === 408 || status === 429 || status >= 500;
  return { ok: false, status, retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }), error: `HTTP ${status}` };
}

function failure(error: unknown): SendResult {
  return { ok: false, status: null, retryable: !(error instanceof TargetRefused), error: publicReason(error), detail: operatorDetail(error) };
}

export interface Senders {
  send(delivery: Delivery, secrets: OpenedSecrets): Promise<SendResult>;
}

export function createSenders(http: PostOptions, mail: { transporter: Transporter; from: string }): Senders {
  return {
    async send(d, secrets) {
      const secret = secrets.values;
      try {
        if (d.type === 'webhook') {
          const at = new Date();
          const body = webhookBody(d, at);
          // webhook-id is the delivery id: a receiver drops a repeat (the crash window) by it.
          const signature = secrets.signer().sign(d.id, at, body);
          // The URL is sealed with the secret; a row written before URLs were sealed keeps it in config.
          const res = await postJson(
            secret.url ?? String(d.config.url),
            body,
            { 'webhook-id': d.id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature },
            http,
          );
          return httpResult(res.status, res.retryAfterMs);
        }
        if (d.type === 'slack') {
          const res = await postJson(secret.webhook_url!, slackBody(d), {}, http);
          return httpResult(res.status, res.retryAfterMs);
        }
        const text = textOf(d.content);
        await mail.transporter.sendMail({
          from: mail.from,
          to: (d.config.to as string[]).join(', '),
          subject: subjectOf(d.content),
          text,
          html: emailHtml(text),
          messageId: `<${d.id}@pulseboard>`,
        });
        return { ok: true, status: null };
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        // SMTP 5xx is a permanent refusal; 4xx and connection trouble are worth another try.
        if (typeof code === 'number' && code >= 500)
          return { ok: false, status: code, retryable: false, error: `the mail server refused the message (SMTP ${code})`, detail: operatorDetail(error) };
        return failure(error);
      }
    },
  };
}
