#!/usr/bin/env node
// The workspace's sources are TypeScript run through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
