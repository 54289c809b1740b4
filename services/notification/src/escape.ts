/**
 * User strings (tile and project names, subjects, bodies) go into formats
 * that give some characters a meaning: each is escaped for the format it
 * goes into, so a name can never become a link, a mention or markup.
 */

/** Slack's mrkdwn and message `text`: `&`, `<` and `>` are control characters (`<url|label>` links, `<!channel>` mentions). */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
