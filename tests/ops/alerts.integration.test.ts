import { describe, expect, it } from 'vitest';
import { root } from './helm.ts';
import { promtool } from './promtool.ts';

const dir = `${root}deploy/observability`;

describe('deploy/observability alert rules', () => {
  it('pass promtool check rules', async () => {
    const checked = await promtool(['check', 'rules', `${dir}/alerts.yaml`]);
    expect(checked.output).toMatch(/SUCCESS: 9 rules found/);
    expect(checked.code).toBe(0);
  });

  it('pass their unit tests (promtool test rules): each fires on trouble and stays silent otherwise', async () => {
    const tested = await promtool(['test', 'rules', `${dir}/alerts.test.yaml`]);
    expect(tested.output).toMatch(/SUCCESS/);
    expect(tested.code).toBe(0);
  });
});
