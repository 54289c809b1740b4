/** Polls until `check` returns a value other than undefined/false, instead of sleeping a guessed time. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${options.what ?? 'condition'}${lastError === undefined ? '' : `: ${String(lastError)}`}`);
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
  }
}

/**
 * Waits until the current UTC minute has at least `marginSeconds` left, for a
 * test whose steps must fall in one burst window (a per-minute limit of 1,
 * then the refusal): a minute that ends between them is not the code's fault.
 */
export function awayFromMinuteEnd(marginSeconds = 10): Promise<true> {
  return waitFor(() => new Date().getUTCSeconds() < 60 - marginSeconds, {
    timeoutMs: (marginSeconds + 5) * 1000,
    what: `a minute with ${marginSeconds} s left`,
  });
}
