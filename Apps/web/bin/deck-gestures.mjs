#!/usr/bin/env node
// deck-gestures: replays and checks gesture and deck traces (GESTURES.md §3,
// WEB.md §8) with the web deck's engine, exactly as the Swift tool of the
// same name does with DeckGestures. The logic lives in traces/tool.mjs.
import { run } from './traces/tool.mjs';

const result = run(process.argv.slice(2));
process.stdout.write(result.output);
process.stderr.write(result.errors);
process.exitCode = result.status;
