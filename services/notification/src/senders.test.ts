import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeSlack } from './escape.ts';
import { emailHtml, slackBody, type Delivery } from './senders.ts';

const hostile = '<https://phish.example|click> & <!channel> <@U123>';

const transition = (tileName: string): Delivery => ({
  id: 'd1',
  serviceName: 's',
  type: 'slack',
  config: {},
  content: {
    kind: 'transition',
    tile_id: 1,
    tile_name: tileName,
    project_key: 'p<1>',
    status: 'critical',
    previous_status: 'ok',
    value: { note: '<b>&' },
    event_id: 7,
    changed_at: '2026-01-01T00:00:00.000Z',
  },
});

/** Every string Slack parses as mrkdwn in a payload: top-level text and mrkdwn text objects. */
function mrkdwnTexts(payload: string): string[] {
  const body = JSON.parse(payload) as { text: string; blocks: { text?: { type: string; text: string }; fields?: { type: string; text: string }[] }[] };
  const objects = body.blocks.flatMap((b) => [b.text, ...(b.fields ?? [])]).filter((t) => t?.type === 'mrkdwn') as { text: string }[];
  return [body.text, ...objects.map((o) => o.text)];
}

describe('Slack and email text built from user strings', () => {
  it('escapes &, < and > for Slack, and only those', () => {
    expect(escapeSlack(hostile)).toBe('&lt;https://phish.example|click&gt; &amp; &lt;!channel&gt; &lt;@U123&gt;');
    expect(escapeSlack('*bold* _it_ "q" \'a\'')).toBe('*bold* _it_ "q" \'a\'');
  });

  it('a tile name cannot become a link or a mention in a Slack transition', () => {
    const texts = mrkdwnTexts(slackBody(transition(hostile)));
    for (const text of texts) {
      expect(text).not.toMatch(/<https|<!channel>|<@U/);
      // Every < and > left is none: only entities remain.
      expect(text).not.toMatch(/[<>]/);
    }
    expect(texts.join('\n')).toContain('&lt;https://phish.example|click&gt; &amp; &lt;!channel&gt;');
    expect(texts.join('\n')).toContain('p&lt;1&gt;');
    expect(texts.join('\n')).toContain('&lt;b&gt;&amp;');
    // The header is plain_text (never parsed for links): the name as written.
    expect(JSON.parse(slackBody(transition(hostile))).blocks[0].text).toEqual({ type: 'plain_text', text: `${hostile}: ok → critical`.slice(0, 150) });
  });

  it('a message subject and body are escaped in Slack text and mrkdwn', () => {
    const payload = slackBody({
      id: 'd2',
      serviceName: 's',
      type: 'slack',
      config: {},
      content: { kind: 'message', subject: '<!here> deploy', body: `v2 & ${hostile}` },
    });
    const texts = mrkdwnTexts(payload);
    expect(texts[0]).toBe(`&lt;!here&gt; deploy: v2 &amp; ${escapeSlack(hostile)}`);
    expect(texts[1]).toBe(`v2 &amp; ${escapeSlack(hostile)}`);
  });

  it('email HTML escapes markup and quotes, keeps line breaks', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;y&#39;');
    const html = emailHtml('Tile "<img src=x onerror=alert(1)>" went critical\nnext line');
    expect(html).toBe('<p>Tile &#34;&#60;img src=x onerror=alert(1)&#62;&#34; went critical<br>next line</p>');
    expect(html.slice(3, -4)).not.toMatch(/<(?!br>)/);
  });
});
