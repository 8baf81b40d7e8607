// psparse: syntax check of PowerShell files with the tree-sitter-powershell
// grammar, run by the Go tests of package codegen/powershell.
//
//   node --liftoff-only psparse.mjs FILE...
//     Parses each file (a leading UTF-8 BOM is skipped, as PowerShell does)
//     and prints "FILE:LINE:COL: syntax error near "..."" for every ERROR
//     or MISSING node. Exit status 1 if any file has one, 2 on a usage or
//     setup error, 0 otherwise.
//
//   node --liftoff-only psparse.mjs --values FILE
//     Also checks FILE, then prints one JSON line per top-level statement
//     of the form "$name = <expression>": {"type": ..., "text": ...} of the
//     expression's outermost node that is not a mere wrapper (a node with
//     exactly one named child spanning the same text), so a test can see
//     that a quoted literal is one string token.
//
//   node --liftoff-only psparse.mjs --serve
//     Reads lines from stdin, each a JSON string holding PowerShell source,
//     and answers each with one JSON line {"errors": [...], "values": [...]}
//     (errors as "LINE:COL: ...", values as with --values). Tests keep one
//     process for many checks.
//
// --liftoff-only keeps V8 from tiering up the wasm module, which otherwise
// costs seconds of CPU per run (docs/runtime.md §5).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser, Language } from 'web-tree-sitter';

const here = dirname(fileURLToPath(import.meta.url));
let args = process.argv.slice(2);
const values = args[0] === '--values';
const serve = args[0] === '--serve';
if (values || serve) args = args.slice(1);
if (serve ? args.length !== 0 : args.length === 0 || (values && args.length !== 1)) {
  process.stderr.write('usage: psparse.mjs [--values] FILE... | --serve\n');
  process.exit(2);
}

await Parser.init();
const lang = await Language.load(join(here, 'node_modules/tree-sitter-powershell/tree-sitter-powershell.wasm'));
const parser = new Parser();
parser.setLanguage(lang);

if (serve) {
  const { createInterface } = await import('node:readline');
  for await (const line of createInterface({ input: process.stdin })) {
    const tree = parser.parse(JSON.parse(line));
    const errors = [];
    const vals = [];
    if (tree.rootNode.hasError) report('', tree.rootNode, (s) => errors.push(s));
    printValues(tree.rootNode, (v) => vals.push(v));
    tree.delete();
    process.stdout.write(JSON.stringify({ errors, values: vals }) + '\n');
  }
  process.exit(0);
}

let bad = false;
for (const file of args) {
  let text = readFileSync(file, 'utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const tree = parser.parse(text);
  if (tree.rootNode.hasError) {
    bad = true;
    report(file + ':', tree.rootNode, (s) => process.stdout.write(s + '\n'));
  }
  if (values) printValues(tree.rootNode, (v) => process.stdout.write(JSON.stringify(v) + '\n'));
}
process.exit(bad ? 1 : 0);

function report(prefix, root, out) {
  const cursor = root.walk();
  let reported = 0;
  for (;;) {
    const n = cursor.currentNode;
    if (n.isError || n.isMissing) {
      const p = n.startPosition;
      const near = n.isMissing ? `missing ${n.type}` : n.text.slice(0, 40);
      out(`${prefix}${p.row + 1}:${p.column + 1}: syntax error near ${JSON.stringify(near)}`);
      if (++reported >= 20) return;
    }
    if (n.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return;
    }
  }
}

// printValues prints the right-hand side of every "$x = ..." statement.
function printValues(root, out) {
  const walk = (n) => {
    if (n.type === 'assignment_expression') {
      const rhs = n.namedChildren[n.namedChildren.length - 1];
      let v = rhs;
      while (v.namedChildCount === 1 && v.namedChildren[0].text === v.text) v = v.namedChildren[0];
      out({ type: v.type, text: v.text });
      return;
    }
    for (const c of n.namedChildren) walk(c);
  };
  walk(root);
}
