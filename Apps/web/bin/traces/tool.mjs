// The `deck-gestures` command line as a function from arguments to output:
// a port of Modules/DeckGestureTraces/TraceTool.swift (same words, same exit
// codes: 0 all good, 1 a trace failed or could not be read, 2 a usage mistake).
import fs from 'node:fs';
import path from 'node:path';
import { jsonText } from './json.mjs';
import { TraceError } from './trace-object.mjs';
import { loadTrace, replayTrace } from './trace.mjs';
import { mismatch } from './matcher.mjs';

/** The help text. */
export const usage = `usage: deck-gestures replay TRACE.json…
       deck-gestures check DIR|TRACE.json…

replay  runs each trace and prints its callbacks as JSON lines, one
        trace after the other (nothing but callbacks is printed)
check   compares each trace's callbacks with its "expect": prints one
        line per failing trace, then "N passed, N failed"; exits 1 when
        any trace failed or could not be read. A folder means every
        .json file in it and in its subfolders.

Trace files are described in GESTURES.md §3 and docs/gestures.md.
`;

/**
 * Runs the tool with `args` (without the program name).
 * @param {string[]} args @returns {{output:string, errors:string, status:number}}
 */
export function run(args) {
  const result = (output = '', errors = '', status = 0) => ({ output, errors, status });
  if (args.length === 0) return result('', 'deck-gestures: say what to do: replay or check (see deck-gestures --help)\n', 2);
  const [command, ...operands] = args;
  switch (command) {
    case '-h': case '--help': case 'help':
      return result(usage);
    case 'replay': case 'check': {
      if (operands.some((o) => o === '-h' || o === '--help')) return result(usage);
      const option = operands.find((o) => o.startsWith('-') && [...o].length > 1);
      if (option !== undefined) return result('', `deck-gestures: ${command} takes no option '${option}' (see deck-gestures --help)\n`, 2);
      if (operands.length === 0) {
        const what = command === 'replay' ? 'trace files' : 'trace files or folders';
        return result('', `deck-gestures: ${command} needs ${what} (see deck-gestures --help)\n`, 2);
      }
      return command === 'replay' ? replay(operands) : check(operands);
    }
    default:
      return result('', `deck-gestures: unknown command '${command}'; use replay or check (see deck-gestures --help)\n`, 2);
  }
}

function replay(files) {
  let output = '';
  let errors = '';
  let status = 0;
  for (const file of files) {
    try {
      // Callbacks only, even for several traces (GESTURES.md §3).
      const trace = loadTrace(file);
      for (const line of replayTrace(trace)) output += `${jsonText(line)}\n`;
    } catch (error) {
      if (!(error instanceof TraceError)) throw error;
      errors += `deck-gestures: ${error.description}\n`;
      status = 1;
    }
  }
  return { output, errors, status };
}

function check(operands) {
  let output = '';
  let passed = 0;
  let failed = 0;
  for (const item of collect(operands)) {
    const reason = item.error ?? checkFile(item.file);
    if (reason === null) {
      passed += 1;
    } else {
      output += `FAIL ${reason}\n`;
      failed += 1;
    }
  }
  output += `${passed} passed, ${failed} failed\n`;
  return { output, errors: '', status: failed === 0 ? 0 : 1 };
}

/** Null when the trace passes, else the line that says why not. */
export function checkFile(file) {
  try {
    const trace = loadTrace(file);
    if (trace.expect === null) return `${file}: ${trace.name}: the trace has no "expect" to check against`;
    const reason = mismatch(trace.expect, replayTrace(trace));
    return reason === null ? null : `${file}: ${trace.name}: ${reason}`;
  } catch (error) {
    if (!(error instanceof TraceError)) throw error;
    return error.description;
  }
}

/**
 * The trace files named, folders expanded (sorted, recursively) as
 * FileManager's enumerator lists them: hidden files too, folders named
 * *.json too, symbolic links listed but not followed (a link given as the
 * folder itself lists nothing). A missing path or a folder without traces is
 * a failure, never a pass.
 */
function collect(operands) {
  const out = [];
  for (const operand of operands) {
    let stat;
    try {
      stat = fs.statSync(operand);
    } catch {
      out.push({ error: new TraceError(operand, 'no such file or folder').description });
      continue;
    }
    if (!stat.isDirectory()) {
      out.push({ file: operand });
      continue;
    }
    let files;
    try {
      files = fs.lstatSync(operand).isSymbolicLink() ? [] : walk(operand, '');
    } catch {
      out.push({ error: new TraceError(operand, 'the folder cannot be read').description });
      continue;
    }
    files = files.filter((f) => f.endsWith('.json')).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (files.length === 0) {
      out.push({ error: new TraceError(operand, 'no trace files (*.json) in this folder').description });
      continue;
    }
    const base = folderPath(operand);
    for (const file of files) out.push({ file: `${base}${file}` });
  }
  return out;
}

function walk(root, relative) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
    out.push(name);
    if (entry.isDirectory()) out.push(...walk(root, name));
  }
  return out;
}

/**
 * The folder as `URL(fileURLWithPath:).appendingPathComponent` writes it, with
 * a slash to append to: an absolute operand as given, a relative one resolved
 * against the working folder with its `.` and `..` segments removed (RFC 3986).
 */
function folderPath(operand) {
  const withSlash = (text) => (text.endsWith('/') ? text : `${text}/`);
  if (operand.startsWith('/')) return withSlash(operand);
  const segments = [];
  const parts = `${process.cwd()}/${operand}`.split('/').slice(1);
  parts.forEach((segment, i) => {
    const last = i === parts.length - 1;
    if (segment === '.') { if (last) segments.push(''); return; }
    if (segment === '..') { segments.pop(); if (last) segments.push(''); return; }
    segments.push(segment);
  });
  return withSlash(`/${segments.join('/')}`);
}
