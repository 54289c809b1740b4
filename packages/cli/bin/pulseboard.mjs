#!/usr/bin/env node
// Inside the workspace the bin runs the TypeScript sources through tsx (no build
// step); the published package's bin is the compiled dist/main.js (publishConfig.bin).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
