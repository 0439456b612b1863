#!/usr/bin/env node
'use strict';
// A conformance testee (docs/TESTEE.md: one JSON request per stdin line, one response
// per stdout line) whose answers come from headless Chromium: the package's browser
// bundle (bindings/node/dist/fbe.browser.mjs over wasm/fbe.wasm) in tests/browser/index.html,
// served from a loopback HTTP server (127.0.0.1, a free port) over the repository.
// So the shared runner checks the WebAssembly build in a browser exactly as it checks
// every other testee:
//   python3 tests/conformance/runner --testee "browser=node tests/browser/bridge.js" ...
// A load's include directories and files are copied into the page's in-memory file
// system (fbe.files) at the same paths first. Chromium: /usr/bin/chromium (Debian's
// package; FBE_CHROMIUM=<path> for another), driven by playwright-core, which downloads
// nothing. Exits non-zero when the page does not load.
const fs = require('fs');
const http = require('http');
const path = require('path');
const readline = require('readline');

const repo = path.resolve(__dirname, '..', '..');
const pkg = path.join(repo, 'bindings', 'node');
const { chromium } = require(require.resolve('playwright-core', { paths: [pkg] }));

const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };

function serve() {
  // only the page, the testee and the package's built files
  const allowed = [path.join(repo, 'tests', 'browser'), path.join(pkg, 'dist'), path.join(pkg, 'wasm')];
  const server = http.createServer((req, res) => {
    const file = path.join(repo, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!allowed.some((dir) => file.startsWith(dir + path.sep)) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// The schema files a load names (its include directories' .fbe files, its files), as
// [path, text] pairs for the page's file system.
function filesOf(req) {
  const out = [];
  for (const dir of req.include || []) {
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir)) {
      if (f.endsWith('.fbe')) out.push([path.resolve(dir, f), fs.readFileSync(path.join(dir, f), 'utf8')]);
    }
  }
  for (const f of req.files || []) if (fs.existsSync(f)) out.push([path.resolve(f), fs.readFileSync(f, 'utf8')]);
  return out;
}

async function main() {
  const server = await serve();
  const browser = await chromium.launch({
    executablePath: process.env.FBE_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  const url = `http://127.0.0.1:${server.address().port}/tests/browser/index.html`;
  await page.goto(url);
  try {
    await page.waitForFunction(() => window.fbeTestee !== undefined, null, { timeout: 30000 });
  } catch (e) {
    console.error(`bridge: the page did not load (${url}): ${problems.join('; ') || e.message}`);
    process.exit(1);
  }
  const version = await page.evaluate(() => navigator.userAgent);
  process.stderr.write(`bridge: ${version}\n`);

  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  let queue = Promise.resolve();
  const close = async () => {
    await browser.close();
    server.close();
  };
  rl.on('line', (line) => {
    if (!line.trim()) return;
    queue = queue.then(async () => {
      const req = JSON.parse(line);
      if (req.op === 'quit') { rl.close(); return; }
      if (req.op === 'load') {
        await page.evaluate((files) => {
          const { files: vfs } = window.fbeTestee.fbe;
          for (const [p, text] of files) {
            vfs.mkdirSync(p.slice(0, p.lastIndexOf('/')) || '/', { recursive: true });
            vfs.writeFileSync(p, text);
          }
        }, filesOf(req));
      }
      const response = await page.evaluate((l) => window.fbeTestee.handle(l), line);
      process.stdout.write(`${response}\n`);
    });
  });
  rl.on('close', () => { queue = queue.then(close); });
}

main().catch((e) => {
  console.error(`bridge: ${e && e.stack}`);
  process.exit(1);
});
