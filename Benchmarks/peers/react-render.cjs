// Renders the SuspenseBench tree with React 18's server renderer (Debian's node-react-dom):
//   static:     <ul> with N <li>, renderToString
//   suspending: every item its own component suspending on its own key (a promise that resolves
//               at once), inside one <Suspense>, rendered with renderToPipeableStream to the end
//               (onAllReady), since renderToString shows the fallback for suspended content.
//   yielding:   YIELDING items, each suspending on its own key with a promise that resolves on the
//               next turn of the event loop (setImmediate), one <Suspense>, to the end.
//   table:      the eknkc/ssr-benchmark page: one <Suspense> around a table of TABLE_ROWS rows ×
//               2 UUIDs that waits once (setImmediate), rendered to the end (onAllReady); and
//   streamed-table: the same streamed from its shell (onShellReady).
// Prints one line per workload: name, median ms over RUNS runs (after one warm-up), output bytes.
'use strict';
const React = require('react');
const { renderToString, renderToPipeableStream } = require('react-dom/server');
const { Writable } = require('stream');

const N = parseInt(process.argv[2] || '100000', 10);
const RUNS = parseInt(process.argv[3] || '7', 10);
const YIELDING = parseInt(process.argv[4] || '10000', 10);
const TABLE_ROWS = parseInt(process.argv[5] || '1000', 10);
const h = React.createElement;
const itemText = (i) => `item ${i}: <b>&"quoted"</b>`;

function StaticList() {
  const items = new Array(N);
  for (let i = 0; i < N; i++) items[i] = h('li', { key: i }, itemText(i));
  return h('ul', null, items);
}

let cache = new Map();
function SuspendingItem({ index }) {
  const key = `item/${index}`;
  const entry = cache.get(key);
  if (entry === undefined) {
    const promise = Promise.resolve().then(() => { cache.set(key, { value: itemText(index) }); });
    cache.set(key, { promise });
    throw promise;
  }
  if (entry.promise) throw entry.promise;
  return h('li', null, entry.value);
}

function SuspendingList() {
  const items = new Array(N);
  for (let i = 0; i < N; i++) items[i] = h(SuspendingItem, { key: i, index: i });
  return h(React.Suspense, { fallback: 'Loading…' }, h('ul', null, items));
}

function YieldingItem({ index }) {
  const key = `yield/${index}`;
  const entry = cache.get(key);
  if (entry === undefined) {
    const promise = new Promise((resolve) => setImmediate(resolve)).then(() => {
      cache.set(key, { value: itemText(index) });
    });
    cache.set(key, { promise });
    throw promise;
  }
  if (entry.promise) throw entry.promise;
  return h('li', null, entry.value);
}

function YieldingList() {
  const items = new Array(YIELDING);
  for (let i = 0; i < YIELDING; i++) items[i] = h(YieldingItem, { key: i, index: i });
  return h(React.Suspense, { fallback: 'Loading…' }, h('ul', null, items));
}

// The page's data, made once, as the original does (crypto.randomUUID, two per row).
const tableData = Array.from({ length: TABLE_ROWS }, () => ({
  id: require('crypto').randomUUID(),
  name: require('crypto').randomUUID(),
}));
let tablePromise = null;
function Table() {
  if (tablePromise === null) {
    tablePromise = new Promise((resolve) => setImmediate(resolve)).then(() => { tablePromise.done = true; });
  }
  if (!tablePromise.done) throw tablePromise;
  return h('table', null, h('tbody', null, tableData.map((entry) =>
    h('tr', { key: entry.id }, h('td', null, entry.id), h('td', null, entry.name)))));
}
const TablePage = () => h(React.Suspense, null, h(Table));

function renderStream(element, whenReady = 'onAllReady') {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) { chunks.push(chunk); callback(); },
      final(callback) { resolve(Buffer.concat(chunks).toString('utf8')); callback(); },
    });
    const { pipe } = renderToPipeableStream(element, {
      [whenReady]() { pipe(sink); },
      onError: reject,
    });
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function measure(name, run) {
  const times = [];
  let output = '';
  for (let round = 0; round <= RUNS; round++) {
    const start = process.hrtime.bigint();
    output = await run();
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (round > 0) times.push(elapsed);
  }
  console.log(`${name} ${median(times).toFixed(1)} ${Buffer.byteLength(output)}`);
}

(async () => {
  await measure('static', async () => renderToString(h(StaticList)));
  await measure('suspending', async () => {
    cache = new Map();
    return renderStream(h(SuspendingList));
  });
  await measure('yielding', async () => {
    cache = new Map();
    return renderStream(h(YieldingList));
  });
  await measure('table', async () => {
    tablePromise = null;
    return renderStream(h(TablePage));
  });
  await measure('streamed-table', async () => {
    tablePromise = null;
    return renderStream(h(TablePage), 'onShellReady');
  });
})().catch((error) => { console.error(error); process.exit(1); });
