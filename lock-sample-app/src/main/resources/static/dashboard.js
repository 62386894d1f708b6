// The dashboard: instance cards from GET cluster (stock, and lock wait and hold times from each instance's
// Actuator, read by the serving instance so the page talks to one origin only), races with POST race?mode=, and the
// comparison table and the chart of the stock over time from the races this instance ran (GET race/results, and
// GET race/progress while one runs), whoever started them: these buttons, the demo launcher or curl.
// Plain browser JavaScript, no build step.
'use strict';

const MODES = [
  { code: 'N', label: 'No lock', color: '#d33' },
  { code: 'Y', label: 'Locked', color: '#2a7ab0' },
  { code: 'F', label: 'Fenced', color: '#393' },
];
const RACING_REFRESH_MS = 250;
const IDLE_REFRESH_MS = 2000;

const series = {};          // mode code -> [{t: ms since the buyers were released, amount}]
let racingHere = false;     // a race started by this page's buttons is running
let racingElsewhere = false; // GET race/progress reports a race started elsewhere
let elsewhereLabel = null;   // that race's mode, to show its verdict when it is done

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  Object.entries(attributes || {}).forEach(([name, value]) => node.setAttribute(name, value));
  children.forEach((child) => node.append(child));
  return node;
}

async function fetchJson(url, options) {
  const response = await fetch(url, options);
  const body = await response.text();
  if (!response.ok) {
    throw new Error(`HTTP ${response.status}: ${body}`);
  }
  return JSON.parse(body);
}

function renderInstances(views) {
  const container = document.getElementById('instances');
  container.replaceChildren(...views.map((view) => {
    const title = (view.state ? view.state.instance : 'instance') + (view.self ? ' (this one)' : '');
    const card = el('div', { class: 'instance' + (view.up ? '' : ' down'), 'data-url': view.url },
      el('h3', {}, title), el('div', { class: 'muted' }, view.url));
    if (view.up) {
      card.append(el('dl', {},
        el('dt', {}, 'Stock'), el('dd', { class: 'amount' }, String(view.state.amount)),
        el('dt', {}, 'Purchase records'), el('dd', { class: 'purchases' }, String(view.state.purchases)),
        el('dt', {}, 'Sold by this instance'), el('dd', { class: 'bought-here' }, String(view.state.boughtHere))));
      card.append(renderLockStats(view));
    } else {
      card.append(el('p', {}, 'Not answering: ' + view.error));
    }
    return card;
  }));
}

function millis(value) {
  return value < 10 ? `${value.toFixed(2)} ms` : `${Math.round(value)} ms`;
}

// One timer as the instance's /actuator/metrics reported it; null until its first recording (HTTP 404 there).
function timingCells(kind, timing) {
  if (!timing) {
    return [el('dd', { class: `${kind}-mean muted` }, 'no data yet'), el('dd', { class: `${kind}-max muted` }, '–')];
  }
  return [el('dd', { class: `${kind}-mean` }, `${millis(timing.meanMillis)} (${timing.count}×)`),
    el('dd', { class: `${kind}-max` }, millis(timing.maxMillis))];
}

// Lock "stock" on this instance since it started: wait (acquisitions that got it) and hold, from
// distlock.acquire{outcome=acquired} and distlock.hold; MAX is Micrometer's recent maximum. Held now from /actuator/locks.
function renderLockStats(view) {
  const title = el('h4', {}, 'Lock "stock" (Actuator)');
  if (!view.locks) {
    return el('div', { class: 'locks' }, title, el('p', { class: 'muted' }, 'Not readable: ' + view.locksError));
  }
  const [waitMean, waitMax] = timingCells('wait', view.locks.waitTime);
  const [holdMean, holdMax] = timingCells('hold', view.locks.holdTime);
  const held = view.locks.held.length === 0 ? 'none'
    : view.locks.held.map((lock) => `${lock.lockId} (token ${lock.fencingToken}, lease ${lock.leaseRemainingMillis} ms)`)
      .join(', ');
  return el('div', { class: 'locks' }, title, el('dl', {},
    el('dt', {}, 'Wait, mean'), waitMean,
    el('dt', {}, 'Wait, max'), waitMax,
    el('dt', {}, 'Hold, mean'), holdMean,
    el('dt', {}, 'Hold, max'), holdMax,
    el('dt', {}, 'Held now'), el('dd', { class: 'held' }, held)));
}

async function refreshCluster() {
  const views = await fetchJson('cluster');
  renderInstances(views);
  const first = views.find((view) => view.up);
  return first ? first.state : null;
}

function codeOf(label) {
  return MODES.find((mode) => mode.label === label).code;
}

function showSeries(label, stockOverTime) {
  series[codeOf(label)] = stockOverTime.map((sample) => ({ t: sample.millis, amount: sample.amount }));
}

function showResult(result) {
  const code = codeOf(result.label);
  showSeries(result.label, result.stockOverTime);
  const set = (id, text, good) => {
    const cell = document.getElementById(`${id}-${code}`);
    cell.textContent = text;
    cell.className = good ? 'good' : 'bad';
  };
  set('surplus', String(result.surplus), result.exact);
  set('records', String(result.records), result.exact);
  set('failed', String(result.failed), result.failed === 0);
  set('verdict', result.verdict, result.exact);
}

function drawChart() {
  const canvas = document.getElementById('chart');
  const context = canvas.getContext('2d');
  const pad = 32;
  const width = canvas.width - 2 * pad;
  const height = canvas.height - 2 * pad;
  const points = Object.values(series).flat();
  const maxT = Math.max(1000, ...points.map((p) => p.t));
  const maxAmount = Math.max(100, ...points.map((p) => p.amount));
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.strokeStyle = '#999';
  context.fillStyle = '#666';
  context.font = '11px sans-serif';
  context.beginPath();
  context.moveTo(pad, pad);
  context.lineTo(pad, pad + height);
  context.lineTo(pad + width, pad + height);
  context.stroke();
  context.fillText(String(maxAmount), 4, pad + 4);
  context.fillText('0', 16, pad + height);
  context.fillText(`${(maxT / 1000).toFixed(1)} s`, pad + width - 30, pad + height + 16);
  MODES.forEach((mode) => {
    const data = series[mode.code];
    if (!data || data.length === 0) {
      return;
    }
    context.strokeStyle = mode.color;
    context.lineWidth = 2;
    context.beginPath();
    data.forEach((p, i) => {
      const x = pad + (p.t / maxT) * width;
      const y = pad + height - (p.amount / maxAmount) * height;
      if (i === 0) {
        context.moveTo(x, y);
      } else {
        context.lineTo(x, y);
      }
    });
    context.stroke();
  });
  document.getElementById('legend').replaceChildren(...MODES.map((mode) =>
    el('span', { 'data-mode': mode.code, 'data-samples': String((series[mode.code] || []).length) },
      el('i', { style: `background:${mode.color}` }), mode.label)));
}

// GET race/progress answers 204 when this instance runs no race.
async function fetchProgress() {
  const response = await fetch('race/progress');
  if (response.status === 204) {
    return null;
  }
  if (!response.ok) {
    throw new Error(`HTTP ${response.status}`);
  }
  return response.json();
}

// The finished races' table cells and curves, and the running race's curve so far.
async function refreshRaces() {
  const results = await fetchJson('race/results');
  results.forEach(showResult);
  const progress = await fetchProgress();
  racingElsewhere = progress !== null && !racingHere;
  const status = document.getElementById('status');
  if (progress) {
    showSeries(progress.label, progress.stockOverTime);
    if (racingElsewhere) {
      elsewhereLabel = progress.label;
      status.textContent = `${progress.label}: ${progress.answered}/${progress.buyers} buyers answered`
        + ' (started elsewhere)…';
    }
  } else if (elsewhereLabel !== null) {
    const finished = results.find((result) => result.label === elsewhereLabel);
    status.textContent = finished ? `${finished.label}: ${finished.verdict}` : 'Idle.';
    elsewhereLabel = null;
  }
  document.querySelectorAll('.buttons button').forEach((button) => { button.disabled = racingHere || racingElsewhere; });
  drawChart();
}

async function refresh() {
  try {
    await Promise.all([refreshRaces(), refreshCluster()]);
  } catch (error) {
    // A missed refresh only leaves the page as it was until the next one.
  }
  setTimeout(refresh, (racingHere || racingElsewhere) ? RACING_REFRESH_MS : IDLE_REFRESH_MS);
}

// The instance samples the stock while its race runs; the page draws what it reports (refresh above).
async function runRace(mode) {
  racingHere = true;
  document.querySelectorAll('.buttons button').forEach((button) => { button.disabled = true; });
  const status = document.getElementById('status');
  status.textContent = `${mode.label}: 200 buyers racing…`;
  series[mode.code] = [];
  drawChart();
  try {
    const result = await fetchJson(`race?mode=${mode.code}`, { method: 'POST' });
    showResult(result);
    drawChart();
    status.textContent = `${mode.label}: ${result.verdict}`;
  } catch (error) {
    status.textContent = `${mode.label} failed: ${error.message}`;
  } finally {
    racingHere = false;
    document.querySelectorAll('.buttons button').forEach((button) => { button.disabled = racingElsewhere; });
  }
}

async function start() {
  MODES.forEach((mode) => {
    document.getElementById(`run-${mode.code}`).addEventListener('click', () => runRace(mode));
  });
  drawChart();
  try {
    await fetchJson('race/results');
  } catch (error) {
    document.getElementById('status').textContent = 'Could not reach the instance: ' + error.message;
  }
  refresh();
}

start();
