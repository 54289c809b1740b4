import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (deploy/test.sh installs it): never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where tests leave what a person may want to look at (screenshots); ignored by git, kept by CI. */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium (deploy/test.sh does) or set CHROMIUM_PATH`);
  mkdirSync(ARTIFACTS, { recursive: true });
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}
