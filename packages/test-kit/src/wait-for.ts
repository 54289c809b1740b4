/** Polls until `check` returns a value other than undefined/false, instead of sleeping a guessed time. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, options: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<T> {
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
